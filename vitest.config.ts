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
