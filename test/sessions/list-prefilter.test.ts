// `sessions --grep` with --cwd (lib/sessions/list.ts): the prefilter reads only the session files that may be
// wanted: those the index already places in the directory asked for, and those it does not describe yet; the
// others are left out unread.
import { join } from 'node:path';
import { describe, expect, test, vi } from 'vitest';
import { OpenStores } from '../../lib/agents/find-sessions.js';
import { listSessions } from '../../lib/sessions/list.js';
import { SessionIndex } from '../../lib/sessions/cache.js';
import { needleForms } from '../../lib/sessions/prefilter.js';
import { passingFiles } from '../../lib/sessions/passing.js';
import { listedFormats } from '../../lib/sessions/run.js';
import { tempDir } from '../support/run.js';
import { placeSessions } from './support.js';

vi.mock('../../lib/sessions/passing.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../lib/sessions/passing.js')>();
  return { ...real, passingFiles: vi.fn(real.passingFiles) };
});

describe('the prefilter of a listing with --cwd', () => {
  test('reads the sessions not yet described and those the index places in the directory, no others', async () => {
    const { roots, placed } = placeSessions();
    const home = tempDir();
    const base = { sessionDirs: roots, env: { HOME: home }, homedir: home, processCwd: home, tmpdir: home };
    const context = { ...base, stores: new OpenStores(base) };
    const cache = join(home, 'cache');
    const wanted = { forms: needleForms('notes'), cwd: (cwd: string | undefined) => cwd === '/home/user/elsewhere' };
    const scanned = () => vi.mocked(passingFiles).mock.calls.flatMap(([files]) => files.map((file) => file.path)).sort();
    const problems: string[] = [];

    // Nothing described yet: every session file is scanned.
    await listSessions(context, new SessionIndex(cache), undefined, (line) => problems.push(line), wanted);
    expect(scanned()).toEqual(placed.map((p) => p.file).sort());

    // Every session described: only the one in /home/user/elsewhere.
    const index = new SessionIndex(cache);
    expect(await listSessions(context, index, undefined, (line) => problems.push(line))).toHaveLength(placed.length);
    index.save(listedFormats());
    vi.mocked(passingFiles).mockClear();
    const rows = await listSessions(context, new SessionIndex(cache), undefined, (line) => problems.push(line), wanted);
    const copilot = placed.find((p) => p.format === 'copilot-cli')!;
    expect(scanned()).toEqual([copilot.file]);
    expect(rows.map((row) => row.id)).toEqual([copilot.id]);
    expect(problems).toEqual([]);
    await context.stores.close();
  });
});
