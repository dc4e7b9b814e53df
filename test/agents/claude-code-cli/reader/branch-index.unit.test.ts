// The branch index (lib/agents/claude-code-cli/reader/branch.ts) over canonical uuids, as Claude Code writes
// them: forks and duplicates far back in a long transcript, and file order when a record's parent is written
// after it.
import { randomUUID } from 'node:crypto';
import { describe, expect, test } from 'vitest';
import { BranchIndex } from '../../../../lib/agents/claude-code-cli/reader/branch.js';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';
import { assistant, lastPrompt, text, user, writeTranscript } from './support.js';


type Rec = Record<string, unknown>;

/** Index `records` (line n+1 each); what it says of them: warnings, the resumed branch's lines, the tree. */
function indexed(records: Rec[]) {
  const index = new BranchIndex();
  const warnings: string[] = [];
  const warn = (line: number | undefined, message: string) => warnings.push(`${line ?? '-'}: ${message}`);
  records.forEach((record, i) => index.add(record, i + 1, warn));
  const selection = index.select(undefined, warn);
  const selected = index.selectedLines(selection, records.length);
  const lines = [...selected.keys()].filter((line) => selected[line] === 1);
  const tree = index.tree(warn);
  return { warnings, leaf: selection.leaf, lines, tree };
}

describe('BranchIndex over canonical uuids', () => {
  test('a fork from a record 10,000 records back, and a duplicate of one', () => {
    const uuids = Array.from({ length: 10_000 }, () => randomUUID());
    const records: Rec[] = uuids.map((uuid, i) => (i % 2 === 0
      ? user(uuid, i === 0 ? null : uuids[i - 1]!, `prompt ${i}`)
      : assistant(uuid, uuids[i - 1]!, [text(`reply ${i}`)])));
    const fork = randomUUID();
    const forkReply = randomUUID();
    records.push(
      user(uuids[5]!, uuids[4]!, 'written again'),
      user(fork, uuids[100]!, 'rewound to reply 100'),
      assistant(forkReply, fork, [text('the rewound reply')]),
    );
    const spilled = indexed(records);
    expect(spilled.warnings).toEqual([`10001: uuid ${uuids[5]} was written before; the later record is ignored (reported once)`]);
    expect(spilled.leaf).toBe(forkReply);
    expect(spilled.lines).toEqual([...Array.from({ length: 101 }, (_, i) => i + 1), 10_002, 10_003]);
    expect(spilled.tree.branches.map((b) => [b.leaf, b.resumed, b.records, b.forks_from])).toEqual([
      [uuids[9_999], false, 10_000, uuids[100]],
      [forkReply, true, 103, null],
    ]);
  });

  test('a parent written after its child: the turns are still taken in file order', () => {
    const [a, b, c, x] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    // x is named (as b's parent) before its record comes, so it is given its id before c.
    const records = [user(a, null, 'first'), assistant(b, x, [text('early reply')]), user(c, b, 'after it'), user(x, a, 'written last')];
    const { leaf, lines, tree } = indexed(records);
    expect(leaf).toBe(x);
    expect(lines).toEqual([1, 4]);
    expect(tree.branches.map((branch) => [branch.leaf, branch.resumed])).toEqual([[c, false], [x, true]]);
  });

  test('a last-prompt naming a record thousands of records back picks its branch', () => {
    const uuids = Array.from({ length: 6_000 }, () => randomUUID());
    const records: Rec[] = uuids.map((uuid, i) => (i < 3 ? user(uuid, i === 0 ? null : uuids[i - 1]!, `p${i}`) : user(uuid, uuids[1]!, `p${i}`)));
    const { leaf, lines } = indexed([...records, lastPrompt(uuids[2]!)]);
    expect(leaf).toBe(uuids[2]);
    expect(lines).toEqual([1, 2, 3]);
  });
});

test('the reader calls `collect` once, between the passes: after the index is made, before the first event', async () => {
  const [a, b] = [randomUUID(), randomUUID()];
  const calls: string[] = [];
  const reader = readClaudeTranscript(writeTranscript([user(a, null, 'hello'), assistant(b, a, [text('hi')])]), {
    collect: () => calls.push('collect'),
  });
  for await (const event of reader) calls.push(event.type);
  expect(calls).toEqual(['collect', 'user', 'assistant']);
});
