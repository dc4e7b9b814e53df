// `npm run test:unit` (vitest.unit.config.ts) picks the unit tests by their name, `<name>.unit.test.ts`, never
// by what a file says; and in that run nothing can start a process, so a unit test that tries fails.
import { execFile, execFileSync, fork, spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { expect, test } from 'vitest';
import unitConfig, { UNIT_TESTS } from '../../vitest.unit.config.js';
import { forbidProcesses, NO_PROCESS } from '../support/no-process.js';

const TESTS = readdirSync('test', { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.test.ts')).map((file) => join('test', file));
const UNIT = TESTS.filter((file) => file.endsWith('.unit.test.ts'));

test('the unit run selects by name only and stubs every way to start a process', () => {
  expect(UNIT_TESTS).toBe('test/**/*.unit.test.ts');
  expect(unitConfig.test?.include).toEqual([UNIT_TESTS]);
  expect(unitConfig.test?.setupFiles).toEqual(['test/support/unit-no-process.ts']);
  for (const pure of ['test/events/events.unit.test.ts', 'test/lines/lines.unit.test.ts', 'test/ci/unit-config.unit.test.ts']) expect(UNIT).toContain(pure);
  // Their beforeAll starts the real claude, and the command monitor runs a shell.
  for (const spawning of ['test/monitor/golden.test.ts', 'test/monitor/command.test.ts']) {
    expect(TESTS).toContain(spawning);
    expect(UNIT).not.toContain(spawning);
  }
  for (const file of UNIT) expect(file).not.toMatch(/^test\/(e2e|install|clients|contract)\//);
});

test('with the stubs in place a child process or a worker thread throws, through a named import too', () => {
  const restore = forbidProcesses();
  try {
    const starts = [() => spawn('true'), () => spawnSync('true'), () => execFile('true'), () => execFileSync('true'), () => fork('-e'),
      () => new Worker('', { eval: true })];
    for (const start of starts) expect(start).toThrow(NO_PROCESS);
  } finally {
    restore();
  }
});
