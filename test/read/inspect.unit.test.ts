// read --inspect's counting (lib/read/inspect.ts) on lines made here: a record's kind from its bytes (the JSON
// scanner), from its parse where the scan gives up (an escaped key), none, not JSON, over the limit; names
// capped in length and number; hostile names kept as names; events and usage by model.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { countFileRecords, EventShape, NO_KIND, NO_MODEL, NOT_JSON, Tally, TOO_LONG, UsageByModel } from '../../lib/read/inspect.js';
import { tempDir } from '../support/run.js';

function kindsOf(text: string, maxLineBytes = 1000): Record<string, number> {
  const file = join(tempDir(), 'records.jsonl');
  writeFileSync(file, text);
  const kinds = new Tally();
  expect(countFileRecords(file, undefined, maxLineBytes, kinds)).toEqual({ bytes: Buffer.byteLength(text) });
  return kinds.value();
}

describe('records by kind', () => {
  test('each line\'s top-level type, escaped or not; none, not JSON, over the limit named as such', () => {
    const text = [
      '{"type":"user","message":{"type":"inner"}}', '{"typ\\u0065":"assistant"}', '{"type":"us\\u0065r"}',
      '{"uuid":"x"}', '{"type":7}', '[1,2]', 'not json {', `{"type":"big","pad":"${'x'.repeat(2000)}"}`, '', '{"type":"user"}',
    ].join('\n');
    expect(kindsOf(`${text}\n`)).toEqual({ user: 3, assistant: 1, [NO_KIND]: 3, [NOT_JSON]: 1, [TOO_LONG]: 1 });
  });

  test('a torn last line is not JSON; a last line without a newline that is whole counts', () => {
    expect(kindsOf('{"type":"a"}\n{"type":"b"}')).toEqual({ a: 1, b: 1 });
    expect(kindsOf('{"type":"a"}\n{"type":"b","x":')).toEqual({ a: 1, [NOT_JSON]: 1 });
  });
});

describe('names', () => {
  test('a long name is cut at 200 characters; past 1,000 distinct names the rest are (other); __proto__ stays a name', () => {
    const tally = new Tally();
    tally.add('x'.repeat(500));
    tally.add('__proto__');
    for (let i = 0; i < 1100; i += 1) tally.add(`n${i}`);
    const value = tally.value();
    expect(Object.keys(value)).toHaveLength(1001);
    expect(value[`${'x'.repeat(200)}…`]).toBe(1);
    expect(Object.hasOwn(value, '__proto__')).toBe(true);
    expect(value['(other)']).toBe(102);
    expect(tally.total).toBe(1102);
  });
});

describe('events', () => {
  test('counted by type, tool calls by name, errors, images, unanswered calls, usage by the model named last', () => {
    const shape = new EventShape();
    const at = '2026-12-01T00:00:00.000Z';
    for (const event of [
      { type: 'user', text: 'secret', images: [{ media_type: 'image/png', data: 'AA' }], timestamp: at },
      { type: 'assistant', text: 'x', usage: { input_tokens: 5 }, timestamp: at },
      { type: 'thinking', text: 'x', model: 'm1', timestamp: at },
      { type: 'tool_call', id: 'c1', name: 'Bash', arguments: {}, usage: { input_tokens: 2, output_tokens: 1 }, timestamp: at },
      { type: 'tool_call', id: 'c2', name: 'Bash', arguments: {}, model: 'm2', usage: { input_tokens: 1 }, timestamp: at },
      { type: 'tool_result', id: 'c1', content: [{ type: 'image', media_type: 'image/png', data: 'AA' }], is_error: true, timestamp: at },
      { type: 'compaction', summary: 's', timestamp: at },
      { type: 'assistant', text: 'y', usage: { input_tokens: 3 }, timestamp: at },
    ]) shape.add(event);
    expect(shape.value()).toEqual({
      events: { user: 1, assistant: 2, thinking: 1, tool_call: 2, tool_result: 1, compaction: 1 },
      turns: 1, tool_calls: { Bash: 2 }, tool_errors: 1, unanswered_tool_calls: 1, images: 2, reasoning: 1, compactions: 1,
      usage: { [NO_MODEL]: { input_tokens: 5 }, m1: { input_tokens: 2, output_tokens: 1 }, m2: { input_tokens: 4 } },
    });
  });

  test('NDJSON text whose lines are cut between chunks (a reader\'s chunks are not lines) counts each event once', () => {
    const text = '{"type":"user","text":"a"}\n{"type":"tool_call","id":"c","name":"Bash","arguments":{}}\n{"type":"assistant","text":"b"}';
    const whole = new EventShape();
    whole.addText(text);
    whole.endText();
    for (let cut = 1; cut < text.length; cut += 7) {
      const shape = new EventShape();
      shape.addText(text.slice(0, cut));
      shape.addText(Buffer.from(text.slice(cut)));
      shape.endText();
      expect(shape.value()).toEqual(whole.value());
    }
    expect(whole.value()).toMatchObject({ events: { user: 1, tool_call: 1, assistant: 1 }, tool_calls: { Bash: 1 } });
  });

  test('usage is summed with lib/usage.ts: nested objects field by field', () => {
    const usage = new UsageByModel();
    usage.add({ model: 'm', usage: { input_tokens: 1, cache: { read: 2 } } });
    usage.add({ usage: { input_tokens: 1, cache: { read: 3 } } });
    expect(usage.value()).toEqual({ m: { input_tokens: 2, cache: { read: 5 } } });
  });
});
