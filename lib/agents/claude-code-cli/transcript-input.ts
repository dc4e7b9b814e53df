// A Claude Code transcript as filter input (`asyncai-log --from claude-transcript < old.jsonl`): the reader
// of lib/agents/claude-code-cli/reader/ behind the InputAdapter interface. The branch `claude --resume` would
// continue is only known at the end of the file, so the turns are held (only the fields the mapping reads;
// context records are indexed, not held) and come out of `end()`: memory grows with the conversation. Convert,
// which can read its file again, gets read's two passes instead: most lines are only scanned for their head
// (record-head.ts), the turns are held by line number, and `endFrom` maps the branch's lines read again.
// Spilled output is not resolved here. A transcript that grew extends its earlier conversion only when the
// earlier branch is where the new one starts.
import type { GenericEvent } from '../../events.js';
import { BranchIndex, type RecordLinks } from './reader/branch.js';
import { nodeKind } from './reader/branch-graph.js';
import { TranscriptEventMapper } from './reader/map-record.js';
import { readRecordHead, type NodeKind } from './reader/record-head.js';
import {
  classifyRecordType, CONTEXT_TYPES, CONVERSATION_TYPES, isObject, STATE_TYPES,
} from './reader/record-types.js';
import {
  InputError, type InputAdapter, type InputFormat, type RereadLine, type SourcedEvent,
} from '../../input/types.js';

/** The fields the record mapper reads; the rest (toolUseResult, a copy of every tool output, say) is not held. */
const KEPT_FIELDS = [
  'type', 'subtype', 'uuid', 'parentUuid', 'logicalParentUuid', 'isSidechain', 'timestamp', 'message', 'isMeta',
  'isCompactSummary', 'compactMetadata', 'attachment', 'rendered', 'isApiErrorMessage',
] as const;

/** A held record without what the mapping does not read (the events share its strings, so it is not copied). */
function slim(record: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const key of KEPT_FIELDS) if (record[key] !== undefined) kept[key] = record[key];
  return kept;
}

/** Context records that still carry something the generic vocabulary has: compactions and Monitor notifications. */
function worthHolding(record: Record<string, unknown>): boolean {
  if (CONVERSATION_TYPES.has(String(record.type))) return true;
  if (record.type === 'system') return record.subtype === 'compact_boundary';
  if (record.type === 'attachment') {
    const attachment = record.attachment;
    return isObject(attachment) && attachment.type === 'queued_command' && attachment.commandMode === 'task-notification';
  }
  return false;
}

/**
 * A record waiting for the branch to be known: its number, links and kind (what the branch test reads), and
 * either the record (slimmed) or the line it is read again from.
 */
interface Held {
  n: number;
  links: RecordLinks;
  kind: NodeKind;
  record?: Record<string, unknown>;
  line?: number;
}

class ClaudeTranscriptAdapter implements InputAdapter {
  readonly format = 'claude-transcript';
  /** toolUseResult: a second copy of a tool's output, which the mapping never reads. */
  readonly unread = ['toolUseResult'] as const;
  private readonly index = new BranchIndex();
  private held: Held[] = [];
  private readonly unknownTypes = new Set<string>();
  private records = 0;
  private cwd: string | undefined;
  /** Where earlier conversions ended: the records read by then, and the held ones on the branch chosen then. */
  private readonly earlier: { records: number; onBranch: number[] }[] = [];
  private extended = true;

  map(value: unknown, _now: string, warn: (message: string) => void, line?: number): GenericEvent[] {
    if (!isObject(value)) throw new InputError('expected a Claude Code record (a JSON object)');
    if (typeof value.type !== 'string') throw new InputError('a Claude Code record needs a string "type"');
    this.noteType(value.type, warn);
    if (this.cwd === undefined && typeof value.cwd === 'string' && value.cwd !== '') this.cwd = value.cwd;
    this.records += 1;
    this.index.add(value, this.records, (_line, message) => warn(message));
    if (typeof value.uuid === 'string' && worthHolding(value)) {
      const links = { uuid: value.uuid, parentUuid: value.parentUuid, logicalParentUuid: value.logicalParentUuid };
      this.held.push({ n: this.records, links, kind: nodeKind(value), ...(line !== undefined ? { line } : { record: slim(value) }) });
    }
    return [];
  }

  /**
   * A line taken from its head (what the index reads: record-head.ts), as `map` takes its value. Parsed instead:
   * the lines before the project directory is known, attachments (whether one is held depends on its body),
   * and whatever the head scan is not sure of.
   */
  scan(buf: Buffer, start: number, end: number, line: number, warn: (message: string) => void): boolean {
    if (this.cwd === undefined) return false;
    const head = readRecordHead(buf, start, end, false);
    if (head === undefined || typeof head.type !== 'string' || head.type === 'attachment') return false;
    const type = head.type;
    this.noteType(type, warn);
    this.records += 1;
    this.index.addHead(head, this.records, (_line, message) => warn(message));
    const held = CONVERSATION_TYPES.has(type) || head.kind === 'boundary';
    if (typeof head.uuid === 'string' && held) {
      const links = { uuid: head.uuid, parentUuid: head.parentUuid, logicalParentUuid: head.logicalParentUuid };
      this.held.push({ n: this.records, links, kind: head.kind, line });
    }
    return true;
  }

