// Run alone, after the main suite: fault tests that disturb shared services (restarting PostgreSQL),
// and the attacks against a real server, whose /healthz latency other tests' load would disturb.
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/faults/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 60_000,
    pool: 'forks',
    maxWorkers: 1,
  },
});
