// The Codex harness's file handling: where the rollout goes and how it is named (local time, as Codex names
// its own), its mode, the default root, one write per flush, and lines another process appends meanwhile.
import { afterEach, describe, expect, test, vi } from 'vitest';
import { appendFileSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { codexCli } from '../../../lib/agents/codex-cli/harness.js';
import { AppendFile } from '../../../lib/session/append-file.js';
import { cleanEnv, runBin, sessionOf, tempDir } from '../../support/run.js';
import { ev, rolloutLines } from './support.js';

const T = '2026-11-29T10:00:00.000Z';

/** The local date and time fields of `iso` in `timeZone`, as Codex puts them into a rollout name. */
function localFields(iso: string, timeZone: string): { y: string; mo: string; d: string; h: string; mi: string; s: string } {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(iso));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return { y: get('year'), mo: get('month'), d: get('day'), h: get('hour'), mi: get('minute'), s: get('second') };
}

function create(root: string, warn: (m: string) => void = () => {}) {
  return codexCli.create({ root, cwd: '/home/user/project', warn });
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the Codex rollout file', () => {
  for (const timeZone of ['America/New_York', 'Pacific/Kiritimati']) {
    test(`is sessions/YYYY/MM/DD/rollout-<local start time>-<uuid>.jsonl in the local time of ${timeZone}`, async () => {
      const root = tempDir();
      const r = await runBin(['--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`, '--cwd', '/home/user/project'], {
        input: ev({ type: 'user', text: 'hi' }),
        env: cleanEnv({ TZ: timeZone }),
      });
      expect(r.code).toBe(0);
      const session = sessionOf(r);
      const meta = rolloutLines(session.session_file)[0];
      const f = localFields(meta.payload.timestamp, timeZone);
      expect(relative(root, session.session_file)).toBe(
        join('sessions', f.y, f.mo, f.d, `rollout-${f.y}-${f.mo}-${f.d}T${f.h}-${f.mi}-${f.s}-${session.session_id}.jsonl`),
      );
      expect(meta.payload.id).toBe(session.session_id);
    });
  }

  test('a session given its start (convert gives the first event\'s time) is filed and named by that start', () => {
    const root = tempDir();
    const harness = codexCli.create({ root, cwd: '/home/user/project', startedAt: '2025-03-04T05:06:07.890Z', warn: () => {} });
    harness.finish();
    const f = localFields('2025-03-04T05:06:07.890Z', Intl.DateTimeFormat().resolvedOptions().timeZone);
    expect(relative(root, harness.sessionFile)).toBe(
      join('sessions', f.y, f.mo, f.d, `rollout-${f.y}-${f.mo}-${f.d}T${f.h}-${f.mi}-${f.s}-${harness.sessionId}.jsonl`),
    );
    expect(rolloutLines(harness.sessionFile)[0]).toMatchObject({ timestamp: '2025-03-04T05:06:07.890Z', payload: { timestamp: '2025-03-04T05:06:07.890Z' } });
  });

  test('the live filter files a session by when it was opened, whatever times its events carry', async () => {
    const root = tempDir();
    const before = Date.now();
    const r = await runBin(['--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`], {
      input: ev({ type: 'user', text: 'hi', timestamp: '2020-01-02T03:04:05.000Z' }),
    });
    const after = Date.now();
    expect(r.code).toBe(0);
    const lines = rolloutLines(sessionOf(r).session_file);
    const opened = Date.parse(lines[0].payload.timestamp);
    expect(opened).toBeGreaterThanOrEqual(before);
    expect(opened).toBeLessThanOrEqual(after);
    expect(lines[1].timestamp).toBe('2020-01-02T03:04:05.000Z');
  });

  test('is created with mode 0600 and begins with session_meta before any event is written', () => {
    const root = tempDir();
    const harness = create(root);
    expect(statSync(harness.sessionFile).mode & 0o777).toBe(0o600);
    const lines = rolloutLines(harness.sessionFile);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ type: 'session_meta', payload: { id: harness.sessionId, cwd: '/home/user/project', cli_version: '0.171.0' } });
    expect(lines[0].payload).not.toHaveProperty('history_mode');
    harness.finish();
  });

  test('every line carries the timestamp of its event', () => {
    const harness = create(tempDir());
    harness.add({ type: 'user', text: 'q', timestamp: T }, 'stdin:1');
    harness.add({ type: 'assistant', text: 'a', timestamp: '2026-11-29T10:00:01.000Z' }, 'stdin:2');
    harness.finish();
    expect(rolloutLines(harness.sessionFile).slice(1).map((l) => l.timestamp)).toEqual([T, T, T, '2026-11-29T10:00:01.000Z', '2026-11-29T10:00:01.000Z', '2026-11-29T10:00:01.000Z']);
  });

  test('resumes with codex resume <uuid>', () => {
    const harness = create(tempDir());
    expect(harness.resumeCommand).toBe(`codex resume ${harness.sessionId}`);
    harness.finish();
  });

  test('two sessions in one root get two files and the first is left as it was', async () => {
    const root = tempDir();
    const args = ['--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`, '--cwd', '/home/user/project'];
    const first = sessionOf(await runBin(args, { input: ev({ type: 'user', text: 'one' }) }));
    const before = readFileSync(first.session_file, 'utf8');
    const second = sessionOf(await runBin(args, { input: ev({ type: 'user', text: 'two' }) }));
    expect(second.session_file).not.toBe(first.session_file);
    expect(readFileSync(first.session_file, 'utf8')).toBe(before);
  });
});

