// A route's own hooks of one stage as Fastify's route options hold them: none, one, or a list.

/** The hooks `own` holds, as a list to add to. */
export function hookList<H>(own: H | H[] | undefined): H[] {
  return own === undefined ? [] : Array.isArray(own) ? own : [own];
}
