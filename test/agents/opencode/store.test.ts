// OpenCode's own store as input: a store made by script in an isolated home (the session the real OpenCode made,
// fixtures/opencode/session.json, loaded with the real `opencode import`, and two sessions the bin wrote with
// `--session-format opencode`), then `read` of its directory, of its database and of a session id, and `convert`
// of it into Claude Code: every session, each with the events `opencode export <id>` read gives, each its own
// target session, a second run converting none again, the database files untouched by it all; and a session
// that gained turns appended to the session converted from it.
import { beforeAll, describe, expect, test } from 'vitest';
import { createHash } from 'node:crypto';
import { appendFileSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { opencodeBinary, opencodeHome, runOpencode, type OpencodeHome } from '../../support/opencode.js';
import { recordingProgram } from '../../support/store-cli.js';
import { openStore } from '../../../lib/opencode-store/store.js';
import { OPENCODE } from '../../../lib/agents/opencode/flavour.js';
import { FIXTURES, runBin, tempDir } from '../../support/run.js';
import { binEnv, ev, projectDir, writeOpencodeSession } from './support.js';

const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

let home: OpencodeHome;
let db: string;
/** The sessions, as `opencode export` read gives them, by id. */
const exported = new Map<string, unknown[]>();

/** SHA-256 of the database and its WAL (and whether each is there). */
function fingerprint(): string {
  return ['', '-wal'].map((suffix) => {
    const file = `${db}${suffix}`;
    return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : '-';
  }).join(' ');
}

beforeAll(async () => {
  home = opencodeHome('http://127.0.0.1:9');
  db = join(home.dataDir, 'opencode.db');
  const dir = projectDir(home, 'app', false);
  const imported = await runOpencode(home, dir, ['import', join(FIXTURES, 'opencode', 'session.json')]);
  expect(imported.code, imported.stderr).toBe(0);
  const first = await writeOpencodeSession(home, dir, ev({ type: 'user', text: 'list the files' })
    + ev({ type: 'tool_call', id: 'c1', name: 'bash', arguments: { command: 'ls' } })
    + ev({ type: 'tool_result', id: 'c1', content: 'a.txt\n' }) + ev({ type: 'assistant', text: 'one file: a.txt' }));
  expect(first.result.code, first.result.stderr).toBe(0);
  const second = await writeOpencodeSession(home, dir, ev({ type: 'user', text: 'second session' }) + ev({ type: 'assistant', text: 'ok' }));
  expect(second.result.code, second.result.stderr).toBe(0);
  const list = await runOpencode(home, dir, ['db', '--format', 'json', 'SELECT id FROM session ORDER BY time_created, id']);
  for (const { id } of JSON.parse(list.stdout) as { id: string }[]) {
    const out = await runOpencode(home, dir, ['export', id]);
    expect(out.code, out.stderr).toBe(0);
    const read = await runBin(['read', '-'], { input: out.stdout });
    expect(read.code, read.stderr).toBe(0);
    exported.set(id, ndjson(read.stdout));
  }
}, 600_000);

// The tests that only read the store run side by side (each waits on OpenCode's start most of the time: a
// generous timeout each); the one that adds to it after them.
describe.concurrent("OpenCode's store as input", () => {
  test('the store holds the three sessions, each with events', ({ expect }) => {
    expect(exported.size).toBe(3);
    for (const events of exported.values()) expect(events.length).toBeGreaterThan(1);
  });

  test('read of the store directory prints every session, each as opencode export read gives it, and leaves the database as it was', async ({ expect }) => {
    const before = fingerprint();
    const read = await runBin(['read', home.dataDir], { env: binEnv(home) });
    expect(read.code, read.stderr).toBe(0);
    expect(read.stderr).toBe('');
    expect(ndjson(read.stdout)).toEqual([...exported.values()].flat());
    expect(fingerprint()).toBe(before);
  }, 600_000);

  test('read of the database file prints the same', async ({ expect }) => {
    const read = await runBin(['read', db], { env: binEnv(home) });
    expect(read.code, read.stderr).toBe(0);
    expect(ndjson(read.stdout)).toEqual([...exported.values()].flat());
  }, 600_000);

  test('read <ses_id> finds the session in the default store ($XDG_DATA_HOME/opencode) and under --session-dir opencode=', async ({ expect }) => {
    const [id, events] = [...exported.entries()][1]!;
    const byDefault = await runBin(['read', id], { env: binEnv(home) });
    expect(byDefault.code, byDefault.stderr).toBe(0);
    expect(ndjson(byDefault.stdout)).toEqual(events);
    const env = { ...binEnv(home), XDG_DATA_HOME: tempDir() };
    const named = await runBin(['read', '--session-dir', `opencode=${home.dataDir}`, id], { env });
    expect(named.code, named.stderr).toBe(0);
    expect(ndjson(named.stdout)).toEqual(events);
  }, 600_000);

  test('read <ses_ prefix> finds the one session it names, a prefix several share is ambiguous, and convert <prefix> converts that session', async ({ expect }) => {
    const ids = [...exported.keys()];
    const [id, events] = [...exported.entries()][1]!;
    // The shortest prefix of 8 or more characters no other session of the store shares.
    let length = 8;
    while (ids.filter((other) => other.startsWith(id.slice(0, length))).length > 1) length += 1;
    const read = await runBin(['read', id.slice(0, length)], { env: binEnv(home) });
    expect(read.code, read.stderr).toBe(0);
    expect(ndjson(read.stdout)).toEqual(events);
    const shared = ids[0]!.slice(0, 8);
    const sharing = ids.filter((other) => other.startsWith(shared));
    if (sharing.length > 1) {
      const ambiguous = await runBin(['read', shared], { env: binEnv(home) });
      expect(ambiguous.code).toBe(1);
      expect(ambiguous.stderr).toMatch(new RegExp(`^asyncai-log: ${shared}: ambiguous: ${sharing.length} sessions match: `));
    }
    const out = tempDir();
    const converted = await runBin(['convert', id.slice(0, length), '--session-dir', `claude-code-cli=${out}`], { env: binEnv(home) });
    expect(converted.code, converted.stderr).toBe(0);
    expect(JSON.parse(converted.stdout.split('\n')[0]!)).toMatchObject({ source: `${db}#${id}`, status: 'converted' });
    expect(converted.stderr).toMatch(/^asyncai-log: resume with: claude --resume \S+/);
  }, 600_000);

  test('read of an id the store does not hold says so in one line, exit 1', async ({ expect }) => {
    const read = await runBin(['read', 'ses_000000000000AAAAAAAAAAAAAA'], { env: binEnv(home) });
    expect(read.code).toBe(1);
    expect(read.stderr).toBe(`asyncai-log: ses_000000000000AAAAAAAAAAAAAA: no session of this id in ${db}\n`);
  }, 600_000);

  test('convert of the store gives each session its own Claude Code session with its events, and a second run converts none again', async ({ expect }) => {
    const before = fingerprint();
    const out = tempDir();
    const args = ['convert', home.dataDir, '--session-dir', `claude-code-cli=${out}`, '--jobs', '1'];
    const first = await runBin(args, { env: binEnv(home) });
    expect(first.code, first.stderr).toBe(0);
    const lines = ndjson(first.stdout);
    expect(lines.map((l) => [l.source, l.status, l.reason])).toEqual([...exported.keys()].map((id) => [`${home.dataDir}/opencode.db#${id}`, 'converted', 'new']));
    const sessions = lines.map((l) => l.harnesses[0].session_id);
    expect(new Set(sessions).size).toBe(3);
    // Each Claude Code session read back holds its OpenCode session's user turns and replies.
    for (const [i, [, events]] of [...exported.entries()].entries()) {
      const back = await runBin(['read', lines[i].harnesses[0].session_file]);
      const texts = (list: any[]) => list.filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);
      expect(texts(ndjson(back.stdout))).toEqual(texts(events as any[]));
    }
    const again = await runBin(args, { env: binEnv(home) });
    expect(again.code, again.stderr).toBe(0);
    expect(ndjson(again.stdout).map((l) => [l.status, l.reason])).toEqual(sessions.map(() => ['skipped', 'unchanged']));
    expect(readdirSync(join(out, 'projects')).flatMap((d) => readdirSync(join(out, 'projects', d))).filter((f) => f.endsWith('.jsonl'))).toHaveLength(3);
    expect(fingerprint()).toBe(before);
  }, 600_000);

  test('a store with more data than is read with its list gets a query per batch of sessions: the same lines, one start more', async ({ expect }) => {
    const recording = recordingProgram(opencodeBinary());
    const env = { ...home.env, ASYNCAI_LOG_OPENCODE: recording.program };
    const linesOf = async (smallBytes?: number) => {
      const opened = await openStore(OPENCODE, db, { env, tmpdir: tempDir(), ...(smallBytes !== undefined ? { smallBytes } : {}) });
      try {
        const read: [string, string[]][] = [];
        for await (const { session, lines } of opened.read(opened.sessions)) read.push([session.id, lines]);
        return { sessions: opened.sessions, read };
      } finally {
        await opened.close();
      }
    };
    const small = await linesOf();
    expect(recording.starts()).toBe(1);
    const big = await linesOf(0);
    expect(recording.starts()).toBe(3);
    expect(big).toEqual(small);
    expect(small.read.map(([id]) => id)).toEqual([...exported.keys()]);
    for (const [, lines] of small.read) expect(lines.length).toBeGreaterThan(1);
  });

  test('the filter given the database says what it is in one line, exit 1', async ({ expect }) => {
    const piped = await runBin([], { input: readFileSync(db), env: binEnv(home) });
    expect(piped.code).toBe(1);
    expect(piped.stderr).toBe("asyncai-log: stdin: not a supported input: it looks like a SQLite database (OpenCode's store: asyncai-log convert <its directory>; Kilo's store: asyncai-log convert <its directory>)\n");
  }, 600_000);
});

