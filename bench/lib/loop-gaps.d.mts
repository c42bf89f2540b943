export declare function loopGaps(
  work: () => Promise<unknown>,
  intervalMs?: number,
): Promise<{ longestMs: number; p99Ms: number }>;
