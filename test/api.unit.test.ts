// The public API is the short list docs/library.md gives, name for name: a name added to lib/index.ts
// without its row (or a row without its name) fails here. The page's first example runs as written.
import { expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as api from '../lib/index.js';
import { tempDir } from './support/run.js';

const ROOT = join(import.meta.dirname, '..');
const PAGE = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');

test('lib/index.ts exports exactly the names of the table in docs/library.md', () => {
  const table = PAGE.slice(PAGE.indexOf('## The API'), PAGE.indexOf('## Examples'));
  const documented = [...table.matchAll(/^\| `([A-Za-z_]+)` \|/gm)].map((m) => m[1]!);
  expect(documented.length).toBeGreaterThan(10);
  expect(Object.keys(api).sort()).toEqual([...documented].sort());
});

test("the page's example writes a session that holds the event", () => {
  const root = tempDir();
  const options = { formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, agentName: 'my-tool', env: {},
    homedir: root, processCwd: root };
  const harnesses = api.openSessions(options, { path: root, fromInput: false }, (message) => { throw new Error(message); });
  const logger = new api.SessionLogger(harnesses, (message) => { throw new Error(message); });
  const parsed = api.normalizeEvent({ type: 'user', text: 'hello' }, new Date().toISOString());
  expect(parsed.ok && parsed.event).toBeTruthy();
  if (parsed.ok && parsed.event) logger.write(parsed.event, 'event 1');
  logger.finish();
  const records = readFileSync(harnesses[0]!.sessionFile, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
  expect(records.some((r) => r.type === 'user' && r.message?.content === 'hello')).toBe(true);
  expect(harnesses[0]!.resumeCommand).toContain(`claude --resume ${harnesses[0]!.sessionId}`);
});
