// A Claude Code transcript as filter input (`asyncai-log --from claude-transcript < old.jsonl`): the reader
// of lib/agents/claude-code-cli/reader/ behind the InputAdapter interface. The branch `claude --resume` would
// continue is only known at the end of the file, so the turns are held (only the fields the mapping reads;
// context records are indexed, not held) and come out of `end()`: memory grows with the conversation,
// unlike `asyncai-log read`, which reads the file twice. Spilled output is not resolved here. A transcript that
// grew extends its earlier conversion only when the earlier branch is where the new one starts.
import type { GenericEvent } from '../../events.js';
import { BranchIndex, branchFilter } from './reader/branch.js';
import { TranscriptEventMapper } from './reader/map-record.js';
import {
  classifyRecordType, CONTEXT_TYPES, CONVERSATION_TYPES, isObject, STATE_TYPES,
} from './reader/record-types.js';
import { InputError, type InputAdapter, type InputFormat } from '../../input/types.js';

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

class ClaudeTranscriptAdapter implements InputAdapter {
  readonly format = 'claude-transcript';
  private readonly index = new BranchIndex();
  private held: { record: Record<string, unknown>; n: number }[] = [];
  private readonly unknownTypes = new Set<string>();
  private records = 0;
  private cwd: string | undefined;
  /** Where earlier conversions ended: the records read by then, and the held ones on the branch chosen then. */
  private readonly earlier: { records: number; onBranch: number[] }[] = [];
  private extended = true;

  map(value: unknown, _now: string, warn: (message: string) => void): GenericEvent[] {
    if (!isObject(value)) throw new InputError('expected a Claude Code record (a JSON object)');
    if (typeof value.type !== 'string') throw new InputError('a Claude Code record needs a string "type"');
    const type = value.type;
    if (classifyRecordType(type) === 'unknown' && !this.unknownTypes.has(type)) {
      this.unknownTypes.add(type);
      warn(`unknown record type ${JSON.stringify(type)} skipped (reported once per type)`);
    }
    if (this.cwd === undefined && typeof value.cwd === 'string' && value.cwd !== '') this.cwd = value.cwd;
    this.records += 1;
    this.index.add(value, this.records, (_line, message) => warn(message));
    if (typeof value.uuid === 'string' && worthHolding(value)) this.held.push({ record: slim(value), n: this.records });
    return [];
  }

  end(now: string, warn: (message: string) => void): GenericEvent[] {
    const onBranch = branchFilter(this.index, this.index.select(undefined, (_line, message) => warn(message)));
    const mapper = new TranscriptEventMapper({ now });
    const events: GenericEvent[] = [];
    const chosen: number[] = [];
    for (const { record, n } of this.held) {
      if (!onBranch(record, n)) continue;
      events.push(...mapper.map(record, warn));
      chosen.push(n);
      // A compaction boundary open where an earlier run ended was written then as one without its summary.
      for (const earlier of this.earlier) if (earlier.onBranch.length === chosen.length && mapper.boundaryPending) this.extended = false;
    }
    events.push(...mapper.end());
    // The earlier conversion is continued only when its branch is the start of this one: the same held records,
    // and none added before where it ended (the new records fork from an older one: a rewind, an edit).
    for (const { records, onBranch: before } of this.earlier) {
      const start = chosen.filter((n) => n <= records);
      if (start.length !== before.length || start.some((n, i) => n !== before[i])) this.extended = false;
    }
    this.held = [];
    return events;
  }

  earlierEnd(): void {
    const onBranch = branchFilter(this.index, this.index.select(undefined, () => {}));
    this.earlier.push({ records: this.records, onBranch: this.held.filter(({ record, n }) => onBranch(record, n)).map(({ n }) => n) });
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
