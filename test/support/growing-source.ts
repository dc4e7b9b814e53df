// The source the incremental-convert tests grow (test/convert/incremental-*.test.ts): a first part whose last
// turn's tool call has no result yet, what it adds later (the result, the answer, another turn), the texts said
// in it, and the convert runs they repeat: convert it, grow it, convert it again into the same session.
import { appendFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { runBin, tempDir } from './run.js';

/** One event as an NDJSON line. */
export const ev = (o: object): string => `${JSON.stringify(o)}\n`;

/** A time `s` seconds into the hour before the tests started. */
const at = (s: number) => new Date(Date.now() - 3600_000 + s * 1000).toISOString();

/** The first part of a source: a turn whose tool call has no result yet. */
export const FIRST = [
  ev({ type: 'user', text: 'First question.', timestamp: at(1) }),
  ev({ type: 'assistant', text: 'First answer.', timestamp: at(2) }),
  ev({ type: 'user', text: 'List the files.', timestamp: at(3) }),
  ev({ type: 'tool_call', id: 'c_ls', name: 'Bash', arguments: { command: 'ls' }, timestamp: at(4) }),
].join('');
/** What the source adds later: the call's result, the answer, another turn. */
export const GROWTH = [
  ev({ type: 'tool_result', id: 'c_ls', content: 'a.txt\nb.txt', timestamp: at(5) }),
  ev({ type: 'assistant', text: 'There are two files.', timestamp: at(6) }),
  ev({ type: 'user', text: 'Thanks.', timestamp: at(7) }),
  ev({ type: 'assistant', text: 'You are welcome.', timestamp: at(8) }),
].join('');

/** The texts of FIRST and GROWTH: a resumed session sends every one of them. */
export const SAID = ['First question.', 'First answer.', 'List the files.', 'There are two files.', 'Thanks.', 'You are welcome.'];

/** The JSON lines of a session file. */
export const jsonLines = (file: string): any[] => readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

/**
 * `convert <source> --session-format <format> --session-dir <format>=<root> --cwd <cwd>` from a directory of
 * its own: exit 0 asserted; its one stdout line parsed, with its stderr.
 */
export async function convertInto(format: string, source: string, root: string, cwd: string, env?: Record<string, string>): Promise<any> {
  const r = await runBin(['convert', source, '--session-format', format, '--session-dir', `${format}=${root}`, '--cwd', cwd], {
    cwd: tempDir(), ...(env !== undefined ? { env } : {}),
  });
  expect(r.code, r.stderr).toBe(0);
  return { ...JSON.parse(r.stdout.trim()), stderr: r.stderr };
}

/**
 * A source of FIRST in `dir` converted into `format` under `root`, then GROWTH appended and converted again:
 * the first a new session, the second grown into the same one (same id and file, its earlier bytes untouched).
 * The session, as the first conversion names it.
 */
export async function convertGrowing(format: string, root: string, dir: string, env: Record<string, string>): Promise<{ session_id: string; session_file: string }> {
  const source = join(dir, 'events.ndjson');
  writeFileSync(source, FIRST);
  const first = await convertInto(format, source, root, dir, env);
  expect(first).toMatchObject({ status: 'converted', reason: 'new' });
  const session = first.harnesses[0];
  const before = readFileSync(session.session_file);

  appendFileSync(source, GROWTH);
  const second = await convertInto(format, source, root, dir, env);
  expect(second).toMatchObject({ status: 'converted', reason: 'grew' });
  expect(second.harnesses[0]).toMatchObject({ session_id: session.session_id, session_file: session.session_file });
  expect(readFileSync(session.session_file).subarray(0, before.length)).toEqual(before);
  return session;
}
