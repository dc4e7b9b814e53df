import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at once even on two cores (vitest's default there is one): a file spends much of its
    // time waiting for the processes it starts, and the second core idled. Measured on a 2-core machine:
    // 816 s with one, 645 and 675 s with two (1.8 cores busy), every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
