// The entries a `read --usage --by` worker hands back merged (lib/read/usage-rows.ts mergedEntries): grouped,
// they give the rows the entries give one by one, for every `--by`, in time zones of odd offsets and around
// their clock changes (seeded entries: times a few seconds to hours apart, out of order now and then, times
// of other shapes, none), and far fewer of them.
import { afterEach, describe, expect, test } from 'vitest';
import { group, mergedEntries, USAGE_GROUPS, type Counted } from '../../lib/read/usage-rows.js';
import type { UsageEntry } from '../../lib/session/types.js';
import { Rng } from '../reliability/support.js';

const ZONES = ['UTC', 'Asia/Kathmandu', 'America/St_Johns', 'Australia/Lord_Howe', 'Pacific/Chatham', 'America/Havana', 'America/Santiago'];
/** Around clock changes of those zones, and the turn of a year. */
const STARTS = ['2026-03-08T04:40:00.000Z', '2026-04-04T14:10:00.000Z', '2026-09-26T13:50:00.000Z', '2026-11-01T04:30:00.000Z', '2026-12-31T21:00:00.000Z'];
const saved = process.env.TZ;

afterEach(() => {
  if (saved === undefined) delete process.env.TZ;
  else process.env.TZ = saved;
});

function entries(rng: Rng): UsageEntry[] {
  const out: UsageEntry[] = [];
  let ms = Date.parse(rng.pick(STARTS));
  for (let i = 0; i < 400; i += 1) {
    ms += rng.chance(0.05) ? -rng.between(0, 3_600_000) : rng.between(0, rng.chance(0.01) ? 4 * 3_600_000 : 60_000);
    const iso = new Date(ms).toISOString();
    const shape = rng.next();
    const timestamp = shape < 0.03 ? undefined : shape < 0.06 ? iso.replace('Z', '+00:00') : shape < 0.09 ? iso.replace('.', ',') : shape < 0.12 ? iso.slice(0, 19) + 'Z' : iso;
    const n = () => rng.between(0, 5000);
    out.push({ timestamp, model: rng.chance(0.05) ? undefined : rng.pick(['gpt-5', 'gpt-5-codex', 'o3']), tokens: { input: n(), output: n(), cacheRead: n(), cacheWrite: n(), reasoning: n() } });
  }
  return out;
}

describe('entries merged by a worker', () => {
  test('give the same rows for every --by in every time zone, with fewer entries; the entries given are not changed', () => {
    const rng = new Rng(41);
    for (let round = 0; round < 20; round += 1) {
      const sessions = [0, 1, 2].map((i) => ({ agent: 'codex-cli', id: `s${i}`, path: `/s${i}.jsonl`, entries: entries(rng) }));
      const copy = structuredClone(sessions);
      const merged: Counted[] = sessions.map((s) => ({ ...s, entries: mergedEntries(s.entries) }));
      expect(sessions).toEqual(copy);
      expect(merged.reduce((n, s) => n + s.entries.length, 0)).toBeLessThan(sessions.reduce((n, s) => n + s.entries.length, 0) / 2);
      for (const zone of ZONES) {
        process.env.TZ = zone;
        for (const by of USAGE_GROUPS) expect(group(merged, by), `${zone} ${by} round ${round}`).toEqual(group(sessions, by));
      }
    }
  });

  test('entries of one model in one quarter hour are summed, at the latest time among them; other times are kept as they are', () => {
    process.env.TZ = 'UTC';
    const t = (input: number) => ({ input, output: 1, cacheRead: 0, cacheWrite: 0, reasoning: 0 });
    expect(mergedEntries([
      { timestamp: '2026-01-01T10:14:00.000Z', model: 'a', tokens: t(1) },
      { timestamp: '2026-01-01T10:01:00.000Z', model: 'a', tokens: t(2) },
      { timestamp: '2026-01-01T10:05:00.000Z', model: 'b', tokens: t(4) },
      { timestamp: '2026-01-01T10:15:00.000Z', model: 'a', tokens: t(8) },
      { timestamp: '2026-01-01T10:16:00+00:00', model: 'a', tokens: t(16) },
      { timestamp: undefined, model: 'a', tokens: t(32) },
    ])).toEqual([
      { timestamp: '2026-01-01T10:14:00.000Z', model: 'a', tokens: { ...t(3), output: 2 } },
      { timestamp: '2026-01-01T10:05:00.000Z', model: 'b', tokens: t(4) },
      { timestamp: '2026-01-01T10:15:00.000Z', model: 'a', tokens: t(8) },
      { timestamp: '2026-01-01T10:16:00+00:00', model: 'a', tokens: t(16) },
      { timestamp: undefined, model: 'a', tokens: t(32) },
    ]);
  });
});
