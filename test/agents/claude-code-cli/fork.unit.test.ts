// Unit tests of the concurrent-fork repair (lib/agents/claude-code-cli/fork.ts): which of our records a
// concurrent writer went around, reading them back from the file, and the copies that put them on its branch.
import { describe, expect, test } from 'vitest';
import { appendFileSync, readFileSync } from 'node:fs';
import { copyChain, readRecords, RecentChain } from '../../../lib/agents/claude-code-cli/fork.js';
import { claudeCodeCli } from '../../../lib/agents/claude-code-cli/harness.js';
import { tempDir } from '../../support/run.js';

const line = (o: object) => `${JSON.stringify(o)}\n`;
const T = '2026-11-29T10:00:00.000Z';

describe('RecentChain', () => {
  test('a foreign record that continues from our newest record skips nothing', () => {
    const chain = new RecentChain();
    chain.own('a');
    chain.own('b');
    expect(chain.skippedBy(line({ uuid: 'x', parentUuid: 'b' }))).toEqual([]);
  });

  test('a foreign record that continues from an older record of ours skips the ones after it, oldest first', () => {
    const chain = new RecentChain();
    for (const uuid of ['a', 'b', 'c', 'd']) chain.own(uuid);
    expect(chain.skippedBy(line({ type: 'last-prompt' }) + line({ uuid: 'x', parentUuid: 'b' }) + line({ uuid: 'y', parentUuid: 'x' }))).toEqual(['c', 'd']);
  });

  test('a foreign record that continues from a foreign record we chained onto skips what we wrote after it, not the anchors', () => {
    const chain = new RecentChain();
    chain.own('a');
    chain.anchor('f1');
    chain.own('b');
    chain.anchor('f2');
    chain.own('c');
    expect(chain.skippedBy(line({ uuid: 'f3', parentUuid: 'f1' }))).toEqual(['b', 'c']);
  });

  test('a fork from a point no longer remembered is reported as unknown', () => {
    const chain = new RecentChain();
    for (let i = 0; i < 2100; i += 1) chain.own(`u${i}`);
    expect(chain.skippedBy(line({ uuid: 'x', parentUuid: 'u5' }))).toBeUndefined();
    expect(chain.skippedBy(line({ uuid: 'x', parentUuid: 'u2050' }))).toHaveLength(49);
  });

  test('appends without chain records, or only new roots, skip nothing', () => {
    const chain = new RecentChain();
    chain.own('a');
    chain.own('b');
    expect(chain.skippedBy(line({ type: 'last-prompt', leafUuid: 'a' }) + 'not json\n')).toEqual([]);
    expect(chain.skippedBy(line({ uuid: 'r', parentUuid: null }))).toEqual([]);
  });
});

describe('copies of skipped records', () => {
  test('copies chain from the given parent with fresh uuids; a turn keeps one (new) message id', () => {
    const records = [
      { parentUuid: 'p0', type: 'user', uuid: 'u1', message: { role: 'user', content: 'q' } },
      { parentUuid: 'u1', type: 'assistant', uuid: 'a1', message: { id: 'msg_1', content: [{ type: 'text', text: 't' }] } },
      { parentUuid: 'a1', type: 'assistant', uuid: 'a2', message: { id: 'msg_1', content: [{ type: 'tool_use', id: 'toolu_1' }] } },
    ];
    let n = 0;
    const { copies, messageIds } = copyChain(records, 'foreign-leaf', () => `00000000-0000-4000-8000-00000000000${(n += 1)}`);
    expect(copies.map((c) => [c.parentUuid, c.uuid])).toEqual([
      ['foreign-leaf', '00000000-0000-4000-8000-000000000001'],
      ['00000000-0000-4000-8000-000000000001', '00000000-0000-4000-8000-000000000002'],
      ['00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000004'],
    ]);
    const id = messageIds.get('msg_1');
    expect(id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(copies.slice(1).map((c) => (c.message as any).id)).toEqual([id, id]);
    expect(records[1]!.message.id).toBe('msg_1');
  });

  test('a copied compaction boundary stays a new root and names its logical parent', () => {
    const { copies } = copyChain([{ parentUuid: null, logicalParentUuid: 'old', type: 'system', uuid: 'b' }], 'leaf', () => 'new');
    expect(copies[0]).toMatchObject({ parentUuid: null, logicalParentUuid: 'leaf', uuid: 'new' });
  });

  test('our records are read back from the transcript in order; one that is missing makes the read fail', () => {
    const harness = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: () => {} });
    harness.add({ type: 'user', text: 'one', timestamp: T }, 'stdin:1');
    harness.add({ type: 'assistant', text: 'two', timestamp: T }, 'stdin:2');
    harness.finish();
    const uuids = readFileSync(harness.sessionFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l).uuid as string);
    appendFileSync(harness.sessionFile, line({ uuid: 'foreign', parentUuid: uuids[0] }));
    expect(readRecords(harness.sessionFile, [uuids[1]!, uuids[0]!])?.map((r) => (r.message as any).content)).toEqual([[{ type: 'text', text: 'two' }], 'one']);
    expect(readRecords(harness.sessionFile, [uuids[0]!, 'never-written'])).toBeUndefined();
  });

  test('the harness appends copies of what a concurrent writer went around, after its last record, and warns once', () => {
    const warnings: string[] = [];
    const harness = claudeCodeCli.create({ root: tempDir(), cwd: '/p', cwdFromInput: true, warn: (m) => warnings.push(m) });
    harness.add({ type: 'user', text: 'before', timestamp: T }, 'stdin:1');
    harness.flush();
    const leaf = JSON.parse(readFileSync(harness.sessionFile, 'utf8')).uuid as string;
    // Another writer loads the session here (leaf: "before"), while we go on writing.
    harness.add({ type: 'user', text: 'during', timestamp: T }, 'stdin:2');
    harness.flush();
    appendFileSync(harness.sessionFile, line({ type: 'user', uuid: 'c1', parentUuid: leaf, message: { role: 'user', content: 'interjection' } })
      + line({ type: 'assistant', uuid: 'c2', parentUuid: 'c1', message: { id: 'msg_c', role: 'assistant', content: [{ type: 'text', text: 'reply' }] } })
      + line({ type: 'last-prompt', leafUuid: 'c2' }));
    harness.add({ type: 'user', text: 'after', timestamp: T }, 'stdin:3');
    harness.finish();
    const records = readFileSync(harness.sessionFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
    const byUuid = new Map(records.filter((r) => r.uuid).map((r) => [r.uuid, r]));
    // The branch the next resume follows: from the last checkpoint's leaf up to the root.
    const path: string[] = [];
    for (let r = byUuid.get(records.filter((x) => x.type === 'last-prompt').at(-1).leafUuid); r; r = byUuid.get(r.parentUuid)) {
      path.unshift(typeof r.message.content === 'string' ? r.message.content : r.message.content[0].text);
    }
    expect(path).toEqual(['before', 'interjection', 'reply', 'during', 'after']);
    expect(warnings.filter((w) => w.includes('session.concurrent_fork'))).toHaveLength(1);
  });
});
