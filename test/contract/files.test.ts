// Contract items 1-4, for every registered format, black-box through the bin: a file already where the session
// would go is never touched; files are 0600 and made directories 0700 whatever the umask; a symlink planted
// at any entry the writer makes below the root is never written through; hostile cwd values, session ids, tool
// ids and names from the input never become a path outside the root. The bin runs with a fixed clock and fixed
// first draws (fixed-draws.mjs), so one run shows where the next one's files would go.
import { cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { tempDir, type RunResult } from '../support/run.js';
import { listTree, modeOf } from '../reliability/support.js';
import type { ContractDriver, Place } from './driver.js';
import { binArgs, ev, firstRun, FIRST_STREAM, FORMATS, loadDriver, requireDriver, runBinFixed, sessionEntry } from './support.js';

const STREAM = FIRST_STREAM;

/** The diagnostics of a run, one per line. */
const stderrLines = (r: RunResult): string[] => r.stderr.split('\n').filter((l) => l !== '');

/** A run that refused: exit 1 and exactly one `asyncai-log:` line. */
function expectRefused(r: RunResult): void {
  expect(r.code, r.stderr).toBe(1);
  expect(stderrLines(r)).toHaveLength(1);
  expect(r.stderr).toMatch(/^asyncai-log: /);
}

test('every registered format has a contract driver', async () => {
  const missing: string[] = [];
  for (const format of FORMATS) if ((await loadDriver(format))?.format !== format) missing.push(format);
  expect(missing, `write test/contract/drivers/<format>.ts for: ${missing.join(', ')}`).toEqual([]);
});

test('a format without a driver fails loudly, naming the file to write', async () => {
  await expect(requireDriver('no-such-agent')).rejects.toThrow('test/contract/drivers/no-such-agent.ts');
});

describe.each(FORMATS)('%s', (format) => {
  let driver: ContractDriver;
  /** The first run: its place, the session file, and the writer's own entries below the root. */
  let place: Place;
  let taken: string;
  let tree: string[];
  beforeAll(async () => {
    ({ driver, place, sessionFile: taken, tree } = await firstRun(format));
  }, 60_000);

  test('the same place gives the same path (the runs below really meet the first run\'s files)', async () => {
    const again = { ...place, root: join(tempDir(), 'root') };
    const r = await runBinFixed(binArgs(format, again), again, STREAM);
    expect(r.code, r.stderr).toBe(0);
    expect(relative(again.root, sessionEntry(r, format).session_file)).toBe(relative(place.root, taken));
    expect(tree).toContain(relative(place.root, taken));
  });

  test('1. a session file already where the next session would go is not touched: byte, mode and inode the same', async () => {
    const before = { bytes: readFileSync(taken), stat: statSync(taken) };
    const r = await runBinFixed(binArgs(format, place), place, ev({ type: 'user', text: 'contract second run' }));
    if (r.code === 0) {
      const file = sessionEntry(r, format).session_file;
      expect(file).not.toBe(taken);
      expect(readFileSync(file, 'utf8')).toContain('contract second run');
    } else {
      expectRefused(r);
    }
    expect(readFileSync(taken).equals(before.bytes)).toBe(true);
    const after = statSync(taken);
    expect([after.mode, after.size, after.mtimeMs, after.ino]).toEqual([before.stat.mode, before.stat.size, before.stat.mtimeMs, before.stat.ino]);
  });

  test.concurrent.for(['000', '077'])('2. under umask %s the writer\'s files are 0600 and the directories it makes 0700', async (umask, { expect }) => {
    const fresh = driver.place();
    const r = await runBinFixed(binArgs(format, fresh), fresh, STREAM, umask);
    expect(r.code, r.stderr).toBe(0);
    const own = listTree(fresh.root).filter((rel) => driver.owned(rel));
    expect(own).toContain(relative(fresh.root, sessionEntry(r, format).session_file));
    expect(modeOf(fresh.root).toString(8)).toBe('700');
    for (const rel of own) expect([rel, modeOf(join(fresh.root, rel)).toString(8)]).toEqual([rel, rel.endsWith('/') ? '700' : '600']);
  });

  test('3. a symlink planted at any entry the writer makes below the root is not written through', async () => {
    expect(tree.length).toBeGreaterThan(0);
    await Promise.all(tree.map(async (rel) => {
      // The first run's root as it was, with this one entry replaced by a symlink to somewhere else.
      const top = tempDir();
      const root = join(top, 'root');
      cpSync(place.root, root, { recursive: true, verbatimSymlinks: true });
      const entry = join(root, rel);
      rmSync(entry, { recursive: true });
      const isDir = rel.endsWith('/');
      const target = isDir ? join(top, 'elsewhere') : join(top, 'victim');
      if (isDir) mkdirSync(target);
      else writeFileSync(target, 'victim\n');
      symlinkSync(target, entry.replace(/\/$/, ''));
      const r = await runBinFixed(binArgs(format, { ...place, root }), { ...place, root }, ev({ type: 'user', text: 'through the link?' }));
      const where = `${rel}: ${r.stderr}`;
      if (isDir) {
        expectRefused(r);
        expect(readdirSync(target), where).toEqual([]);
      } else {
        if (r.code === 0) expect(sessionEntry(r, format).session_file, where).not.toBe(entry);
        else expectRefused(r);
        expect(readFileSync(target, 'utf8'), where).toBe('victim\n');
      }
      expect(lstatSync(entry.replace(/\/$/, '')).isSymbolicLink(), where).toBe(true);
      expect(readlinkSync(entry.replace(/\/$/, '')), where).toBe(target);
    }));
  });

  // Side by side: a run whose agent program is slow to start (OpenCode's import) waits alongside the others.
  describe.concurrent('4. hostile values from the input never become a path outside the root', () => {
    /** What is in the place's top directory outside the root. */
    const outsideRoot = (place: Place): string[] => {
      const name = basename(place.root);
      return listTree(dirname(place.root)).filter((rel) => rel !== `${name}/` && !rel.startsWith(`${name}/`));
    };

    /** A value that, used as a path below the root, climbs out into `top`. */
    const climb = (top: string, leaf: string) => `${'../'.repeat(40)}${top.slice(1)}/${leaf}`;

    const cwds: [string, (top: string) => string][] = [
      ['an absolute cwd climbing out with ../', (top) => `/${climb(top, 'outside-cwd')}`],
      ['a cwd holding a NUL and a newline', (top) => `/${climb(top, 'outside-nul')}\u0000/x\n/../y`],
      ['a relative cwd', (top) => climb(top, 'outside-rel')],
      ['a cwd of 10,000 characters', () => `/${'very-long/'.repeat(1000)}`],
    ];

    test.for(cwds)('%s (and hostile session, tool ids and names) in a foreign stream', async ([, cwdOf], { expect }) => {
      const probe = driver.place();
      const top = dirname(probe.root);
      const hostile = (leaf: string) => `${climb(top, leaf)}\u0000\n${'x'.repeat(5000)}`;
      const session = hostile('outside-session');
      const id = hostile('outside-tool-id');
      const lines = [
        { type: 'system', subtype: 'init', cwd: cwdOf(top), session_id: session, model: 'claude-sonnet-4-5', tools: [] },
        { type: 'user', message: { role: 'user', content: 'contract hostile stream' }, session_id: session },
        { type: 'assistant', message: { id: 'msg_1', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5',
          content: [{ type: 'tool_use', id, name: hostile('outside-tool-name'), input: { path: hostile('outside-arg') } }] }, session_id: session },
        { type: 'user', message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: hostile('outside-result') }] }, session_id: session },
      ];
      // Without --cwd: the stream's own cwd is the one offered.
      const args = binArgs(format, probe).slice(0, -2);
      const r = await runBinFixed(args, probe, lines.map((l) => ev(l)).join(''));
      expect(r.code, r.stderr).toBe(0);
      const file = sessionEntry(r, format).session_file;
      expect(relative(probe.root, file).startsWith('..')).toBe(false);
      expect(outsideRoot(probe)).toEqual([]);
      for (const rel of listTree(probe.root)) for (const part of rel.split('/')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(255);
    });

    test('hostile tool ids and names in generic events', async ({ expect }) => {
      const probe = driver.place();
      const top = dirname(probe.root);
      const hostile = (leaf: string) => `${climb(top, leaf)}\u0000\n${'y'.repeat(5000)}`;
      const input = [
        ev({ type: 'user', text: 'contract hostile events' }),
        ev({ type: 'tool_call', id: hostile('outside-id'), name: hostile('outside-name'), arguments: { file_path: hostile('outside-arg') } }),
        ev({ type: 'tool_result', id: hostile('outside-id'), content: 'ok' }),
        ev({ type: 'monitor_event', event: 'e', description: hostile('outside-monitor'), task_id: hostile('outside-task') }),
        ev({ type: 'assistant', text: 'done' }),
      ].join('');
      const r = await runBinFixed(binArgs(format, probe), probe, input);
      expect(r.code, r.stderr).toBe(0);
      expect(outsideRoot(probe)).toEqual([]);
      expect(listTree(probe.cwd)).toEqual([]);
    });
  });
});
