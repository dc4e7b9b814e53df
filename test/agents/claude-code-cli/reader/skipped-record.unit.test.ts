// A record over the record limit is skipped alone: its uuid and parentUuid are read from its bytes as they
// go by, so the branch through it keeps the records before and after it.
import { describe, expect, test } from 'vitest';
import { SkippedHead } from '../../../../lib/agents/claude-code-cli/reader/skipped-head.js';
import { assistant, readAll, text, user, writeTranscript } from './support.js';

const LIMIT = 4096;

/** u1 -> a1 -> u2 (over the limit) -> a2: the chain runs through the long record. */
function chainThroughLong(): string {
  return writeTranscript([
    user('u1', null, 'first question'),
    assistant('a1', 'u1', [text('first answer')]),
    user('u2', 'a1', `a long paste ${'x'.repeat(3 * LIMIT)} with "uuid":"not-this" inside`, { toolUseResult: { uuid: 'nested-not-this' } }),
    assistant('a2', 'u2', [text('last answer')]),
  ]);
}

describe('a record over the limit', () => {
  test.each([64, 1000, 65536])('loses only itself: the branch before and after it is read (chunks of %i bytes)', async (chunkBytes) => {
    const { events, warnings } = await readAll(chainThroughLong(), { maxRecordBytes: LIMIT, chunkBytes });
    expect(events.map((e) => [e.type, (e as { text?: string }).text])).toEqual([
      ['user', 'first question'], ['assistant', 'first answer'], ['assistant', 'last answer'],
    ]);
    expect(warnings.map((w) => [w.line, w.message])).toEqual([[3, expect.stringMatching(/^record of \d+ bytes is over the limit of 4096 bytes; skipped$/)]]);
  });

  test('its top-level fields are read from its bytes, nested and quoted look-alikes passed over', () => {
    const line = Buffer.from(JSON.stringify({
      parentUuid: 'p-1', isSidechain: false, type: 'user',
      message: { content: [{ uuid: 'nested', text: '"uuid":"in-text"' }] }, uuid: 'u-1', timestamp: '2026-01-01T00:00:00.000Z',
      toolUseResult: { uuid: 'after' },
    }));
    const head = new SkippedHead();
    for (let i = 0; i < line.length; i += 7) head.feed(line, i, Math.min(i + 7, line.length));
    expect(head.head()).toEqual({
      type: 'user', uuid: 'u-1', parentUuid: 'p-1', logicalParentUuid: undefined, isSidechain: false, leafUuid: undefined,
      timestamp: '2026-01-01T00:00:00.000Z', kind: 'user',
    });
  });
});