describe("OpenCode's store as input, added to", () => {
  // Last: it adds to the store.
  test('a session OpenCode went on with is appended to the session converted from it (grew)', async () => {
    const dir = projectDir(home, 'grown', false);
    const log = join(dir, 'log.jsonl');
    writeFileSync(log, ev({ type: 'user', text: 'first turn' }) + ev({ type: 'assistant', text: 'first reply' }));
    const toOpencode = ['convert', log, '--session-format', 'opencode', '--jobs', '1'];
    const written = await runBin(toOpencode, { env: binEnv(home), cwd: dir });
    expect(written.code, written.stderr).toBe(0);
    const id = ndjson(written.stdout)[0].harnesses[0].session_id as string;
    const out = tempDir();
    const args = ['convert', home.dataDir, '--session-dir', `claude-code-cli=${out}`, '--jobs', '1'];
    const first = ndjson((await runBin(args, { env: binEnv(home) })).stdout).find((l) => l.source.endsWith(`#${id}`));
    expect([first.status, first.reason]).toEqual(['converted', 'new']);
    appendFileSync(log, ev({ type: 'user', text: 'second turn' }) + ev({ type: 'assistant', text: 'second reply' }));
    const grown = await runBin(toOpencode, { env: binEnv(home), cwd: dir });
    expect(ndjson(grown.stdout)[0].reason, grown.stderr).toBe('grew');
    const again = ndjson((await runBin(args, { env: binEnv(home) })).stdout).find((l) => l.source.endsWith(`#${id}`));
    expect([again.status, again.reason, again.harnesses[0].session_id]).toEqual(['converted', 'grew', first.harnesses[0].session_id]);
    const back = ndjson((await runBin(['read', again.harnesses[0].session_file])).stdout);
    expect(back.filter((e) => e.type === 'user').map((e) => e.text)).toEqual(['first turn', 'second turn']);
  }, 180_000);
});
