// `asyncai-log sessions` on the sessions the real CLIs wrote (test/sessions/support.ts places each agent's captured
// session in its layout): every agent listed with its id, title, project, start, update, turns and size, newest
// first; each filter; NDJSON and the table; --grep's hits and misses in any case; an id, a prefix, an ambiguous
// prefix and none; a store that cannot be read, said once; the sessions index (a warm listing does not read an
// unchanged file again, a changed one is read again, a planted link is refused); completion of ids from that index.
import { existsSync, mkdirSync, readFileSync, statSync, symlinkSync, utimesSync, writeFileSync, appendFileSync, lstatSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { cleanEnv, runBin, tempDir } from '../support/run.js';
import { startOnTerminal } from '../support/pty.js';
import { placeSessions, titleOf, type Placed } from './support.js';

const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

/** What the listing must print of `p`. */
function expected(p: Placed): Record<string, unknown> {
  return {
    agent: p.format, id: p.id, title: titleOf(p), cwd: p.cwd, started: p.started, updated: p.updated,
    turns: p.events.filter((e) => e.type === 'user').length, bytes: statSync(p.file).size, files: [p.file],
  };
}

/** A clean environment whose cache is its own. */
function env(): Record<string, string> {
  const base = cleanEnv();
  return { ...base, XDG_CACHE_HOME: join(base.HOME!, 'cache') };
}

describe('sessions: every agent\'s sessions, as the real CLIs wrote them', () => {
  test('each listed with its id, title, project, times, turns and size, newest first, as NDJSON through a pipe', async () => {
    const { args, placed } = placeSessions();
    const r = await runBin(['sessions', ...args], { env: env() });
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(ndjson(r.stdout)).toEqual([...placed].reverse().map(expected));
    // Every agent of the tree is there, each with turns read from its conversation.
    expect(new Set(ndjson(r.stdout).map((s) => s.agent)).size).toBe(7);
    for (const s of ndjson(r.stdout)) expect(s.turns).toBeGreaterThan(0);
  });

  test('a second listing (warm) says the same', async () => {
    const { args } = placeSessions();
    const e = env();
    const cold = await runBin(['sessions', ...args], { env: e });
    const warm = await runBin(['sessions', ...args], { env: e });
    expect(warm).toMatchObject({ code: 0, stderr: '', stdout: cold.stdout });
    const noCache = await runBin(['sessions', '--no-cache', ...args], { env: env() });
    expect(noCache.stdout).toBe(cold.stdout);
  });

  test('--agent, --cwd, --here and --since keep only what they name', async () => {
    const { args, placed } = placeSessions();
    const e = env();
    const ids = async (extra: string[], cwd?: string) => {
      const r = await runBin(['sessions', ...args, ...extra], { env: e, ...(cwd !== undefined ? { cwd } : {}) });
      expect([r.code, r.stderr]).toEqual([0, '']);
      return ndjson(r.stdout).map((s) => s.id);
    };
    const of = (format: string) => placed.find((p) => p.format === format)!.id;
    expect(await ids(['--agent', 'droid', '--agent', 'pi'])).toEqual([of('droid'), of('pi')]);
    expect(await ids(['--cwd', '/home/user/elsewhere'])).toEqual([of('copilot-cli')]);
    expect(await ids(['--cwd', '/home/user'])).toHaveLength(7);
    expect(await ids(['--cwd', '/home/user/proj'])).toEqual([]);
    expect(await ids(['--since', placed[5]!.updated])).toEqual([of('copilot-cli'), of('droid')]);
    expect(await ids(['--since', '2026-12-06'])).toEqual([]);
    // --here: the current directory (a project of none of them here).
    expect(await ids(['--here'], tempDir())).toEqual([]);
  });

  test('--table (and a terminal) print a table: a header, one line per session, names escaped', async () => {
    const { args, placed } = placeSessions();
    const r = await runBin(['sessions', '--table', ...args], { env: { ...env(), TZ: 'UTC' } });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const rows = r.stdout.split('\n').filter((l) => l !== '');
    expect(rows[0]).toMatch(/^AGENT +ID +UPDATED +STARTED +TURNS +SIZE +PROJECT +TITLE$/);
    expect(rows).toHaveLength(8);
    expect(rows[1]).toMatch(new RegExp(`^copilot-cli +${placed[6]!.id} +2026-12-05 12:06 +2026-12-05 01:56 +\\d+ +\\S+ (B|KB) +/home/user/elsewhere +Notes and a`));
    const tty = startOnTerminal('all', ['sessions', ...args], { env: { ...env(), TZ: 'UTC' } });
    const done = await tty.exit;
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/AGENT +ID +UPDATED/);
    expect(done.out).toContain(placed[0]!.id);
  });
});

