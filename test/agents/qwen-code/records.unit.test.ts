// The Qwen Code chat mapper with literal events: the records each event makes, the chain, how a response's
// thoughts, text and calls share one assistant record (held while it has calls), results, notifications,
// compactions and the fidelity account; and the project folder names.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { GenericEvent } from '../../../lib/events.js';
import { PRE } from '../../../lib/monitor/notification.js';
import { QwenRecordMapper } from '../../../lib/agents/qwen-code/records.js';
import { lastRecordUuid } from '../../../lib/agents/qwen-code/harness.js';
import { isSessionId, projectDirName, qwenRoot, writtenDirName } from '../../../lib/agents/qwen-code/paths.js';

const T = '2026-11-29T10:00:00.000Z';
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

function mapper(options: { provenance?: Record<string, unknown> } = {}): QwenRecordMapper {
  let n = 0;
  return new QwenRecordMapper({ sessionId: 'S', cwd: '/p', model: 'qwen3-coder', newId: () => `u${n += 1}`, ...options });
}

function map(m: QwenRecordMapper, events: Partial<GenericEvent>[]): string[] {
  return events.flatMap((e) => m.map({ timestamp: T, ...e } as GenericEvent));
}

const drained = (m: QwenRecordMapper, all = false): any[] => JSON.parse(JSON.stringify(m.drain(all)));

describe('records', () => {
  test('every record names the session, the project and its parent: a chain from null', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: 'hi' }, { type: 'assistant', text: 'hello' }]);
    const out = drained(m);
    expect(out.map((r) => [r.uuid, r.parentUuid, r.sessionId, r.cwd, r.type])).toEqual([
      ['u1', null, 'S', '/p', 'user'], ['u2', 'u1', 'S', '/p', 'assistant'],
    ]);
    expect(out[0].message).toEqual({ role: 'user', parts: [{ text: 'hi' }] });
    expect(out[1]).toMatchObject({ model: 'qwen3-coder', message: { role: 'model', parts: [{ text: 'hello' }] } });
  });

  test('a later drain chains onto the last record, or onto the one another process appended', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: 'a' }]);
    drained(m);
    m.chainOnto('foreign');
    map(m, [{ type: 'user', text: 'b' }]);
    expect(drained(m)[0].parentUuid).toBe('foreign');
  });

  test('the provenance of a converted session is on every record', () => {
    const m = mapper({ provenance: { asyncaiLog: { convertedFrom: 'x', source: '/a' } } });
    map(m, [{ type: 'user', text: 'a' }]);
    expect(drained(m)[0].asyncaiLog).toEqual({ convertedFrom: 'x', source: '/a' });
  });

  test('user images are inlineData parts after the text', () => {
    const m = mapper();
    map(m, [{ type: 'user', text: 'look', images: [{ media_type: 'image/png', data: PNG }] }]);
    expect(drained(m)[0].message.parts).toEqual([{ text: 'look' }, { inlineData: { mimeType: 'image/png', data: PNG } }]);
  });

  test('an empty user turn is not written, with a warning', () => {
    const m = mapper();
    expect(map(m, [{ type: 'user', text: ' ' }])[0]).toMatch(/empty text/);
    expect(m.pending).toBe(false);
  });
});