  private noteType(type: string, warn: (message: string) => void): void {
    if (classifyRecordType(type) === 'unknown' && !this.unknownTypes.has(type)) {
      this.unknownTypes.add(type);
      warn(`unknown record type ${JSON.stringify(type)} skipped (reported once per type)`);
    }
  }

  /** The held records on the branch `claude --resume` would continue. */
  private onBranch(warn: (message: string) => void): Held[] {
    const test = this.index.headFilter(this.index.select(undefined, (_line, message) => warn(message)));
    return this.held.filter(({ links, kind, n }) => test(links, kind, n));
  }

  /**
   * The branch's records, and whether they extend what earlier runs converted: their branch is the start of
   * this one (the same held records, none added before where it ended: the new records fork from an older
   * one, a rewind, an edit), and no compaction boundary was open where one ended (it was written then as one
   * without its summary: the mapper holds a boundary until the next record, so only a boundary last is open).
   */
  private chosen(warn: (message: string) => void): Held[] {
    const chosen = this.onBranch(warn);
    this.held = [];
    for (const { records, onBranch: before } of this.earlier) {
      const start = chosen.filter(({ n }) => n <= records);
      if (start.length !== before.length || start.some(({ n }, i) => n !== before[i])) this.extended = false;
      if (before.length > 0 && chosen.length >= before.length && chosen[before.length - 1]!.kind === 'boundary') this.extended = false;
    }
    return chosen;
  }

  end(now: string, warn: (message: string) => void): GenericEvent[] {
    const mapper = new TranscriptEventMapper({ now });
    const events: GenericEvent[] = [];
    for (const { record } of this.chosen(warn)) events.push(...mapper.map(record!, warn));
    events.push(...mapper.end());
    return events;
  }

  /** `end`, each record held by line read again (and let go) as its events are taken. */
  *endFrom(now: string, warn: (message: string) => void, reread: (wanted: readonly number[]) => Iterable<RereadLine>): Iterable<SourcedEvent> {
    const chosen = this.chosen(warn);
    const mapper = new TranscriptEventMapper({ now });
    const lines = reread(chosen.filter((held) => held.line !== undefined).map((held) => held.line!))[Symbol.iterator]();
    /** The line read last and not yet taken. */
    let next: IteratorResult<RereadLine> | undefined;
    for (const held of chosen) {
      if (held.record !== undefined) {
        for (const event of mapper.map(held.record, warn)) yield { event };
        continue;
      }
      while (next === undefined || (!next.done && next.value.no < held.line!)) next = lines.next();
      // A line not found again (the file changed since its first read) is left out.
      if (next.done || next.value.no !== held.line) continue;
      const { value, source } = next.value;
      next = undefined;
      if (!isObject(value)) continue;
      for (const event of mapper.map(slim(value), warn, source)) yield { event, source };
    }
    for (const event of mapper.end()) yield { event };
  }

  earlierEnd(): void {
    this.earlier.push({ records: this.records, onBranch: this.onBranch(() => {}).map(({ n }) => n) });
  }

  extendsEarlier(): boolean {
    return this.extended;
  }

  /** The session opens in the transcript's own project: wait for the first record that names it. */
  waitsForFacts(): boolean {
    return this.cwd === undefined;
  }

  facts(): { cwd?: string } {
    return this.cwd !== undefined ? { cwd: this.cwd } : {};
  }
}

/**
 * Claude Code transcripts, recognised from their first line: a state record type no other format uses, or a
 * user/assistant/system/attachment record carrying Claude Code's chain fields (`parentUuid`, `sessionId`).
 */
export const claudeTranscript: InputFormat = {
  name: 'claude-transcript',
  detect(value) {
    if (!isObject(value) || typeof value.type !== 'string') return false;
    if (STATE_TYPES.has(value.type)) return true;
    if (!CONVERSATION_TYPES.has(value.type) && !CONTEXT_TYPES.has(value.type)) return false;
    // A record holding a Gemini Content (`message.parts`) or a system payload is another agent's (Qwen Code's).
    if ((isObject(value.message) && 'parts' in value.message) || 'systemPayload' in value) return false;
    return 'parentUuid' in value || (typeof value.sessionId === 'string' && typeof value.uuid === 'string');
  },
  create: () => new ClaudeTranscriptAdapter(),
};
