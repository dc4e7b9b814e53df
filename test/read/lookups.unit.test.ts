// Each agent's session lookup (`Agent.sessions`) over a temp tree laid out as the agent lays it: ids from file
// names (Gemini CLI's from the chat's first line, pi's from the header of a file named otherwise), prefixes of any
// case, nothing outside the layout, and a whole id preferred to the longer ids it starts (find-sessions.ts).
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../lib/agents/index.js';
import { findSessionsById, lookupProblem, storeForId } from '../../lib/agents/find-sessions.js';

const ID = '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000007';
const lookup = (format: string) => AGENTS.find((agent) => agent.harness.format === format)!.sessions!;
const temp = () => mkdtempSync(join(tmpdir(), 'asyncai-log-lookup-'));

function file(path: string, text = '{}\n'): string {
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

describe('session lookups by agent', () => {
  test('Claude Code: <root>/projects/*/<uuid>.jsonl, one session in two projects is one match with both files', async () => {
    const root = temp();
    const a = file(join(root, 'projects', '-a', `${ID}.jsonl`));
    const b = file(join(root, 'projects', '-b', `${ID}.jsonl`));
    file(join(root, 'projects', '-a', ID, 'subagents', 'agent-x.jsonl'));
    expect(await lookup('claude-code-cli').find(root, '0B9A1C52')).toEqual([{ id: ID, files: [a, b] }]);
  });

  test('Codex: the uuid at the end of a rollout name under sessions/YYYY/MM/DD/', async () => {
    const root = temp();
    const path = file(join(root, 'sessions', '2026', '11', '29', `rollout-2026-11-29T10-00-00-${ID}.jsonl`));
    file(join(root, 'sessions', `rollout-2026-11-29T10-00-00-${ID}.jsonl`)); // not in a date folder
    expect(await lookup('codex-cli').find(root, ID.slice(0, 12))).toEqual([{ id: ID, files: [path] }]);
  });

  test('Gemini CLI: a chat whose name holds the first 8 characters has its whole id read from its first line', async () => {
    const root = temp();
    const path = file(join(root, 'tmp', 'proj', 'chats', `session-2026-11-29T10-00-${ID.slice(0, 8)}.jsonl`), `${JSON.stringify({ sessionId: ID, projectHash: 'x' })}\n`);
    file(join(root, 'tmp', 'proj', 'chats', 'session-2026-11-29T10-00-ffffffff.jsonl'), `${JSON.stringify({ sessionId: 'ffffffff-0000-4000-8000-000000000000' })}\n`);
    expect(await lookup('gemini-cli').find(root, ID)).toEqual([{ id: ID, files: [path] }]);
    expect(await lookup('gemini-cli').find(root, `${ID.slice(0, 9)}x`)).toEqual([]);
  });

  test('Qwen Code: <root>/projects/*/chats/<id>.jsonl', async () => {
    const root = temp();
    const path = file(join(root, 'projects', '-p', 'chats', `${ID}.jsonl`));
    file(join(root, 'projects', '-p', 'chats', 'archive', `${ID}.jsonl`));
    expect(await lookup('qwen-code').find(root, ID.slice(0, 8))).toEqual([{ id: ID, files: [path] }]);
  });

  test('pi: a project folder or the root itself; a file not named <time>_<uuid>.jsonl by its header', async () => {
    const root = temp();
    const named = file(join(root, 'sessions', '--p--', `2026-11-29T10-00-00-000Z_${ID}.jsonl`));
    const other = file(join(root, 'hand.jsonl'), `${JSON.stringify({ type: 'session', id: `${ID.slice(0, 35)}8` })}\n`);
    expect(await lookup('pi').find(root, ID.slice(0, 8))).toEqual([{ id: `${ID.slice(0, 35)}8`, files: [other] }, { id: ID, files: [named] }]);
  });

  test('Droid: <root>/sessions/<project>/<uuid>.jsonl, its settings file beside it no session', async () => {
    const root = temp();
    const path = file(join(root, 'sessions', '-home-user-p', `${ID}.jsonl`));
    file(join(root, 'sessions', '-home-user-p', `${ID}.settings.json`));
    file(join(root, `${ID}.jsonl`)); // not in a project folder
    expect(await lookup('droid').find(root, ID.slice(0, 8).toUpperCase())).toEqual([{ id: ID, files: [path] }]);
  });

  test('Copilot CLI: <root>/session-state/<uuid>/events.jsonl, a folder without its events file no session', async () => {
    const root = temp();
    const path = file(join(root, 'session-state', ID, 'events.jsonl'));
    const other = `${ID.slice(0, 35)}8`;
    file(join(root, 'session-state', other, 'workspace.yaml'));
    expect(await lookup('copilot-cli').find(root, ID.slice(0, 8))).toEqual([{ id: ID, files: [path] }]);
  });

  test('a root that does not exist holds no session', async () => {
    for (const agent of AGENTS) if (agent.sessions) expect(await agent.sessions.find(join(temp(), 'none'), ID)).toEqual([]);
  });
});

describe('findSessionsById', () => {
  test('a whole id is that session, whatever longer ids start with it', async () => {
    const root = temp();
    file(join(root, 'projects', '-p', `${ID}.jsonl`));
    const context = { sessionDirs: { 'claude-code-cli': root }, env: {}, homedir: temp(), processCwd: '/' };
    const pi = join(context.homedir, '.pi', 'agent', 'sessions', '--p--');
    file(join(pi, `x.jsonl`), `${JSON.stringify({ type: 'session', id: `${ID}-later` })}\n`);
    expect((await findSessionsById(ID.slice(0, 8), context)).matches.map((m) => m.format)).toEqual(['claude-code-cli', 'pi']);
    expect((await findSessionsById(ID, context)).matches.map((m) => [m.format, m.id])).toEqual([['claude-code-cli', ID]]);
  });

  test('no match and several matches are said in one line', () => {
    expect(lookupProblem([], 'under /a, /b')).toBe('no session of this id under /a, /b');
    expect(lookupProblem([{ id: 'x1', format: 'pi' }, { id: 'x2', format: 'codex-cli' }], '')).toBe('ambiguous: 2 sessions match: x1 (pi), x2 (codex-cli)');
    expect(lookupProblem([{ id: 'x1', format: 'pi' }], '')).toBeUndefined();
  });
});

describe('storeForId', () => {
  const SES = 'ses_0123456789abABCDEFGHIJKLMN';
  const context = (sessionDirs: Record<string, string> = {}) => {
    const home = temp();
    return { sessionDirs, env: { XDG_DATA_HOME: join(home, 'data') }, homedir: home, processCwd: '/' };
  };

  test('OpenCode and Kilo share the ses_ shape: the store whose database exists is looked in, else OpenCode\'s', () => {
    const none = context();
    expect(storeForId(SES, none)).toEqual({ agent: expect.objectContaining({ format: 'opencode' }), db: join(none.homedir, 'data', 'opencode', 'opencode.db') });
    const kilo = context();
    file(join(kilo.homedir, 'data', 'kilo', 'kilo.db'));
    expect(storeForId(SES.slice(0, 12), kilo)).toEqual({ agent: expect.objectContaining({ format: 'kilo' }), db: join(kilo.homedir, 'data', 'kilo', 'kilo.db') });
  });

  test('--session-dir <format>= names the store, whichever databases exist', () => {
    const both = context({ kilo: '/k' });
    file(join(both.homedir, 'data', 'opencode', 'opencode.db'));
    expect(storeForId(SES, both)).toEqual({ agent: expect.objectContaining({ format: 'kilo' }), db: '/k/kilo.db' });
  });

  test('a value of no store\'s shape names no store', () => {
    expect(storeForId(ID, context())).toBeUndefined();
  });
});
