// `asyncai-log read --inspect`: a session's shape without its text, one JSON object per session. Generic over
// the registry: the agent's own records counted by kind (its input format's `recordKinds`, else each line's
// top-level `type`, taken from the line's bytes by the JSON scanner), and the generic events any agent's
// reader or input adapter gives counted by type, tool calls by name, images, reasoning, compactions, usage by
// model; branches, subagents and a session cut off where the agent's transcript reader knows them. Nothing of
// the conversation's text is kept: only names (record kinds, tool names, models: capped in length and number),
// ids and counts.
import { closeSync, openSync } from 'node:fs';
import type { InputFormat } from '../input/types.js';
import type { BranchInfo, TranscriptReading } from '../session/types.js';
import { sumUsage, type Usage } from '../usage.js';
import { isObject } from '../util/is-object.js';
import { FileLines, lineText, type FileLine } from '../lines/file-lines.js';
import { JsonScanner, QUOTE, valueAt } from '../json/json-scanner.js';
import { readAdapted } from './any-input.js';

/** Distinct names kept per count (record kinds, tool names, models); the rest are counted under OTHER. */
const MOST_NAMES = 1000;
/** Longest name kept whole (a longer one is cut, `…` marking it). */
const LONGEST_NAME = 200;
const OTHER = '(other)';

/** A record a line holds that is not JSON, or is over the record limit (its kind cannot be known). */
export const NOT_JSON = '(not JSON)';
export const TOO_LONG = '(over the record limit)';
/** A record without a kind of its own (no top-level string `type`, and no `recordKinds` naming one). */
export const NO_KIND = '(no type)';
/** The model of usage no event named a model for. */
export const NO_MODEL = '(unknown)';

/** A name as it is counted: at most LONGEST_NAME characters. */
function shortName(name: string): string {
  return name.length > LONGEST_NAME ? `${name.slice(0, LONGEST_NAME)}…` : name;
}

/** Counts by name, in first-seen order; at most MOST_NAMES names. */
export class Tally {
  private readonly counts = new Map<string, number>();

  add(name: string, n = 1): void {
    let key = shortName(name);
    if (!this.counts.has(key) && this.counts.size >= MOST_NAMES) key = OTHER;
    this.counts.set(key, (this.counts.get(key) ?? 0) + n);
  }

  get total(): number {
    let sum = 0;
    for (const n of this.counts.values()) sum += n;
    return sum;
  }

  value(): Record<string, number> {
    return Object.fromEntries(this.counts);
  }
}

/** The kinds of the records of one parsed line of `format` (its `recordKinds`, else its top-level `type`). */
export function recordKindsOf(value: unknown, format: InputFormat | undefined): readonly string[] {
  if (format?.recordKinds !== undefined) {
    const kinds = format.recordKinds(value);
    return kinds.length > 0 ? kinds : [NO_KIND];
  }
  return [isObject(value) && typeof value.type === 'string' ? value.type : NO_KIND];
}

const TYPE_FIELD = [Buffer.from('type')];

/** The top-level `type` of the JSON object on `buf[start, end)` from its bytes; null: no string type; undefined: parse it. */
function scannedType(buf: Buffer, start: number, end: number): string | null | undefined {
  const walk = new JsonScanner(buf, end, TYPE_FIELD);
  const open = walk.ws(start);
  if (buf[open] !== 0x7b) return undefined;
  const spans = new Int32Array(2).fill(-1);
  const escapes = new Uint8Array(1);
  const close = walk.object(open, 1, spans, escapes);
  if (close < 0 || walk.ws(close) !== end) return undefined;
  if (spans[0]! < 0 || buf[spans[0]!] !== QUOTE) return null;
  return valueAt(buf, spans[0]!, spans[1]!, escapes[0] === 1) as string;
}

/** The kinds of one line of a file. */
function lineKinds(line: FileLine, format: InputFormat | undefined): readonly string[] {
  if (line.overLong) return [TOO_LONG];
  if (format?.recordKinds === undefined && !line.invalidUtf8) {
    const type = scannedType(line.buf, line.start, line.end);
    if (type === null) return [NO_KIND];
    if (type !== undefined) return [type];
  }
  let value: unknown;
  try {
    value = JSON.parse(lineText(line));
  } catch {
    return [NOT_JSON];
  }
  return recordKindsOf(value, format);
}

