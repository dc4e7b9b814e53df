// The branch structure of a transcript: every uuid-bearing record names the record it followed
// (parentUuid), so edits and re-runs leave several children under one parent. The index keeps a few fields
// per record (not the records), picks the leaf `claude --resume` would continue, and selects the records on
// the branch ending there, through compaction boundaries (a boundary's logicalParentUuid).
import type { NodeKind, RecordHead } from './record-head.js';
import {
  Column, KINDS, LOGICAL_STRING, NONE, NOT_A_STRING, PARENT_STRING, RecordIds, SIDECHAIN, SparseColumn,
} from './branch-columns.js';
import { isObject, isToolResultsOnly } from './record-types.js';

/** One branch of the conversation, named by its last user or assistant record. */
export interface BranchInfo {
  /** uuid of the branch's last user/assistant record: pass it to `--branch` to read this branch. */
  leaf: string;
  /** The branch `claude --resume` continues, and `read` reads by default. */
  resumed: boolean;
  /** User and assistant records on the branch, from the root (through compactions). */
  records: number;
  /** Where the branch leaves the resumed one (the last record they share); null for the resumed branch. */
  forks_from: string | null;
  /** Line of the leaf in the file. */
  line: number;
  timestamp?: string;
  /** The start of the branch's last user prompt. */
  last_prompt?: string;
}

/** The branch structure of one transcript. */
export interface TranscriptTree {
  /** Records with a uuid (conversation, context, boundaries). */
  records: number;
  /** Compaction boundaries in the file. */
  compactions: number;
  /** The leaf `claude --resume` would continue (null for a transcript without turns). */
  resumed_leaf: string | null;
  branches: BranchInfo[];
}

/** The records of one branch, for a pass over the file. */
export interface BranchSelection {
  leaf: string | undefined;
  /** Whether a uuid-bearing record is on the branch (or answers a parallel call on it). */
  includes(uuid: string, parent: string | null, kind: NodeKind): boolean;
  /** `includes` by index ids (this index's own; parentId -1 for a parent that is not in it). */
  includesId(id: number, parentId: number, kind: NodeKind): boolean;
}

type Warn = (line: number | undefined, message: string) => void;

const PREVIEW_CHARS = 100;

