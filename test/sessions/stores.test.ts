// `asyncai-log sessions` of the agents that keep sessions in a store: the session the real OpenCode (and Kilo)
// made, loaded into a fresh store with the real CLI's `import`, listed with the store's own title, directory and
// times, its turns read from its lines (as `read` gives them), found by --grep and by an id prefix.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { opencodeBinary, opencodeHome, runOpencode } from '../support/opencode.js';
import { kiloBinary, kiloHome, runKilo } from '../support/kilo.js';
import { FIXTURES, runBin, tempDir, type RunResult } from '../support/run.js';
import { recordingProgram } from '../support/store-cli.js';

const ndjson = (text: string) => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

interface Store {
  format: string;
  /** The variable naming the store's program to the bin. */
  variable: string;
  make(): { env: Record<string, string>; run: (cwd: string, args: string[]) => Promise<RunResult> };
}

const STORES: Store[] = [
  {
    format: 'opencode',
    variable: 'ASYNCAI_LOG_OPENCODE',
    make() {
      const home = opencodeHome('http://127.0.0.1:9');
      return { env: { ...home.env, ASYNCAI_LOG_OPENCODE: opencodeBinary(), XDG_CACHE_HOME: join(home.home, 'cache') }, run: (cwd, args) => runOpencode(home, cwd, args) };
    },
  },
  {
    format: 'kilo',
    variable: 'ASYNCAI_LOG_KILO',
    make() {
      const home = kiloHome('http://127.0.0.1:9');
      return { env: { ...home.env, ASYNCAI_LOG_KILO: kiloBinary() }, run: (cwd, args) => runKilo(home, cwd, args) };
    },
  },
];

// The two stores side by side: each test waits on its store's program (seconds a start) most of the time.
describe.concurrent.each(STORES)('sessions of $format\'s store', ({ format, variable, make }) => {
  test('the captured session, imported by the real CLI: its title, directory, times and turns; --grep and an id prefix find it', async ({ expect }) => {
    const { env, run } = make();
    const fixture = join(FIXTURES, format, 'session.json');
    const imported = await run(tempDir(), ['import', fixture]);
    expect(imported.code, imported.stderr).toBe(0);
    const info = JSON.parse(readFileSync(fixture, 'utf8')).info;
    const rows = await run(tempDir(), ['db', '--format', 'json', `SELECT id, title, directory, time_created AS created, time_updated AS updated FROM session`]);
    const [stored] = JSON.parse(rows.stdout) as { id: string; title: string; directory: string; created: number; updated: number }[];
    expect(stored!.id).toBe(info.id);
    const events = JSON.parse(readFileSync(join(FIXTURES, format, 'session.events.json'), 'utf8')).events as { type: string }[];
    const r = await runBin(['sessions', '--agent', format], { env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [listed, ...more] = ndjson(r.stdout);
    expect(more).toEqual([]);
    expect(listed).toMatchObject({
      agent: format, id: info.id, title: stored!.title, cwd: stored!.directory,
      started: new Date(stored!.created).toISOString(), updated: new Date(stored!.updated).toISOString(),
      turns: events.filter((e) => e.type === 'user').length,
    });
    expect(listed.bytes).toBeGreaterThan(0);
    expect(listed.files).toEqual([expect.stringMatching(new RegExp(`#${info.id}$`))]);
    // Warm: the same, from the index, without starting the store's program; a changed database is read again.
    const recording = recordingProgram(env[variable]!);
    const shimmed = { ...env, [variable]: recording.program };
    expect((await runBin(['sessions', '--agent', format], { env: shimmed })).stdout).toBe(r.stdout);
    expect(recording.starts()).toBe(0);
    const renamed = await run(tempDir(), ['db', `UPDATE session SET title = 'Renamed in the store', time_updated = time_updated + 1000`]);
    expect(renamed.code, renamed.stderr).toBe(0);
    const changed = await runBin(['sessions', '--agent', format], { env: shimmed });
    expect([changed.code, changed.stderr]).toEqual([0, '']);
    // Listed and read for its turns with one start of the program (a small store is read with its list).
    expect(recording.starts()).toBe(1);
    expect(ndjson(changed.stdout)).toMatchObject([{ id: info.id, title: 'Renamed in the store', updated: new Date(stored!.updated + 1000).toISOString() }]);
    const userText = (events.find((e) => e.type === 'user') as { text: string }).text;
    const word = userText.split(/\s+/).find((w) => w.length >= 5)!.toUpperCase();
    const grep = await runBin(['sessions', '--agent', format, '--grep', word], { env });
    expect([grep.code, grep.stderr]).toEqual([0, '']);
    expect(ndjson(grep.stdout).map((s) => s.id)).toEqual([info.id]);
    expect(ndjson(grep.stdout)[0].hits[0].event).toBe('user');
    const none = await runBin(['sessions', '--agent', format, '--grep', 'not said in it at all'], { env });
    expect([none.code, none.stdout]).toEqual([0, '']);
    // read --usage of every session on the machine: the store listed and read with one start of its program.
    const counting = recordingProgram(env[variable]!);
    const usage = await runBin(['read', '--usage', '--by', 'session'], { env: { ...env, [variable]: counting.program } });
    expect([usage.code, usage.stderr]).toEqual([0, '']);
    expect(usage.stdout).toContain(info.id);
    expect(counting.starts()).toBe(1);
    const byId = await runBin(['sessions', info.id.slice(0, 10)], { env });
    expect([byId.code, byId.stderr]).toEqual([0, '']);
    expect(ndjson(byId.stdout).map((s) => s.id)).toEqual([info.id]);
  }, 600_000);
});
