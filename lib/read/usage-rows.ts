// The rows of `read --usage --by` (usage-by.ts): the sessions counted, grouped by session, day (local time, as
// ccusage's days), month or model, with a total row; as NDJSON, or as a table for a terminal.
import type { UsageEntry } from '../session/types.js';
import { addTokenCounts, zeroTokens, type TokenCounts } from '../usage.js';

/** What `--by` groups by. */
export const USAGE_GROUPS = ['session', 'day', 'month', 'model'] as const;
export type UsageGroup = (typeof USAGE_GROUPS)[number];

/** A session counted: its entries. */
export interface Counted {
  agent: string;
  id: string;
  path: string;
  entries: UsageEntry[];
}

/** A row of the report: the group's key and its token counts. */
export interface UsageRow {
  key: string;
  agent?: string;
  path?: string;
  tokens: TokenCounts;
  /** The last time of the group (sessions are listed by it, as ccusage lists them). */
  last: string;
}

const pad2 = (n: number) => String(n).padStart(2, '0');

/** The local calendar day of an RFC 3339 time (`YYYY-MM-DD`, in the TZ of the process, as ccusage dates), or undefined. */
export function localDay(timestamp: string | undefined): string | undefined {
  if (timestamp === undefined) return undefined;
  const ms = Date.parse(timestamp);
  if (Number.isNaN(ms)) return undefined;
  const date = new Date(ms);
  return `${date.getFullYear()}-${pad2(date.getMonth() + 1)}-${pad2(date.getDate())}`;
}

/** A time in UTC as agents write it (`YYYY-MM-DDTHH:MM:SS[.fff]Z`). */
const UTC_TIME = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.\d{1,9})?Z$/;
const QUARTER_MS = 15 * 60 * 1000;

/**
 * `entries` with those of one model in one quarter hour (UTC) summed into one, at the latest time among them
 * (the input is not changed): far fewer to hand from a worker thread to this one, and `group` makes the same
 * rows of them for every `by`, since a quarter hour lies in one local day (clocks are set in quarter hours;
 * checked at its two ends: where it spans two days, its entries are kept as they are). Entries whose time is
 * of another shape are kept as they are.
 */
export function mergedEntries(entries: UsageEntry[]): UsageEntry[] {
  const out: UsageEntry[] = [];
  /** The quarter hour in hand: its hour (`YYYY-MM-DDTHH`) and its number in the hour (0 to 3). */
  let hour = '';
  let quarter = -1;
  let oneDay = false;
  /** The merged entries of the quarter, one per model. */
  let open: UsageEntry[] = [];
  for (const entry of entries) {
    const time = entry.timestamp;
    if (time === undefined || !UTC_TIME.test(time)) {
      out.push(entry);
      continue;
    }
    // The minute's two digits, at 14 and 15 (the shape was checked).
    const q = Math.floor(((time.charCodeAt(14) - 0x30) * 10 + time.charCodeAt(15) - 0x30) / 15);
    if (q !== quarter || !time.startsWith(hour)) {
      hour = time.slice(0, 13);
      quarter = q;
      open = [];
      const start = Date.parse(`${hour}:${pad2(q * 15)}:00.000Z`);
      oneDay = !Number.isNaN(start) && localDay(new Date(start).toISOString()) === localDay(new Date(start + QUARTER_MS - 1).toISOString());
    }
    if (!oneDay) {
      out.push(entry);
      continue;
    }
    const into = open.find((merged) => merged.model === entry.model);
    if (into === undefined) {
      const merged = { timestamp: time, model: entry.model, tokens: { ...entry.tokens } };
      open.push(merged);
      out.push(merged);
    } else {
      addTokenCounts(into.tokens, entry.tokens);
      if (time! > into.timestamp!) into.timestamp = time;
    }
  }
  return out;
}

/** The rows of `counted` grouped by `by`: sessions by their last activity, the others by key. */
export function group(counted: Counted[], by: UsageGroup): UsageRow[] {
  const rows = new Map<string, UsageRow>();
  const rowOf = (key: string, extra: Partial<UsageRow> = {}): UsageRow => {
    let row = rows.get(key);
    if (row === undefined) rows.set(key, row = { key, tokens: zeroTokens(), last: '', ...extra });
    return row;
  };
  for (const session of counted) {
    if (by === 'session') {
      const row = rowOf(`${session.agent}\u0000${session.path}`, { agent: session.agent, path: session.path });
      row.key = session.id;
      for (const entry of session.entries) {
        addTokenCounts(row.tokens, entry.tokens);
        if (entry.timestamp !== undefined && entry.timestamp > row.last) row.last = entry.timestamp;
      }
      continue;
    }
    for (const entry of session.entries) {
      const day = localDay(entry.timestamp);
      const key = by === 'model' ? entry.model ?? 'unknown' : day === undefined ? 'unknown' : by === 'month' ? day.slice(0, 7) : day;
      addTokenCounts(rowOf(key).tokens, entry.tokens);
    }
  }
  const list = [...rows.values()];
  if (by === 'session') return list.sort((a, b) => (a.last < b.last ? -1 : a.last > b.last ? 1 : 0));
  return list.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The counts of a row as JSON fields. */
function fields(tokens: TokenCounts): Record<string, number> {
  return {
    input_tokens: tokens.input,
    output_tokens: tokens.output,
    cache_read_tokens: tokens.cacheRead,
    cache_write_tokens: tokens.cacheWrite,
    reasoning_tokens: tokens.reasoning,
    total_tokens: tokens.input + tokens.output + tokens.cacheRead + tokens.cacheWrite,
  };
}

/** One JSON line per row, then the total line (`{"total": true, "sessions": n, ...}`). */
export function ndjson(by: UsageGroup, rows: UsageRow[], total: TokenCounts, sessions: number): string {
  let text = '';
  for (const row of rows) {
    const head = by === 'session'
      ? { session_id: row.key, agent: row.agent, path: row.path, ...(row.last !== '' ? { last_activity: row.last } : {}) }
      : { [by]: row.key };
    text += `${JSON.stringify({ ...head, ...fields(row.tokens) })}\n`;
  }
  return `${text}${JSON.stringify({ total: true, sessions, ...fields(total) })}\n`;
}

/** A table with a header, a row per group and the total row, numbers right-aligned with thousands separators. */
export function usageTable(by: UsageGroup, rows: UsageRow[], total: TokenCounts): string {
  const header = [by === 'session' ? 'Session' : by[0]!.toUpperCase() + by.slice(1), ...(by === 'session' ? ['Agent'] : []),
    'Input', 'Output', 'Cache read', 'Cache write', 'Reasoning', 'Total'];
  const number = (n: number) => n.toLocaleString('en-US');
  const line = (key: string, agent: string | undefined, tokens: TokenCounts) => {
    const f = fields(tokens);
    return [key, ...(by === 'session' ? [agent ?? ''] : []), ...Object.values(f).map(number)];
  };
  const body = rows.map((row) => line(row.key, row.agent, row.tokens));
  const all = [header, ...body, line('Total', '', total)];
  const widths = header.map((_, i) => Math.max(...all.map((cells) => cells[i]!.length)));
  const keyColumns = by === 'session' ? 2 : 1;
  const render = (cells: string[]) => cells.map((cell, i) => (i < keyColumns ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ').trimEnd();
  const rule = widths.map((w) => '-'.repeat(w)).join('  ');
  return `${[render(header), rule, ...body.map(render), rule, render(all.at(-1)!)].join('\n')}\n`;
}
