// The Copilot CLI harness opened directly (no process): its default root, the session's folder and files, the
// session.start written at once, the resume hint, a session with no event removed with its folder, and a
// foreign append (a resuming copilot) followed, our next events chained onto its last.
import { appendFileSync, existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { copilotCli, lastEventId } from '../../../lib/agents/copilot-cli/harness.js';

const T = '2026-11-29T10:00:00.000Z';
const temp = () => mkdtempSync(join(tmpdir(), 'asyncai-log-copilot-harness-'));
const lines = (file: string) => readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));

describe('the copilot-cli harness', () => {
  test('the default root: $COPILOT_HOME (~ expanded), else ~/.copilot', () => {
    expect(copilotCli.defaultRoot({}, '/home/u')).toBe('/home/u/.copilot');
    expect(copilotCli.defaultRoot({ COPILOT_HOME: '~/cp' }, '/home/u')).toBe('/home/u/cp');
    expect(copilotCli.defaultRoot({ COPILOT_HOME: '/x/y' }, '/home/u')).toBe('/x/y');
  });

  test('a session is <root>/session-state/<uuid>/events.jsonl, session.start written at once, with workspace.yaml beside it', () => {
    const root = temp();
    const h = copilotCli.create({ root, cwd: '/home/user/my proj', startedAt: T, warn: () => {} });
    expect(h.sessionFile).toBe(join(root, 'session-state', h.sessionId, 'events.jsonl'));
    expect(h.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    const [start] = lines(h.sessionFile);
    expect(start).toMatchObject({ type: 'session.start', data: { sessionId: h.sessionId, startTime: T, context: { cwd: '/home/user/my proj' } }, timestamp: T, parentId: null });
    const workspace = join(dirname(h.sessionFile), 'workspace.yaml');
    // Created when the session started (the stream's first event), last updated now.
    const yaml = readFileSync(workspace, 'utf8');
    expect(yaml).toMatch(new RegExp(`^id: ${h.sessionId}\ncwd: "/home/user/my proj"\nuser_named: false\nsummary_count: 0\nfork_count: 0\ncreated_at: ${T}\nupdated_at: (\\S+)\n$`));
    expect(Date.parse(/updated_at: (\S+)/.exec(yaml)![1]!)).toBeGreaterThan(Date.parse(T));
    expect((statSync(workspace).mode & 0o777).toString(8)).toBe('600');
    expect((statSync(dirname(h.sessionFile)).mode & 0o777).toString(8)).toBe('700');
    expect(h.resumeCommand).toBe(`copilot --resume=${h.sessionId}`);
    h.abandon();
  });

  test('a session that got no event is removed with its folder', () => {
    const root = temp();
    const h = copilotCli.create({ root, cwd: '/p', warn: () => {} });
    expect(h.finishOrDiscard!()).toBe(true);
    expect(existsSync(dirname(h.sessionFile))).toBe(false);
  });

  test('after another process appended, our events follow its lines, chained onto its last event', () => {
    const root = temp();
    const warnings: string[] = [];
    const h = copilotCli.create({ root, cwd: '/p', warn: (m) => warnings.push(m) });
    h.add({ type: 'user', text: 'one', timestamp: T }, 'stdin:1');
    h.flush();
    const foreign = '11111111-1111-4111-8111-111111111111';
    appendFileSync(h.sessionFile, `${JSON.stringify({ type: 'session.info', data: { infoType: 'notice', message: 'x' }, id: foreign, timestamp: T, parentId: null })}\n`);
    h.add({ type: 'user', text: 'two', timestamp: T }, 'stdin:2');
    h.finish();
    const events = lines(h.sessionFile);
    expect(events.map((e) => e.type)).toEqual(['session.start', 'user.message', 'session.info', 'user.message']);
    expect(events[3].parentId).toBe(foreign);
    expect(warnings).toEqual([expect.stringContaining('session.foreign_append')]);
  });

  test('lastEventId: the last whole line holding a UUID id and a parentId', () => {
    const id = '22222222-2222-4222-8222-222222222222';
    expect(lastEventId(`${JSON.stringify({ id, parentId: null })}\n{"id":"not-a-uuid","parentId":null}\n{"id":"3`)).toBe(id);
    expect(lastEventId('no json\n')).toBeUndefined();
  });
});
