// `npm run test:unit`: the pure unit tests, run from the TypeScript sources with no build and no real agent CLI
// (the global setup only gives the run its own HOME), in well under a minute. A test file is a unit test when
// it starts no process: it names none of the helpers that spawn the bin, a real CLI, a mock server or a worker
// thread, and nothing under dist/.
// `npm test` runs these and every other test.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

const SPAWNS = /runBin|spawnBin|\brun\(|execFile|spawn\(|spawnSync|Binary\(|resumeWith|runCodex|dist\/|mock-|convert\(tree|clients|liveBin|startMock|launch|\bpty\b|\bnpm\b|Worker\(|workerUrl|WORKER/;

const TESTS = readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts')).map((file) => join('test', file));

export const UNIT_TESTS = TESTS.filter((file) => !SPAWNS.test(readFileSync(file, 'utf8'))).sort();

export default defineConfig({
  test: {
    include: UNIT_TESTS,
    // HOME is the run's own empty directory here too (test/support/sandbox-home.ts).
    globalSetup: ['test/support/unit-setup.ts'],
    testTimeout: 60_000,
    pool: 'forks',
  },
});
