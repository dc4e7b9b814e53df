// Property: events -> filter -> Claude Code transcript -> read -> the same events, for random event
// sequences from a seeded generator (no dependency). What may differ is documented in docs/read.md
// ("Round trip"): events the writer does not write, and fields it fills in (model, task ids,
// a monitor description, a stopped monitor's exit code, a blank compaction summary).
import { readFileSync, rmSync } from 'node:fs';
import { Readable, Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { normalizeEvent, type GenericEvent } from '../../../../lib/events.js';
import { runFilter } from '../../../../lib/filter/index.js';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { runBin, sessionOf, tempDir } from '../../../support/run.js';

/** mulberry32: a small, seedable PRNG, so a failing seed can be replayed. */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

type Ev = Record<string, unknown>;

class Gen {
  private readonly rnd: () => number;
  private time = Date.UTC(2026, 2, 3, 4, 5, 6);
  private ids = 0;
  constructor(seed: number) {
    this.rnd = prng(seed);
  }
  chance(p: number): boolean {
    return this.rnd() < p;
  }
  int(min: number, max: number): number {
    return min + Math.floor(this.rnd() * (max - min + 1));
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(0, items.length - 1)]!;
  }
  ts(): string {
    this.time += this.int(0, 4000);
    return new Date(this.time).toISOString();
  }
  id(prefix: string): string {
    this.ids += 1;
    return `${prefix}_${this.ids}_${this.int(0, 1e6)}`;
  }
  /** Text with the characters that break naive writers: quotes, escapes, XML, newlines, astral symbols. */
  text(): string {
    const pieces = ['hello', 'a "quote"', 'back\\slash', '<tag> & </tag>', 'line\nbreak', 'tab\there', 'ünïcødé', '😀', 'x'.repeat(this.int(1, 300)), '{"json":true}', '  spaced  '];
    const n = this.int(1, 4);
    return Array.from({ length: n }, () => this.pick(pieces)).join(' ');
  }
  image(): { media_type: string; data: string } {
    return { media_type: this.pick(['image/png', 'image/jpeg']), data: Buffer.from(this.text()).toString('base64') };
  }
  usage(): Record<string, unknown> {
    return { input_tokens: this.int(1, 5000), output_tokens: this.int(1, 900), cache_read_input_tokens: this.int(0, 100) };
  }
}

const MODELS = ['claude-sonnet-4-5-20250929', 'claude-opus-5-5', 'claude-haiku-4-5-20251001'];