describe('a response', () => {
  test('thoughts, text and calls share one assistant record, held until the results come', () => {
    const m = mapper();
    map(m, [
      { type: 'user', text: 'go' },
      { type: 'thinking', text: 'plan' },
      { type: 'assistant', text: 'running', usage: { input_tokens: 10, output_tokens: 5 } },
      { type: 'tool_call', id: 'c1', name: 'run_shell_command', arguments: { command: 'ls' } },
      { type: 'tool_call', id: 'c2', name: 'Read', arguments: { file_path: 'a' } },
    ]);
    expect(drained(m).map((r) => r.type)).toEqual(['user']);
    map(m, [
      { type: 'tool_result', id: 'c1', content: 'a\nb', is_error: false },
      { type: 'tool_result', id: 'c2', content: 'ENOENT', is_error: true },
    ]);
    const out = drained(m);
    expect(out.map((r) => r.type)).toEqual(['assistant', 'tool_result', 'tool_result']);
    expect(out[0].message.parts).toEqual([
      { text: 'plan', thought: true }, { text: 'running' },
      { functionCall: { id: 'c1', name: 'run_shell_command', args: { command: 'ls' } } },
      { functionCall: { id: 'c2', name: 'Read', args: { file_path: 'a' } } },
    ]);
    expect(out[0].usageMetadata).toEqual({ promptTokenCount: 10, candidatesTokenCount: 5, thoughtsTokenCount: 0, totalTokenCount: 15, cachedContentTokenCount: 0 });
    expect(out[1].message).toEqual({ role: 'user', parts: [{ functionResponse: { id: 'c1', name: 'run_shell_command', response: { output: 'a\nb' } } }] });
    expect(out[2].message.parts[0].functionResponse.response).toEqual({ error: 'ENOENT' });
    expect(out[2].toolCallResult).toMatchObject({ callId: 'c2', status: 'error' });
  });

  test('a response without calls is written at a flush; its later output starts a record of its own', () => {
    const m = mapper();
    map(m, [{ type: 'assistant', text: 'one' }]);
    expect(drained(m).map((r) => r.message.parts)).toEqual([[{ text: 'one' }]]);
    map(m, [{ type: 'tool_call', id: 'c', name: 'X', arguments: {} }]);
    expect(m.pending).toBe(false);
    expect(drained(m, true).map((r) => r.message.parts)).toEqual([[{ functionCall: { id: 'c', name: 'X', args: {} } }]]);
  });

  test('a call written back into its own format keeps its native name and arguments', () => {
    const m = mapper();
    map(m, [{ type: 'tool_call', id: 'c', name: 'Bash', arguments: { command: 'ls' }, native: { format: 'qwen-code', name: 'run_shell_command', arguments: { command: 'ls', is_background: false } } }]);
    expect(drained(m, true)[0].message.parts[0].functionCall).toEqual({ id: 'c', name: 'run_shell_command', args: { command: 'ls', is_background: false } });
  });

  test('a result image rides in the response parts', () => {
    const m = mapper();
    map(m, [
      { type: 'tool_call', id: 'c', name: 'X', arguments: {} },
      { type: 'tool_result', id: 'c', content: [{ type: 'text', text: 'shot' }, { type: 'image', media_type: 'image/png', data: PNG }], is_error: false },
    ]);
    const out = drained(m);
    expect(out[1].message.parts[0].functionResponse).toEqual({ id: 'c', name: 'X', response: { output: 'shot' }, parts: [{ inlineData: { mimeType: 'image/png', data: PNG } }] });
  });

  test('a result matching no call is user text, counted as changed', () => {
    const m = mapper();
    expect(map(m, [{ type: 'tool_result', id: 'x', content: 'out', is_error: true }])[0]).toMatch(/matches no earlier tool_call/);
    expect(drained(m)[0].message.parts[0].text).toBe('[Tool result for call x (error); no matching tool call was recorded]\nout');
    expect(m.fidelity.toJSON().tool_result).toEqual({ read: 1, written: 1, changed: { 'no matching call: kept as user text': 1 } });
  });
});

describe('the fidelity account', () => {
  test('reasoning and images are written; error flags and unanswered calls are not sent', () => {
    const m = mapper();
    map(m, [
      { type: 'user', text: 'a', images: [{ media_type: 'image/png', data: PNG }] },
      { type: 'thinking', text: 't' },
      { type: 'tool_call', id: 'c1', name: 'X', arguments: {} },
      { type: 'tool_call', id: 'c2', name: 'X', arguments: {} },
      { type: 'tool_result', id: 'c1', content: 'bad', is_error: true },
    ]);
    m.end();
    const account = m.fidelity.toJSON();
    expect(account.image).toEqual({ read: 1, written: 1 });
    expect(account.reasoning).toEqual({ read: 1, written: 1 });
    expect(account.error_flag?.written).toBe(0);
    expect(account.tool_call).toMatchObject({ read: 2, written: 1 });
  });

  test('subagent events and context are dropped', () => {
    const m = mapper();
    expect(map(m, [{ type: 'user', text: 'x', agent_id: 'a1' }, { type: 'context', kind: 'system', text: 'ctx' }])).toHaveLength(1);
    expect(m.pending).toBe(false);
    expect(m.fidelity.toJSON().context?.written).toBe(0);
  });
});

