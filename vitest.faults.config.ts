// Run alone, after the main suite: fault tests that disturb shared services (restarting PostgreSQL),
// the attacks against a real server, whose /healthz latency other tests' load would disturb, and the
// suites whose linear-time checks (test/helpers/linear-time.ts) failed under the main suite's load:
// their cost-per-byte comparisons a loaded machine bends (V8's collector and large-object
// allocations cost more when the other core is busy too).
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: [
      'test/faults/**/*.test.ts',
      // The timing suites: the same list as vitest.config.ts leaves out.
      'test/linear-time.test.ts',
      'test/inbound-linear-time.test.ts',
      'test/hostile-peers.test.ts',
      'test/unit/mta-sts-policy.test.ts',
    ],
    // The answers they get are checked against /openapi.json as the main suite's are.
    globalSetup: ['test/openapi-contract-setup.ts'],
    setupFiles: ['test/openapi-contract-file.ts'],
    // The cheapest password hashing for every txmail the tests start, in process or as a child
    // (test/helpers/services.ts says why).
    env: { TXMAIL_PASSWORD_COST: '1024' },
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
