// Kilo pieces with literal input and its captured fixtures: which input format a document is (a Kilo export or
// journal, an OpenCode one), the captured `kilo export` and `kilo run --format json` mapped to their golden events,
// the environment `kilo import` runs in, Kilo's config files (JSONC) for its default model, the messages written
// with Kilo's agent, and which store a SQLite file's name says it is.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { detectInputFormat } from '../../../lib/agents/input-formats.js';
import { locateStore } from '../../../lib/agents/index.js';
import { KILO } from '../../../lib/agents/kilo/index.js';
import { configuredModel, parseJsonc, storeEnv } from '../../../lib/opencode-store/harness.js';
import { IdMinter } from '../../../lib/opencode-store/ids.js';
import { OpencodeMapper } from '../../../lib/opencode-store/records.js';
import { FIXTURES, tempDir } from '../../support/run.js';
import { mapFixtureFile } from '../../input/support.js';

const document = (folder: string, name: string) => JSON.parse(readFileSync(join(FIXTURES, folder, `${name}.json`), 'utf8'));

describe('which export a document is', () => {
  test('a captured kilo export is kilo-export; a captured opencode export is opencode-export', () => {
    expect(detectInputFormat(document('kilo', 'session'))?.name).toBe('kilo-export');
    expect(detectInputFormat(document('opencode', 'session'))?.name).toBe('opencode-export');
  });

  test('by the version the session names: Kilo numbers from 7; a document naming none is OpenCode\'s', () => {
    const head = (version?: string) => ({ info: { id: 'ses_fffffffffffe00000000000000', directory: '/p', ...(version ? { version } : {}) }, messages: [] });
    expect(detectInputFormat(head('7.7.7'))?.name).toBe('kilo-export');
    expect(detectInputFormat(head('8.0.0'))?.name).toBe('kilo-export');
    expect(detectInputFormat(head('1.18.33'))?.name).toBe('opencode-export');
    expect(detectInputFormat(head())?.name).toBe('opencode-export');
  });

  test('the first line of kilo run --format json is OpenCode\'s run JSON, which it is', () => {
    const first = JSON.parse(readFileSync(join(FIXTURES, 'kilo', 'run.jsonl'), 'utf8').split('\n')[0]!);
    expect(detectInputFormat(first)?.name).toBe('opencode-run-json');
  });
});

describe('the captured fixtures', () => {
  test.each([['session.json', 'kilo-export'], ['run.jsonl', 'opencode-run-json']])('%s maps to its golden events (%s)', (name, format) => {
    const golden = JSON.parse(readFileSync(join(FIXTURES, 'kilo', name.replace(/\.jsonl?$/, '.events.json')), 'utf8'));
    expect(mapFixtureFile(format, join(FIXTURES, 'kilo', name))).toEqual(golden);
  });

  test('the export holds the image, the reasoning, a completed and a failed call, and the resumed turn', () => {
    const { events } = mapFixtureFile('kilo-export', join(FIXTURES, 'kilo', 'session.json')) as { events: any[] };
    expect(events.find((e) => e.type === 'user')?.images).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['thinking', 'tool_call', 'tool_result']));
    expect(events.filter((e) => e.type === 'tool_result').map((e) => e.is_error).sort()).toEqual([false, true]);
    expect(events.filter((e) => e.type === 'user').at(-1)?.text).toBe('Anything else?');
  });
});

describe('the environment kilo import runs in', () => {
  const base = { PATH: '/bin', XDG_DATA_HOME: '/home/u/.local/share' };
  const own = '/home/u/.local/share/kilo';
  test('Kilo\'s own data directory: the environment as it is, KILO_DB included', () => {
    expect(storeEnv(KILO, { ...base, KILO_DB: '/db/x.db' }, own, own)).toEqual({ ...base, KILO_DB: '/db/x.db' });
  });
  test('another directory named kilo is the data directory; an absolute KILO_DB is dropped', () => {
    expect(storeEnv(KILO, { ...base, KILO_DB: '/db/x.db' }, '/data/kilo', own)).toEqual({ ...base, XDG_DATA_HOME: '/data' });
  });
  test('any other directory: KILO_DB=<dir>/kilo.db, OPENCODE_DB left alone', () => {
    expect(storeEnv(KILO, { ...base, OPENCODE_DB: '/o.db' }, '/data/sessions', own)).toEqual({ ...base, OPENCODE_DB: '/o.db', KILO_DB: '/data/sessions/kilo.db' });
  });
});

describe("Kilo's default model", () => {
  test('JSONC: comments and trailing commas, strings holding // kept', () => {
    expect(parseJsonc('{\n  // a comment\n  "model": "a//b", /* block */\n  "x": [1, 2,],\n}')).toEqual({ model: 'a//b', x: [1, 2] });
  });

  test('the last of its config files that names a model decides (kilo.jsonc over kilo.json)', () => {
    const config = tempDir();
    mkdirSync(join(config, 'kilo'));
    writeFileSync(join(config, 'kilo', 'kilo.json'), JSON.stringify({ model: 'one/m1' }));
    expect(configuredModel(KILO, { XDG_CONFIG_HOME: config }, '/nonexistent')).toBe('one/m1');
    writeFileSync(join(config, 'kilo', 'kilo.jsonc'), '{ // mine\n "model": "two/m2", }');
    expect(configuredModel(KILO, { XDG_CONFIG_HOME: config }, '/nonexistent')).toBe('two/m2');
  });
});

describe('messages written for Kilo', () => {
  test('name Kilo\'s agent (code) as agent and mode', () => {
    const mapper = new OpencodeMapper({ flavour: KILO, sessionId: 'ses_1', directory: '/p', worktree: '/p',
      userModel: { providerID: 'kilo', modelID: 'm' }, ids: new IdMinter(() => 1796118000000) });
    const T = '2026-11-29T10:00:00.000Z';
    mapper.map({ type: 'user', text: 'hi', timestamp: T });
    mapper.map({ type: 'assistant', text: 'hello', timestamp: T });
    const [user, assistant] = mapper.drain();
    expect(user!.info.agent).toBe('code');
    expect([assistant!.info.agent, assistant!.info.mode]).toEqual(['code', 'code']);
  });
});

describe('which store a SQLite file is', () => {
  const sqlite = (dir: string, name: string) => {
    const path = join(dir, name);
    writeFileSync(path, Buffer.concat([Buffer.from('SQLite format 3\0', 'latin1'), Buffer.alloc(84)]));
    return path;
  };
  test('kilo.db (and a channel\'s kilo-<channel>.db) is Kilo\'s; opencode.db and any other name OpenCode\'s', () => {
    const dir = tempDir();
    expect(locateStore(sqlite(dir, 'kilo.db'))?.agent.format).toBe('kilo');
    expect(locateStore(sqlite(dir, 'kilo-beta.db'))?.agent.format).toBe('kilo');
    expect(locateStore(sqlite(dir, 'opencode.db'))?.agent.format).toBe('opencode');
    expect(locateStore(sqlite(dir, 'backup.db'))?.agent.format).toBe('opencode');
  });

  test('a directory holding kilo.db is Kilo\'s store', () => {
    const dir = tempDir();
    sqlite(dir, 'kilo.db');
    expect(locateStore(dir)).toEqual({ agent: expect.objectContaining({ format: 'kilo' }), db: join(dir, 'kilo.db') });
  });
});
