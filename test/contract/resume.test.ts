// Contract items 6 and 7, for every registered format: the shared event fixture (fixtures/events/contract.ndjson)
// is streamed into the bin with stdin held open; halfway, another process appends a whole line to the session
// file (as a resuming CLI does); then the rest arrives. The file ends with whole lines, ours after the foreign
// one, and the agent's real CLI resumes it against its loopback mock, sending every element in order.
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { BIN, run, until, type RunResult } from '../support/run.js';
import type { ContractDriver, Element, RealCli, SessionEntry } from './driver.js';
import { binArgs, CONTRACT_EVENTS, FORMATS, requireDriver } from './support.js';

/** The fixture up to both tool results, then the monitor event, its end and the final text. */
const FIRST = CONTRACT_EVENTS.slice(0, 7).join('');
const REST = CONTRACT_EVENTS.slice(7).join('');
/** Text of the last event of FIRST: once the file holds it, the foreign line goes in. */
const FIRST_MARK = 'contract-listing.txt';
/** Text of the last event of REST: our line written after the foreign one. */
const FINAL_TEXT = JSON.parse(CONTRACT_EVENTS.at(-1)!).text as string;
const FOREIGN_MARK = 'contract-foreign-line';
const PROMPT = 'Reply with exactly: resumed-ok';

interface Outcome {
  driver: ContractDriver;
  written: { code: number | null; stderr: string };
  session: SessionEntry;
  /** The file held the first half when the foreign line went in. */
  firstWritten: boolean;
  /** The session file's text when the run ended, before the real CLI resumed it. */
  text: string;
  resumed: { run: RunResult; request: unknown };
}

/** Stream the fixture with a foreign append halfway, then resume with the real CLI. */
async function writeAndResume(driver: ContractDriver, cli: RealCli): Promise<Outcome> {
  const { place } = cli;
  const child = spawn(process.execPath, [BIN, ...binArgs(driver.format, place)], { cwd: place.cwd, env: place.env, stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
  child.stdin.on('error', () => {});
  const closed = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
  child.stdin.write(FIRST);
  await until(() => out.includes('\n') || child.exitCode !== null);
  if (!out.includes('\n')) throw new Error(`no session line; exit ${child.exitCode}, stderr: ${err}`);
  const session = (JSON.parse(out.split('\n')[0]!).result.harnesses as SessionEntry[]).find((h) => h.format === driver.format)!;
  const holdsFirst = () => readFileSync(session.session_file, 'utf8').includes(FIRST_MARK);
  await until(() => holdsFirst() || child.exitCode !== null);
  const firstWritten = holdsFirst();
  // Another process appends one whole line, as the real CLI does when it resumes a live session.
  const appended = await run(process.execPath, ['-e', 'require("node:fs").appendFileSync(process.argv[1], process.argv[2])',
    session.session_file, driver.foreignLine(session, FOREIGN_MARK)]);
  expect(appended.code, appended.stderr).toBe(0);
  child.stdin.end(REST);
  const code = await closed;
  const text = readFileSync(session.session_file, 'utf8');
  const resumed = await cli.resume(session);
  return { driver, written: { code, stderr: err }, session, firstWritten, text, resumed };
}

const outcomes = new Map<string, PromiseSettledResult<Outcome>>();
const clis: RealCli[] = [];
beforeAll(async () => {
  // One real CLI start per agent; the agents run side by side.
  await Promise.all(FORMATS.map(async (format) => {
    try {
      const driver = await requireDriver(format);
      const cli = await driver.realCli();
      clis.push(cli);
      outcomes.set(format, { status: 'fulfilled', value: await writeAndResume(driver, cli) });
    } catch (reason) {
      outcomes.set(format, { status: 'rejected', reason });
    }
  }));
}, 240_000);
afterAll(async () => {
  await Promise.all(clis.map((cli) => cli.close()));
});

function outcome(format: string): Outcome {
  const settled = outcomes.get(format);
  if (settled === undefined) throw new Error(`no outcome for ${format}`);
  if (settled.status === 'rejected') throw settled.reason;
  return settled.value;
}

/** The elements every agent must send for the fixture, in order. */
function expected(driver: ContractDriver): Element[] {
  const events = CONTRACT_EVENTS.map((l) => JSON.parse(l));
  const error = (is: boolean) => (driver.marksErrors ? { error: is } : {});
  return [
    { kind: 'text', from: 'user', text: events[0].text },
    ...(driver.keepsImages ? [{ kind: 'image' } as const] : []),
    { kind: 'text', from: 'model', text: events[2].text },
    { kind: 'call', id: events[3].id, name: events[3].name, args: events[3].arguments },
    { kind: 'call', id: events[4].id, name: events[4].name, args: events[4].arguments },
    { kind: 'result', id: events[5].id, text: events[5].content, ...error(true) },
    { kind: 'result', id: events[6].id, text: events[6].content, ...error(false) },
    { kind: 'text', from: 'user', text: expect.stringContaining('<event>build ok</event>') as unknown as string },
    { kind: 'text', from: 'user', text: expect.stringContaining('Monitor "npm run watch" stream ended') as unknown as string },
    { kind: 'text', from: 'model', text: FINAL_TEXT },
  ];
}

describe.each(FORMATS)('%s', (format) => {
  test('the bin writes the shared fixture with a foreign line appended halfway: exit 0', () => {
    const { written } = outcome(format);
    expect(written.code, written.stderr).toBe(0);
  });

  test('the session file ends with whole lines, the foreign line once, and ours written later after it', () => {
    const { text, firstWritten } = outcome(format);
    expect(firstWritten).toBe(true);
    expect(text.endsWith('\n')).toBe(true);
    const lines = text.slice(0, -1).split('\n');
    for (const line of lines) expect(() => JSON.parse(line), line.slice(0, 200)).not.toThrow();
    const foreign = lines.flatMap((line, i) => (line.includes(FOREIGN_MARK) ? [i] : []));
    expect(foreign).toHaveLength(1);
    const final = lines.findLastIndex((line) => line.includes(FINAL_TEXT));
    expect(final).toBeGreaterThan(foreign[0]!);
  });

  test('the real CLI resumes it and its first model request holds every element of the fixture, in order, then the prompt', () => {
    const { driver, resumed } = outcome(format);
    expect(resumed.run.code, resumed.run.stderr).toBe(0);
    expect(resumed.run.stdout).toContain('resumed-ok');
    expect(resumed.request).toBeDefined();
    const elements = driver.elements(resumed.request);
    expect(elements).toEqual([...expected(driver), { kind: 'text', from: 'user', text: PROMPT }]);
  });
});
