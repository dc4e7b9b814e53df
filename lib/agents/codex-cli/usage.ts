// Codex's token usage in the one shape (`read --usage --by`), from a rollout's own lines, counted as ccusage
// (20.0.24) counts them: each `event_msg` `token_count` is one entry, at its line's time, for the model of the
// `turn_context` before it. Its `last_token_usage` is what it adds (else what `total_token_usage` grew by); a
// count whose running total equals the one before repeats it and is skipped. Codex's `input_tokens` include
// the cached ones: input is what remains once `cached_input_tokens` (the cache reads) are taken out.
// A rollout is walked line by line from its first bytes: Codex starts each line with its time and type, so
// the lines of other types (most of the bytes) are passed over unread, and a count's numbers are read from
// its bytes by the one JSON byte scanner (lib/json/json-scanner.ts); a line of another shape is parsed whole.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { CHUNK_BYTES, FileLines, lineNumberAt } from '../../lines/file-lines.js';
import { MAX_RECORD_BYTES } from '../../util/record-limit.js';
import { isObject } from '../../util/is-object.js';
import { tokenCount, type TokenCounts } from '../../usage.js';
import { cannotBeRead } from '../../util/fs-errors.js';
import { ReaderError, type SessionUsage, type UsageEntry } from '../../session/types.js';
import { JsonScanner } from '../../json/json-scanner.js';

const FIELDS = ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens'] as const;
type Counts = Record<(typeof FIELDS)[number], number>;
const FIELD_BYTES = FIELDS.map((field) => Buffer.from(field));

const bytes = (text: string) => Buffer.from(text);
/** How Codex starts every line of a rollout: `{"timestamp":"<time>","type":"<type>"` (serde's field order). */
const HEAD = bytes('{"timestamp":"');
const TYPE = bytes('","type":"');
const TURN_CONTEXT = bytes('turn_context');
const EVENT_MSG = bytes('event_msg');
/** An event_msg's payload is a tagged enum: its own type first. */
const PAYLOAD = bytes('","payload":{"type":"');
const TOKEN_COUNT = bytes('token_count');
const INFO = bytes('","info":{');
const TOTAL = bytes('"total_token_usage":');
const LAST = bytes('"last_token_usage":');
/**
 * A line not in Codex's own shape is parsed when it holds `n_co` (in both `token_count` and `turn_context`:
 * one search for the two), else passed over.
 */
const MARK = bytes('n_co');

/** Bytes read at a time: most rollouts in one read. */
const SPAN_BYTES = 4 * CHUNK_BYTES;
/** The buffer every rollout of this thread is read into, one at a time (rolloutEntries does not yield while reading). */
let spare: Buffer | undefined;

/** The one JSON byte scanner (lib/json), pointed at each line in turn. */
const scanner = new JsonScanner(Buffer.alloc(0));
/** A count object's numbers, by FIELDS' order (see JsonScanner.wholeNumbers). */
const numbers = new Float64Array(FIELDS.length);

/** `numbers` into `out`. */
function fromNumbers(out: Counts): Counts {
  for (let k = 0; k < FIELDS.length; k += 1) out[FIELDS[k]!] = numbers[k]!;
  return out;
}

/** What to do with a line. */
const SKIP = 0;
const PARSE = 1;
const COUNT = 2;

/**
 * What a line is, from its first bytes when it is in Codex's own shape: a token_count whose counts are read
 * from its bytes (COUNT, `info` at `at.info`), a line to parse whole (a turn_context, a count of another shape),
 * or one of another type, passed over. A line of another shape is parsed when it holds the mark.
 */
class LineKinds {
  info = 0;
  timestampEnd = 0;
  private buf: Buffer | undefined;
  /** The next mark at or after `markFrom` in `buf` (-1: none), searched once per stretch of a span. */
  private mark = -1;
  private markFrom = -1;

  kind(buf: Buffer, start: number, end: number): number {
    const line = scanner.over(buf, end);
    if (line.startsWith(start, HEAD)) {
      const quote = line.plainStringEnd(start + HEAD.length);
      if (quote !== -1 && line.startsWith(quote, TYPE)) {
        this.timestampEnd = quote;
        const type = quote + TYPE.length;
        const typeEnd = line.plainStringEnd(type);
        if (typeEnd === -1 || line.isText(type, typeEnd, TURN_CONTEXT)) return PARSE;
        if (!line.isText(type, typeEnd, EVENT_MSG)) return SKIP;
        if (!line.startsWith(typeEnd, PAYLOAD)) return PARSE;
        const event = typeEnd + PAYLOAD.length;
        const eventEnd = line.plainStringEnd(event);
        if (eventEnd === -1) return PARSE;
        if (!line.isText(event, eventEnd, TOKEN_COUNT)) return SKIP;
        if (!line.startsWith(eventEnd, INFO)) return PARSE;
        this.info = eventEnd + INFO.length;
        return COUNT;
      }
    }
    if (buf !== this.buf || this.markFrom > start || (this.mark !== -1 && this.mark < start)) {
      this.buf = buf;
      this.markFrom = start;
      this.mark = buf.indexOf(MARK, start);
    }
    return this.mark !== -1 && this.mark < end ? PARSE : SKIP;
  }

