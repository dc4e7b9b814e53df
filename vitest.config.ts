import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/support/sequencer.js';
import { UNIT_TESTS } from './vitest.unit.config.js';

// Files left out of this run, comma-separated (.ci/run runs the pair matrix on its first Node only). vitest's own
// --exclude does not reach a project that sets its own exclude.
const LEFT_OUT = (process.env.ASYNCAI_LOG_TEST_EXCLUDE ?? '').split(',').filter((glob) => glob !== '');

export default defineConfig({
  test: {
    globalSetup: ['test/support/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: 'forks',
    // Two test files at once even on two cores (vitest's default there is one): a file spends much of its
    // time waiting for the processes it starts, and the second core idled. Measured on a 2-core machine:
    // 816 s with one, 645 and 675 s with two (1.8 cores busy), every test passing.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    // The longest files first, by the durations of the last run (test/support/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    // The unit tests share their processes (as in vitest.unit.config.ts: a process per file was half their CPU
    // time); every other file has a process of its own. The global setup runs once for both.
    projects: [
      { extends: true, test: { name: 'e2e', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, UNIT_TESTS, ...LEFT_OUT] } },
      { extends: true, test: { name: 'unit', include: [UNIT_TESTS], exclude: [...configDefaults.exclude, ...LEFT_OUT], isolate: false } },
    ],
  },
});
