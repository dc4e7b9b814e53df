// Incremental convert under concurrent runs and crashes: runs started together over a source that grew append
// its new turns once between them, and a run SIGKILLed mid-append (at seeded points, replayable with
// FUZZ_SEED) leaves bytes the next run cuts back before appending: the branch a resume follows holds each of
// the source's turns exactly once.
import { describe, expect, test } from 'vitest';
import { appendFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin, tempDir } from '../support/run.js';
import { spawnBin, transcriptState, withSeed } from '../reliability/support.js';

/** Generic events of `steps` turns from `from` on: a prompt and a reply each, every text unique. */
function turns(from: number, steps: number): string {
  const lines: string[] = [];
  for (let n = from; n < from + steps; n += 1) {
    const timestamp = new Date(Date.UTC(2026, 0, 1) + n * 1000).toISOString();
    lines.push(JSON.stringify({ type: 'user', text: `prompt ${n} ${'x'.repeat(60)}`, timestamp }));
    lines.push(JSON.stringify({ type: 'assistant', text: `reply ${n} ${'y'.repeat(60)}`, timestamp }));
  }
  return `${lines.join('\n')}\n`;
}

function convertArgs(source: string, root: string): string[] {
  return ['convert', source, '--session-dir', `claude-code-cli=${root}`, '--jobs', '1'];
}

async function convertOnce(source: string, root: string, cwd: string): Promise<any> {
  const r = await runBin(convertArgs(source, root), { cwd });
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim());
}

/**
 * The texts on the branch a resume follows (from the last record back through its parents), oldest first. A
 * session killed mid-write may end with a partial line: it is not a record (every complete line must be).
 */
function branchTexts(file: string): string[] {
  const { records: list, damaged } = transcriptState(file);
  expect(damaged).toEqual([]);
  const byUuid = new Map(list.filter((r) => r.uuid).map((r) => [r.uuid, r]));
  const texts: string[] = [];
  for (let r = list.filter((x) => x.uuid).at(-1); r; r = byUuid.get(r.parentUuid)) {
    const content = r.message?.content;
    const text = typeof content === 'string' ? content : content?.map((b: any) => b.text).join('');
    texts.push(`${r.type}:${text}`);
  }
  return texts.reverse();
}

/** A source converted from its first `base` turns, then grown to `base + grown`; the session of the first run. */
async function grownSource(base: number, grown: number): Promise<{ dir: string; source: string; root: string; session: string }> {
  const dir = tempDir('asyncai-log-torn-');
  const source = join(dir, 'events.ndjson');
  const root = join(dir, 'claude');
  writeFileSync(source, turns(0, base));
  const first = await convertOnce(source, root, dir);
  expect(first).toMatchObject({ status: 'converted', reason: 'new' });
  appendFileSync(source, turns(base, grown));
  return { dir, source, root, session: first.harnesses[0].session_file };
}

/** The whole source converted in one run: its session's branch is what the grown session must hold. */
async function expected(source: string, dir: string): Promise<{ branch: string[]; bytes: number }> {
  const file = (await convertOnce(source, join(dir, 'once'), dir)).harnesses[0].session_file;
  return { branch: branchTexts(file), bytes: statSync(file).size };
}

describe('incremental convert is safe under concurrent runs and crashes', () => {
  test('three runs started at once over a source that grew append its new turns once', async () => {
    const { dir, source, root, session } = await grownSource(200, 20_000);
    const runs = await Promise.all([0, 1, 2].map(() => runBin(convertArgs(source, root), { cwd: dir })));
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
    const reasons = runs.map((r) => JSON.parse(r.stdout.trim()).reason).sort();
    // One run appends; the others find it up to date (or, started after it, nothing moved).
    expect(reasons.filter((reason) => reason === 'grew')).toHaveLength(1);
    const branch = branchTexts(session);
    expect(new Set(branch).size).toBe(branch.length);
    expect(branch).toEqual((await expected(source, dir)).branch);
  }, 120_000);

  test('runs SIGKILLed at seeded points mid-append leave a session the next run completes with each turn once', async () => {
    await withSeed('convert SIGKILL mid-append', async (rng) => {
      const { dir, source, root, session } = await grownSource(100, 20_000);
      const want = await expected(source, dir);
      const base = statSync(session).size;
      for (let kill = 0; kill < 4; kill += 1) {
        // Killed once the session grew by a seeded share of what the append writes.
        const share = rng.next() * 0.9;
        const { child, exit } = spawnBin(convertArgs(source, root), { cwd: dir });
        const target = base + Math.floor(share * (want.bytes - base));
        const timer = setInterval(() => {
          if (statSync(session).size >= target) child.kill('SIGKILL');
        }, 1);
        const ended = await exit;
        clearInterval(timer);
        // Killed, or it finished first: either way no turn is doubled.
        expect(ended.hung).toBe(false);
        const branch = branchTexts(session);
        expect(new Set(branch).size, `kill ${kill} at ${share.toFixed(3)}: a turn is doubled`).toBe(branch.length);
      }
      const last = await convertOnce(source, root, dir);
      expect(['grew', 'unchanged']).toContain(last.reason);
      expect(branchTexts(session)).toEqual(want.branch);
    });
  }, 240_000);
});
