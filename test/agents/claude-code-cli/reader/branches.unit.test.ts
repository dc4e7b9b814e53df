// Which branch is read: the one `claude --resume` continues (checked against the real CLI in
// real-client.test.ts), another one by --branch, the branch structure, parallel results and compactions.
import { describe, expect, test } from 'vitest';
import {
  assistant, attachment, lastPrompt, readAll, shape, system, text, toolResult, toolUse, user, writeTranscript,
} from './support.js';
import { readClaudeTranscript } from '../../../../lib/agents/claude-code-cli/reader/index.js';

/** first -> reply1 -> (second-a -> reply2a | second-b -> reply2b), b written last. */
function twoBranches(): Record<string, unknown>[] {
  return [
    user('u1', null, 'first'), assistant('a1', 'u1', [text('reply1')]),
    user('u2', 'a1', 'second-a'), assistant('a2', 'u2', [text('reply2a')]),
    user('u3', 'a1', 'second-b'), assistant('a3', 'u3', [text('reply2b')]),
  ];
}

describe('the resumed branch', () => {
  test('without a last-prompt record the branch of the last record written is read', async () => {
    const { events } = await readAll(writeTranscript(twoBranches()));
    expect(shape(events)).toEqual([['user', 'first'], ['assistant', 'reply1'], ['user', 'second-b'], ['assistant', 'reply2b']]);
  });

  test('a last-prompt record picks the branch it names', async () => {
    const { events } = await readAll(writeTranscript([...twoBranches(), lastPrompt('a2')]));
    expect(shape(events).map((s) => s[1])).toEqual(['first', 'reply1', 'second-a', 'reply2a']);
  });

  test('a last-prompt naming a record with later children reads on to the last one written below it', async () => {
    const { events } = await readAll(writeTranscript([...twoBranches(), lastPrompt('a1')]));
    expect(shape(events).map((s) => s[1])).toEqual(['first', 'reply1', 'second-b', 'reply2b']);
  });

  test('records written after a last-prompt below its leaf are still read', async () => {
    const { events } = await readAll(writeTranscript([
      user('u1', null, 'first'), lastPrompt('u1'), assistant('a1', 'u1', [text('reply1')]),
    ]));
    expect(shape(events).map((s) => s[1])).toEqual(['first', 'reply1']);
  });

  test('a last-prompt naming a context record after the last turn reads that turn\'s branch', async () => {
    const { events } = await readAll(writeTranscript([
      ...twoBranches(), attachment('x1', 'a2', { type: 'prompt_snapshot' }), lastPrompt('x1'),
    ]));
    expect(shape(events).map((s) => s[1])).toEqual(['first', 'reply1', 'second-a', 'reply2a']);
  });

  test('a last-prompt naming a record not in the file falls back to the last record written, with a warning', async () => {
    const { events, warnings } = await readAll(writeTranscript([...twoBranches(), lastPrompt('nowhere')]));
    expect(shape(events).map((s) => s[1])).toEqual(['first', 'reply1', 'second-b', 'reply2b']);
    expect(warnings.map((w) => w.message)).toEqual(['last-prompt names nowhere, which is not in the file; following the last record written']);
  });

  test('--branch reads the branch ending at the record it names', async () => {
    const { events } = await readAll(writeTranscript(twoBranches()), { branch: 'u2' });
    expect(shape(events).map((s) => s[1])).toEqual(['first', 'reply1', 'second-a']);
  });

  test('--branch naming no record fails the read', async () => {
    await expect(readAll(writeTranscript(twoBranches()), { branch: 'missing' })).rejects.toThrow(/: no record with uuid "missing" \(--branch\)$/);
  });

  test('a parent that points nowhere ends the branch there, with a warning', async () => {
    const { events, warnings } = await readAll(writeTranscript([
      user('u1', null, 'lost'), user('u2', 'gone', 'kept'), assistant('a2', 'u2', [text('reply')]),
    ]));
    expect(shape(events).map((s) => s[1])).toEqual(['kept', 'reply']);
    expect(warnings.map((w) => w.message)).toEqual(['the branch refers to gone, which is not in the file; records before it are not on the branch']);
  });

  test('a transcript with no turns reads as no events', async () => {
    const { events, warnings } = await readAll(writeTranscript([{ type: 'queue-operation', operation: 'enqueue', sessionId: 's' }]));
    expect(events).toEqual([]);
    expect(warnings).toEqual([]);
  });
});

