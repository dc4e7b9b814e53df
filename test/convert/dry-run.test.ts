// `convert --dry-run` predicts the real run: over one tree holding a source in every state (new, grown, grown
// after another process appended to its session, grown after a dead run's torn append mixed with another
// process's bytes, changed in place, touched, unchanged, its session deleted or replaced by a FIFO, empty, no
// log, no conversation, a converted session, a hard link), the dry run's reason for each source is the one the
// real run then gives, and the dry run writes nothing.
import { describe, expect, test } from 'vitest';
import { execFileSync, spawnSync } from 'node:child_process';
import { appendFileSync, copyFileSync, linkSync, readFileSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lockPath } from '../../lib/convert/session-lock.js';
import { FIXTURES, runBin, tempDir } from '../support/run.js';
import { filesUnder } from './support.js';

const ev = (o: object): string => `${JSON.stringify(o)}\n`;
const log = (name: string) => ev({ type: 'user', text: `A question about ${name}.` }) + ev({ type: 'assistant', text: `An answer about ${name}.` });
const lines = (stdout: string) => stdout.split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('convert --dry-run', () => {
  test('gives, for a source in every state, the reason the real run then gives', async () => {
    const dir = tempDir('asyncai-log-dry-run-');
    const root = join(dir, 'claude');
    const at = (name: string) => join(dir, 'tree', name);
    const run = (...extra: string[]) => runBin(['convert', 'tree', '--session-dir', `claude-code-cli=${root}`, ...extra], { cwd: dir });
    const converted = ['grew', 'grew-foreign', 'grew-torn', 'changed', 'touched', 'unchanged', 'missing', 'fifo'];
    execFileSync('mkdir', ['-p', join(dir, 'tree')]);
    for (const name of converted) writeFileSync(at(`${name}.ndjson`), log(name));
    const first = await run();
    expect(first.code, first.stderr).toBe(0);
    const sessions = new Map(lines(first.stdout).map((l) => [l.source, l.harnesses[0].session_file as string]));
    const session = (name: string) => sessions.get(join('tree', `${name}.ndjson`))!;

    writeFileSync(at('new.ndjson'), log('new'));
    appendFileSync(at('grew.ndjson'), ev({ type: 'user', text: 'More.' }));
    // A resume appended to its session (another process's record, chained on), and the source grew.
    const last = readFileSync(session('grew-foreign'), 'utf8').trim().split('\n').map((l) => JSON.parse(l)).at(-1);
    appendFileSync(session('grew-foreign'), ev({ ...last, uuid: '00000000-0000-4000-8000-000000000001', parentUuid: last.uuid, type: 'user', message: { role: 'user', content: 'From a resume.' } }));
    appendFileSync(at('grew-foreign.ndjson'), ev({ type: 'user', text: 'More.' }));
    // A convert run died mid-append (its lock, naming a dead process, records the append) and a resume appended
    // after it: the real run cannot tell the bytes apart and converts into a new session; the dry run reads the lock.
    const torn = session('grew-torn');
    const tornMark = statSync(torn);
    const tornLast = readFileSync(torn, 'utf8').trim().split('\n').map((l) => JSON.parse(l)).at(-1);
    const ours = ev({ ...tornLast, uuid: '00000000-0000-4000-8000-000000000002', parentUuid: tornLast.uuid });
    appendFileSync(torn, ours);
    appendFileSync(torn, ev({ ...tornLast, uuid: '00000000-0000-4000-8000-000000000003', parentUuid: '00000000-0000-4000-8000-000000000002', type: 'user', message: { role: 'user', content: 'From a resume.' } }));
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(lockPath(root, torn), JSON.stringify({
      pid: dead, started: '1', file: torn, dev: tornMark.dev, ino: tornMark.ino, start: tornMark.size, own: tornMark.size + Buffer.byteLength(ours), pending: 0,
    }));
    appendFileSync(at('grew-torn.ndjson'), ev({ type: 'user', text: 'More.' }));
    writeFileSync(at('changed.ndjson'), log('something else entirely'));
    utimesSync(at('touched.ndjson'), new Date(), new Date(Date.now() + 5_000));
    rmSync(session('missing'));
    unlinkSync(session('fifo'));
    execFileSync('mkfifo', [session('fifo')]);
    appendFileSync(at('fifo.ndjson'), ev({ type: 'user', text: 'More.' }));
    writeFileSync(at('empty.ndjson'), '');
    writeFileSync(at('junk.json'), '{"name":"some-package"}\n');
    const meta = readFileSync(join(FIXTURES, 'codex-rollout', 'actions.jsonl'), 'utf8').split('\n')[0]!;
    writeFileSync(at('meta-only.jsonl'), `${meta}\n`);
    copyFileSync(session('unchanged'), at('z-converted-session.jsonl'));
    linkSync(at('new.ndjson'), at('new-link.ndjson'));

    const before = filesUnder(root);
    const dry = await run('--dry-run');
    expect(dry.code, dry.stderr).toBe(0);
    expect(filesUnder(root)).toEqual(before);
    const real = await run();
    expect(real.code, real.stderr).toBe(0);

    const reasons = (stdout: string) => lines(stdout).map((l) => [l.source, l.reason]);
    expect(reasons(dry.stdout)).toEqual(reasons(real.stdout));
    // The torn append is refused: a new session, said in one line, by both.
    for (const out of [dry.stdout, real.stdout]) {
      expect(lines(out).find((l) => l.source === join('tree', 'grew-torn.ndjson'))).toMatchObject({ reason: 'changed', warnings: 1 });
    }
    // Every state is there, and each kept its status (what the dry run says would be converted, was).
    expect(new Set(lines(real.stdout).map((l) => l.reason))).toEqual(new Set([
      'changed', 'empty', 'grew', 'unrecognised', 'missing', 'no-conversation', 'new', 'duplicate', 'unchanged', 'converted-session',
    ]));
    lines(dry.stdout).forEach((l, i) => {
      expect([l.status === 'would-convert' ? 'converted' : l.status, l.source]).toEqual([lines(real.stdout)[i].status, lines(real.stdout)[i].source]);
    });
  }, 60_000);
});
