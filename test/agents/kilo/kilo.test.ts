// The tests that prove the Kilo writer and reader with the real `kilo` (7.7.7), in one isolated home against one
// loopback chat-completions mock (each start takes seconds, so they are shared): sessions the built bin wrote
// (loaded through `kilo import`) in a plain directory and in a git project, continued by `kilo run --session`,
// which sends every element, in order; `kilo session list` shows them under the project id we gave; then Kilo's
// store (those sessions and the captured one, imported with `kilo import`) read and converted.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { continueWithKilo, kiloHome, runKilo, type KiloHome } from '../../support/kilo.js';
import { FIXTURES, runBin, sessionOf, tempDir, type RunResult } from '../../support/run.js';
import { binEnv, conversation, projectDir, writeKiloSession } from './support.js';
import { EXPECTED, STREAM } from '../../support/store-conversation.js';

const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

interface Written {
  dir: string;
  result: RunResult;
  id: string;
  listed: RunResult;
}

let mock: MockChat;
let home: KiloHome;
const written = new Map<'plain' | 'git', Written>();
let resumed: RunResult;
let request: any;
beforeAll(async () => {
  mock = await startMockChat();
  home = kiloHome(mock.url);
  for (const kind of ['plain', 'git'] as const) {
    const dir = projectDir(home, kind, kind === 'git');
    const { result, id } = await writeKiloSession(home, dir, STREAM);
    const listed = await runKilo(home, dir, ['session', 'list', '--format', 'json']);
    written.set(kind, { dir, result, id, listed });
  }
  const plain = written.get('plain')!;
  const before = mock.turns().length;
  resumed = await continueWithKilo(home, plain.dir, plain.id);
  request = mock.turns()[before];
}, 900_000);
afterAll(async () => {
  await mock.close();
});

describe.each([['a plain directory', 'plain'], ['a git project', 'git']] as const)('a session written in %s', (_name, kind) => {
  test('the bin writes it with exit 0, naming the ses_ id on the session line and what Kilo never sends back', () => {
    const { result, id } = written.get(kind)!;
    expect(result.stderr).toBe('asyncai-log: fidelity: kilo: error flags 1 of 1 dropped (Kilo sends results without an error flag)\n');
    expect(result.code).toBe(0);
    expect(id).toMatch(/^ses_[0-9a-f]{12}[0-9A-Za-z]{14}$/);
    expect(sessionOf(result).harnesses[0]!.format).toBe('kilo');
    // The journal is in Kilo's data directory; the session itself in its kilo.db.
    expect(sessionOf(result).session_file).toBe(join(home.dataDir, 'asyncai-log', `${id}.jsonl`));
  });

  test('kilo session list in the project shows it, under the project id Kilo gives the directory', () => {
    const { dir, result, id, listed } = written.get(kind)!;
    expect(listed.code, listed.stderr).toBe(0);
    const ours = (JSON.parse(listed.stdout) as { id: string; directory: string; projectId: string }[]).find((s) => s.id === id);
    expect(ours?.directory).toBe(dir);
    const journal = JSON.parse(readFileSync(sessionOf(result).session_file, 'utf8').split('\n')[0]!);
    expect(journal.info.version).toBe('7.7.7');
    expect(ours?.projectId).toBe(journal.info.projectID);
    expect(ours?.projectId).toBe(kind === 'git' ? createHash('sha1').update('git-remote:github.com/example/Proj').digest('hex') : 'global');
  });
});

describe('kilo run --session', () => {
  test('continues the session and answers', () => {
    expect(resumed.code, resumed.stderr).toBe(0);
    expect(resumed.stdout).toContain('resumed-ok');
  });

  test('the model request holds every element of the stream, in order', () => {
    expect(conversation(request)).toEqual(EXPECTED);
  });
});

describe("Kilo's store as input", () => {
  let db: string;
  let imported: RunResult;
  let fromStore: RunResult;
  let fromFile: RunResult;
  const fingerprints: string[] = [];
  /** SHA-256 of the database and its WAL (and whether each is there). */
  const fingerprint = () => ['', '-wal'].map((suffix) => {
    const file = `${db}${suffix}`;
    return existsSync(file) ? createHash('sha256').update(readFileSync(file)).digest('hex') : '-';
  }).join(' ');
  beforeAll(async () => {
    db = join(home.dataDir, 'kilo.db');
    imported = await runKilo(home, written.get('plain')!.dir, ['import', join(FIXTURES, 'kilo', 'session.json')]);
    fingerprints.push(fingerprint());
    // The two reads side by side (each reads a copy of the database, which neither changes: the fingerprints
    // before and after both).
    [fromStore, fromFile] = await Promise.all([runBin(['read', home.dataDir], { env: binEnv(home) }), runBin(['read', db], { env: binEnv(home) })]);
    fingerprints.push(fingerprint());
  }, 600_000);

  test('read of the data directory prints each of its three sessions; the captured one as read of its export gives it', async () => {
    expect(imported.code, imported.stderr).toBe(0);
    expect(fromStore.code, fromStore.stderr).toBe(0);
    const lines = ndjson(fromStore.stdout);
    const captured = await runBin(['read', join(FIXTURES, 'kilo', 'session.json')]);
    expect(captured.code, captured.stderr).toBe(0);
    const texts = (events: any[]) => events.filter((e) => e.type === 'user' || e.type === 'assistant').map((e) => e.text);
    // Every user and assistant text of the captured session is there, in its order.
    const all = texts(lines);
    const wanted = texts(ndjson(captured.stdout));
    expect(wanted.length).toBeGreaterThan(2);
    expect(all.filter((t) => wanted.includes(t))).toEqual(wanted);
    // And the two the bin wrote.
    expect(all.filter((t) => t === 'Check the build please.')).toHaveLength(2);
  });

  test('read of kilo.db itself prints the same, and neither read changed the database', () => {
    expect(fromFile.code, fromFile.stderr).toBe(0);
    expect(fromFile.stdout).toBe(fromStore.stdout);
    expect(fingerprints[1]).toBe(fingerprints[0]);
  });

  test('convert of the store gives each session its own Claude Code session', async () => {
    const out = tempDir();
    const converted = await runBin(['convert', home.dataDir, '--session-dir', `claude-code-cli=${out}`], { env: binEnv(home) });
    expect(converted.code, converted.stderr).toBe(0);
    const files = readdirSync(join(out, 'projects')).flatMap((d) => readdirSync(join(out, 'projects', d))).filter((f) => f.endsWith('.jsonl'));
    expect(files).toHaveLength(3);
    expect(existsSync(db)).toBe(true);
  }, 600_000);
});
