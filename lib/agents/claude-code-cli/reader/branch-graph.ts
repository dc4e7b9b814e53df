// What the branch index (branch.ts) keeps of a transcript's records, fed record by record by the first pass:
// dense integer ids for uuids, a column of integers per field (parent, logical parent, kind, line, flags), one
// slot per id, and the walks up a chain. What is asked of it (the resumed leaf, a branch, the tree) is branch.ts.
import type { NodeKind, RecordHead } from './record-head.js';
import { isObject, isToolResultsOnly } from './record-types.js';

export const KINDS: readonly NodeKind[] = ['user', 'assistant', 'tool-results', 'context', 'boundary'];
export const NONE = -1;
/** A link that is not a string at all (null, missing): unlike NONE, a string naming no record here. */
export const NOT_A_STRING = -2;
export const SIDECHAIN = 1;
export const PARENT_STRING = 2;
export const LOGICAL_STRING = 4;

/**
 * A growing column of integers, one slot per record id. A value is stored less `empty`, so a slot never
 * written holds zero and reads `empty`: the column is never filled, and pages past the last id are not touched.
 */
export class Column {
  private data: Int32Array | Uint8Array;

  /** @param small values fit a byte (less `empty`) */
  constructor(private readonly empty: number, private readonly small = false) {
    this.data = small ? new Uint8Array(1024) : new Int32Array(1024);
  }

  get(id: number): number {
    return this.data[id]! + this.empty;
  }

  set(id: number, value: number): void {
    this.data[id] = value - this.empty;
  }

  ensure(size: number): void {
    if (size <= this.data.length) return;
    let length = this.data.length;
    while (length < size) length *= 2;
    const grown = this.small ? new Uint8Array(length) : new Int32Array(length);
    grown.set(this.data);
    this.data = grown;
  }
}

/** A column whose slots are nearly all `empty` (logical parents: compaction boundaries only), kept in a Map. */
export class SparseColumn {
  private readonly values = new Map<number, number>();
  constructor(private readonly empty: number) {}
  get(id: number): number {
    return this.values.get(id) ?? this.empty;
  }
  set(id: number, value: number): void {
    this.values.set(id, value);
  }
}

/** uuid strings and the ids given to them, in the order they were added (0, 1, 2, ...). */
export class RecordIds {
  protected readonly ids = new Map<string, number>();
  private readonly names: string[] = [];

  /** Ids given so far. */
  get size(): number {
    return this.names.length;
  }

  /** The id of `uuid`, or undefined. */
  get(uuid: string): number | undefined {
    return this.ids.get(uuid);
  }

  /** Give `uuid` the next id. */
  add(uuid: string): number {
    const id = this.names.length;
    this.ids.set(uuid, id);
    this.names.push(uuid);
    return id;
  }

  /** The uuid of `id`. */
  name(id: number): string {
    return this.names[id]!;
  }
}

export type Warn = (line: number | undefined, message: string) => void;

const PREVIEW_CHARS = 100;

/** The start of a record's message text, on one line, for the tree's `last_prompt`. */
export function preview(record: Record<string, unknown>): string | undefined {
  const message = record.message;
  if (!isObject(message)) return undefined;
  const content = message.content;
  let text: string | undefined;
  if (typeof content === 'string') text = content;
  else if (Array.isArray(content)) {
    text = content.filter((b) => isObject(b) && b.type === 'text' && typeof b.text === 'string').map((b) => (b as { text: string }).text).join(' ');
  }
  if (text === undefined) return undefined;
  const flat = text.replace(/\s+/g, ' ').trim();
  if (flat === '') return undefined;
  return flat.length > PREVIEW_CHARS ? `${flat.slice(0, PREVIEW_CHARS)}...` : flat;
}

/** The kind of a uuid-bearing record. */
export function nodeKind(record: Record<string, unknown>): NodeKind {
  switch (record.type) {
    case 'user': return isToolResultsOnly(record) ? 'tool-results' : 'user';
    case 'assistant': return 'assistant';
    case 'system': return record.subtype === 'compact_boundary' ? 'boundary' : 'context';
    default: return 'context';
  }
}

/** User and assistant records (tool results included) are turns; context and boundaries are not. */
export function isTurn(kind: NodeKind): boolean {
  return kind === 'user' || kind === 'assistant' || kind === 'tool-results';
}

