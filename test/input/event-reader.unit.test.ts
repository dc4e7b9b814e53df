// The one event reader (lib/input/event-reader.ts): lines -> values -> events, and the diagnostics each
// line gets, the same for the filter and convert.
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../lib/events.js';
import { EventReader, type LineSink } from '../../lib/input/event-reader.js';
import { genericEvents } from '../../lib/input/generic-events.js';
import { LineSplitter, type Line } from '../../lib/lines/lines.js';

const T = '2026-11-29T10:00:00.000Z';

function lines(input: Buffer, maxLineBytes?: number): Line[] {
  const splitter = new LineSplitter(maxLineBytes !== undefined ? { maxLineBytes } : {});
  return [...splitter.push(input), ...splitter.end()];
}

/** A sink that records what it is told; `reject` names event texts the session rejects. */
function recorder(options: { reject?: string[]; stopOnBad?: boolean } = {}) {
  const said: [number, string, boolean][] = [];
  const written: [number, GenericEvent][] = [];
  let stopped = false;
  const sink: LineSink<number> = {
    diagnostic(where, message, bad) {
      said.push([where, message, bad]);
      if (bad && options.stopOnBad) stopped = true;
    },
    write(event, where) {
      written.push([where, event]);
      return 'text' in event && options.reject?.includes(event.text as string) ? 'rejected by the session' : undefined;
    },
    stopped: () => stopped,
  };
  return { said, written, sink };
}

function readAll(reader: EventReader, input: Buffer, sink: LineSink<number>, maxLineBytes?: number): void {
  for (const line of lines(input, maxLineBytes)) reader.read(line, line.no, T, sink);
}

describe('the event reader', () => {
  test('values become events through the adapter, each located at its line', () => {
    const reader = new EventReader({ adapter: genericEvents.create() });
    const { said, written, sink } = recorder();
    readAll(reader, Buffer.from(`{"type":"user","text":"a","timestamp":"${T}"}\n\n{"type":"assistant","text":"b","timestamp":"${T}"}\n`), sink);
    expect(said).toEqual([]);
    expect(written.map(([where, event]) => [where, event.type])).toEqual([[1, 'user'], [3, 'assistant']]);
  });

  test('a line over the limit and a line of invalid JSON each get one bad diagnostic, and are skipped', () => {
    const reader = new EventReader({ adapter: genericEvents.create(), maxLineBytes: 40 });
    const { said, written, sink } = recorder();
    readAll(reader, Buffer.from(`{"type":"user","text":"${'x'.repeat(50)}"}\n{"type":\n{"type":"user","text":"ok"}\n`), sink, 40);
    expect(said).toEqual([
      [1, expect.stringMatching(/^line of \d+ bytes is over the limit of 40 bytes; skipped$/), true],
      [2, expect.stringMatching(/^invalid JSON: .*: "\{\\"type\\":"$/), true],
    ]);
    expect(written.map(([where]) => where)).toEqual([3]);
  });

  test('invalid UTF-8 is noted once after a kept line, and said within the one diagnostic of a skipped one', () => {
    const reader = new EventReader({ adapter: genericEvents.create() });
    const { said, written, sink } = recorder();
    readAll(reader, Buffer.concat([
      Buffer.from('{"type":"user","text":"caf'), Buffer.from([0xff]), Buffer.from('"}\n'),
      Buffer.from('{"type":"nonsense","text":"'), Buffer.from([0xff]), Buffer.from('"}\n'),
    ]), sink);
    expect(written.map(([where]) => where)).toEqual([1]);
    expect(said).toEqual([
      [1, 'invalid UTF-8 replaced with U+FFFD', false],
      [2, expect.stringMatching(/ \(the line also held invalid UTF-8\)$/), true],
    ]);
  });

  test('an event the session rejects is a bad diagnostic, and the line is left when the sink stops', () => {
    const reader = new EventReader({ adapter: genericEvents.create() });
    const { said, written, sink } = recorder({ reject: ['no'], stopOnBad: true });
    readAll(reader, Buffer.from(`{"type":"user","text":"no","timestamp":"${T}"}\n`), sink);
    expect(written).toHaveLength(1);
    expect(said).toEqual([[1, 'rejected by the session', true]]);
  });

  test('without an adapter the sink decides one from the first value, once; none means the line is not mapped', () => {
    const reader = new EventReader();
    const asked: unknown[] = [];
    const { written, sink } = recorder();
    const deciding: LineSink<number> = {
      ...sink,
      adapter(value) {
        asked.push(value);
        return (value as { type?: string }).type === 'user' ? genericEvents.create() : undefined;
      },
    };
    expect(reader.read(lines(Buffer.from('{"type":"other"}\n'))[0]!, 1, T, deciding)).toBe(false);
    readAll(reader, Buffer.from(`{"type":"user","text":"a","timestamp":"${T}"}\n{"type":"user","text":"b","timestamp":"${T}"}\n`), deciding);
    expect(asked).toEqual([{ type: 'other' }, { type: 'user', text: 'a', timestamp: T }]);
    expect(written).toHaveLength(2);
  });
});
