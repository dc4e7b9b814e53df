// The branch structure of a transcript: every uuid-bearing record names the record it followed
// (parentUuid), so edits and re-runs leave several children under one parent. The index keeps a few fields
// per record (not the records), picks the leaf `claude --resume` would continue, and selects the records on
// the branch ending there, through compaction boundaries (a boundary's logicalParentUuid).
import { isObject, isToolResultsOnly } from './record-types.js';

/** What a record is, as far as branches go. */
export type NodeKind = 'user' | 'assistant' | 'tool-results' | 'context' | 'boundary';

interface BranchNode {
  parent: string | null;
  /** A compaction boundary's link to the record before it (its parentUuid is null). */
  logical: string | null;
  kind: NodeKind;
  line: number;
  order: number;
  sidechain: boolean;
  timestamp?: string;
  /** The start of a user prompt's text (kept only when a tree is asked for). */
  preview?: string;
}

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

/** The branch structure of one transcript, fed record by record in file order (the first pass). */
export class BranchIndex {
  private readonly nodes = new Map<string, BranchNode>();
  /** uuids of user/assistant records in file order. */
  private readonly turns: string[] = [];
  private lastPromptLeaf: { uuid: string; line: number } | undefined;
  private order = 0;
  private boundaries = 0;
  /** The last uuid-bearing record: the leaf of a transcript without turns (only notifications, say). */
  private lastUuid: string | undefined;
  private warnedDuplicate = false;

  constructor(private readonly options: { previews?: boolean } = {}) {}

  /** Records indexed. */
  get size(): number {
    return this.nodes.size;
  }

  has(uuid: string): boolean {
    return this.nodes.has(uuid);
  }

  /** The line of the (first) record with this uuid. */
  lineOf(uuid: string): number | undefined {
    return this.nodes.get(uuid)?.line;
  }

  /** Feed one record in file order (records without a uuid only matter when they are `last-prompt`). */
  add(record: Record<string, unknown>, line: number, warn: Warn): void {
    if (record.type === 'last-prompt') {
      if (typeof record.leafUuid === 'string' && record.leafUuid !== '') this.lastPromptLeaf = { uuid: record.leafUuid, line };
      return;
    }
    const uuid = record.uuid;
    if (typeof uuid !== 'string' || uuid === '') return;
    if (this.nodes.has(uuid)) {
      if (!this.warnedDuplicate) warn(line, `uuid ${uuid} was written before; the later record is ignored (reported once)`);
      this.warnedDuplicate = true;
      return;
    }
    const kind = nodeKind(record);
    const node: BranchNode = {
      parent: typeof record.parentUuid === 'string' && record.parentUuid !== '' ? record.parentUuid : null,
      logical: typeof record.logicalParentUuid === 'string' && record.logicalParentUuid !== '' ? record.logicalParentUuid : null,
      kind,
      line,
      order: (this.order += 1),
      sidechain: record.isSidechain === true,
    };
    if (typeof record.timestamp === 'string') node.timestamp = record.timestamp;
    if (this.options.previews && kind === 'user') {
      const text = preview(record);
      if (text !== undefined) node.preview = text;
    }
    this.nodes.set(uuid, node);
    this.lastUuid = uuid;
    if (isTurn(kind)) this.turns.push(uuid);
    if (kind === 'boundary') this.boundaries += 1;
  }

  /** The record before `uuid` on its branch: its parent, or across a compaction boundary its logical parent. */
  private up(node: BranchNode): string | null {
    return node.parent ?? node.logical;
  }

  /** Turn candidates for a leaf: the main chain's; a subagent file (all sidechain) uses its own. */
  private candidates(): string[] {
    const main = this.turns.filter((uuid) => !this.nodes.get(uuid)!.sidechain);
    return main.length > 0 ? main : this.turns;
  }

  /**
   * The leaf `claude --resume` continues (checked against the real CLI): the last user/assistant record in
   * file order, or, when a `last-prompt` record names a record in the file, the last one written at or below
   * that record (none below: the turn at or above it).
   */
  resumedLeaf(warn: Warn): string | undefined {
    const candidates = this.candidates();
    const checkpoint = this.lastPromptLeaf;
    if (checkpoint !== undefined) {
      if (this.nodes.has(checkpoint.uuid)) {
        const below = new Map<string, boolean>([[checkpoint.uuid, true]]);
        for (let i = candidates.length - 1; i >= 0; i -= 1) {
          if (this.descends(candidates[i]!, below)) return candidates[i];
        }
        // The checkpoint names a context record after the last turn (Claude Code does): that turn is the leaf.
        const node = this.nodes.get(checkpoint.uuid)!;
        return isTurn(node.kind) ? checkpoint.uuid : this.turnAbove(node) ?? checkpoint.uuid;
      }
      warn(checkpoint.line, `last-prompt names ${checkpoint.uuid}, which is not in the file; following the last record written`);
    }
    return candidates[candidates.length - 1] ?? this.lastUuid;
  }

  /** Whether `uuid` is at or below the root `memo` was seeded with (memoised walk up). */
  private descends(uuid: string, memo: Map<string, boolean>): boolean {
    const seen: string[] = [];
    let current: string | null = uuid;
    let answer = false;
    while (current !== null) {
      const known = memo.get(current);
      if (known !== undefined) {
        answer = known;
        break;
      }
      if (seen.length > this.nodes.size) break; // a cycle
      seen.push(current);
      const node = this.nodes.get(current);
      current = node ? this.up(node) : null;
    }
    for (const s of seen) memo.set(s, answer);
    return answer;
  }

