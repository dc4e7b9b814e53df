// `asyncai-log sessions [id]`: every session of every registered agent on this machine, newest first, as a
// table on a terminal and NDJSON otherwise; filtered by agent, project directory, time and conversation text.
// Exit 0; 1 when an id names no session or several, or a store could not be read; 2 on a usage error.
import { resolve } from 'node:path';
import { lookupProblem, OpenStores, type LookupContext } from '../agents/find-sessions.js';
import { readableFormats } from '../agents/index.js';
import { MIN_PREFIX } from '../session/session-lookup.js';
import { UsageError } from '../session/options.js';
import { escapeText } from '../util/shown-text.js';
import { cacheDir, SessionIndex } from './cache.js';
import { grepSessions } from './grep.js';
import type { FoundHits } from './hits.js';
import { needleForms } from './prefilter.js';
import { listSessions, type SessionRow } from './list.js';

export interface SessionsOptions extends LookupContext {
  tmpdir: string;
  /** A session id, or a prefix of MIN_PREFIX characters or more. */
  id?: string;
  agents: readonly string[];
  /** Only sessions of this project directory or one below it (absolute, or relative to processCwd). */
  cwd?: string;
  /** Only sessions updated at or after this time (ms since the epoch). */
  since?: number;
  grep?: string;
  /** A table (true), NDJSON (false). */
  table: boolean;
  /** Columns of the table. */
  width: number;
  /** Neither read nor write the sessions index. */
  noCache: boolean;
}

export interface SessionsIO {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
}

const UNITS: Record<string, number> = { s: 1e3, m: 60e3, h: 3600e3, d: 86400e3, w: 7 * 86400e3 };

/** `--since`: a time (RFC 3339, or a date) or an age (`30m`, `12h`, `7d`, `2w`) before `now`; throws UsageError. */
export function parseSince(value: string, now: number): number {
  const age = /^(\d+)([smhdw])$/.exec(value);
  if (age !== null) return now - Number(age[1]) * UNITS[age[2]!]!;
  const time = /^\d{4}-\d{2}-\d{2}([T ][\d:.]+(Z|[+-]\d{2}:?\d{2})?)?$/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new UsageError(`--since: not a time or an age: ${JSON.stringify(value)} (e.g. 2026-12-01, 2026-12-01T10:00Z, 12h, 7d)`);
  return time;
}

/** The formats `--agent` takes: the agents whose sessions are listed. */
export function listedFormats(): string[] {
  return readableFormats();
}

/** Whether `dir` is `under` or a directory below it. */
function within(dir: string, under: string): boolean {
  const base = under.length > 1 ? under.replace(/\/+$/, '') : under;
  return dir === base || dir.startsWith(base === '/' ? '/' : `${base}/`);
}

/** Bytes as people read them: 512 B, 1.2 KB, 3.4 MB, 1.1 GB. */
export function humanBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = -1;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}

/** A time for the table: `YYYY-MM-DD HH:MM` in local time; '-' when unknown. */
export function shortTime(iso: string | undefined): string {
  if (iso === undefined) return '-';
  const d = new Date(iso);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}`;
}

/** `text` escaped and cut (or padded) to `width` characters. */
function cell(text: string, width: number, pad = true): string {
  const shown = escapeText(text);
  const cut = shown.length > width ? `${shown.slice(0, Math.max(0, width - 1))}…` : shown;
  return pad ? cut.padEnd(width) : cut;
}

/** The table: a header line, one line per session (and its hits, indented), columns fitted to `width`. */
export function tableOf(rows: readonly SessionRow[], hits: Map<SessionRow, FoundHits> | undefined, width: number, homedir: string): string {
  const home = (dir: string | undefined) => (dir === undefined ? '-' : dir === homedir || dir.startsWith(`${homedir}/`) ? `~${dir.slice(homedir.length)}` : dir);
  const cols = rows.map((r) => [r.agent, r.id, shortTime(r.updated), shortTime(r.started), String(r.turns), humanBytes(r.bytes), home(r.cwd), r.title]);
  const heads = ['AGENT', 'ID', 'UPDATED', 'STARTED', 'TURNS', 'SIZE', 'PROJECT', 'TITLE'];
  const fixed = [0, 1, 2, 3, 4, 5].map((i) => Math.max(heads[i]!.length, ...cols.map((c) => escapeText(c[i]!).length)));
  const used = fixed.reduce((a, b) => a + b + 2, 0);
  const left = Math.max(20, width - used);
  const project = Math.min(Math.max(heads[6]!.length, ...cols.map((c) => escapeText(c[6]!).length)), Math.max(7, Math.floor(left * 0.4)));
  const title = Math.max(5, left - project - 2);
  const line = (c: readonly string[]) => `${[...fixed.map((w, i) => cell(c[i]!, w, true)), cell(c[6]!, project, true), cell(c[7]!, title, false)].join('  ').trimEnd()}\n`;
  let out = line(heads);
  rows.forEach((r, i) => {
    out += line(cols[i]!);
    const found = hits?.get(r);
    for (const hit of found?.hits ?? []) out += `    ${hit.event} #${hit.index}: ${cell(hit.snippet, Math.max(20, width - 16), false)}\n`;
    if (found !== undefined && found.count > found.hits.length) out += `    (${found.count - found.hits.length} more)\n`;
  });
  return out;
}

