// The suites that run alone, after the main suite (vitest.faults.config.ts), and that the main suite
// (vitest.config.ts) therefore leaves out: one list, so that a suite is never in neither nor in both.
// The fault tests disturb shared services (restarting PostgreSQL) or measure a real server's latency
// that other tests' load would disturb; the timing suites' linear-time checks
// (test/helpers/linear-time.ts) compare costs per byte that a loaded machine bends (V8's collector and
// large-object allocations cost more when the other core is busy too).
export const SERIAL_LANE = [
  'test/faults/**/*.test.ts',
  'test/linear-time.test.ts',
  'test/inbound-linear-time.test.ts',
  'test/hostile-peers.test.ts',
  'test/unit/mta-sts-policy.test.ts',
];