/**
 * Count the records of the file at `path` by kind, line by line (a transcript reader's file: its lines are
 * records). Throws what opening or reading it throws.
 */
export function countFileRecords(path: string, format: InputFormat | undefined, maxLineBytes: number, kinds: Tally): { bytes: number } {
  const fd = openSync(path, 'r');
  try {
    const lines = new FileLines(fd, Number.MAX_SAFE_INTEGER, maxLineBytes);
    const onLine = (line: FileLine) => {
      for (const kind of lineKinds(line, format)) kinds.add(kind);
    };
    while (lines.readChunk(onLine));
    return { bytes: lines.bytesRead };
  } finally {
    closeSync(fd);
  }
}

/**
 * The usage the events reported, summed per model (lib/usage.ts): an event's own `model`, else the last one
 * an event named before it, else NO_MODEL. Kept apart so that another shape of usage can take its place.
 */
export class UsageByModel {
  private model: string | undefined;
  private readonly totals = new Map<string, Usage>();

  add(event: Record<string, unknown>): void {
    if (typeof event.model === 'string' && event.model !== '') this.model = shortName(event.model);
    if (!isObject(event.usage)) return;
    let model = this.model ?? NO_MODEL;
    if (!this.totals.has(model) && this.totals.size >= MOST_NAMES) model = OTHER;
    this.totals.set(model, sumUsage(this.totals.get(model) ?? {}, event.usage));
  }

  value(): Record<string, Usage> {
    return Object.fromEntries(this.totals);
  }
}

/** What the generic events of one session add up to. */
export class EventShape {
  private readonly types = new Tally();
  private readonly tools = new Tally();
  private readonly usage = new UsageByModel();
  private turns = 0;
  private toolErrors = 0;
  private images = 0;
  private reasoning = 0;
  private compactions = 0;
  /** Tool calls without a result yet (at the end: the session was cut in the middle of a turn). */
  private readonly open = new Set<string>();

  add(event: unknown): void {
    if (!isObject(event) || typeof event.type !== 'string') return;
    this.types.add(event.type);
    switch (event.type) {
      case 'user':
        this.turns += 1;
        if (Array.isArray(event.images)) this.images += event.images.length;
        break;
      case 'tool_call':
        this.tools.add(typeof event.name === 'string' ? event.name : '?');
        if (typeof event.id === 'string') this.open.add(event.id);
        break;
      case 'tool_result':
        if (event.is_error === true) this.toolErrors += 1;
        if (typeof event.id === 'string') this.open.delete(event.id);
        if (Array.isArray(event.content)) this.images += event.content.filter((part) => isObject(part) && part.type === 'image').length;
        break;
      case 'thinking': this.reasoning += 1; break;
      case 'compaction': this.compactions += 1; break;
      default: break;
    }
    this.usage.add(event);
  }

  /** The start of a line of NDJSON text whose end is still to come (see addText). */
  private carry = '';

  /**
   * Add the events of a chunk of NDJSON text (a transcript reader's output): a line may be cut between two
   * chunks, so the text after the last newline waits for the next chunk (or `endText`).
   */
  addText(text: string | Buffer): void {
    const lines = (this.carry + text.toString()).split('\n');
    this.carry = lines.pop()!;
    for (const line of lines) if (line !== '') this.add(JSON.parse(line));
  }

  /** The end of the NDJSON text: its last line, if it did not end in a newline. */
  endText(): void {
    if (this.carry !== '') this.add(JSON.parse(this.carry));
    this.carry = '';
  }

  value(): Record<string, unknown> {
    return {
      events: this.types.value(),
      turns: this.turns,
      tool_calls: this.tools.value(),
      tool_errors: this.toolErrors,
      unanswered_tool_calls: this.open.size,
      images: this.images,
      reasoning: this.reasoning,
      compactions: this.compactions,
      usage: this.usage.value(),
    };
  }
}