  /** The uuids from `leaf` up to its root, through compaction boundaries. Reports a broken link once. */
  path(leaf: string, warn: Warn): Set<string> {
    const path = new Set<string>();
    let current: string | null = leaf;
    while (current !== null && !path.has(current)) {
      const node = this.nodes.get(current);
      if (!node) {
        warn(undefined, `the branch refers to ${current}, which is not in the file; records before it are not on the branch`);
        break;
      }
      path.add(current);
      current = this.up(node);
    }
    return path;
  }

  /**
   * The records of the branch ending at `leaf` (default: the resumed leaf). Claude Code parents each parallel
   * call's result on its own call, so a result whose call is on the branch belongs to it too, unless the
   * branch already holds a result for that call's record.
   */
  select(leaf: string | undefined, warn: Warn): BranchSelection {
    const chosen = leaf ?? this.resumedLeaf(warn);
    if (chosen === undefined) return { leaf: undefined, includes: () => false };
    const path = this.path(chosen, warn);
    const answered = new Set<string>();
    for (const uuid of path) {
      const node = this.nodes.get(uuid)!;
      if (node.kind === 'tool-results' && node.parent !== null) answered.add(node.parent);
    }
    return {
      leaf: chosen,
      includes: (uuid, parent, kind) => path.has(uuid)
        || (kind === 'tool-results' && parent !== null && path.has(parent) && !answered.has(parent)),
    };
  }

  /** The nearest user/assistant record above `node`. */
  private turnAbove(node: BranchNode): string | null {
    let current = this.up(node);
    for (let steps = 0; current !== null && steps <= this.nodes.size; steps += 1) {
      const above = this.nodes.get(current);
      if (!above) return null;
      if (isTurn(above.kind)) return current;
      current = this.up(above);
    }
    return null;
  }

  /** Every branch: one per leaf turn (a parallel call's result beside the branch's next record is no branch). */
  tree(warn: Warn): TranscriptTree {
    const candidates = this.candidates();
    const parentTurn = new Map<string, string | null>();
    const children = new Map<string, number>();
    const depth = new Map<string, number>();
    for (const uuid of candidates) {
      const above = this.turnAbove(this.nodes.get(uuid)!);
      parentTurn.set(uuid, above);
      if (above !== null) children.set(above, (children.get(above) ?? 0) + 1);
      depth.set(uuid, (above !== null ? depth.get(above) ?? 0 : 0) + 1);
    }
    const resumed = this.resumedLeaf(warn);
    const resumedPath = resumed !== undefined ? this.path(resumed, () => {}) : new Set<string>();
    const branches: BranchInfo[] = [];
    for (const uuid of candidates) {
      if ((children.get(uuid) ?? 0) > 0) continue;
      const node = this.nodes.get(uuid)!;
      const above = parentTurn.get(uuid) ?? null;
      if (node.kind === 'tool-results' && above !== null && (children.get(above) ?? 0) > 1) continue;
      const info: BranchInfo = {
        leaf: uuid,
        resumed: uuid === resumed,
        records: depth.get(uuid) ?? 1,
        forks_from: uuid === resumed ? null : this.forkPoint(uuid, resumedPath),
        line: node.line,
      };
      if (node.timestamp !== undefined) info.timestamp = node.timestamp;
      const prompt = this.lastPrompt(uuid);
      if (prompt !== undefined) info.last_prompt = prompt;
      branches.push(info);
    }
    // A resumed leaf chosen by a last-prompt checkpoint may have later siblings; it is listed all the same.
    if (resumed !== undefined && !branches.some((b) => b.leaf === resumed) && this.nodes.has(resumed)) {
      const node = this.nodes.get(resumed)!;
      const info: BranchInfo = { leaf: resumed, resumed: true, records: depth.get(resumed) ?? 1, forks_from: null, line: node.line };
      if (node.timestamp !== undefined) info.timestamp = node.timestamp;
      const prompt = this.lastPrompt(resumed);
      if (prompt !== undefined) info.last_prompt = prompt;
      branches.push(info);
      branches.sort((a, b) => a.line - b.line);
    }
    return { records: this.nodes.size, compactions: this.boundaries, resumed_leaf: resumed ?? null, branches };
  }

  private forkPoint(leaf: string, resumedPath: Set<string>): string | null {
    let current: string | null = leaf;
    for (let steps = 0; current !== null && steps <= this.nodes.size; steps += 1) {
      if (resumedPath.has(current)) return current;
      const node = this.nodes.get(current);
      if (!node) return null;
      current = this.up(node);
    }
    return null;
  }

  private lastPrompt(leaf: string): string | undefined {
    let current: string | null = leaf;
    for (let steps = 0; current !== null && steps <= this.nodes.size; steps += 1) {
      const node = this.nodes.get(current);
      if (!node) return undefined;
      if (node.preview !== undefined) return node.preview;
      current = this.up(node);
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
  const trailing = new Set<string>(selection.leaf !== undefined ? [selection.leaf] : []);
  return (record, line) => {
    const uuid = record.uuid;
    if (selection.leaf === undefined || typeof uuid !== 'string' || uuid === '' || index.lineOf(uuid) !== line) return false;
    const parent = typeof record.parentUuid === 'string' ? record.parentUuid : null;
    const kind = nodeKind(record);
    if (selection.includes(uuid, parent, kind)) return true;
    // A compaction boundary at the very end (no summary) hangs on the leaf by its logical parent.
    const above = parent ?? (typeof record.logicalParentUuid === 'string' ? record.logicalParentUuid : null);
    if ((kind !== 'context' && kind !== 'boundary') || above === null || !trailing.has(above)) return false;
    trailing.add(uuid);
    return true;
  };
}
