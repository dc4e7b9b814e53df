// A session's events read for `sessions --grep` (lib/sessions/events.ts): only the event lines a test passes are
// parsed, the others stand as undefined, so an event keeps its number in the conversation; lines cut anywhere
// between a reader's chunks, as text or bytes, read the same as whole.
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../lib/events.js';
import { fileEvents, wantedEvents } from '../../lib/sessions/events.js';
import { FIXTURES } from '../support/run.js';

const CLAUDE = join(FIXTURES, 'claude-code-cli', 'compaction', '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000006.jsonl');

async function* chunksOf(parts: readonly (string | Buffer)[]) {
  yield* parts;
}

async function collect(read: (sink: (events: readonly (GenericEvent | undefined)[]) => boolean) => Promise<boolean>) {
  const all: (GenericEvent | undefined)[] = [];
  await read((events) => {
    all.push(...events);
    return true;
  });
  return all;
}

describe('events read for a search', () => {
  test('a transcript: each event whose line passes is as a whole read gives it, each other one undefined in its place', async () => {
    const whole = await collect((sink) => fileEvents(CLAUDE, sink));
    expect(whole.length).toBeGreaterThan(5);
    const seen: string[] = [];
    const some = await collect((sink) => fileEvents(CLAUDE, sink, {
      wanted: (line) => {
        seen.push(line.toString());
        return seen.length % 2 === 0;
      },
    }));
    expect(seen).toEqual(whole.map((event) => JSON.stringify(event)));
    expect(some).toEqual(whole.map((event, i) => (i % 2 === 1 ? event : undefined)));
  });

  test('lines cut anywhere between chunks, as bytes or text, with or without a last newline', async () => {
    const events = [{ type: 'user', text: 'héllo\u2028 "quoted"' }, { type: 'assistant', text: 'ok' }, { type: 'user', text: 'Привет' }];
    const wanted = (line: Buffer) => !line.toString().includes('"ok"');
    for (const end of ['\n', '']) {
      const text = `${events.map((event) => JSON.stringify(event)).join('\n')}${end}`;
      const bytes = Buffer.from(text);
      const cuts: (string | Buffer)[][] = [
        ...Array.from({ length: bytes.length + 1 }, (_, at) => [bytes.subarray(0, at), bytes.subarray(at)]),
        ...Array.from({ length: text.length + 1 }, (_, at) => [text.slice(0, at), text.slice(at)]),
        [...text].map((c) => c),
      ];
      for (const parts of cuts) {
        const got = await collect((sink) => wantedEvents(chunksOf(parts), wanted, sink));
        expect(got, JSON.stringify(parts.map(String))).toEqual([events[0], undefined, events[2]]);
      }
    }
  });
});
