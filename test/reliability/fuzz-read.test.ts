// Property tests of `asyncai-log read` over damaged transcripts: junk lines of every kind inserted between
// the records (random bytes, cut-off records, invalid UTF-8, NULs, raw surrogates, deep nesting, CRLF) lose
// no event and get one located diagnostic each; a file cut at any byte reads as a prefix of the whole one;
// random byte damage never crashes; hostile values (deep nesting, prototype keys, spill pointers at files
// outside any session) are handled; a 50 MB record is read with bounded memory.
import { describe, expect, test } from 'vitest';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { normalizeEvent, type GenericEvent } from '../../lib/events.js';
import { claudeCodeCli } from '../../lib/agents/claude-code-cli/harness.js';
import { readClaudeTranscript, type ReaderWarning } from '../../lib/agents/claude-code-cli/reader/index.js';
import { FIXTURES, runBin, tempDir } from '../support/run.js';
import { EventGenerator } from './generate.js';
import { finished, spawnBin, withSeed, type Rng } from './support.js';

/** Read every event of a transcript with the library, collecting warnings. */
async function readAll(path: string): Promise<{ events: GenericEvent[]; warnings: ReaderWarning[] }> {
  const warnings: ReaderWarning[] = [];
  const reader = readClaudeTranscript(path, { onWarning: (w) => warnings.push(w) });
  const events: GenericEvent[] = [];
  for await (const event of reader) events.push(event);
  return { events, warnings };
}

/** A clean transcript written by the Claude harness from generated valid events; returns its lines. */
function cleanTranscript(rng: Rng, count: number): string[] {
  const gen = new EventGenerator(rng);
  const harness = claudeCodeCli.create({ root: tempDir(), cwd: '/home/user/project', cwdFromInput: true, warn: () => {} });
  const now = '2026-11-29T10:00:00.000Z';
  for (let i = 0; i < count; i += 1) {
    // The generator's values are valid generic events (enum spellings included).
    const normalized = normalizeEvent(JSON.parse(gen.valid().json), now);
    if (normalized.ok && normalized.event) harness.add(normalized.event, `gen:${i}`);
  }
  for (const line of gen.closing()) {
    const normalized = normalizeEvent(JSON.parse(line.bytes.toString()), now);
    if (normalized.ok && normalized.event) harness.add(normalized.event, 'gen:end');
  }
  harness.finish();
  return readFileSync(harness.sessionFile, 'utf8').split('\n').filter((l) => l !== '');
}

/** A junk line that is surely not a JSON object and holds nothing a reader could take for a record. */
function junkLine(rng: Rng, records: string[]): { bytes: Buffer; kind: string } {
  for (;;) {
    switch (rng.int(8)) {
      case 0: {
        const bytes = Buffer.from(rng.bytes(rng.between(1, 200)).map((b) => (b === 10 || b === 123 ? 32 : b)));
        const text = bytes.toString('utf8').replace(/\r$/, '');
        if (text.trim() === '') continue;
        try {
          JSON.parse(text);
          continue;
        } catch {
          return { bytes, kind: 'random bytes' };
        }
      }
      case 1: {
        // A record cut before its first nested object: what an interrupted write leaves in the middle.
        const line = rng.pick(records);
        const end = line.indexOf('{', 1);
        const cut = rng.between(2, (end === -1 ? line.length : end) - 1);
        return { bytes: Buffer.from(line.slice(0, cut)), kind: 'cut-off record' };
      }
      case 2:
        return { bytes: Buffer.concat([Buffer.from('{"type":"user","uuid":"x'), Buffer.from([0xff, 0xc3, 0xed, 0xa0, 0x80])]), kind: 'invalid UTF-8' };
      case 3:
        return { bytes: Buffer.from([0, 0, 0, 0]), kind: 'NUL bytes' };
      case 4:
        return { bytes: Buffer.from('['.repeat(rng.between(10, 50_000))), kind: 'deep nesting' };
      case 5:
        return { bytes: Buffer.from(rng.pick(['[1,2]', '"text"', '42', 'null', 'true'])), kind: 'not an object' };
      case 6:
        return { bytes: Buffer.from('{"type":"user","message":'), kind: 'unterminated object' };
      default:
        return { bytes: Buffer.from(`not json ${rng.int(1e6)}`), kind: 'text' };
    }
  }
}

