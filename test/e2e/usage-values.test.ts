// Token counts in an event's usage are non-negative safe integers: `1e999`, `-50` and `"7"` are reported (one
// located line each), left out of the transcript's usage, and so out of every sum `read --usage` makes of it.
import { describe, expect, test } from 'vitest';
import { readFileSync } from 'node:fs';
import { cleanEnv, runBin, sessionOf, tempDir } from '../support/run.js';
import { assistant, text, user, writeTranscript } from '../agents/claude-code-cli/reader/support.js';

const BAD: [string, string, string][] = [
  ['1e999', 'input_tokens', 'Infinity'],
  ['-50', 'input_tokens', '-50'],
  ['"7"', 'input_tokens', '"7"'],
  ['1.5', 'output_tokens', '1.5'],
  ['9007199254740993', 'output_tokens', '9007199254740992'],
];

describe('usage values', () => {
  for (const [raw, key, shown] of BAD) {
    test(`"${key}": ${raw} is reported once with its line, left out of the transcript and of read --usage`, async () => {
      const root = tempDir();
      const input = [
        '{"type":"user","text":"hi"}',
        `{"type":"assistant","text":"a","usage":{"${key}":${raw},"cache_read_input_tokens":4,"service_tier":"standard"}}`,
        '{"type":"user","text":"again"}',
        '{"type":"assistant","text":"b","usage":{"input_tokens":5,"output_tokens":2}}',
      ].join('\n');
      const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p'], { input: `${input}\n`, env: cleanEnv({ CLAUDE_CONFIG_DIR: root }) });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`asyncai-log: stdin:2: "usage.${key}" must be a non-negative whole number, got ${shown}; left out\n`);
      const file = sessionOf(r).session_file;
      const usages = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line))
        .filter((record) => record.type === 'assistant').map((record) => record.message.usage);
      expect(usages[0]).not.toHaveProperty(key);
      expect(usages[0]).toMatchObject({ cache_read_input_tokens: 4, service_tier: 'standard' });
      const totals = JSON.parse((await runBin(['read', '--usage', file], { env: cleanEnv({ CLAUDE_CONFIG_DIR: root }) })).stdout);
      expect(totals).toMatchObject({ input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 4 });
    });
  }

  for (const [raw, key, shown] of BAD) {
    test(`read --usage over a transcript whose "${key}" is ${raw}: reported with its line, left out of the sums`, async () => {
      const bad = JSON.stringify(assistant('a1', 'u1', [text('a')], { usage: { [key]: 123456789, cache_read_input_tokens: 4 } }))
        .replace('123456789', raw) + '\n';
      const good = assistant('a2', 'u2', [text('b')], { usage: { input_tokens: 5, output_tokens: 2 } });
      const path = writeTranscript([user('u1', null, 'hi'), bad, user('u2', 'a1', 'again'), good]);
      const r = await runBin(['read', '--usage', path], { env: cleanEnv() });
      expect(r.code).toBe(0);
      expect(r.stderr).toBe(`asyncai-log: ${path}:2: "message.usage.${key}" must be a non-negative whole number, got ${shown}; left out\n`);
      expect(JSON.parse(r.stdout)).toMatchObject({ responses: 2, input_tokens: 5, output_tokens: 2, cache_read_input_tokens: 4 });
    });
  }

  test('a usage that held only bad counts is left out whole', async () => {
    const root = tempDir();
    const input = '{"type":"user","text":"hi"}\n{"type":"assistant","text":"a","usage":{"input_tokens":-1,"output_tokens":"2"}}\n';
    const r = await runBin(['--session-dir', `claude-code-cli=${root}`, '--cwd', '/p'], { input, env: cleanEnv({ CLAUDE_CONFIG_DIR: root }) });
    expect(r.stderr.trim().split('\n')).toHaveLength(2);
    const records = readFileSync(sessionOf(r).session_file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    const assistant = records.find((record) => record.type === 'assistant');
    expect(assistant.message.usage?.input_tokens ?? 0).toBe(0);
    expect(assistant.message.usage?.output_tokens ?? 0).toBe(0);
  });
});
