// `npm run test:unit`: the unit tests, run from the TypeScript sources with no build and no real agent CLI, in
// well under a minute. A test file is a unit test by its name: `<name>.unit.test.ts`, beside the other tests
// of its folder. A unit test starts no process: the setup file stubs every way to start one (a child process,
// a worker thread) with one that throws, so a unit test that tries fails (test/support/no-process.ts).
// `npm test` runs these and every other test.
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

/** The files `npm run test:unit` runs, by name only. */
export const UNIT_TESTS = 'test/**/*.unit.test.ts';

export default defineConfig({
  test: {
    include: [UNIT_TESTS],
    // HOME is the run's own empty directory here too (test/support/sandbox-home.ts).
    globalSetup: ['test/support/unit-setup.ts'],
    setupFiles: ['test/support/unit-no-process.ts'],
    testTimeout: 60_000,
    pool: 'forks',
    // The files share their two processes rather than one each: starting a process per file was half the
    // run's CPU time.
    isolate: false,
    // Two test files at once even on two cores, as in vitest.config.ts: vitest's default there is one.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
