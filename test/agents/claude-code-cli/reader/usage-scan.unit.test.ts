// `read --usage` counts from bytes (lib/agents/claude-code-cli/reader/usage-scan.ts): it must count exactly what
// parsing every record counts. Seeded fuzzing of transcripts with escaped keys and types, duplicate keys,
// odd usage values, glued and cut-off records, NUL runs, invalid UTF-8 and text that mentions "assistant",
// against a reference that parses every line.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { TranscriptScan } from '../../../../lib/agents/claude-code-cli/reader/scan.js';
import { UsageCounter } from '../../../../lib/agents/claude-code-cli/reader/usage.js';
import { AssistantLines, scanUsageRecord } from '../../../../lib/agents/claude-code-cli/reader/usage-scan.js';
import { Rng, withSeed } from '../../../reliability/support.js';
import { assistant, text, toolResult, user, writeTranscript } from './support.js';

/** The totals of parsing every record of the file (the reader's way before the byte scan). */
function parsedTotals(path: string): unknown {
  const counter = new UsageCounter();
  const scan = TranscriptScan.open(path, { warn: () => {} });
  while (scan.readChunk((line) => {
    for (const record of scan.records(line)) if (typeof record.type === 'string') counter.add(record);
  }));
  return counter.totals();
}

/** One line of a transcript, written in one of many ways, some of them damaged. */
function line(rng: Rng, n: number): string {
  const usage = () => rng.pick<unknown>([
    { input_tokens: rng.int(500), output_tokens: rng.int(90), cache_read_input_tokens: rng.int(900) },
    { input_tokens: rng.int(500), cache_creation: { ephemeral_5m_input_tokens: rng.int(50) }, service_tier: 'standard' },
    'not usage', null, [1, 2], { output_tokens: 1.5e3, input_tokens: -2 },
  ]);
  const id = rng.pick<unknown>([`msg_${rng.int(6)}`, `msg_${rng.int(6)}`, 7, null, '']);
  const model = rng.pick<unknown>(['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001', 3, '<synthetic>']);
  let json: string;
  switch (rng.int(6)) {
    case 0: json = JSON.stringify(user(`u${n}`, null, rng.pick(['say "assistant"', '{"type":"assistant"}', 'ok']))); break;
    case 1: json = JSON.stringify(user(`r${n}`, null, [toolResult('c', rng.pick(['"assistant"', 'assistant: \\u0061', 'done']))])); break;
    default: {
      const record = assistant(`a${n}`, null, [text(rng.pick(['hi', 'the "assistant" said', '\u00e9\u{1f642}']))], { id: id as string, model: model as string, usage: usage() });
      if (rng.chance(0.3)) record.requestId = rng.pick<unknown>([`req_${rng.int(3)}`, 5]);
      if (rng.chance(0.05)) delete record.message;
      json = JSON.stringify(record);
    }
  }
  // Ways of writing the same record that the byte scan must see through or leave to JSON.parse.
  const mutations: (() => void)[] = [
    () => { json = json.replace('"type":"assistant"', '"type":"\\u0061ssistant"'); },
    () => { json = json.replace('"type":"assistant"', '"type":"assis\\u0074ant"'); },
    () => { json = json.replace('"type":"assistant"', '"\\u0074ype":"assistant"'); },
    () => { json = json.replace('"usage":', '"us\\u0061ge":'); },
    () => { json = json.replace('"message":{', '"message":{"usage":{"input_tokens":999},'); },
    () => { json = json.replace('"type":', '"type":"user","type":'); },
    () => { json = json.replace('"requestId":', '"requestId":"x","requestId":'); },
    () => { json = json.replace(/,"type":"[a-z]+"/, ''); },
    () => { json = json.replace('"assistant"', '"assistant-ish"'); },
    () => { json = ` ${json}\t`; },
    () => { json = json.slice(0, rng.int(json.length)); },
    () => { json = `${json}${json}`; },
    () => { json = `${json}\u0000\u0000${json}`; },
    () => { json = json.replace('"id":', '"id":\u0001'); },
    () => { json = `[${json}]`; },
    // The message's keys are read in the walk of the record: the last "message" is the one that counts.
    () => { json = json.replace('"message":{', '"message":{"id":"msg_early","usage":{"input_tokens":7}},"message":{'); },
    () => { json = json.replace(/\}$/, ',"message":"gone"}'); },
    () => { json = json.replace(/\}$/, ',"message":{"usage":{"output_tokens":3}}}'); },
    () => { json = json.replace('"content":', `"deep":${'['.repeat(70)}${']'.repeat(70)},"content":`); },
  ];
  if (rng.chance(0.5)) rng.pick(mutations)();
  return json;
}

