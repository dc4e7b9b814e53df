import { describe, expect, test } from 'vitest';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createAdapterStream, type AdapterStreamOptions } from '../../lib/index.js';
import type { GenericEvent } from '../../lib/events.js';
import { fixtureValues } from '../input/support.js';

async function collect(format: string, values: unknown[], options: AdapterStreamOptions = {}) {
  const events: GenericEvent[] = [];
  const stream = createAdapterStream(format, { now: () => '2000-01-01T00:00:00.000Z', ...options });
  await pipeline(Readable.from(values), stream, new Writable({
    objectMode: true,
    write(event: GenericEvent, _encoding, callback) {
      events.push(event);
      callback();
    },
  }));
  return { events, stream };
}

describe('createAdapterStream', () => {
  test('turns parsed values into the adapter\'s generic events, in order', async () => {
    const { events } = await collect('codex-exec-json', fixtureValues('codex-exec-json', 'tool'));
    expect(events.map((e) => e.type)).toEqual(['tool_call', 'tool_result', 'assistant']);
  });

  test('flushes what the adapter holds back when the input ends', async () => {
    const { events } = await collect('codex-exec-json', [{ type: 'item.completed', item: { id: 'item_1', type: 'agent_message', text: 'held' } }]);
    expect(events).toMatchObject([{ type: 'assistant', text: 'held' }]);
  });

  test('auto picks the format from the first value and exposes what the stream said about its session', async () => {
    const { events, stream } = await collect('auto', fixtureValues('codex-rollout', 'parallel'));
    expect(stream.adapter?.format).toBe('codex-rollout');
    expect(stream.facts()).toEqual({ cwd: '/home/user/project' });
    expect(events.some((e) => e.type === 'tool_call')).toBe(true);
  });

  test('an unknown format name throws at once, naming the known ones', () => {
    expect(() => createAdapterStream('morse')).toThrow(/known: auto, .*codex-rollout/);
  });

  test('under auto, a first value that matches no format fails the stream', async () => {
    await expect(collect('auto', [{ hello: 'world' }])).rejects.toThrow(/matches no known format/);
  });

  test('a value the adapter rejects is reported with its position and the stream goes on', async () => {
    const warnings: string[] = [];
    const { events } = await collect('events', [{ type: 'user' }, { type: 'user', text: 'ok' }], {
      onWarning: (message, index) => warnings.push(`${index}: ${message}`),
    });
    expect(warnings).toEqual(['1: missing "text"']);
    expect(events).toMatchObject([{ type: 'user', text: 'ok' }]);
  });

  test('with strict, a rejected value fails the stream', async () => {
    await expect(collect('events', [{ type: 'user' }], { strict: true })).rejects.toThrow('value 1: missing "text"');
  });

  test('adapter warnings reach onWarning', async () => {
    const warnings: string[] = [];
    await collect('codex-exec-json', [{ type: 'error', message: 'reconnecting' }], { onWarning: (m) => warnings.push(m) });
    expect(warnings).toEqual(['codex error: reconnecting']);
  });
});
