// The largest request bodies the API reads (a leaf: the configuration checks its memory limits
// against them).

/** Any route's largest body: a send of 10 MiB. */
export const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** The largest body the public routes (sign-up, log-in, the emailed links) take. */
export const PUBLIC_BODY_BYTES = 16 * 1024;
