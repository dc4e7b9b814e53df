// The convert manifest's folding of run files (what a long `--watch` does with the files of its passes): the
// union a reader takes is the same before and after, superseded sessions are still known as this tool's, and
// run files of other runs are left alone.
import { describe, expect, test } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { compactRunFiles, Manifest, ManifestWriter, type ManifestEntry } from '../../lib/convert/manifest.js';
import { tempDir } from '../support/run.js';
import { manifestFiles } from './support.js';

const entry = (source: string, size: number, session: string, second: number): ManifestEntry => ({
  v: 1, source, size, mtime_ms: 1, sha256: `h${size}`, format: 'claude-code-cli', session_id: session,
  session_file: `/sessions/${session}.jsonl`, input_format: 'events', cwd: '/p', at: `2026-12-01T10:00:${String(second).padStart(2, '0')}.000Z`,
});

async function runFile(root: string, entries: ManifestEntry[]): Promise<string> {
  const writer = new ManifestWriter(root);
  await writer.append(entries);
  await writer.close();
  return writer.runFile!;
}

const union = (root: string) => {
  const m = Manifest.read(root, (message) => { throw new Error(message); });
  return { a: m.get('/src/a', 'claude-code-cli'), b: m.get('/src/b', 'claude-code-cli'), c: m.get('/src/c', 'claude-code-cli'), files: [...m.sessionFiles].sort() };
};

describe('compactRunFiles', () => {
  test('folds run files into one that reads the same: newest entry per source, every session file still known; other runs untouched', async () => {
    const root = tempDir('asyncai-log-manifest-');
    const other = await runFile(root, [entry('/src/c', 5, 's9', 1)]);
    const own = [
      await runFile(root, [entry('/src/a', 10, 's1', 2), entry('/src/b', 10, 's2', 2)]),
      await runFile(root, [entry('/src/a', 20, 's1', 3)]),
      // b changed in place: a new session; s2 is superseded but still a session this tool wrote.
      await runFile(root, [entry('/src/a', 30, 's1', 4), entry('/src/b', 15, 's3', 4)]),
    ];
    const before = union(root);
    expect(before.a?.size).toBe(30);
    expect(before.files).toEqual(['/sessions/s1.jsonl', '/sessions/s2.jsonl', '/sessions/s3.jsonl', '/sessions/s9.jsonl']);

    const folded = await compactRunFiles(own, () => {});
    expect(folded).toBeDefined();
    expect(manifestFiles(root).sort()).toEqual([folded!, other].sort());
    for (const file of own) expect(existsSync(file)).toBe(false);
    expect(union(root)).toEqual(before);
    // a once (its last size), b's new session and the superseded one.
    const lines = readFileSync(folded!, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.source, l.session_id, l.size])).toEqual([['/src/b', 's2', 10], ['/src/a', 's1', 30], ['/src/b', 's3', 15]]);
    expect(readFileSync(other, 'utf8')).toBe(`${JSON.stringify(entry('/src/c', 5, 's9', 1))}\n`);
  });

  test('refuses files that are not run files of one manifest directory', async () => {
    const root = tempDir('asyncai-log-manifest-');
    await expect(compactRunFiles([join(root, 'notes.ndjson')], () => {})).rejects.toThrow(/run files of one manifest directory/);
  });
});
