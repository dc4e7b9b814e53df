// `npm run test:unit` (vitest.unit.config.ts) picks the tests that start no process, so it runs from the
// sources with no build and no real CLI: the pure tests are in it, the end-to-end ones are not.
import { expect, test } from 'vitest';
import { UNIT_TESTS } from '../../vitest.unit.config.js';

test('the unit subset holds the pure tests and none that spawn the bin or a real CLI', () => {
  for (const pure of ['test/events/events.test.ts', 'test/input/lines.test.ts', 'test/json/raw-json.test.ts', 'test/agents/claude-code-cli/records.test.ts',
    'test/agents/codex-cli/records.test.ts']) expect(UNIT_TESTS).toContain(pure);
  for (const file of UNIT_TESTS) expect(file).not.toMatch(/^test\/(e2e|install|reliability\/(faults|security|concurrency))\//);
  expect(UNIT_TESTS).not.toContain('test/input/formats.test.ts');
});
