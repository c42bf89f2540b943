// The suites that run alone, after the main suite (vitest.faults.config.ts), and that the main suite
// (vitest.config.ts) therefore leaves out: one list, so that a suite is never in neither nor in both.
// The fault tests disturb shared services (restarting PostgreSQL) or measure a real server's latency
// that other tests' load would disturb; the timing suites' linear-time checks
// (test/helpers/linear-time.ts) compare costs per byte that a loaded machine bends (V8's collector and
// large-object allocations cost more when the other core is busy too). The length pre-check compares
// the process's CPU (every thread of it) for two requests: in the main suite's shared processes that
// also counts the collector's work on what earlier files left in the heap (once 68 ms against a bound
// of 31 ms).
export const SERIAL_LANE = [
  'test/faults/**/*.test.ts',
  'test/linear-time.test.ts',
  'test/inbound-linear-time.test.ts',
  'test/hostile-peers.test.ts',
  'test/unit/mta-sts-policy.test.ts',
  'test/unit/length-precheck.test.ts',
];