/** A random session: user turns, responses (thinking, text, parallel calls and their results), compactions, monitors, noise. */
function session(seed: number): Ev[] {
  const g = new Gen(seed);
  const out: Ev[] = [];
  const userTurn = () => {
    const images = g.chance(0.15) ? Array.from({ length: g.int(1, 2) }, () => g.image()) : undefined;
    const text = images && g.chance(0.3) ? '' : g.chance(0.05) ? '   ' : g.text();
    out.push({ type: 'user', text, ...(images ? { images } : {}), timestamp: g.ts() });
  };
  const response = () => {
    const blocks: Ev[] = [];
    if (g.chance(0.3)) blocks.push({ type: 'thinking', text: g.text(), ...(g.chance(0.85) ? { signature: g.id('sig') } : {}), timestamp: g.ts() });
    if (g.chance(0.7)) blocks.push({ type: 'assistant', text: g.chance(0.07) ? ' \n ' : g.text(), timestamp: g.ts() });
    const calls = g.int(0, 3);
    for (let i = 0; i < calls; i += 1) {
      blocks.push({ type: 'tool_call', id: g.id('toolu'), name: g.pick(['Bash', 'Read', 'Grep']), arguments: { command: g.text(), n: g.int(0, 9) }, timestamp: g.ts() });
    }
    if (blocks.length === 0) blocks.push({ type: 'assistant', text: g.text(), timestamp: g.ts() });
    // Model and usage go on the response's first written event (the reader reports them once per response).
    const kept = blocks.filter((b) => !dropped(b));
    if (kept.length > 0 && g.chance(0.6)) kept[0]!.model = g.pick(MODELS);
    const carriers = kept.filter((b) => b.type !== 'thinking');
    if (carriers.length > 0 && g.chance(0.6)) g.pick(carriers).usage = g.usage();
    out.push(...blocks);
    for (const call of blocks.filter((b) => b.type === 'tool_call')) {
      const content = g.chance(0.6) ? g.text()
        : Array.from({ length: g.int(0, 3) }, () => (g.chance(0.7) ? { type: 'text', text: g.text() } : { type: 'image', ...g.image() }));
      out.push({ type: 'tool_result', id: call.id, content, is_error: g.chance(0.2), timestamp: g.ts() });
    }
  };
  const aside = () => {
    const roll = g.int(0, 5);
    if (roll === 0) {
      out.push({ type: 'compaction', summary: g.chance(0.1) ? ' ' : g.text(), ...(g.chance(0.5) ? { trigger: g.pick(['manual', 'auto']) } : {}), ...(g.chance(0.5) ? { pre_tokens: g.int(0, 200000) } : {}), timestamp: g.ts() });
    } else if (roll === 1 || roll === 2) {
      out.push({ type: 'monitor_event', event: g.text(), ...(g.chance(0.8) ? { description: g.pick(['ticks', 'build "watch"', 'logs & <errors>']) } : {}), ...(g.chance(0.5) ? { task_id: `b${g.int(10000000, 99999999)}` } : {}), ...(g.chance(0.1) ? { note: 'reply exactly NO_REPLY' } : {}), timestamp: g.ts() });
    } else if (roll === 3) {
      out.push({ type: 'monitor_end', exit_code: g.pick([0, 0, 1, 130]), description: 'ticks', ...(g.chance(0.2) ? { stopped: true } : {}), timestamp: g.ts() });
    } else if (roll === 4) {
      out.push({ type: 'context', kind: 'system', subtype: 'turn_duration', text: 'noise', timestamp: g.ts() });
    } else {
      out.push({ type: 'user', text: 'a subagent\'s turn', agent_id: 'a1b2c3', timestamp: g.ts() });
    }
  };
  userTurn();
  const turns = g.int(1, 8);
  for (let i = 0; i < turns; i += 1) {
    response();
    if (g.chance(0.35)) aside();
    if (g.chance(0.7)) userTurn();
  }
  return onePerTurn(out);
}

/**
 * A turn is every assistant-side event between two user-side ones (docs/input-formats.md): responses
 * generated back to back share one message. The reader reports a turn's model and usage once, so keep only the first of each.
 */
function onePerTurn(events: Ev[]): Ev[] {
  let model = false;
  let usage = false;
  for (const e of events) {
    if (dropped(e)) continue;
    if (e.type === 'user' || e.type === 'tool_result' || e.type === 'compaction') {
      model = false;
      usage = false;
    } else if (e.type === 'assistant' || e.type === 'thinking' || e.type === 'tool_call') {
      if (model) delete e.model;
      model = true;
      if (usage) delete e.usage;
      if (e.usage !== undefined) usage = true;
    }
  }
  return events;
}

/** Events the Claude Code writer does not write (each is documented). */
function dropped(e: Ev): boolean {
  if (e.agent_id !== undefined || e.type === 'context') return true;
  if (e.type === 'assistant') return String(e.text).trim() === '';
  if (e.type === 'thinking') return e.signature === undefined;
  if (e.type === 'user') return String(e.text).trim() === '' && e.images === undefined;
  return false;
}

