// Contract item for every registered format's reader, black-box through the bin: what `read` opens beside a
// session file (the driver's `plantSidecars`: Claude Code's tool-results and subagents) is never reached through
// a symbolic link below the session's directory, so a session from someone else cannot make `read` print a
// file of yours; each link is reported once and the rest of the session reads. A format whose reader opens
// nothing beside the session file says so, and the test checks that planted links change nothing.
import { renameSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { beforeAll, describe, expect, test } from 'vitest';
import { BIN, run, tempDir, type RunResult } from '../support/run.js';
import type { ContractDriver, Place, SessionEntry } from './driver.js';
import { binArgs, ev, FORMATS, requireDriver, runBinFixed, sessionEntry } from './support.js';

const STREAM = ev({ type: 'user', text: 'contract first run' }) + ev({ type: 'assistant', text: 'noted' });
const MARKER = 'contract-sidecar-secret';

/** `asyncai-log read --events --subagents <path>` in `place`. */
function read(place: Place, path: string): Promise<RunResult> {
  return run(process.execPath, [BIN, 'read', '--events', '--subagents', path], { cwd: place.cwd, env: place.env });
}

/** Replace directory `dir` by a relative symbolic link to where it is moved, outside the root. */
function linkAway(dir: string): string {
  const away = join(tempDir('asyncai-log-contract-secret-'), basename(dir));
  renameSync(dir, away);
  symlinkSync(relative(dirname(dir), away), dir);
  return away;
}

describe.each(FORMATS)('%s: read follows no symbolic link beside the session', (format) => {
  let driver: ContractDriver;
  beforeAll(async () => {
    driver = await requireDriver(format);
  });

  /** A new session written by the bin in a place of its own. */
  async function session(): Promise<{ place: Place; entry: SessionEntry }> {
    const place = driver.place();
    const written = await runBinFixed(binArgs(format, place), place, STREAM);
    expect(written.code, written.stderr).toBe(0);
    return { place, entry: sessionEntry(written, format) };
  }

  test('read never prints a file through a symbolic link beside the session; each link is reported once', async () => {
    const { place, entry } = await session();
    const planted = driver.plantSidecars(entry, MARKER);
    if (planted === null) await withoutSidecars(place, entry);
    else await withSidecars(place, entry, planted);
  }, 60_000);

  /** Sidecars in real directories are read; the same directories as relative links are not, each reported once. */
  async function withSidecars(place: Place, entry: SessionEntry, planted: { dir: string; text: string }[]): Promise<void> {
    expect(planted.length).toBeGreaterThan(0);
    const plain = await read(place, entry.session_file);
    expect(plain.code, plain.stderr).toBe(0);
    for (const { text } of planted) expect(plain.stdout).toContain(text);

    const second = await session();
    const links = driver.plantSidecars(second.entry, MARKER)!.map(({ dir }) => {
      linkAway(dir);
      return dir;
    });
    const r = await read(second.place, second.entry.session_file);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).not.toContain(MARKER);
    expect(r.stdout).toContain('contract first run');
    const lines = r.stderr.split('\n').filter((l) => l !== '');
    for (const link of links) expect(lines.filter((l) => l.includes(link)), r.stderr).toHaveLength(1);
    expect(lines.every((l) => l.startsWith('asyncai-log: '))).toBe(true);
  }

  /**
   * The reader opens the session file alone: links planted beside it under every name a sidecar could have
   * change nothing. The path given is the user's (docs/read.md): a directory below the root that is a link
   * on that path is followed, as any command follows it.
   */
  async function withoutSidecars(place: Place, entry: SessionEntry): Promise<void> {
    const plain = await read(place, entry.session_file);
    expect(plain.code, plain.stderr).toBe(0);
    expect(plain.stdout).toContain('contract first run');
    const secret = tempDir('asyncai-log-contract-secret-');
    writeFileSync(join(secret, 'secret.txt'), MARKER);
    const stem = basename(entry.session_file).replace(/\.[^.]*$/, '');
    const names = new Set([entry.session_id, stem, `${stem}.d`]);
    names.delete(basename(entry.session_file));
    for (const name of names) symlinkSync(secret, join(dirname(entry.session_file), name));
    expect(await read(place, entry.session_file)).toEqual(plain);
    expect(relative(place.root, entry.session_file).startsWith('..')).toBe(false);
    linkAway(dirname(entry.session_file));
    expect(await read(place, entry.session_file)).toEqual(plain);
  }
});