describe('the Codex root', () => {
  test('defaults to $CODEX_HOME', async () => {
    const codexHome = tempDir();
    const r = await runBin(['--session-format', 'codex-cli', '--cwd', '/home/user/project'], {
      input: ev({ type: 'user', text: 'hi' }), env: cleanEnv({ CODEX_HOME: codexHome }),
    });
    expect(sessionOf(r).session_file.startsWith(join(codexHome, 'sessions'))).toBe(true);
  });

  test('defaults to ~/.codex without $CODEX_HOME', async () => {
    const env = cleanEnv();
    const r = await runBin(['--session-format', 'codex-cli', '--cwd', '/home/user/project'], { input: ev({ type: 'user', text: 'hi' }), env });
    expect(sessionOf(r).session_file.startsWith(join(env.HOME!, '.codex', 'sessions'))).toBe(true);
  });

  test('an empty $CODEX_HOME counts as unset', () => {
    expect(codexCli.defaultRoot({ CODEX_HOME: '' }, '/home/user')).toBe('/home/user/.codex');
  });
});

describe('writing', () => {
  test('everything added between two flushes goes out in one write', () => {
    const harness = create(tempDir());
    const write = vi.spyOn(AppendFile.prototype, 'write');
    harness.add({ type: 'user', text: 'q', timestamp: T }, 'stdin:1');
    harness.add({ type: 'tool_call', id: 'c', name: 'X', arguments: {}, timestamp: T }, 'stdin:2');
    harness.add({ type: 'tool_result', id: 'c', content: 'r', is_error: false, timestamp: T }, 'stdin:3');
    expect(write).not.toHaveBeenCalled();
    harness.flush();
    expect(write).toHaveBeenCalledTimes(1);
    harness.finish();
  });

  test('the open turn is completed when the session finishes', () => {
    const harness = create(tempDir());
    harness.add({ type: 'user', text: 'q', timestamp: T }, 'stdin:1');
    harness.finish();
    expect(rolloutLines(harness.sessionFile).at(-1)).toMatchObject({ type: 'event_msg', payload: { type: 'task_complete', last_agent_message: null } });
  });

  test('warnings name where the event came from', () => {
    const warnings: string[] = [];
    const harness = create(tempDir(), (m) => warnings.push(m));
    harness.add({ type: 'thinking', text: 'hmm', timestamp: T }, 'stdin:7');
    harness.finish();
    expect(warnings).toEqual([expect.stringMatching(/^stdin:7: thinking is not written to Codex rollouts/)]);
  });

  test('lines another process appended are warned about once, and an unfinished last line is ended first', () => {
    const warnings: string[] = [];
    const harness = create(tempDir(), (m) => warnings.push(m));
    harness.add({ type: 'user', text: 'q', timestamp: T }, 'stdin:1');
    harness.flush();
    appendFileSync(harness.sessionFile, '{"timestamp":"2026-11-29T10:00:00.500Z","type":"event_msg","payload":{"type":"agent_message","message":"x"}}');
    harness.add({ type: 'assistant', text: 'a', timestamp: T }, 'stdin:2');
    harness.flush();
    appendFileSync(harness.sessionFile, '{"timestamp":"2026-11-29T10:00:00.600Z","type":"event_msg","payload":{"type":"agent_message","message":"y"}}\n');
    harness.add({ type: 'assistant', text: 'b', timestamp: T }, 'stdin:3');
    harness.finish();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^warn session\.foreign_append: .* was appended to by another process/);
    const lines = rolloutLines(harness.sessionFile);
    expect(lines.filter((l) => l.payload.type === 'agent_message').map((l) => l.payload.message)).toEqual(['x', 'a', 'y', 'b']);
  });

  test('after another process appended its own turn_context, the next output states our model again', () => {
    const harness = codexCli.create({ root: tempDir(), cwd: '/home/user/project', model: 'model-a', warn: () => {} });
    harness.add({ type: 'user', text: 'q', timestamp: T }, 'stdin:1');
    harness.flush();
    appendFileSync(harness.sessionFile, `${JSON.stringify({ timestamp: T, type: 'turn_context', payload: { cwd: '/home/user/project', approval_policy: 'never', sandbox_policy: { type: 'read-only' }, model: 'codex-own' } })}\n`);
    harness.add({ type: 'assistant', text: 'a', timestamp: T }, 'stdin:2');
    harness.finish();
    const models = rolloutLines(harness.sessionFile).filter((l) => l.type === 'turn_context').map((l) => l.payload.model);
    expect(models).toEqual(['model-a', 'codex-own', 'model-a']);
  });

  test('token totals go on from the last total another process appended', () => {
    const harness = create(tempDir());
    harness.add({ type: 'assistant', text: 'a', usage: { input_tokens: 1, output_tokens: 1 }, timestamp: T }, 'stdin:1');
    harness.flush();
    appendFileSync(harness.sessionFile, `${JSON.stringify({ timestamp: T, type: 'event_msg', payload: { type: 'token_count', info: {
      total_token_usage: { input_tokens: 500, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 50, reasoning_output_tokens: 0, total_tokens: 550 },
    } } })}\n`);
    harness.add({ type: 'assistant', text: 'b', usage: { input_tokens: 2, output_tokens: 3 }, timestamp: T }, 'stdin:2');
    harness.finish();
    const last = rolloutLines(harness.sessionFile).filter((l) => l.payload.type === 'token_count').at(-1);
    expect(last.payload.info.total_token_usage).toMatchObject({ input_tokens: 502, output_tokens: 53, total_tokens: 555 });
  });
});

