// Codex's token usage in the one shape (`read --usage --by`), from a rollout's own lines, counted as ccusage
// (20.0.24) counts them: each `event_msg` `token_count` is one entry, at its line's time, for the model of the
// `turn_context` before it. Its `last_token_usage` is what it adds (else what `total_token_usage` grew by); a
// count whose running total equals the one before repeats it and is skipped. Codex's `input_tokens` include
// the cached ones: input is what remains once `cached_input_tokens` (the cache reads) are taken out.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { FileLines, lineNumberAt, lineText } from '../../lines/file-lines.js';
import { MAX_RECORD_BYTES } from '../../util/record-limit.js';
import { isObject } from '../../util/is-object.js';
import { tokenCount, type TokenCounts } from '../../usage.js';
import { cannotBeRead } from '../../util/fs-errors.js';
import { ReaderError, type SessionUsage, type UsageEntry } from '../../session/types.js';

const FIELDS = ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens'] as const;
type Counts = Record<(typeof FIELDS)[number], number>;

/**
 * The lines that matter hold `"token_count"` or `"turn_context"`; both hold `n_co`, searched once over each chunk
 * (one native search rather than two). A line that holds it otherwise is parsed and passed over.
 */
const MARKS = [Buffer.from('n_co')];

const HEAD = Buffer.from('{"timestamp":"');
const TOKEN_COUNT = Buffer.from('","type":"event_msg","payload":{"type":"token_count","info":{');
const TOTAL = Buffer.from('"total_token_usage":');
const LAST = Buffer.from('"last_token_usage":');

/** A flat object of numbers starting at `buf[at]` (`{...}` with no object inside), or undefined. */
function flatObject(buf: Buffer, at: number, end: number): Record<string, unknown> | undefined {
  if (buf[at] !== 0x7b) return undefined;
  const close = buf.indexOf(0x7d, at);
  const inner = buf.indexOf(0x7b, at + 1);
  if (close === -1 || close >= end || (inner !== -1 && inner < close)) return undefined;
  try {
    const value: unknown = JSON.parse(buf.toString('latin1', at, close + 1));
    return isObject(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A token_count line in the exact shape Codex writes it (`{"timestamp":"...","type":"event_msg","payload":
 * {"type":"token_count","info":{"total_token_usage":{...},"last_token_usage":{...},...`), read from those few
 * bytes rather than parsed whole (most of a big rollout's parsing time); undefined for any other shape (the
 * line is then parsed whole). The two counts must be flat objects of plain ASCII.
 */
function quickTokenCount(buf: Buffer, start: number, end: number): Record<string, unknown> | undefined {
  if (buf.compare(HEAD, 0, HEAD.length, start, start + HEAD.length) !== 0) return undefined;
  const quote = buf.indexOf(0x22, start + HEAD.length);
  if (quote === -1 || quote + TOKEN_COUNT.length >= end || buf.compare(TOKEN_COUNT, 0, TOKEN_COUNT.length, quote, quote + TOKEN_COUNT.length) !== 0) return undefined;
  const info = quote + TOKEN_COUNT.length;
  let totalUsage: Record<string, unknown> | undefined;
  let lastUsage: Record<string, unknown> | undefined;
  let at = info;
  if (buf.compare(TOTAL, 0, TOTAL.length, at, at + TOTAL.length) === 0) {
    totalUsage = flatObject(buf, at + TOTAL.length, end);
    if (totalUsage === undefined) return undefined;
    at = buf.indexOf(0x7d, at) + 1;
    if (buf[at] !== 0x2c) return undefined;
    at += 1;
  }
  if (buf.compare(LAST, 0, LAST.length, at, at + LAST.length) === 0) {
    lastUsage = flatObject(buf, at + LAST.length, end);
    if (lastUsage === undefined) return undefined;
  }
  if (totalUsage === undefined && lastUsage === undefined) return undefined;
  const timestamp = buf.toString('utf8', start + HEAD.length, quote);
  if (timestamp.includes('\\')) return undefined;
  return { timestamp, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: totalUsage, last_token_usage: lastUsage } } };
}

function counts(value: unknown): Counts | undefined {
  if (!isObject(value)) return undefined;
  const out = {} as Counts;
  for (const key of FIELDS) out[key] = tokenCount(value[key]);
  return out;
}

const same = (a: Counts, b: Counts) => FIELDS.every((key) => a[key] === b[key]);

/** A Codex token usage record in the one shape. */
export function codexTokens(usage: Counts): TokenCounts {
  return {
    input: Math.max(0, usage.input_tokens - usage.cached_input_tokens),
    output: usage.output_tokens,
    cacheRead: usage.cached_input_tokens,
    cacheWrite: usage.cache_write_input_tokens,
    reasoning: usage.reasoning_output_tokens,
  };
}

/** Counts Codex's token_count lines, one rollout line at a time (see the file's header). */
export class CodexUsageCounter {
  readonly entries: UsageEntry[] = [];
  private model: string | undefined;
  private total: Counts | undefined;

  add(record: unknown): void {
    if (!isObject(record) || !isObject(record.payload)) return;
    const { payload } = record;
    if (record.type === 'turn_context') {
      if (typeof payload.model === 'string' && payload.model !== '') this.model = payload.model;
      return;
    }
    if (record.type !== 'event_msg' || payload.type !== 'token_count' || !isObject(payload.info)) return;
    const total = counts(payload.info.total_token_usage);
    const before = this.total;
    if (total !== undefined) {
      if (before !== undefined && same(total, before)) return;
      this.total = total;
    }
    let added = counts(payload.info.last_token_usage);
    if (added === undefined && total !== undefined) {
      added = { ...total };
      for (const key of FIELDS) added[key] = Math.max(0, total[key] - (before?.[key] ?? 0));
    }
    if (added === undefined) return;
    const timestamp = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    this.entries.push({ timestamp, model: this.model, tokens: codexTokens(added) });
  }
}

/** The entries of the rollout at `path` (ReaderError when it cannot be read; a bad line is told and skipped). */
async function rolloutEntries(path: string, options: Parameters<NonNullable<SessionUsage['entries']>>[1]): Promise<UsageEntry[]> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ReaderError(`${path}: ${cannotBeRead(error)}`);
  }
  const counter = new CodexUsageCounter();
  try {
    const lines = new FileLines(fd, fstatSync(fd).size, options.maxRecordBytes ?? MAX_RECORD_BYTES);
    const onLine = (line: Parameters<Parameters<FileLines['readChunk']>[0]>[0]) => {
      if (line.overLong) return;
      // The file's last line may be cut off: it is parsed whole (a torn line is not counted).
      let record: unknown = line.last ? undefined : quickTokenCount(line.buf, line.start, line.end);
      if (record !== undefined) {
        counter.add(record);
        return;
      }
      try {
        record = JSON.parse(lineText(line));
      } catch {
        // A cut-off last line is a rollout being written: nothing to say of it.
        if (!line.last) options.onWarning({ file: path, line: lineNumberAt(fd, line.offset ?? 0), message: 'not a JSON line; skipped' });
        return;
      }
      counter.add(record);
    };
    while (lines.readChunk(onLine, undefined, MARKS));
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
    throw new ReaderError(`${path}: ${cannotBeRead(error)}`);
  } finally {
    closeSync(fd);
  }
  return counter.entries;
}

export const codexUsage: SessionUsage = { entries: rolloutEntries };
