// The pair matrix (issue 36): a session each agent's real CLI wrote (its driver's `nativeSession`, a captured
// fixture) is piped into the bin as every registered format, and every format's real CLI resumes what was
// written against its loopback mock. Its first model request must hold the source's conversation, every
// element in order: user and model texts, images where the target keeps them, each call and its own result
// (error flags where the target's API marks them), and no reasoning as text. A session written into its own
// agent's format keeps tool names and arguments as its CLI wrote them (read from the source file by the driver,
// not from the events: those carry the generic names). One more source has a compaction (fixtures/events/
// compaction.ndjson, generic events: no captured session holds one a target can take as it is): a target that holds
// compactions sends the summary and what follows, nothing before. One real CLI start per target; the targets run
// side by side.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, FIXTURES, run, tempDir, type RunResult } from '../support/run.js';
import type { ContractDriver, Element, NativeCall, RealCli } from './driver.js';
import { binArgs, FORMATS, requireDriver, sessionEntry } from './support.js';

const PROMPT = 'Reply with exactly: resumed-ok';

interface Pair {
  written: RunResult;
  /** The run's fidelity account (`--fidelity-json`). */
  fidelity?: any;
  resumed?: { run: RunResult; request: unknown };
}

const drivers = new Map<string, ContractDriver>();
/** The generic events each source session reads as (`read --events`). */
const sourceEvents = new Map<string, any[]>();
/** The tool calls of each source session as its CLI wrote them, by id (the driver reads them from the file). */
const sourceCalls = new Map<string, Map<string, NativeCall>>();
const pairs = new Map<string, PromiseSettledResult<Pair>>();
const clis: RealCli[] = [];
const key = (source: string, target: string) => `${source} -> ${target}`;
/** The source with a compaction, beside each agent's own session. */
const COMPACTION = 'events-compaction';
const COMPACTION_FILE = join('events', 'compaction.ndjson');
const SOURCES = [...FORMATS, COMPACTION];
/** A source's session file under fixtures/. */
const sourceFile = (source: string) => (source === COMPACTION ? COMPACTION_FILE : drivers.get(source)!.nativeSession);

beforeAll(async () => {
  for (const format of FORMATS) drivers.set(format, await requireDriver(format));
  for (const source of SOURCES) {
    const read = await run(process.execPath, [BIN, 'read', '--events', join(FIXTURES, sourceFile(source))], { env: { HOME: '/nonexistent' } });
    if (read.code !== 0) throw new Error(`read --events of ${sourceFile(source)} failed: ${read.stderr}`);
    sourceEvents.set(source, read.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l)));
    const driver = drivers.get(source);
    if (driver !== undefined) sourceCalls.set(source, driver.nativeCalls(readFileSync(join(FIXTURES, driver.nativeSession), 'utf8')));
  }
  await Promise.all(FORMATS.map(async (target) => {
    const driver = drivers.get(target)!;
    let cli: RealCli;
    try {
      cli = await driver.realCli();
      clis.push(cli);
    } catch (reason) {
      for (const source of SOURCES) pairs.set(key(source, target), { status: 'rejected', reason });
      return;
    }
    // One target's resumes in turn: its mock answers one request at a time.
    for (const source of SOURCES) {
      try {
        const input = readFileSync(join(FIXTURES, sourceFile(source)), 'utf8');
        const fidelityFile = join(tempDir('asyncai-log-fidelity-'), 'account.json');
        const args = [BIN, ...binArgs(target, cli.place), '--fidelity-json', fidelityFile];
        const written = await run(process.execPath, args, { cwd: cli.place.cwd, env: cli.place.env, input });
        const pair: Pair = { written };
        if (written.code === 0) pair.fidelity = JSON.parse(readFileSync(fidelityFile, 'utf8'));
        if (written.code === 0) pair.resumed = await cli.resume(sessionEntry(written, target));
        pairs.set(key(source, target), { status: 'fulfilled', value: pair });
      } catch (reason) {
        pairs.set(key(source, target), { status: 'rejected', reason });
      }
    }
  }));
}, 1_800_000);
afterAll(async () => {
  await Promise.all(clis.map((cli) => cli.close()));
});

