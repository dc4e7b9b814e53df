// Unit tests of the convert library: the manifest (union of run files, newest wins, torn lines, concurrent
// writers), discovery (order, what a walk takes), the progress line, and runConvert called as a library.
import { describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { discoverSources, Manifest, MANIFEST_DIR, ManifestWriter, runConvert, type ManifestEntry } from '../../lib/index.js';
import { formatBytes, formatDuration, ProgressLine } from '../../lib/convert/progress.js';
import { FIXTURES, tempDir } from '../support/run.js';

function entry(fields: Partial<ManifestEntry>): ManifestEntry {
  return {
    v: 1, source: '/logs/a.jsonl', size: 10, mtime_ms: 1, sha256: 'aa', format: 'claude-code-cli', session_id: 's1',
    session_file: '/root/projects/p/s1.jsonl', input_format: 'events', cwd: '/p', at: '2026-01-01T00:00:00.000Z', ...fields,
  };
}

describe('manifest', () => {
  test('reading takes the union of every run file, and the newest entry per source wins', async () => {
    const root = tempDir();
    const older = new ManifestWriter(root);
    const newer = new ManifestWriter(root);
    await newer.append([entry({ session_id: 's2', at: '2026-02-01T00:00:00.000Z' })]);
    await older.append([entry({ session_id: 's1', at: '2026-01-01T00:00:00.000Z' }), entry({ source: '/logs/b.jsonl', session_id: 'b1' })]);
    await older.close();
    await newer.close();
    const manifest = Manifest.read(root, () => {});
    expect(manifest.get('/logs/a.jsonl', 'claude-code-cli')?.session_id).toBe('s2');
    expect(manifest.get('/logs/b.jsonl', 'claude-code-cli')?.session_id).toBe('b1');
    expect(manifest.size).toBe(2);
  });

  test('two writers on one root write two files, neither touching the other', async () => {
    const root = tempDir();
    const a = new ManifestWriter(root);
    const b = new ManifestWriter(root);
    await Promise.all([a.append([entry({ source: '/a' })]), b.append([entry({ source: '/b' })]), a.append([entry({ source: '/a2' })])]);
    await a.close();
    await b.close();
    expect(a.runFile).not.toBe(b.runFile);
    expect(readFileSync(a.runFile!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).source)).toEqual(['/a', '/a2']);
    expect(readFileSync(b.runFile!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).source)).toEqual(['/b']);
    expect(statSync(a.runFile!).mode & 0o777).toBe(0o600);
  });

  test('appends made while a sync is under way keep their order and all land whole', async () => {
    const root = tempDir();
    const writer = new ManifestWriter(root);
    const sources = Array.from({ length: 50 }, (_, i) => `/s${i}`);
    await Promise.all(sources.map((source) => writer.append([entry({ source })])));
    await writer.close();
    expect(readFileSync(writer.runFile!, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l).source)).toEqual(sources);
  });

  test('a writer that appends nothing creates no file', async () => {
    const root = tempDir();
    const writer = new ManifestWriter(root);
    await writer.append([]);
    await writer.close();
    expect(writer.runFile).toBeUndefined();
    expect(() => readdirSync(join(root, MANIFEST_DIR))).toThrow();
  });

  test('a torn last line is ignored silently; a damaged line elsewhere is ignored with a warning', () => {
    const root = tempDir();
    mkdirSync(join(root, MANIFEST_DIR));
    const good = JSON.stringify(entry({}));
    writeFileSync(join(root, MANIFEST_DIR, 'run-1.ndjson'), `{"v":1,"sou\n${good}\n${good.slice(0, 20)}`);
    const warnings: string[] = [];
    const manifest = Manifest.read(root, (m) => warnings.push(m));
    expect(manifest.size).toBe(1);
    expect(warnings).toEqual([`${join(root, MANIFEST_DIR, 'run-1.ndjson')}:1: not a manifest entry; ignored`]);
  });

  test('symlinks and other names in the manifest directory are not read', () => {
    const root = tempDir();
    mkdirSync(join(root, MANIFEST_DIR));
    const elsewhere = join(tempDir(), 'x.ndjson');
    writeFileSync(elsewhere, `${JSON.stringify(entry({}))}\n`);
    symlinkSync(elsewhere, join(root, MANIFEST_DIR, 'run-link.ndjson'));
    writeFileSync(join(root, MANIFEST_DIR, 'notes.ndjson'), `${JSON.stringify(entry({}))}\n`);
    expect(Manifest.read(root, () => {}).size).toBe(0);
  });

  test('every session file any entry names is known, superseded ones too', () => {
    const manifest = new Manifest();
    manifest.add(entry({ session_file: '/old.jsonl', at: '2026-01-01T00:00:00.000Z' }));
    manifest.add(entry({ session_file: '/new.jsonl', at: '2026-01-02T00:00:00.000Z' }));
    expect([...manifest.sessionFiles].sort()).toEqual(['/new.jsonl', '/old.jsonl']);
  });
});

