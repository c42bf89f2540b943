// Run alone, after the main suite: the suites test/serial-lane.ts lists, and says why.
import { defineConfig } from 'vitest/config';
import { SERIAL_LANE } from './test/serial-lane.js';

export default defineConfig({
  test: {
    include: SERIAL_LANE,
    // The answers they get are checked against /openapi.json as the main suite's are.
    globalSetup: ['test/openapi-contract-setup.ts', 'test/postgres-schemas-setup.ts'],
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
