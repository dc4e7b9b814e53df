// Pi session files read back by `asyncai-log read` (the registry's `Agent.transcripts`): the branch pi continues,
// or the one `--branch <entry id>` names, as the pi-session adapter maps it; the branches of the tree (`--tree`);
// and the tokens of every assistant message in the file (`--usage`: every branch was billed). A pi session holds
// its own turns only, so each method reads the file once, line by line, keeping the entries' links.
import { closeSync, createReadStream, openSync, readSync } from 'node:fs';
import { basename } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { InputError } from '../../input/types.js';
import { readLineValue } from '../../json/raw-json.js';
import { PREVIEW_CHARS } from '../../lines/line-messages.js';
import { LineSplitter } from '../../lines/lines.js';
import { ReaderError, type BranchInfo, type TranscriptReader, type TranscriptReading, type TranscriptReadOptions } from '../../session/types.js';
import { isObject } from '../../util/is-object.js';
import { cannotBeRead } from '../../util/fs-errors.js';
import { MAX_RECORD_BYTES } from '../../util/record-limit.js';
import { piSession, PiSessionAdapter, fromPiUsage } from './session-input.js';

type Json = Record<string, unknown>;

/** Entry types that are turns of the conversation: a branch is named by its last one. */
const TURN_TYPES = new Set(['message', 'custom_message', 'compaction', 'branch_summary']);

/** What the tree and usage need of an entry. */
interface Link {
  id: string;
  parentId: string | undefined;
  turn: boolean;
  line: number;
  timestamp: string | undefined;
  prompt: string | undefined;
}

