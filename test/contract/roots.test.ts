// Contract item 5, for every registered format, black-box through the bin: what is planted where a session is
// written never hangs the run nor blocks it. A regular file or a FIFO at any entry the writer makes below the
// root, a project directory whose base name is 300 characters, a root under /proc: each run either refuses
// (exit 1, one line) or opens its session elsewhere and then ends on SIGTERM; a FIFO is never opened blocking.
// Each run is held open on its input, so a run that neither refuses nor opens is a hang, not a slow run.
import { cpSync, existsSync, linkSync, lstatSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { finished, HANG_LIMIT_MS, listTree, type Exited } from '../reliability/support.js';
import { tempDir, until } from '../support/run.js';
import type { ContractDriver, Place } from './driver.js';
import { binArgs, ev, firstRun, FORMATS, sessionEntry, spawnBinFixed } from './support.js';


/** How a held-open run ended: it refused by itself, or it opened its session and was then sent SIGTERM. */
interface Ending {
  opened: boolean;
  result: Exited;
}

/**
 * Run the bin on `input` with its stdin left open: wait until it refuses (exits) or opens its session (the
 * session line), then SIGTERM it if it still runs. A run that does neither is killed at the hang limit.
 */
async function endRun(args: string[], place: Place, input: string): Promise<Ending> {
  const spawned = spawnBinFixed(args, place);
  let out = '';
  let exited = false;
  spawned.child.stdout.on('data', (d: Buffer) => {
    out += d.toString('utf8');
  });
  void spawned.exit.then(() => {
    exited = true;
  });
  spawned.child.stdin.write(input);
  await until(() => exited || out.includes('\n'), HANG_LIMIT_MS);
  const opened = !exited && out.includes('\n');
  if (opened) spawned.child.kill('SIGTERM');
  return { opened, result: await finished(spawned) };
}

/** A refusal: exit 1, exactly one `asyncai-log:` line, nothing on stdout. */
function expectRefused(r: Exited, where: string): void {
  expect(r.code, `${where}: ${r.stderr}`).toBe(1);
  expect(r.stderr.split('\n').filter((l) => l !== ''), where).toHaveLength(1);
  expect(r.stderr, where).toMatch(/^asyncai-log: /);
  expect(r.stdout.toString(), where).toBe('');
}

describe.each(FORMATS)('%s', (format) => {
  let driver: ContractDriver;
  /** The first run's place and the writer's own entries below its root. */
  let place: Place;
  let tree: string[];
  beforeAll(async () => {
    ({ driver, place, tree } = await firstRun(format));
  }, 60_000);

  test.for(['a regular file', 'a FIFO'])('5. %s planted at any entry the writer makes below the root: no hang, nothing of it opened or changed', async (kind, { expect }) => {
    expect(tree.length).toBeGreaterThan(0);
    await Promise.all(tree.map(async (rel) => {
      // The first run's root as it was, with this one entry replaced by a file or a FIFO.
      const top = tempDir();
      const root = join(top, 'root');
      cpSync(place.root, root, { recursive: true, verbatimSymlinks: true });
      const entry = join(root, rel).replace(/\/$/, '');
      rmSync(entry, { recursive: true });
      if (kind === 'a FIFO') execFileSync('mkfifo', ['-m', '600', entry]);
      else {
        writeFileSync(entry, 'planted\n', { mode: 0o600 });
        // A shared file of the agent's (Gemini's registry) may be replaced by a rename, never written in place.
        linkSync(entry, `${top}/planted-inode`);
      }
      const at = { ...place, root };
      const { opened, result } = await endRun(binArgs(format, at), at, ev({ type: 'user', text: 'over the planted entry?' }));
      const where = `${kind} at ${rel}`;
      if (opened) {
        expect(result.code === 143 || result.signal === 'SIGTERM', `${where}: ${result.code} ${result.stderr}`).toBe(true);
        expect(sessionEntry({ code: 0, signal: null, stdout: result.stdout.toString(), stderr: '' }, format).session_file, where).not.toBe(entry);
      } else {
        expectRefused(result, where);
      }
      const stat = lstatSync(entry);
      if (kind === 'a FIFO') expect(stat.isFIFO(), where).toBe(true);
      else {
        expect(readFileSync(`${top}/planted-inode`, 'utf8'), where).toBe('planted\n');
        if (stat.ino === lstatSync(`${top}/planted-inode`).ino) expect(readFileSync(entry, 'utf8'), where).toBe('planted\n');
      }
    }));
  });

  test('5. a project directory whose base name is 300 characters (from the stream\'s cwd): no hang, every name fits', async () => {
    // In a root already in use (the first run's), as a user's is: its directories exist.
    const probe = { ...driver.place(), root: join(tempDir(), 'root') };
    cpSync(place.root, probe.root, { recursive: true, verbatimSymlinks: true });
    const cwd = join(dirname(probe.root), 'p'.repeat(300));
    const stream = ev({ type: 'system', subtype: 'init', cwd, session_id: 's', model: 'claude-sonnet-4-5', tools: [] })
      + ev({ type: 'user', message: { role: 'user', content: 'a long project name' }, session_id: 's' });
    // Without --cwd: the stream's own cwd is the one offered.
    const { opened, result } = await endRun(binArgs(format, probe).slice(0, -2), probe, stream);
    if (opened) {
      const file = sessionEntry({ code: 0, signal: null, stdout: result.stdout.toString(), stderr: '' }, format).session_file;
      expect(relative(probe.root, file).startsWith('..')).toBe(false);
    } else {
      expectRefused(result, 'a long base name');
    }
    for (const rel of listTree(probe.root)) for (const part of rel.split('/')) expect(Buffer.byteLength(part)).toBeLessThanOrEqual(255);
    expect(listTree(probe.root).filter((rel) => rel.endsWith('.lock/'))).toEqual([]);
  });

  test.runIf(existsSync('/proc/self'))('5. a root under /proc is refused at once: one line naming it, exit 1', async () => {
    const probe = driver.place();
    const root = '/proc/asyncai-log-nope';
    const { opened, result } = await endRun(binArgs(format, { ...probe, root }), probe, ev({ type: 'user', text: 'hi' }));
    expect(opened).toBe(false);
    expectRefused(result, root);
    expect(result.stderr).toContain(root);
  });
});