/** The records of one transcript as ids and columns (see BranchIndex for what is asked of them). */
export class RecordGraph {
  /** uuid <-> id; ids are also given to uuids only named as a parent (not present until their record comes). */
  protected readonly ids = new RecordIds();
  protected readonly parent = new Column(NONE);
  protected readonly logical = new SparseColumn(NONE);
  /** Kind index into KINDS, or NONE while the record itself has not been seen. */
  private readonly kind = new Column(NONE, true);
  protected readonly line = new Column(0);
  /** Bits: SIDECHAIN, and whether parentUuid / logicalParentUuid were strings (an empty one has no id). */
  protected readonly flags = new Column(0, true);
  /** Timestamps and prompt previews, kept only when a tree is asked for. */
  protected readonly extras = new Map<number, { timestamp?: string; preview?: string }>();
  /**
   * ids of user/assistant records in file order, made only once ids stop being in file order (a uuid named as
   * a parent before its record comes gets its id then): until then the kind column says which ids are turns.
   */
  protected turns: number[] | undefined;
  /** The last record's id (ids of the records are in file order while each is above the one before). */
  private lastId = NONE;
  protected present = 0;
  protected lastPromptLeaf: { uuid: string; line: number } | undefined;
  protected boundaries = 0;
  /** The last uuid-bearing record: the leaf of a transcript without turns (only notifications, say). */
  protected lastUuid: string | undefined;
  private warnedDuplicate = false;

  constructor(private readonly options: { previews?: boolean } = {}) {}

  /** Records indexed. */
  get size(): number {
    return this.present;
  }

  has(uuid: string): boolean {
    return this.find(uuid) !== undefined;
  }

  /** The line of the (first) record with this uuid. */
  lineOf(uuid: string): number | undefined {
    const id = this.find(uuid);
    return id === undefined ? undefined : this.line.get(id);
  }

  /** Feed one record in file order (records without a uuid only matter when they are `last-prompt`). */
  add(record: Record<string, unknown>, line: number, warn: Warn): void {
    const head: RecordHead = {
      type: record.type, uuid: record.uuid, parentUuid: record.parentUuid, logicalParentUuid: record.logicalParentUuid,
      isSidechain: record.isSidechain, leafUuid: record.leafUuid, timestamp: record.timestamp, kind: nodeKind(record),
    };
    const id = this.addHead(head, line, warn);
    if (id === undefined || !this.options.previews) return;
    const extra: { timestamp?: string; preview?: string } = {};
    if (typeof record.timestamp === 'string') extra.timestamp = record.timestamp;
    if (head.kind === 'user') {
      const text = preview(record);
      if (text !== undefined) extra.preview = text;
    }
    this.extras.set(id, extra);
  }

  /**
   * Feed one record's head in file order (what `add` reads of a record, read from its bytes by the first
   * pass: see record-head.ts). The record's id, or undefined when it is not indexed. No previews are kept.
   */
  addHead(head: RecordHead, line: number, warn: Warn): number | undefined {
    if (head.type === 'last-prompt') {
      if (typeof head.leafUuid === 'string' && head.leafUuid !== '') this.lastPromptLeaf = { uuid: head.leafUuid, line };
      return undefined;
    }
    const uuid = head.uuid;
    if (typeof uuid !== 'string' || uuid === '') return undefined;
    if (this.find(uuid) !== undefined) {
      if (!this.warnedDuplicate) warn(line, `uuid ${uuid} was written before; the later record is ignored (reported once)`);
      this.warnedDuplicate = true;
      return undefined;
    }
    const id = this.idOf(uuid);
    const kind = head.kind;
    if (id < this.lastId && this.turns === undefined) this.listTurns();
    this.lastId = id;
    this.kind.set(id, KINDS.indexOf(kind));
    this.line.set(id, line);
    if (typeof head.parentUuid === 'string' && head.parentUuid !== '') this.parent.set(id, this.idOf(head.parentUuid));
    if (typeof head.logicalParentUuid === 'string' && head.logicalParentUuid !== '') {
      this.logical.set(id, this.idOf(head.logicalParentUuid));
    }
    this.flags.set(id, (head.isSidechain === true ? SIDECHAIN : 0) | (typeof head.parentUuid === 'string' ? PARENT_STRING : 0)
      | (typeof head.logicalParentUuid === 'string' ? LOGICAL_STRING : 0));
    this.present += 1;
    this.lastUuid = uuid;
    if (this.turns !== undefined && isTurn(kind)) this.turns.push(id);
    if (kind === 'boundary') this.boundaries += 1;
    return id;
  }

