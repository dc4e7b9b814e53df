// The pi harness opened directly (no process): its default root from pi's two variables, where the file goes in
// the default and the custom-session-dir layouts, the header written at once, the resume hint naming the file, a
// session with no entry removed, a foreign append chained onto.
import { appendFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { pi } from '../../../lib/agents/pi/harness.js';

const T = '2026-11-29T10:00:00.000Z';
const temp = () => mkdtempSync(join(tmpdir(), 'asyncai-log-pi-harness-'));
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('the pi harness', () => {
  test('the default root: $PI_CODING_AGENT_SESSION_DIR, else $PI_CODING_AGENT_DIR (~ expanded), else ~/.pi/agent', () => {
    expect(pi.defaultRoot({}, '/home/u')).toBe('/home/u/.pi/agent');
    expect(pi.defaultRoot({ PI_CODING_AGENT_DIR: '~/pi' }, '/home/u')).toBe('/home/u/pi');
    expect(pi.defaultRoot({ PI_CODING_AGENT_DIR: '/a', PI_CODING_AGENT_SESSION_DIR: '~/s' }, '/home/u')).toBe('/home/u/s');
  });

  test('a session goes to <root>/sessions/--<cwd>--/<ISO time>_<uuid>.jsonl, its header written at once', () => {
    const root = temp();
    const h = pi.create({ root, cwd: '/home/user/my proj', startedAt: T, warn: () => {} });
    expect(dirname(h.sessionFile)).toBe(join(root, 'sessions', '--home-user-my proj--'));
    expect(basename(h.sessionFile)).toBe(`2026-11-29T10-00-00-000Z_${h.sessionId}.jsonl`);
    expect(lines(h.sessionFile)).toEqual([{ type: 'session', version: 3, id: h.sessionId, timestamp: T, cwd: '/home/user/my proj' }]);
    h.abandon();
  });

  test('the resume hint names the file, quoted for the shell', () => {
    const root = join(temp(), "it's here");
    const h = pi.create({ root, cwd: '/p', warn: () => {} });
    expect(h.resumeCommand).toBe(`pi --session '${h.sessionFile.replace(/'/g, "'\\''")}'`);
    h.abandon();
  });

  test('with $PI_CODING_AGENT_SESSION_DIR as the root, the file goes in it directly', () => {
    const root = temp();
    const h = pi.create({ root, cwd: '/p', env: { PI_CODING_AGENT_SESSION_DIR: root }, homedir: '/nonexistent', warn: () => {} });
    expect(dirname(h.sessionFile)).toBe(root);
    h.abandon();
  });

  test('a session that got no entry is removed by finishOrDiscard; one that did is kept, the held message written', () => {
    const root = temp();
    const empty = pi.create({ root, cwd: '/p', warn: () => {} });
    expect(empty.finishOrDiscard!()).toBe(true);
    expect(existsSync(empty.sessionFile)).toBe(false);
    const kept = pi.create({ root, cwd: '/p', warn: () => {} });
    kept.add({ type: 'assistant', text: 'held', timestamp: T }, 'stdin:1');
    kept.flush();
    expect(lines(kept.sessionFile)).toHaveLength(1);
    expect(kept.finishOrDiscard!()).toBe(false);
    expect(lines(kept.sessionFile).map((e) => e.message?.role)).toEqual([undefined, 'assistant']);
  });

  test('entries after a foreign append chain onto its last entry, with one warning', () => {
    const warnings: string[] = [];
    const h = pi.create({ root: temp(), cwd: '/p', warn: (m) => warnings.push(m) });
    h.add({ type: 'user', text: 'one', timestamp: T }, 'stdin:1');
    h.flush();
    appendFileSync(h.sessionFile, `${JSON.stringify({ type: 'session_info', id: 'f0f0f0f0', parentId: lines(h.sessionFile)[1].id, timestamp: T, name: 'x' })}\n`);
    h.add({ type: 'user', text: 'two', timestamp: T }, 'stdin:2');
    h.finish();
    expect(lines(h.sessionFile).at(-1)).toMatchObject({ parentId: 'f0f0f0f0', message: { role: 'user' } });
    expect(warnings).toHaveLength(1);
  });

  test('a foreign append between mapping a batch and writing it: the batch still chains onto its last entry', () => {
    const h = pi.create({ root: temp(), cwd: '/p', warn: () => {} });
    h.add({ type: 'user', text: 'one', timestamp: T }, 'stdin:1');
    h.flush();
    const ours = lines(h.sessionFile)[1].id;
    h.add({ type: 'user', text: 'two', timestamp: T }, 'stdin:2');
    h.add({ type: 'user', text: 'three', timestamp: T }, 'stdin:3');
    appendFileSync(h.sessionFile, `${JSON.stringify({ type: 'session_info', id: 'f0f0f0f0', parentId: ours, timestamp: T, name: 'x' })}\n`);
    h.finish();
    const all = lines(h.sessionFile);
    expect(all.map((e) => e.message?.content?.[0]?.text ?? e.type)).toEqual(['session', 'one', 'session_info', 'two', 'three']);
    expect(all[3].parentId).toBe('f0f0f0f0');
    expect(all[4].parentId).toBe(all[3].id);
  });
});