const withoutTimestampNoise = (events: GenericEvent[]) => JSON.stringify(events);

describe('read over transcripts with junk lines between the records', () => {
  test('no event is lost and every junk line gets exactly one located diagnostic (40 transcripts)', async () => {
    await withSeed('read junk lines', async (rng) => {
      for (let trial = 0; trial < 40; trial += 1) {
        const records = cleanTranscript(rng, rng.between(5, 60));
        const dir = join(tempDir(), 'projects', '-home-user-project');
        mkdirSync(dir, { recursive: true });
        const cleanPath = join(dir, '5e55e55e-0000-4000-8000-000000000001.jsonl');
        writeFileSync(cleanPath, `${records.join('\n')}\n`);
        const clean = await readAll(cleanPath);
        expect(clean.warnings).toEqual([]);
        const parts: Buffer[] = [];
        const junkAt: { no: number; kind: string }[] = [];
        let no = 0;
        for (const record of records) {
          while (rng.chance(0.3)) {
            const junk = junkLine(rng, records);
            no += 1;
            junkAt.push({ no, kind: junk.kind });
            parts.push(junk.bytes, Buffer.from(rng.chance(0.3) ? '\r\n' : '\n'));
          }
          no += 1;
          parts.push(Buffer.from(record), Buffer.from(rng.chance(0.3) ? '\r\n' : '\n'));
        }
        const damagedPath = join(dir, '5e55e55e-0000-4000-8000-000000000002.jsonl');
        writeFileSync(damagedPath, Buffer.concat(parts));
        const damaged = await readAll(damagedPath);
        expect(withoutTimestampNoise(damaged.events)).toBe(withoutTimestampNoise(clean.events));
        const perLine = new Map<number, string[]>();
        for (const w of damaged.warnings) {
          expect(w.line, `unlocated warning: ${w.message}`).toBeDefined();
          perLine.set(w.line!, [...(perLine.get(w.line!) ?? []), w.message]);
        }
        for (const { no: line, kind } of junkAt) {
          expect(perLine.get(line), `line ${line} (${kind})`).toHaveLength(1);
        }
        expect([...perLine.keys()].filter((line) => !junkAt.some((j) => j.no === line))).toEqual([]);
      }
    });
  });

  test('a transcript cut at any byte reads as a prefix of the whole one, with at most one diagnostic for the cut line (40 cuts)', async () => {
    await withSeed('read truncated', async (rng) => {
      for (let trial = 0; trial < 40; trial += 1) {
        const records = cleanTranscript(rng, rng.between(3, 30));
        const text = Buffer.from(`${records.join('\n')}\n`);
        const dir = join(tempDir(), 'projects', '-p');
        mkdirSync(dir, { recursive: true });
        const whole = join(dir, '5e55e55e-0000-4000-8000-000000000001.jsonl');
        writeFileSync(whole, text);
        const cutPath = join(dir, '5e55e55e-0000-4000-8000-000000000002.jsonl');
        writeFileSync(cutPath, text.subarray(0, rng.between(1, text.length - 1)));
        const full = await readAll(whole);
        const cut = await readAll(cutPath);
        const fullJson = full.events.map((e) => JSON.stringify(e));
        const cutJson = cut.events.map((e) => JSON.stringify(e));
        // Usage is only on a response's first block, so a cut turn's events are a prefix event by event.
        expect(fullJson.slice(0, cutJson.length)).toEqual(cutJson);
        expect(cut.warnings.length, JSON.stringify(cut.warnings)).toBeLessThanOrEqual(1);
      }
    });
  });

  test('random byte damage anywhere never crashes the bin: exit 0, NDJSON events on stdout, located diagnostics (8 files)', async () => {
    await withSeed('read byte damage', async (rng) => {
      const fixtures = readdirSync(join(FIXTURES, 'claude-code-cli')).flatMap((name) => readdirSync(join(FIXTURES, 'claude-code-cli', name))
        .filter((f) => /^[0-9a-f-]{36}\.jsonl$/.test(f)).map((f) => join(FIXTURES, 'claude-code-cli', name, f)));
      for (let trial = 0; trial < 8; trial += 1) {
        const bytes = Buffer.from(readFileSync(rng.pick(fixtures)));
        for (let i = rng.between(1, 40); i > 0; i -= 1) bytes[rng.int(bytes.length)] = rng.pick([0, 10, 13, 0x22, 0x7b, 0x7d, 0xff, 0xed, rng.int(256)]);
        const path = join(tempDir(), `${'d'.repeat(8)}-0000-4000-8000-000000000000.jsonl`);
        writeFileSync(path, bytes);
        const lineCount = bytes.toString('latin1').split('\n').length;
        const run = spawnBin(['read', '--events', path]);
        run.child.stdin.end();
        const { code, stdout, stderr } = await finished(run);
        expect(code).toBe(0);
        for (const line of stdout.toString('utf8').split('\n').filter((l) => l !== '')) {
          expect(typeof JSON.parse(line).type).toBe('string');
        }
        for (const line of stderr.split('\n').filter((l) => l !== '')) {
          const match = /^asyncai-log: (.+?)(?::(\d+))?: ./.exec(line);
          expect(match, line).not.toBeNull();
          if (match![2] !== undefined) expect(Number(match![2])).toBeLessThanOrEqual(lineCount);
        }
      }
    });
  });
});

