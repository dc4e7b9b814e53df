// The lines this harness writes have the shape of the lines the real Codex writes itself: checked against
// fixtures/codex-cli/resumed-by-codex.jsonl (a session the bin wrote, then resumed by the real codex, which
// appended its own turn; regenerate with test/agents/codex-cli/capture-fixture.mjs) and a rollout of Codex's own.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { lastTotalIn } from '../../../lib/agents/codex-cli/token-usage.js';
import { FIXTURES } from '../../support/run.js';
import { rolloutLines } from './support.js';
import { readFileSync } from 'node:fs';

const captured = rolloutLines(join(FIXTURES, 'codex-cli', 'resumed-by-codex.jsonl'));
/** Our lines end with the task_complete the harness writes when it finishes; Codex's own follow. */
const ours = captured.slice(0, captured.findIndex((l) => l.payload.type === 'task_complete') + 1);
const codexOwn = captured.slice(ours.length);
const golden = rolloutLines(join(FIXTURES, 'codex-cli', 'conversation.rollout.jsonl'));

/** What kind of line this is: its type, its payload type, and a message's role. */
function kind(line: any): string {
  return [line.type, line.payload.type, line.payload.role].filter((x) => x !== undefined).join('/');
}

function jsonType(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
}

/** Every key path of `ours` exists in `theirs` with the same JSON type (nulls match anything). */
function shapeDifferences(mine: unknown, theirs: unknown, path = ''): string[] {
  if (mine === null || theirs === null) return [];
  if (jsonType(mine) !== jsonType(theirs)) return [`${path}: ${jsonType(mine)} here, ${jsonType(theirs)} in Codex's`];
  if (Array.isArray(mine) && Array.isArray(theirs)) {
    return theirs.length === 0 ? [] : mine.flatMap((item, i) => shapeDifferences(item, theirs[Math.min(i, theirs.length - 1)], `${path}[${i}]`));
  }
  if (typeof mine === 'object' && typeof theirs === 'object') {
    const t = theirs as Record<string, unknown>;
    return Object.entries(mine as Record<string, unknown>).flatMap(([key, value]) => (key in t
      ? shapeDifferences(value, t[key], `${path}.${key}`)
      : [`${path}.${key}: not in Codex's line`]));
  }
  return [];
}

describe('line shapes against the real Codex', () => {
  test('the captured file holds lines Codex appended after ours', () => {
    expect(ours.length).toBeGreaterThan(5);
    expect(codexOwn.map(kind)).toEqual(expect.arrayContaining(['event_msg/user_message', 'response_item/function_call', 'event_msg/task_complete']));
  });

  const kinds = [
    'event_msg/task_started', 'event_msg/user_message', 'event_msg/agent_message', 'event_msg/token_count', 'event_msg/task_complete',
    'response_item/message/user', 'response_item/message/assistant', 'response_item/message/developer',
    'response_item/function_call', 'response_item/function_call_output', 'turn_context',
  ];
  for (const k of kinds) {
    test(`a ${k} line has the keys and value types of Codex's own`, () => {
      const theirs = codexOwn.find((l) => kind(l) === k);
      expect(theirs, `Codex wrote no ${k} line in the fixture`).toBeDefined();
      // Image parts and content-item outputs do not occur in the capture: the real-codex resume tests cover them.
      const mine = golden.filter((l) => kind(l) === k && !JSON.stringify(l).includes('input_image'));
      expect(mine.length).toBeGreaterThan(0);
      for (const line of mine) expect(shapeDifferences(line, theirs)).toEqual([]);
    });
  }

  test('a turn opens as Codex opens its own: task_started, then turn_context, then the user message', () => {
    const opening = (lines: any[]) => lines.map(kind)
      .filter((k) => ['event_msg/task_started', 'turn_context', 'response_item/message/user'].includes(k))
      .slice(0, 3);
    // Codex's own turn also holds its instructions (developer and environment messages) before the user's.
    const theirs = codexOwn.filter((l) => !(kind(l) === 'response_item/message/user' && JSON.stringify(l).includes('<environment_context>')));
    expect(opening(theirs)).toEqual(['event_msg/task_started', 'turn_context', 'response_item/message/user']);
    // The golden's second turn: its model is known when it starts (the first names it only after the user spoke).
    const secondTurn = golden.slice(golden.findLastIndex((l) => kind(l) === 'event_msg/task_started'));
    expect(opening(secondTurn)).toEqual(opening(theirs));
  });

  test('session_meta has the keys and value types of the one Codex writes for its own sessions', () => {
    const theirs = rolloutLines(join(FIXTURES, 'codex-rollout', 'resumed.jsonl'))[0];
    expect(theirs.type).toBe('session_meta');
    expect(shapeDifferences(golden[0], theirs)).toEqual([]);
  });

  test('the running total Codex appended is found where the harness continues from it', () => {
    const text = readFileSync(join(FIXTURES, 'codex-cli', 'resumed-by-codex.jsonl'), 'utf8');
    const last = codexOwn.filter((l) => l.payload.type === 'token_count').at(-1);
    expect(lastTotalIn(text)).toEqual(last.payload.info.total_token_usage);
    // Codex itself carried on from the total this harness wrote.
    const ourTotal = ours.find((l) => l.payload.type === 'token_count').payload.info.total_token_usage;
    expect(last.payload.info.total_token_usage.input_tokens).toBeGreaterThan(ourTotal.input_tokens);
  });
});