/** One NDJSON line of a session (and its hits). */
export function jsonOf(row: SessionRow, found: FoundHits | undefined): string {
  return `${JSON.stringify({
    agent: row.agent, id: row.id, title: row.title, cwd: row.cwd ?? null, started: row.started ?? null, updated: row.updated,
    turns: row.turns, bytes: row.bytes, files: row.files, ...(row.child === true ? { child: true } : {}),
    ...(found !== undefined ? { matches: found.count, hits: found.hits } : {}),
  })}\n`;
}

/** Run the command; its exit code. */
export async function runSessions(options: SessionsOptions, io: SessionsIO): Promise<number> {
  let code = 0;
  const problem = (line: string) => {
    io.stderr.write(`asyncai-log: ${escapeText(line)}\n`);
    code = 1;
  };
  if (options.id !== undefined && options.id.length < MIN_PREFIX) {
    throw new UsageError(`a session id or a prefix of ${MIN_PREFIX} or more characters: ${JSON.stringify(options.id)}`);
  }
  const formats = options.agents.length > 0 ? options.agents : undefined;
  const index = new SessionIndex(options.noCache ? undefined : cacheDir(options.env, options.homedir));
  if (index.refused !== undefined) io.stderr.write(`asyncai-log: ${escapeText(index.refused)}\n`);
  const id = options.id?.toLowerCase();
  const dir = options.cwd !== undefined ? resolve(options.processCwd, options.cwd) : undefined;
  const inDir = (cwd: string | undefined) => dir === undefined || (cwd !== undefined && within(cwd, dir));
  // A store opened once for the run: listed, read for its turns and searched with one start of its program.
  const stores = new OpenStores(options);
  try {
    let rows = await listSessions({ ...options, stores }, index, formats, problem, {
      ...(id !== undefined ? { id: (candidate: string) => candidate.toLowerCase().startsWith(id) } : {}),
      ...(options.since !== undefined ? { since: options.since } : {}),
      ...(options.grep !== undefined ? { forms: needleForms(options.grep), cwd: inDir } : {}),
    });
    try {
      index.save(formats ?? listedFormats());
    } catch (error) {
      io.stderr.write(`asyncai-log: sessions cache: ${escapeText((error as Error).message)}\n`);
    }
    if (options.id !== undefined && id !== undefined) {
      const whole = rows.filter((r) => r.id.toLowerCase() === id);
      rows = whole.length > 0 ? whole : rows.filter((r) => r.id.toLowerCase().startsWith(id));
      const why = lookupProblem(rows.map((r) => ({ id: r.id, format: r.agent })), 'listed');
      if (why !== undefined) {
        io.stderr.write(`asyncai-log: ${escapeText(options.id)}: ${escapeText(why)}\n`);
        return 1;
      }
    }
    if (dir !== undefined) rows = rows.filter((r) => inDir(r.cwd));
    let hits: Map<SessionRow, FoundHits> | undefined;
    if (options.grep !== undefined) {
      hits = await grepSessions(rows, options.grep, { stores }, problem);
      rows = rows.filter((r) => hits!.has(r));
    }
    if (options.table) io.stdout.write(tableOf(rows, hits, options.width, options.homedir));
    else for (const row of rows) io.stdout.write(jsonOf(row, hits?.get(row)));
    return code;
  } finally {
    await stores.close();
  }
}