describe('usage from bytes', () => {
  test('a line the scan accepts gives what JSON.parse gives', async () => {
    await withSeed('usage-scan-record', (rng) => {
      let accepted = 0;
      for (let n = 0; n < 3000; n += 1) {
        const json = line(rng, n);
        const bytes = Buffer.from(json);
        const scanned = scanUsageRecord(bytes, 0, bytes.length);
        if (scanned === undefined) continue;
        accepted += 1;
        const parsed = JSON.parse(json) as Record<string, unknown>;
        expect(typeof parsed === 'object' && !Array.isArray(parsed), json).toBe(true);
        const norm = (v: unknown) => (typeof v === 'string' || v === true ? v : v === undefined ? undefined : null);
        expect(scanned.type, json).toEqual(norm(parsed.type));
        if (parsed.type !== 'assistant') continue;
        expect(scanned.requestId, json).toEqual(norm(parsed.requestId));
        const message = parsed.message as Record<string, unknown> | undefined;
        if (typeof message !== 'object' || message === null || Array.isArray(message)) {
          expect(scanned.message, json).toBeUndefined();
          continue;
        }
        const usage = message.usage;
        expect(scanned.message, json).toEqual({
          id: norm(message.id), model: norm(message.model),
          usage: typeof usage === 'object' && usage !== null && !Array.isArray(usage) ? usage : null,
        });
      }
      expect(accepted).toBeGreaterThan(1000);
    });
  });

  test('a usage repeated byte for byte gives the same value, and one byte more or less does not', () => {
    const usages = [
      '{"input_tokens":10,"output_tokens":5}', '{"input_tokens":10,"output_tokens":5}', '{"input_tokens":10,"output_tokens":6}',
      '{"input_tokens":10,"output_tokens":56}', '{"input_tokens":10,"output_tokens":5}', '{"input_tokens":1,"output_tokens":5}',
      `{"input_tokens":10,"note":"${'x'.repeat(600)}"}`, `{"input_tokens":10,"note":"${'x'.repeat(600)}"}`, '{"input_tokens":10}',
    ];
    const seen = usages.map((usage) => {
      const bytes = Buffer.from(`{"type":"assistant","message":{"id":"m","usage":${usage}}}`);
      return scanUsageRecord(bytes, 0, bytes.length)?.message?.usage;
    });
    expect(seen).toEqual(usages.map((usage) => JSON.parse(usage) as unknown));
  });

  test('every line that holds an assistant record is looked at, escaped or glued', () => {
    const finder = new AssistantLines();
    const lines = [
      '{"type":"user","message":{"content":"the \\"assistant\\" said"}}',
      '{"type":"assistant","message":{}}',
      '{"type":"\\u0061ssistant"}',
      '{"type":"assis\\u0074ant"}',
      '{"type":"user"}{"type":"assistant"}',
      '{"type":"system","text":"\\u001b[31m"}',
    ];
    const buf = Buffer.from(lines.join('\n'));
    let at = 0;
    const found = lines.map((l) => {
      const start = at;
      at += Buffer.byteLength(l) + 1;
      return finder.mayHold(buf, start, start + Buffer.byteLength(l));
    });
    expect(found).toEqual([false, true, true, true, true, false]);
  });

  test('a transcript totals what parsing every record totals, in any chunk size', async () => {
    await withSeed('usage-scan-file', async (rng) => {
      for (let file = 0; file < 20; file += 1) {
        const lines: string[] = [];
        for (let n = 0; n < 200; n += 1) lines.push(`${line(rng, n)}${rng.chance(0.05) ? '\r' : ''}\n`);
        if (rng.chance(0.3)) lines.push(Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a]).toString('latin1'));
        const path = writeTranscript([lines.join('')]);
        if (lines.at(-1)!.includes('\u00ff')) writeFileSync(path, Buffer.concat([Buffer.from(lines.slice(0, -1).join('')), Buffer.from([0x7b, 0xff, 0xfe, 0x7d, 0x0a])]));
        const want = parsedTotals(path);
        expect(await readClaudeTranscript(path).usage()).toEqual(want);
        expect(await readClaudeTranscript(path, { chunkBytes: rng.between(16, 300) }).usage()).toEqual(want);
      }
    });
  });
});
