// Codex's token usage in the one shape (`read --usage --by`), from a rollout's own lines, counted as ccusage
// (20.0.24) counts them: each `event_msg` `token_count` is one entry, at its line's time, for the model of the
// `turn_context` before it. Its `last_token_usage` is what it adds (else what `total_token_usage` grew by); a
// count whose running total equals the one before repeats it and is skipped. Codex's `input_tokens` include
// the cached ones: input is what remains once `cached_input_tokens` (the cache reads) are taken out.
// A rollout is walked line by line from its first bytes: Codex starts each line with its time, its ordinal
// (0.171 writes one on every line of its own rollouts; older rollouts have none) and its type, so the lines of
// other types (most of the bytes) are passed over unread, and a count's numbers and a turn's model are read
// from their bytes by the one JSON byte scanner (lib/json/json-scanner.ts); a line of another shape is parsed whole.
import { closeSync, fstatSync, openSync } from 'node:fs';
import { CHUNK_BYTES, FileLines, lineNumberAt } from '../../lines/file-lines.js';
import { MAX_RECORD_BYTES } from '../../util/record-limit.js';
import { isObject } from '../../util/is-object.js';
import { tokenCount, type TokenCounts } from '../../usage.js';
import { cannotBeRead } from '../../util/fs-errors.js';
import { ReaderError, type SessionUsage, type UsageEntry } from '../../session/types.js';
import { JsonScanner, QUOTE } from '../../json/json-scanner.js';

const FIELDS = ['input_tokens', 'cached_input_tokens', 'cache_write_input_tokens', 'output_tokens', 'reasoning_output_tokens'] as const;
const [INPUT, CACHED, CACHE_WRITE, OUTPUT, REASONING] = [0, 1, 2, 3, 4] as const;
/** A count object's numbers, by FIELDS' order. */
type Counts = Float64Array;
const FIELD_BYTES = FIELDS.map((field) => Buffer.from(field));

const bytes = (text: string) => Buffer.from(text);
/**
 * How Codex starts every line of a rollout: `{"timestamp":"<time>","type":"<type>"`, or in 0.171's own
 * rollouts `{"timestamp":"<time>","ordinal":<n>,"type":"<type>"` (serde's field order).
 */
const HEAD = bytes('{"timestamp":"');
const TYPE = bytes('","type":"');
const ORDINAL = bytes('","ordinal":');
const ORDINAL_TYPE = bytes(',"type":"');
/** The two types read, with their closing quote. */
const TURN_CONTEXT = bytes('turn_context"');
const EVENT_MSG = bytes('event_msg"');
/** An event_msg's payload is a tagged enum: its own type first. */
const PAYLOAD = bytes('","payload":{"type":"');
/** A turn_context's payload, whose `model` is read from its bytes when the line ends with it. */
const CONTEXT_PAYLOAD = bytes('","payload":{');
const MODEL = [bytes('model')];
/** A count's own type and what follows it when its numbers are read from its bytes. */
const TOKEN_COUNT = bytes('token_count","info":{');
const TOKEN_COUNT_TYPE = bytes('token_count');
const TOTAL = bytes('"total_token_usage":');
const LAST = bytes('"last_token_usage":');
/**
 * A line not in Codex's own shape is parsed when it holds `n_co` (in both `token_count` and `turn_context`:
 * one search for the two), else passed over.
 */
const MARK = bytes('n_co');

/** Bytes read at a time: most rollouts in one read. */
const SPAN_BYTES = 4 * CHUNK_BYTES;

/** The one JSON byte scanner (lib/json), pointed at each line in turn. */
const scanner = new JsonScanner(Buffer.alloc(0));
/** A count line's two count objects, read by JsonScanner.wholeNumbers (only read by the counter, not kept). */
const scratchTotal: Counts = new Float64Array(FIELDS.length);
const scratchLast: Counts = new Float64Array(FIELDS.length);
/** The span of a turn_context payload's `model` value (JsonScanner.object). */
const modelSpan = new Int32Array(2);
const modelEscaped = new Uint8Array(1);

/** What to do with a line. */
const SKIP = 0;
const PARSE = 1;
const COUNT = 2;
const CONTEXT = 3;