describe('hostile records', () => {
  const SID = '5e55e55e-0000-4000-8000-0000000000aa';
  const write = (lines: string[]) => {
    const dir = join(tempDir(), 'projects', '-home-user-project');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${SID}.jsonl`);
    writeFileSync(path, `${lines.join('\n')}\n`);
    return path;
  };
  const user = (uuid: string, parent: string | null, content: string) => `{"parentUuid":${JSON.stringify(parent)},"type":"user","message":{"role":"user","content":${content}},"uuid":"${uuid}","timestamp":"2026-11-29T10:00:0${uuid.length % 10}.000Z","sessionId":"${SID}"}`;

  test('a record nested 100,000 levels deep is one diagnostic, never a crash or a silent end of the output; the records around it are read', async () => {
    const depth = 100_000;
    const deep = `${'['.repeat(depth)}${']'.repeat(depth)}`;
    const path = write([
      user('u1', null, '"before"'),
      user('u2', 'u1', deep),
      `{"parentUuid":"u2","type":"assistant","uuid":"a1","timestamp":"2026-11-29T10:00:03.000Z","sessionId":"${SID}","message":{"id":"m","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"t","name":"X","input":${`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`}}]}}`,
      user('u3', 'a1', '"after"'),
    ]);
    const r = await runBin(['read', path]);
    expect(r.code).toBe(0);
    const events = r.stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    expect(events[0]).toMatchObject({ type: 'user', text: 'before' });
    expect(events.at(-1)).toMatchObject({ type: 'user', text: 'after' });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/: a tool_call event cannot be written as JSON \(Maximum call stack size exceeded\); skipped$/)]);
  });

  test('keys named __proto__ and constructor in records are plain data', async () => {
    const path = write([
      `{"__proto__":{"type":"assistant"},"constructor":{"prototype":{"x":1}},"parentUuid":null,"type":"user","message":{"role":"user","content":"hi","__proto__":{"content":"evil"}},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z","sessionId":"${SID}"}`,
      `{"parentUuid":"u1","type":"assistant","uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z","sessionId":"${SID}","message":{"id":"m","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"t","name":"X","input":{"__proto__":{"polluted":true}}}]}}`,
    ]);
    const { events } = await readAll(path);
    expect(events.map((e) => e.type)).toEqual(['user', 'tool_call']);
    expect((events[0] as any).text).toBe('hi');
    expect(JSON.stringify((events[1] as any).arguments)).toBe('{"__proto__":{"polluted":true}}');
    expect(({} as any).polluted).toBeUndefined();
  });

  test('a spill pointer at a file outside any Claude Code tool-results directory is not read', async () => {
    const secret = join(tempDir(), 'secret.txt');
    writeFileSync(secret, 'TOP SECRET CONTENT');
    const path = write([
      user('u1', null, '"go"'),
      `{"parentUuid":"u1","type":"assistant","uuid":"a1","timestamp":"2026-11-29T10:00:01.000Z","sessionId":"${SID}","message":{"id":"m","role":"assistant","model":"claude-opus-5-5","content":[{"type":"tool_use","id":"t","name":"Bash","input":{}}]}}`,
      `{"parentUuid":"a1","type":"user","uuid":"u2","timestamp":"2026-11-29T10:00:02.000Z","sessionId":"${SID}","message":{"role":"user","content":[{"type":"tool_result","tool_use_id":"t","content":${JSON.stringify(`Output too large. Full output saved to: ${secret}\n\nPreview: ...`)}}]}}`,
    ]);
    const r = await runBin(['read', path]);
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain('TOP SECRET');
    expect(r.stdout).toContain(`Full output saved to: ${secret}`);
    expect(r.stderr).toMatch(/spilled output .* is not in a Claude Code tool-results directory; the pointer is kept/);
  });
});