function preview(record: Record<string, unknown>): string | undefined {
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

function isTurn(kind: NodeKind): boolean {
  return kind === 'user' || kind === 'assistant' || kind === 'tool-results';
}

/**
 * The branch structure of one transcript, fed record by record in file order (the first pass). Records are
 * kept as integer ids in typed columns (parent, logical parent, kind, line, flags), their uuids in a Map.
 */
export class BranchIndex {
  /** uuid <-> id; ids are also given to uuids only named as a parent (not present until their record comes). */
  private readonly ids = new RecordIds();
  private readonly parent = new Column(NONE);
  private readonly logical = new SparseColumn(NONE);
  /** Kind index into KINDS, or NONE while the record itself has not been seen. */
  private readonly kind = new Column(NONE, true);
  private readonly line = new Column(0);
  /** Bits: SIDECHAIN, and whether parentUuid / logicalParentUuid were strings (an empty one has no id). */
  private readonly flags = new Column(0, true);
  /** Timestamps and prompt previews, kept only when a tree is asked for. */
  private readonly extras = new Map<number, { timestamp?: string; preview?: string }>();
  /**
   * ids of user/assistant records in file order, made only once ids stop being in file order (a uuid named as
   * a parent before its record comes gets its id then): until then the kind column says which ids are turns.
   */
  private turns: number[] | undefined;
  /** The last record's id (ids of the records are in file order while each is above the one before). */
  private lastId = NONE;
  private present = 0;
  private lastPromptLeaf: { uuid: string; line: number } | undefined;
  private boundaries = 0;
  /** The last uuid-bearing record: the leaf of a transcript without turns (only notifications, say). */
  private lastUuid: string | undefined;
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
  private find(uuid: string): number | undefined {
    const id = this.ids.get(uuid);
    return id !== undefined && this.kind.get(id) !== NONE ? id : undefined;
  }

  private isPresent(id: number): boolean {
    return this.kind.get(id) !== NONE;
  }

  private kindOf(id: number): NodeKind {
    return KINDS[this.kind.get(id)]!;
  }

  /** The record before `id` on its branch: its parent, or across a compaction boundary its logical parent. */
  private up(id: number): number {
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
  private candidates(): Int32Array {
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

  /**
   * The leaf `claude --resume` continues (checked against the real CLI): the last user/assistant record in
   * file order, or, when a `last-prompt` record names a record in the file, the last one written at or below
   * that record (none below: the turn at or above it).
   */
  resumedLeaf(warn: Warn): string | undefined {
    const id = this.resumedId(warn);
    return id === undefined ? this.lastUuid : this.ids.name(id);
  }

  private resumedId(warn: Warn): number | undefined {
    const candidates = this.candidates();
    const checkpoint = this.lastPromptLeaf;
    if (checkpoint !== undefined) {
      const at = this.find(checkpoint.uuid);
      if (at !== undefined) {
        // 0: not known yet, 1: at or below the checkpoint, 2: not.
        const memo = new Uint8Array(this.ids.size);
        memo[at] = 1;
        for (let i = candidates.length - 1; i >= 0; i -= 1) {
          if (this.descends(candidates[i]!, memo)) return candidates[i];
        }
        // The checkpoint names a context record after the last turn (Claude Code does): that turn is the leaf.
        return isTurn(this.kindOf(at)) ? at : this.turnAbove(at) ?? at;
      }
      warn(checkpoint.line, `last-prompt names ${checkpoint.uuid}, which is not in the file; following the last record written`);
    }
    return candidates.length > 0 ? candidates[candidates.length - 1] : undefined;
  }

  /** Whether `id` is at or below the record `memo` was seeded with (memoised walk up). */
  private descends(id: number, memo: Uint8Array): boolean {
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
  private path(leaf: number, warn: Warn): Uint8Array {
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

  /**
   * The records of the branch ending at `leaf` (default: the resumed leaf). Claude Code parents each parallel
   * call's result on its own call, so a result whose call is on the branch belongs to it too, unless the
   * branch already holds a result for that call's record.
   */
  select(leaf: string | undefined, warn: Warn): BranchSelection {
    const chosenId = leaf !== undefined ? this.find(leaf) : this.resumedId(warn);
    const chosen = leaf ?? (chosenId !== undefined ? this.ids.name(chosenId) : this.lastUuid);
    if (chosen === undefined) return { leaf: undefined, includes: () => false, includesId: () => false };
    const startId = chosenId ?? this.find(chosen);
    if (startId === undefined) return { leaf: chosen, includes: () => false, includesId: () => false };
    const path = this.path(startId, warn);
    const answered = new Uint8Array(this.ids.size);
    for (let id = 0; id < path.length; id += 1) {
      if (path[id] === 1 && this.kindOf(id) === 'tool-results' && this.parent.get(id) !== NONE) answered[this.parent.get(id)] = 1;
    }
    const onPath = (uuid: string | null): { on: boolean; id: number | undefined } => {
      if (uuid === null) return { on: false, id: undefined };
      const id = this.ids.get(uuid);
      return { on: id !== undefined && path[id] === 1, id };
    };
    return {
      leaf: chosen,
      includes: (uuid, parent, kind) => {
        if (onPath(uuid).on) return true;
        if (kind !== 'tool-results') return false;
        const above = onPath(parent);
        return above.on && answered[above.id!] === 0;
      },
      includesId: (id, parentId, kind) => {
        if (path[id] === 1) return true;
        if (kind !== 'tool-results' || parentId === NONE) return false;
        return path[parentId] === 1 && answered[parentId] === 0;
      },
    };
  }

  /** The nearest user/assistant record above `id`. */
  private turnAbove(id: number): number | undefined {
    let current = this.up(id);
    for (let steps = 0; current !== NONE && steps <= this.ids.size; steps += 1) {
      if (!this.isPresent(current)) return undefined;
      if (isTurn(this.kindOf(current))) return current;
      current = this.up(current);
    }
    return undefined;
  }

  /** Every branch: one per leaf turn (a parallel call's result beside the branch's next record is no branch). */
  tree(warn: Warn): TranscriptTree {
    const candidates = this.candidates();
    const count = this.ids.size;
    const parentTurn = new Int32Array(count).fill(NONE);
    const children = new Int32Array(count);
    const depth = new Int32Array(count);
    for (const id of candidates) {
      const above = this.turnAbove(id) ?? NONE;
      parentTurn[id] = above;
      if (above !== NONE) children[above] = children[above]! + 1;
      depth[id] = (above !== NONE ? depth[above]! : 0) + 1;
    }
    // Without turns, the last uuid-bearing record is the leaf (as resumedLeaf says).
    const resumedId = this.resumedId(warn) ?? (this.lastUuid !== undefined ? this.find(this.lastUuid) : undefined);
    const resumed = resumedId !== undefined ? this.ids.name(resumedId) : undefined;
    const resumedPath = resumedId !== undefined ? this.path(resumedId, () => {}) : new Uint8Array(count);
    const branches: BranchInfo[] = [];
    const info = (id: number, isResumed: boolean, forks: string | null): BranchInfo => {
      const branch: BranchInfo = { leaf: this.ids.name(id), resumed: isResumed, records: depth[id] || 1, forks_from: forks, line: this.line.get(id) };
      const timestamp = this.extras.get(id)?.timestamp;
      if (timestamp !== undefined) branch.timestamp = timestamp;
      const prompt = this.lastPrompt(id);
      if (prompt !== undefined) branch.last_prompt = prompt;
      return branch;
    };
    for (const id of candidates) {
      if (children[id]! > 0) continue;
      const above = parentTurn[id]!;
      if (this.kindOf(id) === 'tool-results' && above !== NONE && children[above]! > 1) continue;
      const isResumed = id === resumedId;
      branches.push(info(id, isResumed, isResumed ? null : this.forkPoint(id, resumedPath)));
    }
    // A resumed leaf chosen by a last-prompt checkpoint may have later siblings; it is listed all the same.
    if (resumedId !== undefined && !branches.some((b) => b.leaf === resumed)) {
      branches.push(info(resumedId, true, null));
      branches.sort((a, b) => a.line - b.line);
    }
    return { records: this.present, compactions: this.boundaries, resumed_leaf: resumed ?? null, branches };
  }

  /**
   * What `branchFilter` says of each line, from the index alone, for a file whose every line held one record
   * (the first pass saw no damage): 1 at the line numbers of the records the second pass maps.
   */
  selectedLines(selection: BranchSelection, lines: number): Uint8Array {
    const selected = new Uint8Array(lines + 1);
    if (selection.leaf === undefined) return selected;
    const onBranch = this.linkFilter(selection);
    const test = (id: number, line: number) => {
      const flags = this.flags.get(id);
      const parent = (flags & PARENT_STRING) !== 0 ? this.parent.get(id) : NOT_A_STRING;
      const logical = (flags & LOGICAL_STRING) !== 0 ? this.logical.get(id) : NOT_A_STRING;
      if (onBranch(id, parent, logical, this.kindOf(id))) selected[line] = 1;
    };
    if (this.turns === undefined) {
      // ids in file order: no table of the lines' ids is needed (4 bytes a line).
      for (let id = 0; id < this.ids.size; id += 1) {
        const line = this.line.get(id);
        if (this.isPresent(id) && line <= lines) test(id, line);
      }
      return selected;
    }
    const idAt = new Int32Array(lines + 1).fill(NONE);
    for (let id = 0; id < this.ids.size; id += 1) {
      const line = this.line.get(id);
      if (this.isPresent(id) && line <= lines) idAt[line] = id;
    }
    for (let line = 1; line <= lines; line += 1) {
      const id = idAt[line]!;
      if (id !== NONE) test(id, line);
    }
    return selected;
  }

  /**
   * The second pass's test, record by record in file order (see branchFilter): whether a record is on the
   * selected branch.
   */
  filter(selection: BranchSelection): (record: Record<string, unknown>, line: number) => boolean {
    const onBranch = this.linkFilter(selection);
    const link = (value: unknown): number => {
      if (typeof value !== 'string') return NOT_A_STRING;
      return value === '' ? NONE : this.ids.get(value) ?? NONE;
    };
    return (record, line) => {
      const uuid = record.uuid;
      if (selection.leaf === undefined || typeof uuid !== 'string' || uuid === '') return false;
      const id = this.find(uuid);
      if (id === undefined || this.line.get(id) !== line) return false;
      return onBranch(id, link(record.parentUuid), link(record.logicalParentUuid), nodeKind(record));
    };
  }

  /**
   * The test of a record that is in the index (the first with its uuid), by ids: `parent` and `logical` are
   * the ids of its links, NONE for a string that names no record here, NOT_A_STRING when there is no link.
   */
  private linkFilter(selection: BranchSelection): (id: number, parent: number, logical: number, kind: NodeKind) => boolean {
    const trailing = new Uint8Array(this.ids.size);
    const leaf = selection.leaf !== undefined ? this.ids.get(selection.leaf) : undefined;
    if (leaf !== undefined) trailing[leaf] = 1;
    return (id, parent, logical, kind) => {
      if (selection.includesId(id, parent === NOT_A_STRING ? NONE : parent, kind)) return true;
      // A compaction boundary at the very end (no summary) hangs on the leaf by its logical parent.
      const above = parent !== NOT_A_STRING ? parent : logical;
      if ((kind !== 'context' && kind !== 'boundary') || above < 0 || trailing[above] !== 1) return false;
      trailing[id] = 1;
      return true;
    };
  }

  private forkPoint(leaf: number, resumedPath: Uint8Array): string | null {
    let current = leaf;
    for (let steps = 0; current !== NONE && steps <= this.ids.size; steps += 1) {
      if (resumedPath[current] === 1) return this.ids.name(current);
      if (!this.isPresent(current)) return null;
      current = this.up(current);
    }
    return null;
  }

  private lastPrompt(leaf: number): string | undefined {
    let current = leaf;
    for (let steps = 0; current !== NONE && steps <= this.ids.size; steps += 1) {
      if (!this.isPresent(current)) return undefined;
      const text = this.extras.get(current)?.preview;
      if (text !== undefined) return text;
      current = this.up(current);
    }
    return undefined;
  }
}

/**
 * The second pass's test, record by record in file order: whether a record is on the selected branch. Also
 * takes context written after the leaf (Monitor notifications, a closing system record), which follows the
 * leaf on its chain, and skips a uuid's later duplicates.
 */
export function branchFilter(index: BranchIndex, selection: BranchSelection): (record: Record<string, unknown>, line: number) => boolean {
  return index.filter(selection);
}
