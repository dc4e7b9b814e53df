// A listing counts turns and finds the first user text from a reading that may leave out everything but user
// turns (a transcript reader's `userRecordsOnly`); a differential test holds it to the whole read it replaced:
// every agent's captured sessions, every Claude Code fixture transcript, and Claude Code trees with a rewound
// branch and a damaged line, described both ways, give the same index entries.
import { appendFileSync, copyFileSync, mkdirSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { everySession } from '../../lib/agents/find-sessions.js';
import { describeFile } from '../../lib/sessions/describe.js';
import { FIXTURES, tempDir } from '../support/run.js';
import { placeSessions } from './support.js';

/** Every session under `sessionDirs`, described from a whole read and from the user turns only. */
async function bothWays(sessionDirs: Record<string, string>) {
  const home = tempDir('asyncai-log-turns-home-');
  const found = await everySession({ sessionDirs, env: {}, homedir: home, processCwd: home, tmpdir: home }, Object.keys(sessionDirs));
  const whole = [];
  const users = [];
  for (const match of found.files) {
    whole.push(await describeFile(match, 'stamp', true));
    users.push(await describeFile(match, 'stamp'));
  }
  return { whole, users };
}

/** Every `<uuid>.jsonl` transcript under `dir` (not a subagent's). */
function transcripts(dir: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((rel) => /^[0-9a-f-]{36}\.jsonl$/.test(basename(rel)) && statSync(join(dir, rel)).isFile())
    .map((rel) => join(dir, rel));
}

describe('turns and the first user text without a whole read', () => {
  test('every agent\'s captured session gives the same index entry both ways', async () => {
    const { roots, placed } = placeSessions();
    const { whole, users } = await bothWays(roots);
    expect(whole).toHaveLength(placed.length);
    expect(whole.some((entry) => entry.turns > 0)).toBe(true);
    expect(users).toEqual(whole);
  });

  test('every Claude Code fixture transcript, rewound and damaged ones too, gives the same entry both ways', async () => {
    const root = tempDir('asyncai-log-turns-claude-');
    const project = join(root, 'projects', '-home-user-project');
    mkdirSync(project, { recursive: true });
    const sources = transcripts(join(FIXTURES, 'claude-code-cli'));
    sources.forEach((source, i) => {
      copyFileSync(source, join(project, basename(source)));
      const records = readFileSync(source, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as Record<string, unknown>);
      const firstUser = records.find((r) => r.type === 'user' && typeof r.uuid === 'string')!;
      // A rewind: a new prompt whose parent is the first prompt's parent, written last (the branch resumed).
      const rewound = join(project, `00000000-0000-4000-8000-${String(i).padStart(12, '0')}.jsonl`);
      copyFileSync(source, rewound);
      appendFileSync(rewound, `${JSON.stringify({ ...firstUser, uuid: `rewind-${i}`, message: { role: 'user', content: `asked again ${i}` } })}\n`);
      // A damaged line in the middle: the second pass goes by record, not by line.
      const damaged = join(project, `11111111-0000-4000-8000-${String(i).padStart(12, '0')}.jsonl`);
      const lines = readFileSync(source, 'utf8').split('\n');
      lines.splice(Math.floor(lines.length / 2), 0, '{"type":"user","message":');
      appendFileSync(damaged, lines.join('\n'));
    });
    const { whole, users } = await bothWays({ 'claude-code-cli': root });
    expect(whole).toHaveLength(3 * sources.length);
    expect(whole.every((entry) => entry.turns >= 1 && entry.unread === undefined)).toBe(true);
    expect(users).toEqual(whole);
  });
});