  /** The span's bytes changed. */
  reset(): void {
    this.buf = undefined;
  }
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
  /** The running total of the last count that gave one (`hasTotal`). */
  private readonly total = {} as Counts;
  private hasTotal = false;

  add(record: unknown): void {
    if (!isObject(record) || !isObject(record.payload)) return;
    const { payload } = record;
    if (record.type === 'turn_context') {
      if (typeof payload.model === 'string' && payload.model !== '') this.model = payload.model;
      return;
    }
    if (record.type !== 'event_msg' || payload.type !== 'token_count' || !isObject(payload.info)) return;
    const timestamp = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    this.count(timestamp, counts(payload.info.total_token_usage), counts(payload.info.last_token_usage));
  }

  /** One token_count: its running total and its last usage, either missing (both only read, not kept). */
  count(timestamp: string | undefined, total: Counts | undefined, last: Counts | undefined): void {
    if (total !== undefined && this.hasTotal && same(total, this.total)) return;
    let tokens: TokenCounts | undefined;
    if (last !== undefined) {
      tokens = codexTokens(last);
    } else if (total !== undefined) {
      const grown = {} as Counts;
      for (const key of FIELDS) grown[key] = Math.max(0, total[key] - (this.hasTotal ? this.total[key] : 0));
      tokens = codexTokens(grown);
    }
    if (total !== undefined) {
      for (const key of FIELDS) this.total[key] = total[key];
      this.hasTotal = true;
    }
    if (tokens !== undefined) this.entries.push({ timestamp, model: this.model, tokens });
  }
}

/**
 * Counts a token_count line in Codex's own shape from its bytes (`"info":{"total_token_usage":{...},
 * "last_token_usage":{...},...`, either count missing; most of a big rollout's parsing time saved): false when
 * it is of another shape (it is then parsed whole).
 */
function countQuickly(counter: CodexUsageCounter, kinds: LineKinds, buf: Buffer, start: number, end: number): boolean {
  const line = scanner.over(buf, end);
  let at = kinds.info;
  let total: Counts | undefined;
  let last: Counts | undefined;
  if (line.startsWith(at, TOTAL)) {
    at = line.wholeNumbers(at + TOTAL.length, FIELD_BYTES, numbers);
    if (at === -1 || buf[at] !== 0x2c || at >= end) return false;
    total = fromNumbers(scratchTotal);
    at += 1;
  }
  if (line.startsWith(at, LAST)) {
    if (line.wholeNumbers(at + LAST.length, FIELD_BYTES, numbers) === -1) return false;
    last = fromNumbers(scratchLast);
  }
  if (total === undefined && last === undefined) return false;
  counter.count(buf.toString('utf8', start + HEAD.length, kinds.timestampEnd), total, last);
  return true;
}

const scratchTotal = {} as Counts;
const scratchLast = {} as Counts;

/** The entries of the rollout at `path` (ReaderError when it cannot be read; a bad line is told and skipped). */
async function rolloutEntries(path: string, options: Parameters<NonNullable<SessionUsage['entries']>>[1]): Promise<UsageEntry[]> {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ReaderError(`${path}: ${cannotBeRead(error)}`);
  }
  const counter = new CodexUsageCounter();
  const kinds = new LineKinds();
  const max = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  try {
    spare ??= Buffer.allocUnsafeSlow(SPAN_BYTES);
    const lines = new FileLines(fd, fstatSync(fd).size, max, SPAN_BYTES, undefined, spare);
    const onLine = (buf: Buffer, start: number, end: number, last: boolean) => {
      const kind = kinds.kind(buf, start, end);
      if (kind === SKIP) return;
      // The file's last line may be cut off: it is parsed whole (a torn line is not counted).
      if (kind === COUNT && !last && countQuickly(counter, kinds, buf, start, end)) return;
      let record: unknown;
      try {
        record = JSON.parse(buf.toString('utf8', start, end));
      } catch {
        // A cut-off last line is a rollout being written: nothing to say of it.
        if (!last) options.onWarning({ file: path, line: lineNumberAt(fd, lines.offsetAt(start)), message: 'not a JSON line; skipped' });
        return;
      }
      counter.add(record);
    };
    const onSpan = (buf: Buffer, start: number, end: number, last: boolean) => {
      kinds.reset();
      for (let at = start; at < end;) {
        let nl = last ? end : buf.indexOf(10, at);
        if (nl === -1 || nl > end) nl = end;
        const lineEnd = nl > at && buf[nl - 1] === 13 ? nl - 1 : nl;
        if (lineEnd > at && lineEnd - at <= max) onLine(buf, at, lineEnd, last);
        at = nl + 1;
      }
    };
    while (lines.readSpan(onSpan));
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
    throw new ReaderError(`${path}: ${cannotBeRead(error)}`);
  } finally {
    closeSync(fd);
  }
  return counter.entries;
}

export const codexUsage: SessionUsage = { entries: rolloutEntries };