describe('sessions --grep', () => {
  test('finds a session by its conversation text in any case, says where, and no session for text only in metadata', async () => {
    const { args, placed } = placeSessions();
    const e = env();
    const droid = placed.find((p) => p.format === 'droid')!;
    const r = await runBin(['sessions', ...args, '--grep', 'PRINT NOTES.TXT'], { env: e });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const found = ndjson(r.stdout);
    expect(found.map((s) => s.id)).toContain(droid.id);
    const hit = found.find((s) => s.id === droid.id)!;
    expect(hit.matches).toBeGreaterThan(0);
    expect(hit.hits[0]).toMatchObject({ event: 'user', index: 1 });
    expect(hit.hits[0].snippet.toLowerCase()).toContain('print notes.txt');
    // A session id and a host id are in the files, not in any conversation.
    const meta = await runBin(['sessions', ...args, '--grep', droid.id], { env: e });
    expect([meta.code, meta.stdout]).toEqual([0, '']);
    const none = await runBin(['sessions', ...args, '--grep', 'no such words anywhere'], { env: e });
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
  });

  test('the table shows each hit under its session', async () => {
    const { args } = placeSessions();
    const r = await runBin(['sessions', ...args, '--table', '--agent', 'droid', '--grep', 'print notes'], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[2]).toMatch(/^ {4}user #1: Print notes\.txt/);
  });
});

describe('a store that cannot be read', () => {
  test('is said once, exit 1, with or without --grep; every other session is listed', async () => {
    const { args, placed } = placeSessions();
    const root = tempDir();
    const db = join(root, 'opencode.db');
    writeFileSync(db, 'not a database');
    const e = { ...env(), ASYNCAI_LOG_OPENCODE: '/bin/false' };
    const listed = await runBin(['sessions', ...args, '--session-dir', `opencode=${root}`], { env: e });
    expect([listed.code, listed.stderr]).toEqual([1, `asyncai-log: ${db}: opencode db exited with 1\n`]);
    expect(ndjson(listed.stdout).map((s) => s.id).sort()).toEqual(placed.map((p) => p.id).sort());
    const found = await runBin(['sessions', ...args, '--session-dir', `opencode=${root}`, '--grep', 'print notes'], { env: e });
    expect([found.code, found.stderr]).toEqual([1, `asyncai-log: ${db}: opencode db exited with 1\n`]);
    expect(ndjson(found.stdout).map((s) => s.id)).toContain(placed.find((p) => p.format === 'droid')!.id);
  });
});

describe('sessions <id>', () => {
  test('a whole id and a prefix of 8 name one session; none and an ambiguous prefix are said, exit 1', async () => {
    const { args, placed, roots } = placeSessions();
    const e = env();
    const pi = placed.find((p) => p.format === 'pi')!;
    for (const value of [pi.id, pi.id.slice(0, 8).toUpperCase()]) {
      const r = await runBin(['sessions', value, ...args], { env: e });
      expect([r.code, r.stderr]).toEqual([0, '']);
      expect(ndjson(r.stdout).map((s) => s.id)).toEqual([pi.id]);
    }
    const none = await runBin(['sessions', 'deadbeefdead', ...args], { env: e });
    expect([none.code, none.stdout, none.stderr]).toEqual([1, '', 'asyncai-log: deadbeefdead: no session of this id listed\n']);
    // A second pi session sharing the first 8 characters.
    const twin = `${pi.id.slice(0, 8)}-0000-7000-8000-000000000000`;
    const text = readFileSync(pi.file, 'utf8').replace(pi.id, twin);
    const twinFile = join(roots.pi!, 'sessions', '--home-user-project--', `2026-12-04T20-56-50-000Z_${twin}.jsonl`);
    writeFileSync(twinFile, text);
    // Updated a day before the placed one (whatever the clock says now).
    const older = new Date(Date.parse(pi.updated) - 86_400_000);
    utimesSync(twinFile, older, older);
    const both = await runBin(['sessions', pi.id.slice(0, 8), ...args], { env: e });
    expect([both.code, both.stdout]).toEqual([1, '']);
    // Named newest first, as listed.
    expect(both.stderr).toBe(`asyncai-log: ${pi.id.slice(0, 8)}: ambiguous: 2 sessions match: ${pi.id} (pi), ${twin} (pi)\n`);
  });
});

describe('the sessions index', () => {
  test('kept 0600 in a 0700 directory; an unchanged session is not read again, a changed one is', async () => {
    const { args, placed } = placeSessions();
    const e = env();
    const first = await runBin(['sessions', ...args], { env: e });
    expect(first.code).toBe(0);
    const file = join(e.XDG_CACHE_HOME!, 'asyncai-log', 'sessions-index.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(e.XDG_CACHE_HOME!, 'asyncai-log')).mode & 0o777).toBe(0o700);
    // A listing of one id, one agent, a recent time or a text keeps the other sessions' entries.
    const entries = () => Object.keys(JSON.parse(readFileSync(file, 'utf8')).entries).length;
    expect(entries()).toBe(7);
    for (const only of [[placed[0]!.id], ['--agent', 'pi'], ['--since', '1m'], ['--grep', 'print notes']]) {
      expect((await runBin(['sessions', ...only, ...args], { env: e })).code).toBe(0);
      expect(entries()).toBe(7);
    }
    const qwen = placed.find((p) => p.format === 'qwen-code')!;
    // Its first words changed in place, its size and time kept: a warm listing that read it again would say so.
    const mtime = statSync(qwen.file).mtime;
    const text = readFileSync(qwen.file, 'utf8');
    expect(titleOf(qwen)).toMatch(/^Read notes\.txt/);
    writeFileSync(qwen.file, text.replace('Read notes.txt', 'Zead notes.txt'));
    utimesSync(qwen.file, mtime, mtime);
    const warm = await runBin(['sessions', '--agent', 'qwen-code', ...args], { env: e });
    expect(ndjson(warm.stdout)[0]).toMatchObject({ id: qwen.id, title: titleOf(qwen), turns: expected(qwen).turns });
    // --no-cache reads it.
    const bypass = await runBin(['sessions', '--no-cache', '--agent', 'qwen-code', ...args], { env: e });
    expect(ndjson(bypass.stdout)[0].title).toMatch(/^Zead notes\.txt/);
    // Changed (a turn appended to the chain): read again.
    const last = readFileSync(qwen.file, 'utf8').trimEnd().split('\n').at(-1)!;
    appendFileSync(qwen.file, `${JSON.stringify({
      uuid: 'added-1', parentUuid: JSON.parse(last).uuid, sessionId: qwen.id, timestamp: '2026-12-05T13:00:00.000Z', type: 'user', cwd: '/home/user/project',
      message: { role: 'user', parts: [{ text: 'one more turn' }] },
    })}\n`);
    utimesSync(qwen.file, mtime, mtime);
    const changed = await runBin(['sessions', '--agent', 'qwen-code', ...args], { env: e });
    expect(ndjson(changed.stdout)[0]).toMatchObject({ turns: (expected(qwen).turns as number) + 1 });
    expect(ndjson(changed.stdout)[0].title).toMatch(/^Zead notes\.txt/);
  });

  test('a cold --grep describes only the sessions whose bytes hold the text: none for a text in no file', async () => {
    const { args, placed } = placeSessions();
    const e = env();
    const file = join(e.XDG_CACHE_HOME!, 'asyncai-log', 'sessions-index.json');
    const none = await runBin(['sessions', ...args, '--grep', 'no such words anywhere'], { env: e });
    expect([none.code, none.stdout, none.stderr]).toEqual([0, '', '']);
    expect(existsSync(file)).toBe(false);
    const droid = placed.find((p) => p.format === 'droid')!;
    const found = await runBin(['sessions', ...args, '--grep', 'PRINT NOTES.TXT'], { env: e });
    expect(ndjson(found.stdout)).toContainEqual(expect.objectContaining(expected(droid)));
    const described = Object.values(JSON.parse(readFileSync(file, 'utf8')).entries).map((entry: any) => entry.id);
    expect(described).toContain(droid.id);
    const holding = placed.filter((p) => readFileSync(p.file, 'utf8').toLowerCase().includes('print notes.txt'));
    expect(described.sort()).toEqual(holding.map((p) => p.id).sort());
    expect(holding.length).toBeLessThan(placed.length);
  });

  test('a cache file that is a symbolic link is neither read nor written through (said once), the listing stands', async () => {
    const { args } = placeSessions();
    const e = env();
    const dir = join(e.XDG_CACHE_HOME!, 'asyncai-log');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const target = join(tempDir(), 'elsewhere.json');
    writeFileSync(target, 'not ours\n');
    symlinkSync(target, join(dir, 'sessions-index.json'));
    const r = await runBin(['sessions', ...args], { env: e });
    expect(r.code).toBe(0);
    expect(ndjson(r.stdout)).toHaveLength(7);
    expect(r.stderr).toBe(`asyncai-log: ${join(dir, 'sessions-index.json')}: a symbolic link, not used as the sessions cache\n`);
    expect(readFileSync(target, 'utf8')).toBe('not ours\n');
    expect(lstatSync(join(dir, 'sessions-index.json')).isSymbolicLink()).toBe(true);
  });

  test('completion of read, convert and sessions operands: the ids of the last listing, from the index alone', async () => {
    const { args, placed, roots } = placeSessions();
    const e = env();
    const complete = (words: string[]) => runBin(['--get-yargs-completions', 'asyncai-log', ...words], { env: e });
    expect((await complete(['read', placed[0]!.id.slice(0, 4)])).stdout).not.toContain(placed[0]!.id);
    await runBin(['sessions', ...args], { env: e });
    const pi = placed.find((p) => p.format === 'pi')!;
    for (const command of ['read', 'convert', 'sessions']) {
      const r = await complete([command, pi.id.slice(0, 6)]);
      expect(r.stdout.split('\n').filter((l) => l !== '')).toEqual([pi.id]);
    }
    // The index, not the disk: a session placed since is offered after the next listing only.
    const twin = `${pi.id.slice(0, 8)}-0000-7000-8000-000000000000`;
    writeFileSync(join(roots.pi!, 'sessions', '--home-user-project--', `x_${twin}.jsonl`), readFileSync(pi.file, 'utf8').replace(pi.id, twin));
    expect((await complete(['read', pi.id.slice(0, 8)])).stdout.split('\n').filter((l) => l !== '')).toEqual([pi.id]);
    await runBin(['sessions', ...args], { env: e });
    expect((await complete(['read', pi.id.slice(0, 8)])).stdout.split('\n').filter((l) => l !== '')).toEqual([pi.id, twin].sort());
  });
});

describe('hostile names in the tree', () => {
  test('a project directory with control characters is escaped in the table; a link to a session outside is not followed', async () => {
    const root = tempDir();
    const dir = join(root, 'projects', '-evil');
    mkdirSync(dir, { recursive: true });
    const id = '0b9a1c52-0000-4000-8000-00000000abcd';
    const record = { type: 'user', uuid: 'u1', parentUuid: null, sessionId: id, timestamp: '2026-12-01T10:00:00.000Z', cwd: '/tmp/\u001b[31mred\nline',
      message: { role: 'user', content: 'title with \u001b]0;pwned\u0007 escape' } };
    writeFileSync(join(dir, `${id}.jsonl`), `${JSON.stringify(record)}\n`);
    const outside = tempDir();
    writeFileSync(join(outside, 'secret.jsonl'), `${JSON.stringify({ ...record, sessionId: '0b9a1c52-0000-4000-8000-00000000beef' })}\n`);
    symlinkSync(join(outside, 'secret.jsonl'), join(dir, '0b9a1c52-0000-4000-8000-00000000beef.jsonl'));
    const r = await runBin(['sessions', '--table', '--session-dir', `claude-code-cli=${root}`], { env: env() });
    expect(r.code).toBe(0);
    expect(r.stdout).not.toMatch(/[\u0000-\u0009\u000b-\u001f]/);
    expect(r.stdout).toContain('\\x1b[31mred\\nline');
    expect(r.stdout).not.toContain('beef');
  });
});
