// Codex's token_count lines read from a rollout file (lib/agents/codex-cli/usage.ts): a line in the exact shape
// Codex writes is read from its count objects, any other shape is parsed whole, and both count alike; the
// lines are told apart by their first bytes, so a mark in conversation text changes nothing.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { codexUsage, CodexUsageCounter } from '../../../lib/agents/codex-cli/usage.js';
import type { ReaderWarning } from '../../../lib/session/types.js';
import { tempDir } from '../../support/run.js';
import { Rng } from '../../reliability/support.js';

const u = (input: number, cached: number, output: number, reasoning: number) => ({
  input_tokens: input, cached_input_tokens: cached, output_tokens: output, reasoning_output_tokens: reasoning, total_tokens: input + output,
});

/**
 * A rollout of `turns` turns; `reorder` writes each line's keys in another order (so it is parsed whole);
 * `ordinal` numbers each line as Codex 0.171 does in its own rollouts.
 */
function rollout(turns: number, reorder: boolean, ordinal = false): string {
  const lines: object[] = [{ timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { id: 'x', cwd: '/p' } }];
  const total = u(0, 0, 0, 0);
  for (let i = 0; i < turns; i += 1) {
    lines.push({ timestamp: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}.000Z`, type: 'turn_context', payload: { cwd: '/p', model: `m${i % 3}` } });
    lines.push({ timestamp: '2026-01-01T00:01:00.000Z', type: 'response_item', payload: { type: 'message', role: 'user', content: [{ type: 'input_text', text: `say "token_count" and turn_context ${'x'.repeat(i * 37 % 3000)}` }] } });
    const last = u(1000 + i, 100 * (i % 5), 50 + i, i % 7);
    for (const key of Object.keys(total) as (keyof typeof total)[]) total[key] += last[key];
    const count = { timestamp: `2026-01-02T00:00:${String(i % 60).padStart(2, '0')}.000Z`, type: 'event_msg', payload: { type: 'token_count', info: { total_token_usage: { ...total }, last_token_usage: last, model_context_window: 258400 }, rate_limits: { primary: { used_percent: 1 } } } };
    lines.push(count);
    if (i % 4 === 0) lines.push(count);
  }
  const reordered = (value: unknown): unknown => (Array.isArray(value) ? value.map(reordered)
    : value !== null && typeof value === 'object' ? Object.fromEntries(Object.entries(value).reverse().map(([k, v]) => [k, reordered(v)])) : value);
  const numbered = (line: object, n: number) => {
    const { timestamp, ...rest } = line as { timestamp: string };
    return ordinal ? { timestamp, ordinal: n, ...rest } : line;
  };
  return lines.map((line, n) => `${JSON.stringify(reorder ? reordered(numbered(line, n)) : numbered(line, n))}\n`).join('');
}

async function entries(text: string) {
  const path = join(tempDir(), 'rollout.jsonl');
  writeFileSync(path, text);
  const warnings: ReaderWarning[] = [];
  const found = await codexUsage.entries!(path, { onWarning: (w) => warnings.push(w) });
  return { found, warnings };
}

describe('Codex usage read from a rollout file', () => {
  test('lines in Codex\'s own shape count as the same lines parsed whole; repeats once; marks in text change nothing', async () => {
    for (const ordinal of [false, true]) {
      const quick = await entries(rollout(400, false, ordinal));
      const whole = await entries(rollout(400, true, ordinal));
      expect(quick.found).toHaveLength(400);
      expect(quick.found).toEqual(whole.found);
      expect(quick.warnings).toEqual([]);
      expect(quick.found[5]).toEqual({ timestamp: '2026-01-02T00:00:05.000Z', model: 'm2', tokens: { input: 1005, output: 55, cacheRead: 0, cacheWrite: 0, reasoning: 5 } });
    }
  });

  test('a cut-off last line is not counted; a bad line before it is told with its line number', async () => {
    const text = rollout(3, false);
    const lines = text.split('\n');
    const bad = [...lines.slice(0, 2), '{"timestamp":"t","type":"turn_context","payload":{', ...lines.slice(2)].join('\n');
    const cut = bad.slice(0, bad.length - 20);
    const { found, warnings } = await entries(cut);
    expect(found).toHaveLength(2);
    expect(warnings).toEqual([{ file: expect.any(String), line: 3, message: 'not a JSON line; skipped' }]);
  });
  test('lines of every shape count as the same lines parsed one by one: odd numbers, escapes, CRLF, a BOM, chunks of 4 MiB crossed', async () => {
    const rng = new Rng(41);
    const base = `${rollout(30, false)}${rollout(30, false, true)}`.split('\n').filter((l) => l !== '');
    const odd: [string, string][] = [
      ['"input_tokens":1', '"input_tokens":1.0'], ['"input_tokens":1', '"input_tokens":1e3'], ['"input_tokens":1', '"input_tokens":-5'],
      ['"input_tokens":1', '"input_tokens":0'], ['"input_tokens":1', '"input_tokens":01'], ['"input_tokens":1', '"input_tokens":12345678901234567890'], ['"input_tokens":1', '"input_tokens":"7"'],
      ['"input_tokens":1', '"input_tokens":null'], ['"input_tokens":1', '"input_tokens": 1'], ['"input_tokens":1', '"input_tokens":1,"input_tokens":9'],
      ['"output_tokens"', '"extra":{"a":1},"output_tokens"'], ['"output_tokens"', '"total_tokens":3,"output_tokens"'], ['"output_tokens"', '"output\\u005ftokens"'],
      ['.000Z"', '\\u002e000Z"'], ['"type":"event_msg"', '"type":"event\\u005fmsg"'], ['"type":"token_count"', '"type":"token\\u005fcount"'],
      ['"type":"turn_context"', '"type":"turn\\u005fcontext"'], ['"info":{', '"info":null,"x":{'], ['"total_token_usage":', '"total":'],
      ['"last_token_usage":', '"last":'], ['{"timestamp":', '{"type":"event_msg","timestamp":'], ['"payload":{"type":"token_count",', '"payload":{"x":1,"type":"token_count",'],
      ['"model":"m', '"model":"\\u006d'], ['"timestamp":"', '"timestamp": "'],
      ['"ordinal":', '"ordinal":-'], ['"ordinal":', '"ordinal":0'], ['"ordinal":', '"ordinal":1.'], ['"ordinal":', '"ordinal": '],
      ['"ordinal":', '"ordinal":"'], ['"ordinal":', '"ordinal":1234567890123456'], ['"ordinal":', '"x":1,"ordinal":'],
      ['"model":"m', '"model":1,"x":"m'], ['"model":"m', '"model":"","x":"m'], ['"model":"m', '"model":null,"model":"m'],
      ['"cwd":"/p"', '"cwd":{"a":[1,{"model":"nested"}]}'], ['"cwd":"/p"', '"model":"first","cwd":"/p"'], ['"cwd":"/p"', '"cwd":"/p\\"'],
      ['"cwd":"/p"', '"cwd":"/p\\n\\u00e9"'], ['"cwd":"/p"', '"cwd":[1,2,{"x":tru}]'], ['"model":"m', '"model":"naïve m'],
      ['"payload":{"cwd"', '"payload":{"cwd":"/q","x":{"y":[]},"cwd"'], ['"payload":{"cwd"', '"payload" :{"cwd"'],
    ];
    const picked: string[] = [];
    while (picked.join('\n').length < 5 * 1024 * 1024) {
      for (const line of base) {
        let text = line;
        if (rng.chance(0.3)) {
          const [from, to] = rng.pick(odd);
          text = text.replace(from, to);
        }
        picked.push(text);
        if (rng.chance(0.02)) picked.push(rng.pick(['', '   ', '{"timestamp":"2026-01-01T00:00:00.000Z","type":"event_msg","payload":{"type":"token_count"', 'not json']));
      }
    }
    const text = `\ufeff${picked.map((l) => `${l}${rng.chance(0.2) ? '\r\n' : '\n'}`).join('')}`;
    const plain = new CodexUsageCounter();
    for (const line of text.replace(/^\ufeff/, '').split(/\r?\n/)) {
      let record: unknown;
      try {
        record = JSON.parse(line);
      } catch {
        continue;
      }
      plain.add(record);
    }
    const { found, warnings } = await entries(text);
    expect(found.length).toBeGreaterThan(1000);
    expect(found).toEqual(plain.entries);
    expect(warnings.map((w) => w.message)).toContain('not a JSON line; skipped');
  });
});
