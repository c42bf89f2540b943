import { defineConfig } from 'vitest/config';
import { SERIAL_LANE } from './test/serial-lane.js';

export default defineConfig({
  test: {
    // test/unit/: pure modules, no database, network or process (npm run test:unit runs them alone);
    // the rest of test/: integration against real parts. e2e/ drives headless Chromium against the
    // built program (npm test builds first).
    include: ['test/**/*.test.ts', 'e2e/**/*.test.ts'],
    // Run alone afterwards (vitest.faults.config.ts; test/serial-lane.ts says why).
    exclude: [...SERIAL_LANE, 'node_modules/**'],
    // Every answer the tests get is checked against /openapi.json: a mismatch fails its test file,
    // and the run ends with the count (test/helpers/openapi-contract.ts). The PostgreSQL schemas the run
    // made and left are dropped at its end (test/postgres-schemas-setup.ts).
    globalSetup: ['test/openapi-contract-setup.ts', 'test/postgres-schemas-setup.ts'],
    setupFiles: ['test/openapi-contract-file.ts'],
    // The cheapest password hashing for every txmail the tests start, in process or as a child
    // (test/helpers/services.ts says why).
    env: {
      TXMAIL_PASSWORD_COST: '1024',
      // Each test process restores its next PostgreSQL schema while a test runs (test/helpers/databases.ts).
      TXMAIL_TEST_SCHEMA_AHEAD: '1',
    },
    testTimeout: 60_000,
    // A suite's set-up may start txmail, a browser and mail servers: on two cores under the whole
    // suite that once took past a minute (an e2e file's beforeAll).
    hookTimeout: 120_000,
    pool: 'forks',
    // Each worker process runs its files one after the other with the modules it has loaded: a fresh
    // process per file loaded fastify, Kysely and the service's few hundred modules again, 1-3 s of CPU
    // a file (a third of the suite's CPU, measured by running the same files both ways). So a test file
    // must leave nothing running (close what it starts, in afterAll or finally) and keep no state in
    // modules that the next file could see. The serial lane keeps a process per file (its timings).
    isolate: false,
    // Three on two cores: with two, a quarter of the machine sat idle through the run (tests waiting on
    // sockets, child processes and timers); with three, an eighth, and the suite took 268 s against
    // 288 s (docs/benchmarks.md, "The test suite"). More would make the process-spawning tests fight.
    maxWorkers: 3,
  },
});