  /** The id of a uuid, allocated on first mention. */
  private idOf(uuid: string): number {
    let id = this.ids.get(uuid);
    if (id === undefined) {
      id = this.ids.add(uuid);
      this.parent.ensure(id + 1);
      this.kind.ensure(id + 1);
      this.line.ensure(id + 1);
      this.flags.ensure(id + 1);
    }
    return id;
  }

  /** The id of a record that is in the file, or undefined. */
  protected find(uuid: string): number | undefined {
    const id = this.ids.get(uuid);
    return id !== undefined && this.kind.get(id) !== NONE ? id : undefined;
  }

  protected isPresent(id: number): boolean {
    return this.kind.get(id) !== NONE;
  }

  protected kindOf(id: number): NodeKind {
    return KINDS[this.kind.get(id)]!;
  }

  /** The record before `id` on its branch: its parent, or across a compaction boundary its logical parent. */
  protected up(id: number): number {
    const parent = this.parent.get(id);
    return parent !== NONE ? parent : this.logical.get(id);
  }

  /** The turns so far, in file order, which is id order until now: ids stop being in file order. */
  private listTurns(): void {
    this.turns = [...this.allTurns()];
  }

  /** ids of the user/assistant records in file order. */
  private allTurns(): Int32Array {
    if (this.turns !== undefined) return Int32Array.from(this.turns);
    let count = 0;
    for (let id = 0; id < this.ids.size; id += 1) if (this.isPresent(id) && isTurn(this.kindOf(id))) count += 1;
    const all = new Int32Array(count);
    let at = 0;
    for (let id = 0; id < this.ids.size; id += 1) if (this.isPresent(id) && isTurn(this.kindOf(id))) all[at++] = id;
    return all;
  }

  /** Turn candidates for a leaf: the main chain's; a subagent file (all sidechain) uses its own. */
  protected candidates(): Int32Array {
    const all = this.allTurns();
    // Counted, then copied: TypedArray filter gathers into a JavaScript array first (tens of MB for a million).
    let count = 0;
    for (const id of all) if ((this.flags.get(id) & SIDECHAIN) === 0) count += 1;
    if (count === 0 || count === all.length) return all;
    const main = new Int32Array(count);
    let at = 0;
    for (const id of all) if ((this.flags.get(id) & SIDECHAIN) === 0) main[at++] = id;
    return main;
  }

  /** Whether `id` is at or below the record `memo` was seeded with (memoised walk up). */
  protected descends(id: number, memo: Uint8Array): boolean {
    const seen: number[] = [];
    let current = id;
    let answer = false;
    while (current !== NONE) {
      const known = memo[current]!;
      if (known !== 0) {
        answer = known === 1;
        break;
      }
      if (seen.length > this.ids.size) break; // a cycle
      seen.push(current);
      current = this.isPresent(current) ? this.up(current) : NONE;
    }
    for (const s of seen) memo[s] = answer ? 1 : 2;
    return answer;
  }

  /** Flags of the ids from `leaf` up to its root, through compaction boundaries. Reports a broken link once. */
  protected path(leaf: number, warn: Warn): Uint8Array {
    const path = new Uint8Array(this.ids.size);
    let current = leaf;
    while (current !== NONE && path[current] === 0) {
      if (!this.isPresent(current)) {
        warn(undefined, `the branch refers to ${this.ids.name(current)}, which is not in the file; records before it are not on the branch`);
        break;
      }
      path[current] = 1;
      current = this.up(current);
    }
    return path;
  }

  /** The nearest user/assistant record above `id`. */
  protected turnAbove(id: number): number | undefined {
    let current = this.up(id);
    for (let steps = 0; current !== NONE && steps <= this.ids.size; steps += 1) {
      if (!this.isPresent(current)) return undefined;
      if (isTurn(this.kindOf(current))) return current;
      current = this.up(current);
    }
    return undefined;
  }
}
