// A machine's worth of sessions for `asyncai-log sessions`: the sessions the real CLIs wrote (the captured
// fixtures/<agent>/ files), each placed in its agent's layout under a root of its own, named to the bin with
// `--session-dir <format>=<root>`, with modification times a minute apart (the newest last in the list here).
import { mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FIXTURES, tempDir } from '../support/run.js';

/** One placed session and what the listing must say of it. */
export interface Placed {
  format: string;
  id: string;
  file: string;
  /** The agent's own title, or undefined (the first user text stands). */
  title?: string;
  cwd: string;
  started: string;
  /** The events `read` gives of it (the fixture's golden file): turns and first user text come from these. */
  events: { type: string; text?: string }[];
  updated: string;
}

const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
const golden = (path: string) => JSON.parse(readFileSync(path, 'utf8')).events as Placed['events'];

/** The first user text as the listing cuts it: one line, 80 characters at most. */
export function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= 80 ? line : `${line.slice(0, 79).trimEnd()}…`;
}

/** What the listing's title of `p` must be. */
export function titleOf(p: Placed): string {
  return p.title ?? cut(p.events.find((e) => e.type === 'user' && (e.text ?? '').trim() !== '')?.text ?? '');
}

/** Place every agent's captured session; the roots (`--session-dir` arguments) and the sessions, oldest first. */
export function placeSessions(): { args: string[]; roots: Record<string, string>; placed: Placed[] } {
  const roots: Record<string, string> = {};
  const placed: Placed[] = [];
  const put = (format: string, rel: string[], source: string, facts: Omit<Placed, 'format' | 'file' | 'updated' | 'events'>, events: Placed['events']) => {
    roots[format] ??= tempDir(`asyncai-log-${format}-`);
    const dir = join(roots[format], ...rel.slice(0, -1));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, rel.at(-1)!);
    writeFileSync(file, readFileSync(source));
    placed.push({ format, file, events, updated: '', ...facts });
  };
  const claude = join(FIXTURES, 'claude-code-cli', 'compaction');
  const claudeId = '0b9a1c52-6f0e-4d1a-9a55-3c1f2a000006';
  put('claude-code-cli', ['projects', '-home-user-project', `${claudeId}.jsonl`], join(claude, `${claudeId}.jsonl`),
    { id: claudeId, cwd: '/home/user/project', started: '2026-11-29T22:17:40.374Z' }, lines(join(claude, 'expected.ndjson')));
  const codex = join(FIXTURES, 'codex-rollout', 'actions.jsonl');
  const codexId = lines(codex)[0].payload.id as string;
  put('codex-cli', ['sessions', '2026', '11', '29', `rollout-2026-11-29T22-10-35-${codexId}.jsonl`], codex,
    { id: codexId, cwd: '/home/user/project', started: '2026-11-29T22:10:35.086Z' }, golden(join(FIXTURES, 'codex-rollout', 'actions.events.json')));
  const gemini = join(FIXTURES, 'gemini-cli', 'session.jsonl');
  const geminiId = lines(gemini)[0].sessionId as string;
  put('gemini-cli', ['tmp', 'project', 'chats', `session-2026-12-01T11-26-${geminiId.slice(0, 8)}.jsonl`], gemini,
    { id: geminiId, cwd: '/home/user/project', started: '2026-12-01T11:26:29.110Z' }, golden(join(FIXTURES, 'gemini-cli', 'session.events.json')));
  writeFileSync(join(roots['gemini-cli']!, 'tmp', 'project', '.project_root'), '/home/user/project');
  const qwen = join(FIXTURES, 'qwen-code', 'session.jsonl');
  const qwenId = lines(qwen)[0].sessionId as string;
  put('qwen-code', ['projects', '-home-user-project', 'chats', `${qwenId}.jsonl`], qwen,
    { id: qwenId, cwd: '/home/user/project', started: '2026-12-04T21:18:56.693Z' }, golden(join(FIXTURES, 'qwen-code', 'session.events.json')));
  const pi = join(FIXTURES, 'pi', 'session.jsonl');
  const piId = lines(pi)[0].id as string;
  put('pi', ['sessions', '--home-user-project--', `2026-12-04T20-56-49-506Z_${piId}.jsonl`], pi,
    { id: piId, cwd: '/home/user/project', started: '2026-12-04T20:56:49.506Z' }, golden(join(FIXTURES, 'pi', 'session.events.json')));
  const droid = join(FIXTURES, 'droid', 'session.jsonl');
  const droidHead = lines(droid)[0];
  put('droid', ['sessions', '-home-user-project', `${droidHead.id}.jsonl`], droid,
    { id: droidHead.id, title: droidHead.title, cwd: '/home/user/project', started: '2026-12-05T01:36:38.326Z' }, golden(join(FIXTURES, 'droid', 'session.events.json')));
  const copilot = join(FIXTURES, 'copilot-cli', 'session.jsonl');
  const copilotId = lines(copilot)[0].data.sessionId as string;
  put('copilot-cli', ['session-state', copilotId, 'events.jsonl'], copilot,
    { id: copilotId, title: 'Notes and a missing file', cwd: '/home/user/elsewhere', started: '2026-12-05T01:56:30.000Z' },
    golden(join(FIXTURES, 'copilot-cli', 'session.events.json')));
  // The CLI's workspace.yaml beside it (hand-written in its shape: the summary is the title, its cwd and created_at win).
  writeFileSync(join(roots['copilot-cli']!, 'session-state', copilotId, 'workspace.yaml'),
    `id: ${copilotId}\ncwd: /home/user/elsewhere\nname: first words\nsummary: Notes and a missing file\ncreated_at: 2026-12-05T01:56:30.000Z\n`);
  const base = Date.parse('2026-12-05T12:00:00.000Z');
  placed.forEach((p, i) => {
    const time = new Date(base + i * 60_000);
    utimesSync(p.file, time, time);
    p.updated = time.toISOString();
  });
  return { args: Object.entries(roots).flatMap(([format, root]) => ['--session-dir', `${format}=${root}`]), roots, placed };
}