function pair(source: string, target: string): Pair {
  const settled = pairs.get(key(source, target));
  if (settled === undefined) throw new Error(`no outcome for ${key(source, target)}`);
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

/** The text of a tool result's content (its text parts). */
function resultText(content: unknown): string {
  if (typeof content === 'string') return content;
  return (content as any[]).filter((p) => p.type === 'text').map((p) => p.text).join('\n');
}

/**
 * The elements the target must send for the source's events, in order. Written into its own agent's format
 * (`own`: the source's calls as its CLI wrote them), a call keeps the name and arguments the CLI gave it.
 */
function expected(events: any[], target: ContractDriver, own: Map<string, NativeCall> | undefined): Element[] {
  let out: Element[] = [];
  for (const e of events) {
    if (e.type === 'compaction') {
      // The summary reaches the model as user-side text (some agents wrap it in words of their own).
      if (!target.sendsHistoryBeforeCompaction) out = [];
      out.push({ kind: 'text', from: 'user', text: expect.stringContaining(e.summary) as unknown as string });
    } else if (e.type === 'user') {
      out.push({ kind: 'text', from: 'user', text: e.text });
      if (target.keepsImages) for (const _ of e.images ?? []) out.push({ kind: 'image' });
    } else if (e.type === 'assistant') {
      out.push({ kind: 'text', from: 'model', text: e.text });
    } else if (e.type === 'tool_call') {
      const call = own?.get(e.id);
      if (own !== undefined && call === undefined) throw new Error(`call ${e.id} read from the source is not in its own file`);
      out.push({ kind: 'call', id: expect.any(String) as unknown as string, name: call?.name ?? expect.any(String), args: call?.args ?? expect.anything() });
    } else if (e.type === 'tool_result') {
      out.push({ kind: 'result', id: expect.any(String) as unknown as string, text: resultText(e.content), ...(target.marksErrors ? { error: e.is_error === true } : {}) });
    }
  }
  return out;
}

describe.each(SOURCES.flatMap((source) => FORMATS.map((target) => [source, target])))('%s into %s', (source, target) => {
  test('written, resumed by the real CLI, and its first request holds the whole conversation in order, then the prompt', () => {
    const { written, resumed } = pair(source, target);
    expect(written.code, written.stderr).toBe(0);
    expect(resumed!.run.code, resumed!.run.stderr).toBe(0);
    const driver = drivers.get(target)!;
    const elements = driver.elements(resumed!.request);
    expect(elements).toEqual([...expected(sourceEvents.get(source)!, driver, source === target ? sourceCalls.get(source) : undefined), { kind: 'text', from: 'user', text: PROMPT }]);
  });
});

/** How many of each element the account says were written: what the target CLI must send. */
function writtenCounts(account: any, target: ContractDriver): Record<string, number> {
  const written = (kind: string): number => account[kind]?.written ?? 0;
  return {
    // A monitor event and a compaction's summary reach the model as user-side text.
    userTexts: written('user_text') + written('monitor_event') + written('compaction'),
    modelTexts: written('assistant_text'),
    calls: written('tool_call'),
    results: written('tool_result'),
    ...(target.keepsImages ? { images: written('image') } : {}),
    ...(target.marksErrors ? { errors: written('error_flag') } : {}),
  };
}

/**
 * What of the written elements a target that holds compactions does not send: those before the source's last
 * compaction (counted as writtenCounts counts them).
 */
function compactedAway(events: any[], target: ContractDriver): Record<string, number> {
  const at = target.sendsHistoryBeforeCompaction ? -1 : events.findLastIndex((e) => e.type === 'compaction');
  const before = at < 0 ? [] : events.slice(0, at);
  const count = (p: (e: any) => boolean) => before.filter(p).length;
  return {
    userTexts: count((e) => e.type === 'user' || e.type === 'monitor_event' || e.type === 'compaction'),
    modelTexts: count((e) => e.type === 'assistant'),
    calls: count((e) => e.type === 'tool_call'),
    results: count((e) => e.type === 'tool_result'),
    ...(target.keepsImages ? { images: before.reduce((n, e) => n + (e.type === 'user' ? (e.images?.length ?? 0) : 0), 0) } : {}),
    ...(target.marksErrors ? { errors: count((e) => e.type === 'tool_result' && e.is_error === true) } : {}),
  };
}

/** The same counts of what the CLI sent (the resume prompt left out). */
function sentCounts(elements: Element[], target: ContractDriver): Record<string, number> {
  const sent = elements.slice(0, -1);
  const count = (p: (e: Element) => boolean) => sent.filter(p).length;
  return {
    userTexts: count((e) => e.kind === 'text' && e.from === 'user'),
    modelTexts: count((e) => e.kind === 'text' && e.from === 'model'),
    calls: count((e) => e.kind === 'call'),
    results: count((e) => e.kind === 'result'),
    ...(target.keepsImages ? { images: count((e) => e.kind === 'image') } : {}),
    ...(target.marksErrors ? { errors: count((e) => e.kind === 'result' && e.error === true) } : {}),
  };
}

describe.each(SOURCES.flatMap((source) => FORMATS.map((target) => [source, target])))('%s into %s: the fidelity account', (source, target) => {
  test('says as written what the real CLI sent, and as dropped what it did not (reasoning never sent as text)', () => {
    const { written, resumed, fidelity } = pair(source, target);
    expect(written.code, written.stderr).toBe(0);
    const driver = drivers.get(target)!;
    const [session] = fidelity.sessions;
    expect(session.format).toBe(target);
    const elements = driver.elements(resumed!.request);
    const away = compactedAway(sourceEvents.get(source)!, driver);
    const sendable = Object.fromEntries(Object.entries(writtenCounts(session.elements, driver)).map(([k, n]) => [k, n - (away[k] ?? 0)]));
    expect(sendable).toEqual(sentCounts(elements, driver));
    // Every element read is written or dropped, and the summary line on stderr names each drop.
    for (const [kind, entry] of Object.entries<any>(session.elements)) {
      const dropped = Object.values<number>(entry.dropped ?? {}).reduce((a, b) => a + b, 0);
      expect(entry.written + dropped, kind).toBe(entry.read);
      if (dropped > 0 && kind !== 'context') expect(written.stderr).toMatch(/asyncai-log: fidelity: /);
    }
  });
});