describe('notifications and compactions', () => {
  test('a monitor event is a user record with the shared notification text', () => {
    const m = mapper();
    map(m, [{ type: 'monitor_event', event: 'build ok', description: 'npm run watch', task_id: 'bk1' }]);
    const text = drained(m)[0].message.parts[0].text as string;
    expect(text.startsWith(`${PRE}\n\n<task-notification>\n<task-id>bk1</task-id>`)).toBe(true);
  });

  test('a compaction is a chat_compression record whose compressed history is the summary', () => {
    const m = mapper();
    map(m, [{ type: 'compaction', summary: 'so far' }]);
    expect(drained(m)[0]).toMatchObject({ type: 'system', subtype: 'chat_compression', systemPayload: { compressedHistory: [{ role: 'user', parts: [{ text: 'so far' }] }] } });
  });
});

describe('paths', () => {
  test('every UTF-16 unit outside [A-Za-z0-9] becomes "-"', () => {
    expect(projectDirName('/a/My_Proj.v2')).toBe('-a-My-Proj-v2');
    expect(projectDirName('/é/😀')).toBe('-----');
  });

  test('a name too long to exist is cut and hashed', () => {
    const { name, cut } = writtenDirName(`/${'x'.repeat(300)}`);
    expect(cut).toBe(true);
    expect(name.length).toBeLessThanOrEqual(255);
  });

  test('the root is $QWEN_RUNTIME_DIR, else $QWEN_HOME, else ~/.qwen', () => {
    expect(qwenRoot({ QWEN_RUNTIME_DIR: '/r', QWEN_HOME: '/h' }, '/home/u')).toBe('/r');
    expect(qwenRoot({ QWEN_HOME: '~/q' }, '/home/u')).toBe('/home/u/q');
    expect(qwenRoot({}, '/home/u')).toBe('/home/u/.qwen');
  });

  test('settings\' advanced.runtimeOutputDir comes after $QWEN_RUNTIME_DIR and before $QWEN_HOME', () => {
    const home = mkdtempSync(join(tmpdir(), 'asyncai-log-qwen-settings-'));
    mkdirSync(join(home, '.qwen'));
    writeFileSync(join(home, '.qwen', 'settings.json'), JSON.stringify({ advanced: { runtimeOutputDir: '~/runtime' } }));
    expect(qwenRoot({}, home)).toBe(join(home, 'runtime'));
    expect(qwenRoot({ QWEN_RUNTIME_DIR: '/r' }, home)).toBe('/r');
    // The settings are $QWEN_HOME's when it is set.
    mkdirSync(join(home, 'qh'));
    writeFileSync(join(home, 'qh', 'settings.json'), JSON.stringify({ advanced: { runtimeOutputDir: '/elsewhere' } }));
    expect(qwenRoot({ QWEN_HOME: join(home, 'qh') }, home)).toBe('/elsewhere');
    // No key, or a settings file that is not JSON: $QWEN_HOME, else ~/.qwen.
    writeFileSync(join(home, 'qh', 'settings.json'), '{"advanced": {}}');
    expect(qwenRoot({ QWEN_HOME: join(home, 'qh') }, home)).toBe(join(home, 'qh'));
    writeFileSync(join(home, '.qwen', 'settings.json'), '{not json');
    expect(qwenRoot({}, home)).toBe(join(home, '.qwen'));
  });

  test('session ids are UUID-like', () => {
    expect(isSessionId('941c7107-ba6c-4144-8657-1d61fc5a4ddb')).toBe(true);
    expect(isSessionId('1e43738a')).toBe(false);
    expect(isSessionId('../x')).toBe(false);
  });

  test('the last whole record of appended bytes gives the uuid to chain onto', () => {
    expect(lastRecordUuid('{"uuid":"a"}\n{"uuid":"b"}\n{"uuid":"c"')).toBe('b');
    expect(lastRecordUuid('garbage\n')).toBeUndefined();
  });
});
