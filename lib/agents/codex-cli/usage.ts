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

/** The lines that matter hold one of these (found in the bytes: the other lines are never parsed). */
const MARKS = [Buffer.from('"token_count"'), Buffer.from('"turn_context"')];

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
      let record: unknown;
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