describe('parallel tool calls', () => {
  test('each call\'s result parented on its own call is read, in file order', async () => {
    // Claude Code's layout: text <- call A <- call B; result A on A, result B on B; the reply on result B.
    const { events } = await readAll(writeTranscript([
      user('u1', null, 'run both'),
      assistant('t', 'u1', [text('running')], { id: 'm1' }),
      assistant('ca', 't', [toolUse('A')], { id: 'm1' }),
      assistant('cb', 'ca', [toolUse('B')], { id: 'm1' }),
      user('ra', 'ca', [toolResult('A', 'out A')]),
      user('rb', 'cb', [toolResult('B', 'out B')]),
      assistant('done', 'rb', [text('both ran')]),
    ]));
    expect(shape(events)).toEqual([
      ['user', 'run both'], ['assistant', 'running'], ['tool_call', 'A'], ['tool_call', 'B'],
      ['tool_result', 'A'], ['tool_result', 'B'], ['assistant', 'both ran'],
    ]);
  });

  test('a result on an abandoned branch is not read when the branch holds its own result for that call', async () => {
    const { events } = await readAll(writeTranscript([
      user('u1', null, 'go'), assistant('c', 'u1', [toolUse('X')]),
      user('r-old', 'c', [toolResult('X', 'old')]),
      user('r-new', 'c', [toolResult('X', 'new')]), assistant('a', 'r-new', [text('done')]),
    ]));
    expect(events.filter((e) => e.type === 'tool_result').map((e) => (e as { content: unknown }).content)).toEqual(['new']);
  });
});

describe('compaction', () => {
  const compacted = () => [
    user('u1', null, 'Remember kiwi.'), assistant('a1', 'u1', [text('Noted.')]),
    system('b1', null, 'compact_boundary', { logicalParentUuid: 'a1', content: 'Conversation compacted', compactMetadata: { trigger: 'manual', preTokens: 1500 } }),
    user('s1', 'b1', 'Summary: the user said kiwi.', { isCompactSummary: true, isVisibleInTranscriptOnly: true }),
    user('u2', 's1', 'What was it?'), assistant('a2', 'u2', [text('kiwi')]),
  ];

  test('a boundary and its summary are one compaction event where history was cut', async () => {
    const { events } = await readAll(writeTranscript(compacted()));
    expect(shape(events)).toEqual([
      ['user', 'Remember kiwi.'], ['assistant', 'Noted.'], ['compaction', 'Summary: the user said kiwi.'],
      ['user', 'What was it?'], ['assistant', 'kiwi'],
    ]);
    expect(events[2]).toEqual({ type: 'compaction', summary: 'Summary: the user said kiwi.', trigger: 'manual', pre_tokens: 1500, timestamp: expect.any(String) });
  });

  test('the compaction carries the boundary\'s timestamp', async () => {
    const records = compacted();
    const { events } = await readAll(writeTranscript(records));
    expect(events[2]!.timestamp).toBe(records[2]!.timestamp);
  });

  test('a boundary without a summary is a compaction with an empty summary', async () => {
    const { events } = await readAll(writeTranscript([
      user('u1', null, 'a'), system('b1', null, 'compact_boundary', { logicalParentUuid: 'u1' }), user('u2', 'b1', 'b'),
    ]));
    expect(shape(events)).toEqual([['user', 'a'], ['compaction', ''], ['user', 'b']]);
  });
});

describe('the branch structure (--tree)', () => {
  test('every branch is listed once, the resumed one marked, the others with their fork point', async () => {
    const tree = await readClaudeTranscript(writeTranscript(twoBranches())).tree();
    expect(tree.resumed_leaf).toBe('a3');
    expect(tree.branches.map((b) => [b.leaf, b.resumed, b.records, b.forks_from, b.last_prompt])).toEqual([
      ['a2', false, 4, 'a1', 'second-a'],
      ['a3', true, 4, null, 'second-b'],
    ]);
  });

  test('a parallel call\'s result is not listed as a branch', async () => {
    const tree = await readClaudeTranscript(writeTranscript([
      user('u1', null, 'go'), assistant('ca', 'u1', [toolUse('A')], { id: 'm' }), assistant('cb', 'ca', [toolUse('B')], { id: 'm' }),
      user('ra', 'ca', [toolResult('A')]), user('rb', 'cb', [toolResult('B')]), assistant('z', 'rb', [text('end')]),
    ])).tree();
    expect(tree.branches.map((b) => b.leaf)).toEqual(['z']);
  });

  test('the tree counts compactions and follows the branch across them', async () => {
    const tree = await readClaudeTranscript(writeTranscript([
      user('u1', null, 'a'), system('b1', null, 'compact_boundary', { logicalParentUuid: 'u1' }), user('u2', 'b1', 'b'),
    ])).tree();
    expect(tree.compactions).toBe(1);
    expect(tree.branches).toEqual([expect.objectContaining({ leaf: 'u2', records: 2, resumed: true })]);
  });
});