describe('a 50 MB record', () => {
  const SID = '5e55e55e-0000-4000-8000-0000000000bb';
  const big = 'x'.repeat(50 * 1024 * 1024);
  function bigTranscript(): string {
    const dir = join(tempDir(), 'projects', '-p');
    mkdirSync(dir, { recursive: true });
    const path = join(dir, `${SID}.jsonl`);
    writeFileSync(path, [
      `{"parentUuid":null,"type":"user","message":{"role":"user","content":"before"},"uuid":"u1","timestamp":"2026-11-29T10:00:00.000Z","sessionId":"${SID}"}`,
      `{"parentUuid":"u1","type":"user","message":{"role":"user","content":"${big}"},"uuid":"u2","timestamp":"2026-11-29T10:00:01.000Z","sessionId":"${SID}"}`,
      `{"parentUuid":"u2","type":"user","message":{"role":"user","content":"after"},"uuid":"u3","timestamp":"2026-11-29T10:00:02.000Z","sessionId":"${SID}"}`,
    ].join('\n').concat('\n'));
    return path;
  }

  test('is read whole, with peak RSS bounded by a small multiple of it', async () => {
    const run = spawnBin(['read', bigTranscript()], { sampleRss: true });
    run.child.stdin.end();
    const { code, stdout, stderr, peakRssKiB } = await finished(run);
    expect(code).toBe(0);
    expect(stderr).toBe('');
    const lines = stdout.toString('utf8').split('\n').filter((l) => l !== '');
    expect(lines.map((l) => JSON.parse(l).text.length)).toEqual([6, big.length, 5]);
    console.log(`read, 50 MB record: peak RSS ${(peakRssKiB / 1024).toFixed(0)} MiB`);
    expect(peakRssKiB).toBeGreaterThan(0);
    expect(peakRssKiB / 1024).toBeLessThan(150 + 14 * 50);
  });

  test('over --max-record-bytes it is skipped with one diagnostic and without being held in memory', async () => {
    const run = spawnBin(['read', '--max-record-bytes', String(1024 * 1024), bigTranscript()], { sampleRss: true });
    run.child.stdin.end();
    const { code, stdout, stderr, peakRssKiB } = await finished(run);
    expect(code).toBe(0);
    // One diagnostic for the line, and only it is lost: the branch runs through it (its uuid was kept).
    expect(stderr.trim().split('\n')).toEqual([expect.stringMatching(/:2: record of \d+ bytes is over the limit of 1048576 bytes; skipped$/)]);
    expect(stdout.toString('utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l).text)).toEqual(['before', 'after']);
    console.log(`read, 50 MB record over the limit: peak RSS ${(peakRssKiB / 1024).toFixed(0)} MiB`);
    expect(peakRssKiB).toBeGreaterThan(0);
    expect(peakRssKiB / 1024).toBeLessThan(150);
  });
});