/**
 * What a line is, from its first bytes when it is in Codex's own shape: a token_count whose counts are read
 * from its bytes (COUNT, `info` at `info`), a turn_context whose model is read from its bytes (CONTEXT, the
 * type's end at `typeEnd`), a line to parse whole (a count of another shape), or one of another type, passed
 * over. A line of another shape is parsed when it holds the mark.
 */
class LineKinds {
  info = 0;
  typeEnd = 0;
  timestampEnd = 0;
  private buf: Buffer | undefined;
  /** The next mark at or after `markFrom` in `buf` (-1: none), searched once per stretch of a span. */
  private mark = -1;
  private markFrom = -1;

  kind(buf: Buffer, start: number, end: number): number {
    const line = scanner.over(buf, end);
    if (line.startsWith(start, HEAD)) {
      const quote = line.plainStringEnd(start + HEAD.length);
      let type = -1;
      if (quote === -1) {
        // Not Codex's own shape.
      } else if (line.startsWith(quote, TYPE)) {
        type = quote + TYPE.length;
      } else if (line.startsWith(quote, ORDINAL)) {
        const ordinalEnd = line.wholeNumber(quote + ORDINAL.length);
        if (ordinalEnd !== -1 && line.startsWith(ordinalEnd, ORDINAL_TYPE)) type = ordinalEnd + ORDINAL_TYPE.length;
      }
      if (type !== -1) {
        this.timestampEnd = quote;
        // The two types wanted are compared with their closing quote (then they are plain strings); another
        // type is passed over when it is a plain string, else the line is parsed.
        if (line.startsWith(type, TURN_CONTEXT)) {
          this.typeEnd = type + TURN_CONTEXT.length - 1;
          return CONTEXT;
        }
        if (!line.startsWith(type, EVENT_MSG)) return line.plainStringEnd(type) === -1 ? PARSE : SKIP;
        const typeEnd = type + EVENT_MSG.length - 1;
        if (!line.startsWith(typeEnd, PAYLOAD)) return PARSE;
        const event = typeEnd + PAYLOAD.length;
        if (line.startsWith(event, TOKEN_COUNT)) {
          this.info = event + TOKEN_COUNT.length;
          return COUNT;
        }
        const eventEnd = line.plainStringEnd(event);
        return eventEnd === -1 || line.isText(event, eventEnd, TOKEN_COUNT_TYPE) ? PARSE : SKIP;
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
  const out: Counts = new Float64Array(FIELDS.length);
  for (let k = 0; k < FIELDS.length; k += 1) out[k] = tokenCount(value[FIELDS[k]!]);
  return out;
}

function same(a: Counts, b: Counts): boolean {
  for (let k = 0; k < FIELDS.length; k += 1) if (a[k] !== b[k]) return false;
  return true;
}

/** A Codex token usage record in the one shape. */
export function codexTokens(usage: Counts): TokenCounts {
  return {
    input: Math.max(0, usage[INPUT]! - usage[CACHED]!),
    output: usage[OUTPUT]!,
    cacheRead: usage[CACHED]!,
    cacheWrite: usage[CACHE_WRITE]!,
    reasoning: usage[REASONING]!,
  };
}

/** Counts Codex's token_count lines, one rollout line at a time (see the file's header). */
export class CodexUsageCounter {
  readonly entries: UsageEntry[] = [];
  private model: string | undefined;
  /** The running total of the last count that gave one (`hasTotal`). */
  private readonly total: Counts = new Float64Array(FIELDS.length);
  private hasTotal = false;

  add(record: unknown): void {
    if (!isObject(record) || !isObject(record.payload)) return;
    const { payload } = record;
    if (record.type === 'turn_context') {
      if (typeof payload.model === 'string') this.turnModel(payload.model);
      return;
    }
    if (record.type !== 'event_msg' || payload.type !== 'token_count' || !isObject(payload.info)) return;
    const timestamp = typeof record.timestamp === 'string' ? record.timestamp : undefined;
    this.count(timestamp, counts(payload.info.total_token_usage), counts(payload.info.last_token_usage));
  }

  /** A turn_context's model (an empty one changes nothing). */
  turnModel(model: string): void {
    if (model !== '') this.model = model;
  }

  /** One token_count: its running total and its last usage, either missing (both only read, not kept). */
  count(timestamp: string | undefined, total: Counts | undefined, last: Counts | undefined): void {
    if (total !== undefined && this.hasTotal && same(total, this.total)) return;
    let tokens: TokenCounts | undefined;
    if (last !== undefined) {
      tokens = codexTokens(last);
    } else if (total !== undefined) {
      const grown: Counts = new Float64Array(FIELDS.length);
      for (let k = 0; k < FIELDS.length; k += 1) grown[k] = Math.max(0, total[k]! - (this.hasTotal ? this.total[k]! : 0));
      tokens = codexTokens(grown);
    }
    if (total !== undefined) {
      this.total.set(total);
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
    at = line.wholeNumbers(at + TOTAL.length, FIELD_BYTES, scratchTotal);
    if (at === -1 || buf[at] !== 0x2c || at >= end) return false;
    total = scratchTotal;
    at += 1;
  }
  if (line.startsWith(at, LAST)) {
    if (line.wholeNumbers(at + LAST.length, FIELD_BYTES, scratchLast) === -1) return false;
    last = scratchLast;
  }
  if (total === undefined && last === undefined) return false;
  counter.count(buf.toString('utf8', start + HEAD.length, kinds.timestampEnd), total, last);
  return true;
}

/**
 * Takes the model of a turn_context line in Codex's own shape from its bytes (`"payload":{...}` closing the
 * line, its `model` a string without escapes; the payload walked as JSON.parse would take it): false when it
 * is of another shape (it is then parsed whole).
 */
function modelQuickly(counter: CodexUsageCounter, kinds: LineKinds, buf: Buffer, end: number): boolean {
  const line = scanner.over(buf, end);
  if (!line.startsWith(kinds.typeEnd, CONTEXT_PAYLOAD)) return false;
  modelSpan.fill(-1);
  const payloadEnd = line.object(kinds.typeEnd + CONTEXT_PAYLOAD.length - 1, 1, modelSpan, modelEscaped, undefined, MODEL);
  if (payloadEnd === -1 || payloadEnd !== end - 1 || buf[payloadEnd] !== 0x7d) return false;
  const from = modelSpan[0]!;
  if (from === -1 || buf[from] !== QUOTE) return true;
  if (modelEscaped[0] === 1) return false;
  counter.turnModel(buf.toString('utf8', from + 1, modelSpan[1]! - 1));
  return true;
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
  const kinds = new LineKinds();
  const max = options.maxRecordBytes ?? MAX_RECORD_BYTES;
  let lines: FileLines | undefined;
  try {
    const read = lines = new FileLines(fd, fstatSync(fd).size, max, SPAN_BYTES);
    const onLine = (buf: Buffer, start: number, end: number, last: boolean) => {
      const kind = kinds.kind(buf, start, end);
      if (kind === SKIP) return;
      // The file's last line may be cut off: it is parsed whole (a torn line is not counted).
      if (kind === COUNT && !last && countQuickly(counter, kinds, buf, start, end)) return;
      if (kind === CONTEXT && !last && modelQuickly(counter, kinds, buf, end)) return;
      let record: unknown;
      try {
        record = JSON.parse(buf.toString('utf8', start, end));
      } catch {
        // A cut-off last line is a rollout being written: nothing to say of it.
        if (!last) options.onWarning({ file: path, line: lineNumberAt(fd, read.offsetAt(start)), message: 'not a JSON line; skipped' });
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
    while (read.readSpan(onSpan));
  } catch (error) {
    if (typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
    throw new ReaderError(`${path}: ${cannotBeRead(error)}`);
  } finally {
    lines?.release();
    closeSync(fd);
  }
  return counter.entries;
}

/** Rollouts are counted fast enough on one thread that workers only pay for a large tree (docs/performance.md). */
export const codexUsage: SessionUsage = { entries: rolloutEntries, workerMinBytes: 1024 * 1024 * 1024 };
