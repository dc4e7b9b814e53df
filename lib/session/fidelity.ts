// The fidelity account of one conversion into one format: how many of each element kind (texts, tool calls,
// results, error flags, images, reasoning, monitor events, compactions) were read, and how many were written,
// changed on the way (and how) or dropped (and why). Content-free: only kinds, counts and short reasons.
import { closeSync, constants, fstatSync, openSync, statSync, writeSync } from 'node:fs';
import type { GenericEvent } from '../events.js';
import { describeError } from '../util/fs-errors.js';
import { writeNewFile } from '../util/small-file.js';

/** The element kinds an event is made of. */
export const ELEMENT_KINDS = [
  'user_text', 'assistant_text', 'tool_call', 'tool_result', 'error_flag', 'image', 'reasoning',
  'monitor_event', 'compaction', 'context',
] as const;
export type ElementKind = typeof ELEMENT_KINDS[number];

/** One kind's counts; `changed` and `dropped` are by reason and appear only when not empty. */
export interface KindAccount {
  read: number;
  written: number;
  changed?: Record<string, number>;
  dropped?: Record<string, number>;
}

/** An account as JSON: the kinds that were read (in ELEMENT_KINDS order). */
export type FidelityJson = Partial<Record<ElementKind, KindAccount>>;

/** The elements of one event, by kind (an event of no kind here counts nothing). */
export function elementsOf(event: GenericEvent): [ElementKind, number][] {
  switch (event.type) {
    case 'user': {
      const out: [ElementKind, number][] = [];
      // Blank text is no element: no format writes it (the APIs reject empty turns).
      if (event.text.trim() !== '') out.push(['user_text', 1]);
      if (event.images !== undefined && event.images.length > 0) out.push(['image', event.images.length]);
      return out;
    }
    case 'assistant': return event.text.trim() === '' ? [] : [['assistant_text', 1]];
    case 'thinking': return [['reasoning', 1]];
    case 'tool_call': return [['tool_call', 1]];
    case 'tool_result': {
      const out: [ElementKind, number][] = [['tool_result', 1]];
      if (event.is_error) out.push(['error_flag', 1]);
      const images = typeof event.content === 'string' ? 0 : event.content.filter((p) => p.type === 'image').length;
      if (images > 0) out.push(['image', images]);
      return out;
    }
    case 'monitor_event':
    case 'monitor_end': return [['monitor_event', 1]];
    case 'compaction': return [['compaction', 1]];
    case 'context': return [['context', 1]];
  }
}

function bump(table: Record<string, number>, key: string, n: number): void {
  table[key] = (table[key] ?? 0) + n;
}

/** One format's account of one conversion. A harness's mapper says what it dropped or changed; the logger counts what was read. */
export class FidelityAccount {
  private readonly read = new Map<ElementKind, number>();
  private readonly dropped = new Map<ElementKind, Record<string, number>>();
  private readonly changed = new Map<ElementKind, Record<string, number>>();
  private mutedDepth = 0;

  /** @param format the format written, whose own tool names a `native` call keeps */
  constructor(readonly format: string) {}

  /**
   * Run `fn` (a reopened session's replay of what an earlier run wrote) with nothing counted: that run's
   * account was given then.
   */
  muted<T>(fn: () => T): T {
    this.mutedDepth += 1;
    try {
      return fn();
    } finally {
      this.mutedDepth -= 1;
    }
  }

  /** Count the elements of an event handed to the writer. */
  readEvent(event: GenericEvent): void {
    if (this.mutedDepth > 0) return;
    for (const [kind, n] of elementsOf(event)) this.read.set(kind, (this.read.get(kind) ?? 0) + n);
    if (event.type === 'tool_call') {
      // A reader that renamed an agent's own call for the others keeps the original (`native`): written into
      // another format, the call goes under the generic name.
      const native = event.native;
      if (native !== undefined && native.format !== this.format && native.name !== event.name) {
        this.change('tool_call', 'tool-renamed');
      }
    }
  }

  /** Every element of `event` was left out, for `why`. */
  dropEvent(event: GenericEvent, why: string): void {
    for (const [kind, n] of elementsOf(event)) this.drop(kind, why, n);
  }