/** What reading the transcript must give back, given the input and (for generated fields) the output. */
function expected(input: Ev[]): GenericEvent[] {
  return input.filter((e) => !dropped(e)).map((e) => {
    const r = normalizeEvent(e, '2000-01-01T00:00:00.000Z');
    if (!r.ok || !r.event) throw new Error(`generator made an invalid event: ${JSON.stringify(e)}`);
    const event = r.event;
    if (event.type === 'compaction' && event.summary.trim() === '') event.summary = '';
    if (event.type === 'monitor_event' || event.type === 'monitor_end') event.description ??= 'monitor';
    if (event.type === 'monitor_end' && event.stopped) event.exit_code = -1;
    return event;
  });
}

/** Remove from `actual` the fields the writer generates where the input gave none (model, task ids). */
function withoutGenerated(actual: GenericEvent[], want: GenericEvent[]): GenericEvent[] {
  return actual.map((a, i) => {
    const w = want[i] as Record<string, unknown> | undefined;
    const copy = { ...a } as Record<string, unknown>;
    if (w && w.type === copy.type) {
      if (w.model === undefined) delete copy.model;
      if ((copy.type === 'monitor_event' || copy.type === 'monitor_end') && w.task_id === undefined) delete copy.task_id;
    }
    return copy as unknown as GenericEvent;
  });
}

async function roundTrip(input: Ev[]): Promise<{ actual: GenericEvent[]; warnings: string[] }> {
  const root = tempDir('asyncai-roundtrip-');
  const sink = () => new Writable({ write(_c, _e, cb) { cb(); } });
  const result = await runFilter({
    formats: ['claude-code-cli'], sessionDirs: { 'claude-code-cli': root }, cwd: '/home/user/project', agentName: 'test',
    env: {}, homedir: root, processCwd: root, noSession: false, echo: false, strict: true, from: 'events',
  }, { stdin: Readable.from([input.map((e) => `${JSON.stringify(e)}\n`).join('')]), stdout: sink(), stderr: sink() });
  if (result.code !== 0) throw new Error(`the filter failed with ${result.code}`);
  try {
    const reader = readClaudeTranscript(result.harnesses[0]!.sessionFile);
    const actual: GenericEvent[] = [];
    for await (const event of reader) actual.push(event);
    return { actual, warnings: reader.warnings.map((w) => w.message) };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

describe('round trip: events -> transcript -> read', () => {
  const SEEDS = Array.from({ length: 150 }, (_, i) => i + 1);

  test.each(SEEDS)('seed %i gives back the events written', async (seed) => {
    const input = session(seed);
    const want = expected(input);
    const { actual, warnings } = await roundTrip(input);
    expect(warnings).toEqual([]);
    expect(withoutGenerated(actual, want)).toEqual(want);
  });

  test('the generator covers every event type and the written/dropped cases', () => {
    const all = SEEDS.flatMap((seed) => session(seed));
    const types = new Set(all.map((e) => e.type));
    expect([...types].sort()).toEqual(['assistant', 'compaction', 'context', 'monitor_end', 'monitor_event', 'thinking', 'tool_call', 'tool_result', 'user']);
    expect(all.some(dropped)).toBe(true);
    expect(all.some((e) => e.type === 'tool_result' && Array.isArray(e.content))).toBe(true);
    expect(all.some((e) => e.type === 'user' && e.images !== undefined)).toBe(true);
    expect(all.some((e) => e.agent_id !== undefined)).toBe(true);
  });

  test('the built bins do the same round trip: read output equals the events written', async () => {
    const input = session(4242);
    const root = tempDir('asyncai-roundtrip-bin-');
    const written = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project'], { input: input.map((e) => `${JSON.stringify(e)}\n`).join('') });
    expect(written.code).toBe(0);
    const read = await runBin(['read', sessionOf(written).session_file]);
    expect([read.code, read.stderr]).toEqual([0, '']);
    const actual = read.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l) as GenericEvent);
    const want = expected(input);
    expect(withoutGenerated(actual, want)).toEqual(want);
    expect(readFileSync(sessionOf(written).session_file, 'utf8').length).toBeGreaterThan(0);
  });
});