describe('discovery', () => {
  test('a directory is walked depth first in name order, taking .jsonl, .ndjson and .json files only', () => {
    const dir = tempDir();
    for (const rel of ['b/2.jsonl', 'b/1.ndjson', 'a.json', 'c.txt', 'B.jsonl', 'b/sub/x.JSONL']) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), '');
    }
    const found = discoverSources(['.'], dir).map((d) => (d.kind === 'source' ? d.source.path : d.error));
    expect(found).toEqual(['B.jsonl', 'a.json', 'b/1.ndjson', 'b/2.jsonl', 'b/sub/x.JSONL']);
  });

  test('the manifest directory and subagent .meta.json files are not inputs; sidecar transcripts are flagged', () => {
    const dir = tempDir();
    for (const rel of [`${MANIFEST_DIR}/run-1.ndjson`, 's/subagents/agent-1.jsonl', 's/subagents/agent-1.meta.json', 's.jsonl']) {
      mkdirSync(join(dir, rel, '..'), { recursive: true });
      writeFileSync(join(dir, rel), '');
    }
    const found = discoverSources([dir], '/').flatMap((d) => (d.kind === 'source' ? [[d.source.path, d.source.sidecar]] : []));
    expect(found).toEqual([[join(dir, 's/subagents/agent-1.jsonl'), true], [join(dir, 's.jsonl'), false]]);
  });

  test('a named file is taken whatever its name, and a missing one is an error in its place', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'log.txt'), '');
    const found = discoverSources(['log.txt', 'missing.jsonl'], dir);
    expect(found[0]).toMatchObject({ kind: 'source', source: { path: 'log.txt', real: join(dir, 'log.txt') } });
    expect(found[1]).toMatchObject({ kind: 'error', path: 'missing.jsonl', error: 'cannot be read: no such file' });
  });
});

describe('progress line', () => {
  test('bytes and durations are written as people read them', () => {
    expect([formatBytes(512), formatBytes(1500), formatBytes(25_000_000), formatBytes(1_200_000_000)]).toEqual(['512 B', '1.5 kB', '25 MB', '1.2 GB']);
    expect([formatDuration(42), formatDuration(185), formatDuration(3720)]).toEqual(['42s', '3m05s', '1h02m']);
  });

  test('the line shows files done, bytes, rate and the time left at that rate', () => {
    let now = 0;
    const out = new PassThrough();
    const line = new ProgressLine(out, { files: 4, bytes: 40_000_000 }, () => now);
    now = 2000;
    line.read(10_000_000);
    line.fileDone();
    expect(line.text()).toBe('asyncai-log: convert: 1/4 files, 10 MB/40 MB, 5.0 MB/s, ETA 6s');
  });

  test('clearing erases the drawn line so a diagnostic starts on a clean line', () => {
    const chunks: string[] = [];
    const out = new PassThrough();
    out.on('data', (c: Buffer) => chunks.push(c.toString()));
    const line = new ProgressLine(out, { files: 1, bytes: 1 }, () => 0);
    line.draw(true);
    line.clear();
    line.clear();
    expect(chunks.join('')).toBe(`\r\u001b[2K${line.text()}\r\u001b[2K`);
  });
});

describe('runConvert as a library', () => {
  test('converts inline and reports one line per input on the given stdout', async () => {
    const root = tempDir();
    const stdout = new PassThrough();
    const stderr = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    const summary = await runConvert({
      inputs: [join(FIXTURES, 'events', 'quickstart.ndjson'), join(FIXTURES, 'codex-rollout', 'parallel.jsonl')],
      from: 'auto', formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, agentName: 'asyncai-log',
      env: {}, homedir: tempDir(), processCwd: tempDir(),
    }, { stdout, stderr });
    expect(summary).toMatchObject({ code: 0, converted: 2, skipped: 0, failed: 0, aborted: false });
    expect(summary.manifestFiles).toHaveLength(1);
    const lines = Buffer.concat(chunks).toString().trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.map((l) => [l.status, l.input_format])).toEqual([['converted', 'events'], ['converted', 'codex-rollout']]);
  });

  test('an aborted run hands out no more files and reports the rest as interrupted', async () => {
    const controller = new AbortController();
    controller.abort();
    const stdout = new PassThrough();
    const chunks: Buffer[] = [];
    stdout.on('data', (c: Buffer) => chunks.push(c));
    const summary = await runConvert({
      inputs: [join(FIXTURES, 'events', 'quickstart.ndjson')],
      from: 'auto', formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': tempDir() }, agentName: 'asyncai-log',
      env: {}, homedir: tempDir(), processCwd: tempDir(),
    }, { stdout, stderr: new PassThrough(), signal: controller.signal });
    expect(summary).toMatchObject({ aborted: true, converted: 0, skipped: 1 });
    expect(JSON.parse(Buffer.concat(chunks).toString())).toMatchObject({ status: 'skipped', reason: 'interrupted' });
  });
});
