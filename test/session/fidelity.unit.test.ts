// The fidelity account (lib/session/fidelity.ts): what each element kind of an event counts, what a writer
// drops or changes, the one summary line, and where the account may be written.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../lib/events.js';
import { elementsOf, FidelityAccount, fidelitySummary, fidelityTargetProblem, writeFidelityFile } from '../../lib/session/fidelity.js';
import { ClaudeRecordMapper } from '../../lib/agents/claude-code-cli/records.js';
import { CodexRecordMapper } from '../../lib/agents/codex-cli/records.js';
import { GeminiRecordMapper } from '../../lib/agents/gemini-cli/records.js';
import { tempDir } from '../support/run.js';

const T = '2026-11-29T10:00:00.000Z';
const PNG = { media_type: 'image/png', data: 'iVBORw0KGgo=' };

describe('elements of an event', () => {
  test('a user turn is its text and its images; blank text is no element', () => {
    expect(elementsOf({ type: 'user', text: 'hi', images: [PNG, PNG], timestamp: T })).toEqual([['user_text', 1], ['image', 2]]);
    expect(elementsOf({ type: 'user', text: '  ', images: [PNG], timestamp: T })).toEqual([['image', 1]]);
  });

  test('a failed result with an image part is a result, an error flag and an image', () => {
    const event: GenericEvent = {
      type: 'tool_result', id: 'c1', is_error: true, timestamp: T,
      content: [{ type: 'text', text: 'boom' }, { type: 'image', ...PNG }],
    };
    expect(elementsOf(event)).toEqual([['tool_result', 1], ['error_flag', 1], ['image', 1]]);
  });

  test('thinking is reasoning, a monitor end a monitor event', () => {
    expect(elementsOf({ type: 'thinking', text: 't', timestamp: T })).toEqual([['reasoning', 1]]);
    expect(elementsOf({ type: 'monitor_end', exit_code: 0, timestamp: T })).toEqual([['monitor_event', 1]]);
  });
});

describe('the account', () => {
  test('written is what was read less what was dropped; changed and dropped say why', () => {
    const account = new FidelityAccount('codex-cli');
    account.readEvent({ type: 'thinking', text: 'a', timestamp: T });
    account.readEvent({ type: 'thinking', text: 'b', timestamp: T });
    account.drop('reasoning', 'not kept');
    account.readEvent({ type: 'tool_result', id: 'x', content: 'out', is_error: false, timestamp: T });
    account.change('tool_result', 'kept as user text');
    expect(account.toJSON()).toEqual({
      tool_result: { read: 1, written: 1, changed: { 'kept as user text': 1 } },
      reasoning: { read: 2, written: 1, dropped: { 'not kept': 1 } },
    });
    expect(account.lossy).toBe(true);
  });

  test('a replay counts nothing', () => {
    const account = new FidelityAccount('codex-cli');
    account.muted(() => {
      account.readEvent({ type: 'user', text: 'old', timestamp: T });
      account.drop('user_text', 'x');
    });
    expect(account.toJSON()).toEqual({});
    expect(account.lossy).toBe(false);
  });

  test('a call its reader renamed counts as renamed in another format, not in its own', () => {
    const call = { type: 'tool_call', id: 'c', name: 'Bash', arguments: { command: 'ls' }, timestamp: T,
      native: { format: 'codex-cli', name: 'exec_command', arguments: { cmd: 'ls' } } } as GenericEvent;
    const other = new FidelityAccount('claude-code-cli');
    other.readEvent(call);
    expect(other.toJSON().tool_call).toEqual({ read: 1, written: 1, changed: { 'tool-renamed': 1 } });
    const own = new FidelityAccount('codex-cli');
    own.readEvent(call);
    expect(own.toJSON().tool_call).toEqual({ read: 1, written: 1 });
  });

  test('the summary is one line naming each format with a loss, and nothing when none lost anything', () => {
    const lossy = new FidelityAccount('codex-cli');
    lossy.readEvent({ type: 'thinking', text: 'a', timestamp: T });
    lossy.drop('reasoning', 'not kept');
    const clean = new FidelityAccount('claude-code-cli');
    clean.readEvent({ type: 'user', text: 'hi', timestamp: T });
    expect(fidelitySummary([{ format: 'claude-code-cli', account: clean.toJSON() }, { format: 'codex-cli', account: lossy.toJSON() }]))
      .toBe('fidelity: codex-cli: reasoning 1 of 1 dropped (not kept)');
    expect(fidelitySummary([{ format: 'claude-code-cli', account: clean.toJSON() }])).toBeUndefined();
  });

  test('context, never written by design, is counted but not said', () => {
    const account = new FidelityAccount('gemini-cli');
    account.readEvent({ type: 'context', kind: 'system', timestamp: T } as GenericEvent);
    account.drop('context', 'the CLI makes its own again');
    expect(account.toJSON().context).toEqual({ read: 1, written: 0, dropped: { 'the CLI makes its own again': 1 } });
    expect(fidelitySummary([{ format: 'gemini-cli', account: account.toJSON() }])).toBeUndefined();
  });
});

