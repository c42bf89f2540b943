import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    // test/unit/: pure modules, no database, network or process (npm run test:unit runs them alone);
    // the rest of test/: integration against real parts. e2e/ drives headless Chromium against the
    // built program (npm test builds first).
    include: ['test/**/*.test.ts', 'e2e/**/*.test.ts'],
    // Run alone afterwards (vitest.faults.config.ts): they restart shared services, or (the linear-time
    // suites) compare timings that another file's load beside them bends.
    exclude: [
      'test/faults/**',
      // The same list as vitest.faults.config.ts includes.
      'test/linear-time.test.ts',
      'test/inbound-linear-time.test.ts',
      'test/hostile-peers.test.ts',
      'test/unit/mta-sts-policy.test.ts',
      'node_modules/**',
    ],
    // Every answer the tests get is checked against /openapi.json: a mismatch fails its test file,
    // and the run ends with the count (test/helpers/openapi-contract.ts).
    globalSetup: ['test/openapi-contract-setup.ts'],
    setupFiles: ['test/openapi-contract-file.ts'],
    // The cheapest password hashing for every txmail the tests start, in process or as a child
    // (test/helpers/services.ts says why).
    env: { TXMAIL_PASSWORD_COST: '1024' },
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two cores: more workers only make the process-spawning tests fight each other.
    maxWorkers: 2,
  },
});