/** Which session a shape is of (none of it read from the conversation's text). */
export interface InspectedSession {
  /** Its id, when known (found by id, a store's, its transcript reader's). */
  sessionId: string | undefined;
  /** Its agent's `--session-format`, when its format is an agent's. */
  agent: string | undefined;
  /** The input format it was read as. */
  input: string | undefined;
  /** Its file (`<database>#<id>` for a store's session, `stdin`). */
  file: string;
  /** A store's child session (a subagent's). */
  child?: boolean;
}

/** One inspected session's line. */
export function shapeLine(session: InspectedSession, parts: {
  records: Tally; events: EventShape; partial: boolean; warnings: number;
  bytes?: number; branches?: readonly object[] | null; subagents?: readonly object[] | null;
}): Record<string, unknown> {
  const events = parts.events.value();
  return {
    session_id: session.sessionId ?? null,
    agent: session.agent ?? null,
    input: session.input ?? null,
    file: session.file,
    ...(session.child !== undefined ? { child: session.child } : {}),
    partial: parts.partial,
    ...(parts.bytes !== undefined ? { bytes: parts.bytes } : {}),
    records: parts.records.total,
    records_by_kind: parts.records.value(),
    ...events,
    branches: parts.branches === undefined ? null : parts.branches,
    subagents: parts.subagents === undefined ? null : parts.subagents,
    warnings: parts.warnings,
  };
}

/** The fields of a branch (`tree()`) that are ids and counts: never its text (`last_prompt`). */
const BRANCH_FIELDS = ['leaf', 'resumed', 'records', 'forks_from'] as const;

/** A transcript reader's branches without their text. */
export function branchShapes(branches: readonly BranchInfo[]): object[] {
  return branches.map((branch) => Object.fromEntries(BRANCH_FIELDS.map((key) => [key, branch[key]])));
}

/**
 * The shape of a session read by its agent's transcript reader: its records from `path`, its events, its
 * branches and its subagents (each a shape of its events). Its warnings go to the reading's `onWarning`.
 */
export async function inspectReading(reading: TranscriptReading, path: string, format: InputFormat | undefined,
  maxLineBytes: number): Promise<{ records: Tally; events: EventShape; bytes: number; branches: object[]; subagents: object[] }> {
  const records = new Tally();
  const { bytes } = countFileRecords(path, format, maxLineBytes, records);
  const events = new EventShape();
  // An event JSON cannot write (nested too deeply) is not counted.
  const fail = () => undefined;
  for await (const text of reading.ndjson(fail)) events.addText(text);
  events.endText();
  const branches = branchShapes((await reading.tree()).branches);
  const subagents: object[] = [];
  for (const sub of await reading.subagents()) {
    const shape = new EventShape();
    for await (const text of sub.ndjson(fail)) shape.addText(text);
    shape.endText();
    subagents.push({ agent_id: sub.agentId ?? null, ...shape.value() });
  }
  return { records, events, bytes, branches, subagents };
}

/** The shape of a stream read through `format`'s input adapter: its records and events, and its bytes. */
export async function inspectAdapted(chunks: AsyncIterable<Buffer>, format: InputFormat,
  options: { name: string; maxLineBytes: number; warn: () => void }): Promise<{ records: Tally; events: EventShape; bytes: number; torn: boolean }> {
  const records = new Tally();
  const events = new EventShape();
  let bytes = 0;
  let last = 0x0a;
  async function* counted(): AsyncIterable<Buffer> {
    for await (const chunk of chunks) {
      bytes += chunk.length;
      if (chunk.length > 0) last = chunk[chunk.length - 1]!;
      yield chunk;
    }
  }
  await readAdapted(counted(), format, {
    name: options.name, events: true, maxLineBytes: options.maxLineBytes, report: options.warn,
    onValue: (value) => {
      for (const kind of recordKindsOf(value, format)) records.add(kind);
    },
    onBad: () => records.add(NOT_JSON),
    write: async (list) => {
      for (const event of list) events.add(event);
    },
    closed: () => false,
  });
  return { records, events, bytes, torn: last !== 0x0a };
}
