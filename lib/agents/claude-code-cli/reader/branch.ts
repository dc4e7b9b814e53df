// The branch structure of a transcript: every uuid-bearing record names the record it followed
// (parentUuid), so edits and re-runs leave several children under one parent. The index keeps a few fields
// per record (not the records), picks the leaf `claude --resume` would continue, and selects the records on
// the branch ending there, through compaction boundaries (a boundary's logicalParentUuid).
import type { NodeKind } from './record-head.js';
import type { BranchInfo } from '../../../session/types.js';
import {
  isTurn, LOGICAL_STRING, nodeKind, NONE, NOT_A_STRING, PARENT_STRING, RecordGraph, type Warn,
} from './branch-graph.js';

export type { BranchInfo };

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

/** The fields of a record that place it in the graph. */
export interface RecordLinks {
  uuid?: unknown;
  parentUuid?: unknown;
  logicalParentUuid?: unknown;
}

/**
 * The branch structure of one transcript, fed record by record in file order (the first pass: see
 * RecordGraph), and what is asked of it: the leaf `claude --resume` continues, a branch's records, the tree.
 */
export class BranchIndex extends RecordGraph {
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
   * (the first pass saw no damage): 1 at the line numbers of the records the second pass maps (`only`: of
   * those, the records of that kind).
   */
  selectedLines(selection: BranchSelection, lines: number, only?: NodeKind): Uint8Array {
    const selected = new Uint8Array(lines + 1);
    if (selection.leaf === undefined) return selected;
    const onBranch = this.linkFilter(selection);
    const test = (id: number, line: number) => {
      const flags = this.flags.get(id);
      const parent = (flags & PARENT_STRING) !== 0 ? this.parent.get(id) : NOT_A_STRING;
      const logical = (flags & LOGICAL_STRING) !== 0 ? this.logical.get(id) : NOT_A_STRING;
      const kind = this.kindOf(id);
      if (onBranch(id, parent, logical, kind) && (only === undefined || kind === only)) selected[line] = 1;
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
    const onBranch = this.headFilter(selection);
    return (record, line) => onBranch(record, nodeKind(record), line);
  }

  /**
   * The same test from a record's links and its kind (`nodeKind`, or its head's), for a holder that keeps
   * those and not the record (convert, which reads the record again from the file: transcript-input.ts).
   */
  headFilter(selection: BranchSelection): (links: RecordLinks, kind: NodeKind, line: number) => boolean {
    const onBranch = this.linkFilter(selection);
    const link = (value: unknown): number => {
      if (typeof value !== 'string') return NOT_A_STRING;
      return value === '' ? NONE : this.ids.get(value) ?? NONE;
    };
    return (record, kind, line) => {
      const uuid = record.uuid;
      if (selection.leaf === undefined || typeof uuid !== 'string' || uuid === '') return false;
      const id = this.find(uuid);
      if (id === undefined || this.line.get(id) !== line) return false;
      return onBranch(id, link(record.parentUuid), link(record.logicalParentUuid), kind);
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
