// End to end: `asyncai-log convert` over a temp tree of logs in every input format. Statuses, where the
// sessions go, the manifest, reruns (unchanged, changed, touched, --force), --dry-run, job counts, errors.
import { describe, expect, test } from 'vitest';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  appendFileSync, copyFileSync, existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { BIN, cleanEnv, FIXTURES } from '../support/run.js';
import {
  convert, filesUnder, lineOf, makeTree, manifestEntries, manifestFiles, records, report, statuses, TREE_FILES, writeHugeLog,
} from './support.js';

const F = TREE_FILES;

describe('convert: one run over a tree', () => {
  test('every input gets one line, in walk order, with its status and why', async () => {
    const tree = makeTree();
    writeHugeLog(join(tree.dir, 'tree', 'huge.ndjson'), 20);
    const r = await convert(tree, ['tree', '--jobs', '2']);
    expect(r.code).toBe(0);
    expect(statuses(r)).toEqual([
      [F.rolloutActions, 'converted', 'new'],
      [F.rolloutCorrupt, 'converted', 'new'],
      [F.rolloutParallel, 'converted', 'new'],
      [F.empty, 'skipped', 'empty'],
      [F.events, 'converted', 'new'],
      [F.execJson, 'converted', 'new'],
      ['tree/huge.ndjson', 'converted', 'new'],
      [F.junk, 'skipped', 'unrecognised'],
      [F.streamJson, 'converted', 'new'],
    ]);
  }, 120_000);

  test('a huge file is converted whole: every event of it is in its session', async () => {
    const tree = makeTree();
    const huge = join(tree.dir, 'tree', 'huge.ndjson');
    writeHugeLog(huge, 20);
    expect(statSync(huge).size).toBeGreaterThan(20_000_000);
    const r = await convert(tree, [join('tree', 'huge.ndjson')]);
    const line = lineOf(r, 'tree/huge.ndjson');
    const lines = readFileSync(huge, 'utf8').split('\n').filter((l) => l !== '').length;
    expect(line).toMatchObject({ status: 'converted', input_format: 'events', records: lines, events: lines, warnings: 0 });
    const recs = records(line.harnesses![0]!.session_file);
    expect(recs).toHaveLength(lines);
    expect(recs.at(-1).message.content[0].text).toBe(`Part ${lines / 4 - 1} read.`);
  }, 120_000);

  test('each session goes to the project directory its log names, else the current directory', async () => {
    const tree = makeTree();
    const r = await convert(tree, ['tree']);
    const rollout = lineOf(r, F.rolloutActions);
    expect(rollout.cwd).toBe('/home/user/project');
    expect(rollout.harnesses![0]!.session_file).toBe(join(tree.root, 'projects', '-home-user-project', `${rollout.harnesses![0]!.session_id}.jsonl`));
    const events = lineOf(r, F.events);
    expect(events.cwd).toBe(tree.dir);
    expect(records(events.harnesses![0]!.session_file)[0].cwd).toBe(tree.dir);
  });

  test('--cwd puts every session in the one project directory it names', async () => {
    const tree = makeTree();
    mkdirSync(join(tree.dir, 'proj'));
    const r = await convert(tree, ['tree', '--cwd', 'proj']);
    const cwds = report(r).filter((l) => l.status === 'converted').map((l) => l.cwd);
    expect(new Set(cwds)).toEqual(new Set([join(tree.dir, 'proj')]));
  });

  test('converted sessions keep the timestamps and models of their source', async () => {
    const tree = makeTree();
    const r = await convert(tree, ['tree']);
    const stream = records(lineOf(r, F.streamJson).harnesses![0]!.session_file);
    const source = readFileSync(join(tree.dir, F.streamJson), 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    const model = source.find((l) => l.type === 'assistant').message.model;
    expect(stream.filter((x) => x.type === 'assistant').map((x) => x.message.model)).toEqual(expect.arrayContaining([model]));
    const rollout = records(lineOf(r, F.rolloutActions).harnesses![0]!.session_file);
    const rolloutSource = readFileSync(join(tree.dir, F.rolloutActions), 'utf8');
    for (const record of rollout) expect(rolloutSource).toContain(`"timestamp":"${record.timestamp}"`);
  });

  test('every record of a converted session is marked as converted, and its token counts are zero', async () => {
    const tree = makeTree();
    const r = await convert(tree, [F.events]);
    const line = lineOf(r, F.events);
    const recs = records(line.harnesses![0]!.session_file);
    for (const record of recs) {
      expect(record.asyncaiLog).toEqual({ convertedFrom: 'events', source: join(tree.dir, F.events) });
    }
    const usages = recs.filter((x) => x.type === 'assistant').map((x) => x.message.usage);
    expect(usages.every((u) => u.input_tokens === 0 && u.output_tokens === 0)).toBe(true);
  });

  test('--keep-usage keeps the token counts of the source', async () => {
    const tree = makeTree();
    const r = await convert(tree, [F.events, '--keep-usage']);
    const recs = records(lineOf(r, F.events).harnesses![0]!.session_file);
    expect(recs.filter((x) => x.type === 'assistant').map((x) => x.message.usage)).toContainEqual({ input_tokens: 120, output_tokens: 24 });
  });

  test('sessions and the manifest file are created with mode 0600', async () => {
    const tree = makeTree();
    const r = await convert(tree, [F.events]);
    expect(statSync(lineOf(r, F.events).harnesses![0]!.session_file).mode & 0o777).toBe(0o600);
    expect(manifestFiles(tree.root)).toHaveLength(1);
    expect(statSync(manifestFiles(tree.root)[0]!).mode & 0o777).toBe(0o600);
  });

  test('a corrupt line inside a recognised log is reported with its place and the rest is converted', async () => {
    const tree = makeTree();
    const r = await convert(tree, [F.rolloutCorrupt]);
    const line = lineOf(r, F.rolloutCorrupt);
    expect(line.status).toBe('converted');
    // The torn last line is no warning: a writer may still be at it, and a later run takes it once it ends.
    expect(line.warnings).toBe(1);
    expect(r.stderr).toContain(`asyncai-log: ${F.rolloutCorrupt}:9: invalid JSON`);
    const texts = records(line.harnesses![0]!.session_file).flatMap((x) => (typeof x.message?.content === 'string' ? [x.message.content] : []));
    expect(texts).toContain('Show it.');
  });

  test('a binary file met in a walk (a .jsonl that holds no text) is skipped as any file that is no log, exit 0', async () => {
    const tree = makeTree();
    mkdirSync(join(tree.dir, 'walked'));
    writeFileSync(join(tree.dir, 'walked', 'blob.jsonl'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]));
    copyFileSync(join(tree.dir, F.events), join(tree.dir, 'walked', 'events.ndjson'));
    const r = await convert(tree, ['walked']);
    expect(r.code, r.stderr).toBe(0);
    expect(statuses(r)).toEqual([
      [join('walked', 'blob.jsonl'), 'skipped', 'unrecognised'],
      [join('walked', 'events.ndjson'), 'converted', 'new'],
    ]);
    expect(r.stderr).toBe('');
  });

  test('a text file that is no log is skipped; a binary one named fails with one line, exit 1', async () => {
    const tree = makeTree();
    writeFileSync(join(tree.dir, 'binary.jsonl'), Buffer.from([0, 159, 146, 150, 10, 1, 2, 3]));
    const r = await convert(tree, ['binary.jsonl', F.junk, F.events]);
    expect(r.code).toBe(1);
    expect(statuses(r)).toEqual([
      ['binary.jsonl', 'failed', undefined],
      [F.junk, 'skipped', 'unrecognised'],
      [F.events, 'converted', 'new'],
    ]);
    expect(r.stderr).toContain('asyncai-log: binary.jsonl: not a supported input: it looks like binary data\n');
  });

  test('a file that names no conversation leaves no session behind', async () => {
    const tree = makeTree();
    const meta = readFileSync(join(tree.dir, F.rolloutActions), 'utf8').split('\n')[0]!;
    writeFileSync(join(tree.dir, 'meta-only.jsonl'), `${meta}\n`);
    const r = await convert(tree, ['meta-only.jsonl']);
    expect(statuses(r)).toEqual([['meta-only.jsonl', 'skipped', 'no-conversation']]);
    expect(filesUnder(join(tree.root, 'projects'))).toEqual([]);
  });

  test('an input that does not exist is reported as failed, the others are converted, and the run exits 1', async () => {
    const tree = makeTree();
    const r = await convert(tree, ['nowhere.jsonl', F.events]);
    expect(r.code).toBe(1);
    expect(lineOf(r, 'nowhere.jsonl')).toMatchObject({ status: 'failed', error: 'cannot be read: no such file' });
    expect(lineOf(r, F.events).status).toBe('converted');
    expect(r.stderr).toContain('asyncai-log: nowhere.jsonl: cannot be read: no such file\n');
  });

  test('a session that cannot be written fails its file, and the run exits 1', async () => {
    const tree = makeTree();
    writeFileSync(join(tree.dir, 'not-a-dir'), '');
    const r = await convert({ ...tree, root: join(tree.dir, 'not-a-dir') }, [F.events]);
    expect(r.code).toBe(1);
    expect(lineOf(r, F.events)).toMatchObject({ status: 'failed', error: expect.stringContaining('cannot create the session') });
  });

  test('symlinks inside a directory are not followed; a symlink named on the command line is', async () => {
    const tree = makeTree();
    mkdirSync(join(tree.dir, 'links'));
    symlinkSync(join(tree.dir, F.events), join(tree.dir, 'links', 'linked.ndjson'));
    symlinkSync(join(tree.dir, 'tree'), join(tree.dir, 'links', 'linked-dir'));
    const walked = await convert(tree, ['links']);
    expect(statuses(walked)).toEqual([]);
    const named = await convert(tree, ['links/linked.ndjson']);
    expect(statuses(named)).toEqual([['links/linked.ndjson', 'converted', 'new']]);
  });

  test('a Claude Code session already under the root it would be written to is not written again', async () => {
    const tree = makeTree();
    const transcript = join(tree.root, 'projects', '-home-user-project', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl');
    mkdirSync(join(transcript, '..'), { recursive: true });
    writeFileSync(transcript, readFileSync(join(FIXTURES, 'claude-code-cli', 'parallel-bash', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl')));
    const r = await convert(tree, ['sessions/projects', F.rolloutActions]);
    expect(statuses(r)).toEqual([
      ['sessions/projects/-home-user-project/0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl', 'skipped', 'already-a-session'],
      [F.rolloutActions, 'converted', 'new'],
    ]);
    const codex = await convert(tree, ['sessions/projects', '--session-format', 'codex-cli', '--session-dir', `codex-cli=${join(tree.dir, 'codex-home')}`]);
    // (Both files are in one directory, listed by name: a random session id may sort either way.)
    expect(statuses(codex).sort()).toEqual([
      ['sessions/projects/-home-user-project/0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl', 'converted', 'new'],
      [`sessions/projects/-home-user-project/${lineOf(r, F.rolloutActions).harnesses![0]!.session_id}.jsonl`, 'skipped', 'converted-session'],
    ].sort());
  });

  test('the same file named twice is converted once', async () => {
    const tree = makeTree();
    const r = await convert(tree, [F.events, `./${F.events}`]);
    expect(statuses(r)).toEqual([[F.events, 'converted', 'new'], [`./${F.events}`, 'skipped', 'duplicate']]);
  });
});

describe('convert: usage errors', () => {
  test.each([
    [['--from', 'nope', 'x.jsonl'], 'unknown input format'],
    [['--jobs', '0', 'x.jsonl'], '--jobs wants a whole number from 1 to 256, got "0"'],
    [['--session-format', 'nope', 'x.jsonl'], 'unknown session format'],
    [['--session-dir', 'oops', 'x.jsonl'], '--session-dir wants'],
    [[], 'missing argument: convert wants a file, directory or session id to convert'],
  ])('%j exits 2, says why and writes nothing', async (args, message) => {
    const tree = makeTree();
    const r = await convert(tree, args);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
    expect(r.stdout).toBe('');
    expect(existsSync(tree.root)).toBe(false);
  });
});

describe('convert: the manifest and reruns', () => {
  test('the manifest records each converted source with its size, mtime, content hash and session', async () => {
    const tree = makeTree();
    const r = await convert(tree, ['tree']);
    const entries = manifestEntries(tree.root);
    const converted = report(r).filter((l) => l.status === 'converted');
    expect(entries).toHaveLength(converted.length);
    for (const line of converted) {
      const path = join(tree.dir, line.source);
      const entry = entries.find((e) => e.source === path);
      // The bytes converted: a torn last line (the corrupt rollout's) is not among them yet.
      const bytes = readFileSync(path);
      const converted = line.source === F.rolloutCorrupt ? bytes.subarray(0, bytes.lastIndexOf(10) + 1) : bytes;
      expect(entry).toMatchObject({
        v: 1,
        size: converted.length,
        mtime_ms: statSync(path).mtimeMs,
        sha256: createHash('sha256').update(converted).digest('hex'),
        format: 'claude-code-cli',
        session_id: line.harnesses![0]!.session_id,
        session_file: line.harnesses![0]!.session_file,
        input_format: line.input_format,
        cwd: line.cwd,
      });
    }
  });

  test('a second run skips every unchanged source and writes nothing', async () => {
    const tree = makeTree();
    const first = await convert(tree, ['tree']);
    const before = filesUnder(tree.root);
    const second = await convert(tree, ['tree']);
    expect(second.code).toBe(0);
    const expected = statuses(first).map(([source, status, reason]) => [source, 'skipped', status === 'converted' ? 'unchanged' : reason]);
    expect(statuses(second)).toEqual(expected);
    expect(filesUnder(tree.root)).toEqual(before);
    const { fidelity: _, ...firstHarness } = lineOf(first, F.events).harnesses![0] as any;
    // Nothing was written for it this time, so it has no account.
    expect(lineOf(second, F.events).harnesses).toEqual([{ ...firstHarness, unchanged: true }]);
  });

  test('a changed source gets a new session, and the old session file stays byte for byte', async () => {
    const tree = makeTree();
    const first = lineOf(await convert(tree, ['tree']), F.events);
    const oldFile = first.harnesses![0]!.session_file;
    const oldBytes = readFileSync(oldFile);
    // An earlier byte changed, and a line added: not only grown.
    const path = join(tree.dir, F.events);
    const text = readFileSync(path, 'utf8');
    writeFileSync(path, text.replace(/"user"/, '"user" '));
    appendFileSync(path, `${JSON.stringify({ type: 'user', text: 'One more thing.', timestamp: '2026-11-29T10:05:00.000Z' })}\n`);
    const r = await convert(tree, ['tree']);
    const line = lineOf(r, F.events);
    expect(line).toMatchObject({ status: 'converted', reason: 'changed' });
    expect(line.harnesses![0]!.session_id).not.toBe(first.harnesses![0]!.session_id);
    expect(line.harnesses![0]!.previous_session_id).toBe(first.harnesses![0]!.session_id);
    expect(readFileSync(oldFile).equals(oldBytes)).toBe(true);
    expect(records(line.harnesses![0]!.session_file).at(-1).message.content).toBe('One more thing.');
    expect(report(r).filter((l) => l.status === 'converted').map((l) => l.source)).toEqual([F.events]);
  });

  test('a touched but unchanged source is skipped after its bytes are compared, and its new mtime is remembered', async () => {
    const tree = makeTree();
    await convert(tree, ['tree']);
    const path = join(tree.dir, F.events);
    utimesSync(path, new Date('2030-01-01T00:00:00Z'), new Date('2030-01-01T00:00:00Z'));
    const second = await convert(tree, ['tree']);
    expect(lineOf(second, F.events)).toMatchObject({ status: 'skipped', reason: 'unchanged' });
    // The refreshed entry is in a second manifest file; a third run has nothing to add.
    expect(manifestFiles(tree.root)).toHaveLength(2);
    expect(manifestEntries(tree.root).at(-1)).toMatchObject({ source: path, mtime_ms: statSync(path).mtimeMs });
    await convert(tree, ['tree']);
    expect(manifestFiles(tree.root)).toHaveLength(2);
  });

  test('--force converts every source again into new sessions', async () => {
    const tree = makeTree();
    const first = await convert(tree, ['tree']);
    const r = await convert(tree, ['tree', '--force']);
    const again = report(r).filter((l) => l.status === 'converted');
    expect(again.map((l) => l.source)).toEqual(report(first).filter((l) => l.status === 'converted').map((l) => l.source));
    for (const line of again) {
      expect(line.reason).toBe('forced');
      expect(line.harnesses![0]!.session_id).not.toBe(lineOf(first, line.source).harnesses![0]!.session_id);
    }
  });

  test('a deleted session is written again from its unchanged source', async () => {
    const tree = makeTree();
    const first = lineOf(await convert(tree, [F.events]), F.events);
    const { rmSync } = await import('node:fs');
    rmSync(first.harnesses![0]!.session_file);
    const line = lineOf(await convert(tree, [F.events]), F.events);
    expect(line).toMatchObject({ status: 'converted', reason: 'missing' });
    expect(existsSync(line.harnesses![0]!.session_file)).toBe(true);
  });

  test('--dry-run on a fresh root reports what would be converted and creates nothing', async () => {
    const tree = makeTree();
    const r = await convert(tree, ['tree', '--dry-run']);
    expect(r.code).toBe(0);
    expect(statuses(r)).toEqual([
      [F.rolloutActions, 'would-convert', 'new'],
      [F.rolloutCorrupt, 'would-convert', 'new'],
      [F.rolloutParallel, 'would-convert', 'new'],
      [F.empty, 'skipped', 'empty'],
      [F.events, 'would-convert', 'new'],
      [F.execJson, 'would-convert', 'new'],
      [F.junk, 'skipped', 'unrecognised'],
      [F.streamJson, 'would-convert', 'new'],
    ]);
    expect(lineOf(r, F.rolloutActions).cwd).toBe('/home/user/project');
    expect(existsSync(tree.root)).toBe(false);
  });

  test('--dry-run after a change reports only the changed source and writes nothing', async () => {
    const tree = makeTree();
    await convert(tree, ['tree']);
    appendFileSync(join(tree.dir, F.events), `${JSON.stringify({ type: 'user', text: 'More.' })}\n`);
    const before = filesUnder(tree.root);
    const r = await convert(tree, ['tree', '--dry-run']);
    expect(report(r).filter((l) => l.status !== 'skipped').map((l) => [l.source, l.status, l.reason])).toEqual([[F.events, 'would-convert', 'grew']]);
    expect(filesUnder(tree.root)).toEqual(before);
  });

  test('a torn last manifest line (a run that crashed mid-write) is ignored and that source is converted again', async () => {
    const tree = makeTree();
    await convert(tree, [F.events, F.execJson]);
    const [file] = manifestFiles(tree.root);
    const text = readFileSync(file!, 'utf8');
    // The last entry written (files finish in any order with several jobs) loses its end and its newline.
    const torn = JSON.parse(text.trim().split('\n').at(-1)!).source as string;
    writeFileSync(file!, text.slice(0, text.length - 30));
    const r = await convert(tree, [F.events, F.execJson]);
    expect(r.stderr).not.toContain('manifest');
    expect(statuses(r)).toEqual([F.events, F.execJson].map((source) => (join(tree.dir, source) === torn
      ? [source, 'converted', 'new'] : [source, 'skipped', 'unchanged'])));
  });

  test('two runs started together leave a whole manifest, and a third run skips everything', async () => {
    const tree = makeTree();
    const [a, b] = await Promise.all([convert(tree, ['tree', '--jobs', '1']), convert(tree, ['tree', '--jobs', '1'])]);
    expect(a.code).toBe(0);
    expect(b.code).toBe(0);
    // However the runs interleave, every line is a whole entry naming a session that exists.
    for (const file of manifestFiles(tree.root)) expect(readFileSync(file, 'utf8').endsWith('\n')).toBe(true);
    for (const entry of manifestEntries(tree.root)) expect(existsSync(entry.session_file)).toBe(true);
    const third = await convert(tree, ['tree']);
    expect(report(third).every((l) => l.status === 'skipped')).toBe(true);
  });

  test('a session written by convert is never converted again, even under another root without its manifest', async () => {
    const tree = makeTree();
    await convert(tree, [F.events, F.rolloutActions]);
    const r = await convert({ ...tree, root: join(tree.dir, 'other-root') }, ['sessions/projects']);
    expect(report(r).map((l) => [l.status, l.reason])).toEqual([['skipped', 'converted-session'], ['skipped', 'converted-session']]);
  });
});

describe('convert: other harnesses', () => {
  test('--session-format codex-cli writes Codex sessions, and walking them again skips them as converted', async () => {
    const tree = makeTree();
    const codexRoot = join(tree.dir, 'codex-home');
    const r = await convert(tree, [F.events, '--session-format', 'codex-cli', '--session-dir', `codex-cli=${codexRoot}`]);
    const line = lineOf(r, F.events);
    expect(line.status).toBe('converted');
    expect(line.harnesses!.map((h) => h.format)).toEqual(['codex-cli']);
    expect(line.harnesses![0]!.session_file.startsWith(join(codexRoot, 'sessions'))).toBe(true);
    expect(manifestEntries(codexRoot)).toHaveLength(1);
    const again = await convert(tree, ['codex-home/sessions']);
    expect(report(again).map((l) => [l.status, l.reason])).toEqual([['skipped', 'converted-session']]);
  });
});

describe('convert: job counts', () => {
  /** A report and the sessions it names, with generated ids and conversion times replaced by stable names. */
  function normalized(stdout: string, started: string): string {
    const sessions = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l))
      .flatMap((l) => (l.harnesses ?? []).map((h: { session_file: string }) => readFileSync(h.session_file, 'utf8')));
    const ids = new Map<string, string>();
    return [stdout, ...sessions].join('\n')
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|(?:msg|req)_[a-z0-9]{24}/g, (id) => {
        if (!ids.has(id)) ids.set(id, `<id ${ids.size}>`);
        return ids.get(id)!;
      })
      .replace(/"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z"/g, (t) => (t.slice(1, -1) >= started ? '"<now>"' : t));
  }

  test('--jobs 1 and --jobs 4 give the same report and the same sessions', async () => {
    const tree = makeTree();
    for (let i = 0; i < 6; i += 1) writeHugeLog(join(tree.dir, 'tree', `many/log-${i}.ndjson`), 0.3);
    const started = new Date().toISOString();
    const one = await convert({ ...tree, root: join(tree.dir, 'one') }, ['tree', '--jobs', '1']);
    const four = await convert({ ...tree, root: join(tree.dir, 'four') }, ['tree', '--jobs', '4']);
    expect(one.code).toBe(0);
    expect(four.stderr).toBe(one.stderr);
    const a = normalized(one.stdout, started).replaceAll(join(tree.dir, 'one'), '<root>');
    const b = normalized(four.stdout, started).replaceAll(join(tree.dir, 'four'), '<root>');
    expect(b).toBe(a);
    expect(report(one).filter((l) => l.status === 'converted')).toHaveLength(12);
  }, 120_000);
});

describe('convert: progress', () => {
  test('stderr holds no progress line when it is not a terminal', async () => {
    const tree = makeTree();
    const r = await convert(tree, [F.events]);
    expect(r.stderr).toBe('');
  });

  test('--progress draws files, bytes, rate and time left on stderr, and a summary', async () => {
    const tree = makeTree();
    const r = await convert(tree, ['tree', '--progress']);
    expect(r.stderr).toMatch(/asyncai-log: convert: 8\/8 files, [\d.]+ kB\/[\d.]+ kB, [\d.]+ [kMG]?B\/s, ETA 0s\n/);
    expect(r.stderr).toContain('asyncai-log: convert: 6 converted, 2 skipped (1 empty, 1 unrecognised), 0 failed\n');
    expect(report(r)).toHaveLength(8);
  });
});

describe('convert: signals', () => {
  // SIGHUP (a closed terminal) is SIGTERM's: it killed convert mid-file before.
  test.each([['SIGINT', 130], ['SIGHUP', 129]] as const)('%s finishes the file in progress, reports the rest as interrupted, exits %i, and a rerun converts the rest', async (signal, exit) => {
    const tree = makeTree();
    for (let i = 0; i < 8; i += 1) writeHugeLog(join(tree.dir, 'big', `log-${i}.ndjson`), 3);
    const child = spawn(process.execPath, [BIN, 'convert', 'big', '--jobs', '1', '--session-dir', `claude-code-cli=${tree.root}`], {
      cwd: tree.dir, env: cleanEnv(), stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    await new Promise<void>((resolve) => {
      child.stdout.on('data', (d: Buffer) => {
        stdout += d.toString();
        if (stdout.includes('\n')) resolve();
      });
    });
    child.kill(signal);
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    child.stdout.removeAllListeners('data');
    expect(code).toBe(exit);
    expect(stderr).toContain('finishing the files in progress');
    const lines = stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(lines).toHaveLength(8);
    const converted = lines.filter((l) => l.status === 'converted');
    const interrupted = lines.filter((l) => l.status === 'skipped' && l.reason === 'interrupted');
    expect(converted.length + interrupted.length).toBe(8);
    expect(interrupted.length).toBeGreaterThan(0);
    // Whatever was converted is whole and recorded; the rerun converts exactly what was interrupted.
    expect(manifestEntries(tree.root).map((e) => e.session_id).sort()).toEqual(converted.map((l) => l.harnesses[0].session_id).sort());
    const rerun = await convert(tree, ['big']);
    expect(report(rerun).filter((l) => l.status === 'converted').map((l) => l.source)).toEqual(interrupted.map((l) => l.source));
  }, 120_000);
});