describe('what each writer counts', () => {
  const events: GenericEvent[] = [
    { type: 'user', text: 'go', timestamp: T },
    { type: 'thinking', text: 'private', timestamp: T },
    { type: 'tool_call', id: 'c1', name: 'Bash', arguments: { command: 'false' }, timestamp: T },
    { type: 'tool_result', id: 'c1', content: 'exit 1', is_error: true, timestamp: T },
    { type: 'tool_result', id: 'nope', content: 'stray', is_error: false, timestamp: T },
    { type: 'user', text: 'sub', agent_id: 'a1', timestamp: T },
  ];

  test('Claude Code: unsigned thinking dropped, a stray result kept as user text, a subagent\'s event dropped', () => {
    const mapper = new ClaudeRecordMapper({ sessionId: 's', cwd: '/p' });
    for (const event of events) mapper.map(event);
    expect(mapper.fidelity.toJSON()).toEqual({
      user_text: { read: 2, written: 1, dropped: { 'belongs to a subagent session': 1 } },
      tool_call: { read: 1, written: 1 },
      tool_result: { read: 2, written: 2, changed: { 'no matching call: kept as user text': 1 } },
      error_flag: { read: 1, written: 1 },
      reasoning: { read: 1, written: 0, dropped: { 'unsigned: the API rejects it on resume': 1 } },
    });
  });

  test('Codex: reasoning and error flags dropped', () => {
    const mapper = new CodexRecordMapper({ sessionId: 's', cwd: '/p', startedAt: T });
    for (const event of events) mapper.map(event);
    const account = mapper.fidelity.toJSON();
    expect(account.reasoning).toEqual({ read: 1, written: 0, dropped: { 'Codex keeps only the API\'s encrypted reasoning': 1 } });
    expect(account.error_flag).toEqual({ read: 1, written: 0, dropped: { 'Codex results have no error flag': 1 } });
  });

  test('Gemini CLI: thoughts are kept in the chat but counted as dropped (never sent); a "/" text too', () => {
    const mapper = new GeminiRecordMapper({ sessionId: 's', projectHash: 'h', startedAt: T });
    for (const event of [...events, { type: 'user', text: '/help', timestamp: T } as GenericEvent]) mapper.map(event);
    const account = mapper.fidelity.toJSON();
    expect(account.reasoning).toEqual({ read: 1, written: 0, dropped: { 'kept in the chat, but gemini --resume does not send thoughts': 1 } });
    expect(account.user_text!.dropped).toEqual({
      'belongs to a subagent session': 1,
      'kept in the chat, but gemini --resume does not send text starting with "/", "?" or a context tag': 1,
    });
    expect(account.error_flag).toEqual({ read: 1, written: 1 });
  });
});

describe('where the account is written', () => {
  test('a new file, mode 0600, one JSON line', () => {
    const path = join(tempDir(), 'account.json');
    expect(fidelityTargetProblem(path)).toBeUndefined();
    writeFidelityFile(path, { sessions: [] });
    expect(readFileSync(path, 'utf8')).toBe('{"sessions":[]}\n');
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  test('an existing file or directory is refused and left as it was', () => {
    const dir = tempDir();
    const path = join(dir, 'mine.json');
    writeFileSync(path, 'keep');
    expect(fidelityTargetProblem(path)).toBe('it exists, and is never overwritten');
    expect(fidelityTargetProblem(dir)).toBe('it exists, and is never overwritten');
    expect(() => writeFidelityFile(path, {})).toThrow('it exists, and is never overwritten');
    expect(readFileSync(path, 'utf8')).toBe('keep');
  });

  test('a directory that does not exist is a failure when writing', () => {
    const path = join(tempDir(), 'no', 'such', 'account.json');
    expect(fidelityTargetProblem(path)).toBeUndefined();
    expect(() => writeFidelityFile(path, {})).toThrow();
    expect(existsSync(join(path, '..'))).toBe(false);
  });
});
