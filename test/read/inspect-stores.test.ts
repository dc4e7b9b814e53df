// `read --inspect <ses_id>` of OpenCode's and Kilo's stores (issue 41): the session the real CLI made
// (fixtures/<agent>/session.json) loaded into an isolated home's store with the real `<cli> import`, as the
// store tests do, then found by a prefix of its id under `--session-dir <format>=<data dir>`: its rows counted by
// kind as the fixture holds them (the session, each message by role, each part by type), its events as the
// golden ones, none of its text printed; the whole store inspected gives one line per session.
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, test } from 'vitest';
import { opencodeBinary, opencodeHome, runOpencode } from '../support/opencode.js';
import { kiloBinary, kiloHome, runKilo } from '../support/kilo.js';
import { FIXTURES, runBin, type RunResult } from '../support/run.js';

const ndjson = (text: string): any[] => text.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

/** Counts by name, in first-seen order. */
function tally(names: string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const name of names) out[name] = (out[name] ?? 0) + 1;
  return out;
}

interface StoreCase {
  format: string;
  /** A home with the real program: `import` runs it, `env` is the bin's. */
  home: () => { dataDir: string; env: Record<string, string>; home: string; run: (cwd: string, args: string[]) => Promise<RunResult> };
}

const CASES: StoreCase[] = [
  {
    format: 'opencode',
    home: () => {
      const home = opencodeHome('http://127.0.0.1:9');
      return { ...home, env: { ...home.env, ASYNCAI_LOG_OPENCODE: opencodeBinary() }, run: (cwd, args) => runOpencode(home, cwd, args) };
    },
  },
  {
    format: 'kilo',
    home: () => {
      const home = kiloHome('http://127.0.0.1:9');
      return { ...home, env: { ...home.env, ASYNCAI_LOG_KILO: kiloBinary() }, run: (cwd, args) => runKilo(home, cwd, args) };
    },
  },
];

// The two stores side by side: each test waits on its store's program (seconds a start) most of the time.
describe.concurrent.each(CASES)("read --inspect of $format's store", (c) => {
  test('the session the real CLI made, imported, found by an id prefix: its rows by kind and its events, none of its text', async ({ expect }) => {
    const home = c.home();
    const dir = join(home.home, 'project');
    mkdirSync(dir, { recursive: true });
    const fixture = join(FIXTURES, c.format, 'session.json');
    const imported = await home.run(dir, ['import', fixture]);
    expect(imported.code, imported.stderr).toBe(0);
    const document = JSON.parse(readFileSync(fixture, 'utf8'));
    const id: string = document.info.id;
    const r = await runBin(['read', '--inspect', id.slice(0, 12), '--session-dir', `${c.format}=${home.dataDir}`], { env: home.env });
    expect([r.code, r.stderr]).toEqual([0, '']);
    const [shape, ...more] = ndjson(r.stdout);
    expect(more).toEqual([]);
    const kinds = tally(['session', ...document.messages.flatMap((m: any) => [`message.${m.info.role}`, ...m.parts.map((p: any) => `part.${p.type}`)])]);
    const golden = JSON.parse(readFileSync(join(FIXTURES, c.format, 'session.events.json'), 'utf8')).events as any[];
    expect(shape).toMatchObject({
      session_id: id, agent: c.format, input: `${c.format}-export`, file: `${join(home.dataDir, `${c.format}.db`)}#${id}`, child: false,
      partial: false, records_by_kind: kinds, records: Object.values(kinds).reduce((a, b) => a + b, 0),
      events: tally(golden.map((e) => e.type)), turns: golden.filter((e) => e.type === 'user').length,
      tool_calls: tally(golden.filter((e) => e.type === 'tool_call').map((e) => e.name)),
      tool_errors: golden.filter((e) => e.type === 'tool_result' && e.is_error === true).length,
      reasoning: golden.filter((e) => e.type === 'thinking').length, branches: null, subagents: null, warnings: 0,
    });
    expect(Object.keys(shape.usage)).toEqual([...new Set(golden.filter((e) => e.usage !== undefined).map((e) => e.model))]);
    const texts = golden.flatMap((e) => [e.text, typeof e.content === 'string' ? e.content : undefined])
      .filter((t): t is string => typeof t === 'string' && t.length >= 8);
    expect(texts.length).toBeGreaterThan(0);
    for (const t of texts) expect(r.stdout.includes(JSON.stringify(t).slice(1, -1)), t).toBe(false);
    // The whole store: one line per session (here the one).
    const all = await runBin(['read', '--inspect', home.dataDir], { env: home.env });
    expect([all.code, all.stderr]).toEqual([0, '']);
    expect(ndjson(all.stdout)).toEqual([shape]);
  }, 240_000);
});