/** The start of a user message's text, one line, for `last_prompt`. */
function promptOf(entry: Json): string | undefined {
  const message = entry.message;
  if (entry.type !== 'message' || !isObject(message) || message.role !== 'user') return undefined;
  const content = message.content;
  const text = typeof content === 'string' ? content : Array.isArray(content)
    ? content.filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as { text: string }).text).join(' ')
    : '';
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}...` : flat;
}

/** The session id of the pi file at `path`: its header's, else the uuid after the file name's `_`. */
function headerId(path: string): string {
  let fd: number | undefined;
  try {
    fd = openSync(path, 'r');
    const buf = Buffer.alloc(64 * 1024);
    const n = readSync(fd, buf, 0, buf.length, 0);
    const first = buf.subarray(0, n).toString('utf8').replace(/^\ufeff/, '').split('\n').find((l) => l.trim() !== '');
    const header: unknown = first !== undefined ? JSON.parse(first) : undefined;
    if (isObject(header) && header.type === 'session' && typeof header.id === 'string') return header.id;
  } catch {
    // unreadable or not JSON: the methods say what is wrong
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  const name = basename(path).replace(/\.jsonl$/, '');
  return name.slice(name.lastIndexOf('_') + 1);
}

class PiTranscriptReading implements TranscriptReading {
  readonly agentId = undefined;
  partial = false;
  private id: string | undefined;

  constructor(private readonly path: string, private readonly options: TranscriptReadOptions) {}

  get sessionId(): string {
    return this.id ??= headerId(this.path);
  }

  private get name(): string {
    return this.options.name ?? this.path;
  }

  /** Each entry of the file (its header checked first), located; bad lines are reported and skipped. */
  private async *values(): AsyncGenerator<{ no: number; value: unknown }> {
    const max = this.options.maxRecordBytes ?? MAX_RECORD_BYTES;
    const splitter = new LineSplitter({ maxLineBytes: max });
    let headed = false;
    let last = 0x0a;
    const take = function* (this: PiTranscriptReading, lines: ReturnType<LineSplitter['push']>, ended = false) {
      for (const [at, line] of lines.entries()) {
        const read = readLineValue(line, max, line.no);
        if ('bad' in read) {
          // A last line without its newline that is not JSON is an interrupted write: said once, as such.
          const cut = ended && at === lines.length - 1 && last !== 0x0a;
          if (cut) this.partial = true;
          this.options.onWarning({ file: this.name, line: read.no, message: cut ? 'the last line is cut off (an interrupted write); the session is partial' : read.bad });
          continue;
        }
        if (!headed) {
          if (!piSession.detect(read.value)) throw new ReaderError(`${this.name}: not a pi session (its first entry is no {"type":"session","id":...} header)`);
          headed = true;
        }
        yield { no: read.no, value: read.value };
      }
    }.bind(this);
    try {
      for await (const chunk of createReadStream(this.path)) {
        const bytes = chunk as Buffer;
        if (bytes.length > 0) last = bytes[bytes.length - 1]!;
        yield* take(splitter.push(bytes));
      }
    } catch (error) {
      if (error instanceof ReaderError || typeof (error as NodeJS.ErrnoException).syscall !== 'string') throw error;
      throw new ReaderError(`${this.name}: ${cannotBeRead(error)}`);
    }
    yield* take(splitter.end(), true);
    if (!headed) throw new ReaderError(`${this.name}: not a pi session (no entry in it)`);
  }

  async *ndjson(onUnwritable: (event: GenericEvent, error: Error) => void): AsyncIterable<string> {
    const leaf = this.options.branch;
    const adapter = new PiSessionAdapter(leaf !== undefined ? { leaf } : {});
    const now = new Date().toISOString();
    for await (const { no, value } of this.values()) {
      const warn = (message: string) => this.options.onWarning({ file: this.name, line: no, message });
      try {
        adapter.map(value, now, warn);
      } catch (error) {
        if (!(error instanceof InputError)) throw error;
        warn(error.message);
      }
    }
    if (leaf !== undefined && !adapter.hasEntry(leaf)) throw new ReaderError(`${this.name}: no entry with id ${JSON.stringify(leaf)} (--branch)`);
    let text = '';
    for (const event of adapter.end(now, (message) => this.options.onWarning({ file: this.name, message }))) {
      if (event.type === 'context' && !this.options.includeEvents) continue;
      try {
        text += `${JSON.stringify(event)}\n`;
      } catch (error) {
        onUnwritable(event, error as Error);
      }
    }
    if (text !== '') yield text;
  }

  /** Every assistant message's tokens, by model (failed responses too: they were billed). */
  async usage(): Promise<Record<string, unknown>> {
    const totals = { input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    const byModel: Record<string, typeof totals & { responses: number }> = {};
    let responses = 0;
    for await (const { value } of this.values()) {
      if (!isObject(value)) continue;
      // A session entry, or a `pi --mode json` message as it ended.
      const message = value.type === 'message' || value.type === 'message_end' ? value.message : undefined;
      if (!isObject(message) || message.role !== 'assistant') continue;
      const usage = fromPiUsage(message.usage);
      if (usage === undefined) continue;
      responses += 1;
      const model = typeof message.model === 'string' && message.model !== '' ? message.model : 'unknown';
      const into = byModel[model] ??= { responses: 0, input_tokens: 0, output_tokens: 0, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
      into.responses += 1;
      for (const key of Object.keys(totals) as (keyof typeof totals)[]) {
        const n = usage[key];
        if (typeof n !== 'number' || !Number.isSafeInteger(n) || n < 0) continue;
        totals[key] += n;
        into[key] += n;
      }
    }
    return { responses, ...totals, by_model: byModel };
  }

  /** One line per branch: every turn no later turn follows, in file order. */
  async tree(): Promise<{ branches: readonly BranchInfo[] }> {
    const links = new Map<string, Link>();
    let lastId: string | undefined;
    for await (const { no, value } of this.values()) {
      if (!isObject(value) || typeof value.id !== 'string' || value.type === 'session' || !('parentId' in value)) continue;
      links.set(value.id, {
        id: value.id,
        parentId: typeof value.parentId === 'string' ? value.parentId : undefined,
        turn: TURN_TYPES.has(value.type as string),
        line: no,
        timestamp: typeof value.timestamp === 'string' ? value.timestamp : undefined,
        prompt: promptOf(value),
      });
      lastId = value.id;
    }
    /** The turns from the root to `id`'s nearest turn (itself when it is one), root first. */
    const turnsTo = (id: string | undefined): Link[] => {
      const path: Link[] = [];
      const seen = new Set<string>();
      for (let at = id !== undefined ? links.get(id) : undefined; at !== undefined && !seen.has(at.id); at = at.parentId !== undefined ? links.get(at.parentId) : undefined) {
        seen.add(at.id);
        if (at.turn) path.push(at);
      }
      return path.reverse();
    };
    const followed = new Set<string>();
    for (const link of links.values()) {
      if (!link.turn) continue;
      const path = turnsTo(link.parentId);
      const above = path.at(-1);
      if (above !== undefined) followed.add(above.id);
    }
    const resumedPath = turnsTo(lastId);
    const resumedLeaf = resumedPath.at(-1)?.id;
    const onResumed = new Set(resumedPath.map((link) => link.id));
    const branches: BranchInfo[] = [];
    for (const link of links.values()) {
      if (!link.turn || followed.has(link.id)) continue;
      const path = turnsTo(link.id);
      const resumed = link.id === resumedLeaf;
      const shared = resumed ? undefined : path.findLast((turn) => onResumed.has(turn.id));
      const prompt = path.findLast((turn) => turn.prompt !== undefined)?.prompt;
      branches.push({
        leaf: link.id, resumed, records: path.length, forks_from: resumed ? null : shared?.id ?? null, line: link.line,
        ...(link.timestamp !== undefined ? { timestamp: link.timestamp } : {}),
        ...(prompt !== undefined ? { last_prompt: prompt } : {}),
      });
    }
    return { branches };
  }

  async subagents(): Promise<TranscriptReading[]> {
    return []; // pi runs no subagents of its own
  }
}

/** How `asyncai-log read` reads pi session files. */
export const piTranscripts: TranscriptReader = {
  name: 'Pi',
  input: piSession.name,
  open: (path, options) => new PiTranscriptReading(path, options),
};