test('--model names the model in the turn_context of every turn', async () => {
  const root = tempDir();
  const r = await runBin(['--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`, '--cwd', '/home/user/project', '--model', 'gpt-5.1-codex'], {
    input: [ev({ type: 'user', text: 'one' }), ev({ type: 'assistant', text: 'a' }), ev({ type: 'user', text: 'two' })].join(''),
  });
  expect(r.code).toBe(0);
  const contexts = rolloutLines(sessionOf(r).session_file).filter((l) => l.type === 'turn_context');
  expect(contexts.map((l) => l.payload)).toEqual([1, 2].map(() => expect.objectContaining({ model: 'gpt-5.1-codex', cwd: '/home/user/project' })));
});

test('the bin notes dropped thinking on stderr once and writes the rest', async () => {
  const root = tempDir();
  const r = await runBin(['--session-format', 'codex-cli', '--session-dir', `codex-cli=${root}`, '--cwd', '/home/user/project'], {
    input: [
      ev({ type: 'user', text: 'q' }),
      ev({ type: 'thinking', text: 'a', signature: 's' }),
      ev({ type: 'thinking', text: 'b', signature: 's' }),
      ev({ type: 'assistant', text: 'done' }),
    ].join(''),
  });
  expect(r.code).toBe(0);
  expect(r.stderr).toBe('asyncai-log: stdin:2: thinking is not written to Codex rollouts (Codex reasoning items hold encrypted content only the API can make); further thinking is dropped silently\n'
    + 'asyncai-log: fidelity: codex-cli: reasoning 2 of 2 dropped (Codex keeps only the API\'s encrypted reasoning)\n');
  const file = sessionOf(r).session_file;
  expect(readdirSync(join(file, '..'))).toHaveLength(1);
  expect(rolloutLines(file).filter((l) => l.type === 'response_item').map((l) => l.payload.role)).toEqual(['user', 'assistant']);
});