  /** `n` elements of `kind` were left out, for `why` (a short reason, the same wording each time). */
  drop(kind: ElementKind, why: string, n = 1): void {
    if (n <= 0 || this.mutedDepth > 0) return;
    let table = this.dropped.get(kind);
    if (table === undefined) this.dropped.set(kind, table = {});
    bump(table, why, n);
  }

  /** `n` elements of `kind` were written, changed as `how` says (`tool-renamed`, `result->user-text`). */
  change(kind: ElementKind, how: string, n = 1): void {
    if (n <= 0 || this.mutedDepth > 0) return;
    let table = this.changed.get(kind);
    if (table === undefined) this.changed.set(kind, table = {});
    bump(table, how, n);
  }

  /** Whether anything was dropped or changed. */
  get lossy(): boolean {
    return this.dropped.size > 0 || this.changed.size > 0;
  }

  toJSON(): FidelityJson {
    const out: FidelityJson = {};
    for (const kind of ELEMENT_KINDS) {
      const read = this.read.get(kind) ?? 0;
      const dropped = this.dropped.get(kind);
      const changed = this.changed.get(kind);
      if (read === 0 && dropped === undefined && changed === undefined) continue;
      const lost = dropped === undefined ? 0 : Object.values(dropped).reduce((a, b) => a + b, 0);
      out[kind] = {
        read,
        written: Math.max(0, read - lost),
        ...(changed !== undefined ? { changed: { ...changed } } : {}),
        ...(dropped !== undefined ? { dropped: { ...dropped } } : {}),
      };
    }
    return out;
  }
}

const KIND_WORDS: Record<ElementKind, string> = {
  user_text: 'user texts', assistant_text: 'assistant texts', tool_call: 'tool calls', tool_result: 'tool results',
  error_flag: 'error flags', image: 'images', reasoning: 'reasoning', monitor_event: 'monitor events',
  compaction: 'compactions', context: 'context events',
};

/**
 * The one stderr line for the formats whose conversion lost or changed something (undefined when none did):
 * `fidelity: codex-cli: reasoning 2 of 2 dropped (Codex keeps no reasoning); opencode: ...`.
 */
export function fidelitySummary(accounts: readonly { format: string; account: FidelityJson }[]): string | undefined {
  const parts: string[] = [];
  for (const { format, account } of accounts) {
    const said: string[] = [];
    for (const kind of ELEMENT_KINDS) {
      const entry = account[kind];
      // Context (another CLI's system text) is by design never written: every CLI makes its own. The account
      // counts it; the line would say it for every such input.
      if (entry === undefined || kind === 'context') continue;
      for (const [why, n] of Object.entries(entry.dropped ?? {})) said.push(`${KIND_WORDS[kind]} ${n} of ${entry.read} dropped (${why})`);
      for (const [how, n] of Object.entries(entry.changed ?? {})) said.push(`${KIND_WORDS[kind]} ${n} of ${entry.read} changed (${how})`);
    }
    if (said.length > 0) parts.push(`${format}: ${said.join(', ')}`);
  }
  return parts.length === 0 ? undefined : `fidelity: ${parts.join('; ')}`;
}

/**
 * Why the account cannot be written to `path` (checked before any input is read), or undefined. A file or
 * directory there is never overwritten; a FIFO or a terminal (`/dev/stderr`, `>(jq .)`) is written to.
 */
export function fidelityTargetProblem(path: string): string | undefined {
  let stat;
  try {
    stat = statSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return describeError(error);
  }
  return stat.isFile() || stat.isDirectory() ? 'it exists, and is never overwritten' : undefined;
}

/** Write the account `json` to `path`: a new file (0600, created exclusively), or a FIFO or terminal there. Throws one line. */
export function writeFidelityFile(path: string, json: unknown): void {
  const text = `${JSON.stringify(json)}\n`;
  if (writeNewFile(path, text)) return;
  const fd = openSync(path, constants.O_WRONLY);
  try {
    const stat = fstatSync(fd);
    if (stat.isFile() || stat.isDirectory()) throw new Error('it exists, and is never overwritten');
    writeSync(fd, text);
  } finally {
    closeSync(fd);
  }
}
