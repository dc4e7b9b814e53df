// What may be planted where convert looks: a FIFO where the manifest names a session (never opened so that it
// blocks: the session is not appended to), the manifest directory as a symbolic link (refused with one line,
// nothing written through it), a file name that is not UTF-8 (converted, and known as such on the next run).
import { describe, expect, test } from 'vitest';
import { execFileSync } from 'node:child_process';
import { appendFileSync, existsSync, mkdirSync, readdirSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBin, tempDir } from '../support/run.js';
import { spawnBin } from '../reliability/support.js';

const ev = (o: object): string => `${JSON.stringify(o)}\n`;
const args = (root: string, ...inputs: string[]) => ['convert', ...inputs, '--session-dir', `claude-code-cli=${root}`];
const lines = (stdout: string | Buffer) => stdout.toString().split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));

describe('convert and what is planted in its paths', () => {
  test('a FIFO at the session file the manifest names does not block the next run: one line, a new session', async () => {
    const dir = tempDir('asyncai-log-planted-');
    const root = join(dir, 'claude');
    const source = join(dir, 'log.ndjson');
    writeFileSync(source, ev({ type: 'user', text: 'First question.' }) + ev({ type: 'assistant', text: 'First answer.' }));
    const first = await runBin(args(root, 'log.ndjson'), { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    const session = lines(first.stdout)[0].harnesses[0];
    unlinkSync(session.session_file);
    execFileSync('mkfifo', [session.session_file]);
    appendFileSync(source, ev({ type: 'user', text: 'Second question.' }));

    const { exit } = spawnBin(args(root, 'log.ndjson'), { cwd: dir });
    const ended = await exit;
    expect(ended.hung).toBe(false);
    expect(ended.code, ended.stderr).toBe(0);
    const [line] = lines(ended.stdout);
    expect(line).toMatchObject({ status: 'converted', reason: 'changed' });
    expect(line.harnesses[0].session_id).not.toBe(session.session_id);
    expect(line.harnesses[0].previous_session_id).toBe(session.session_id);
    const said = ended.stderr.split('\n').filter((l) => l.includes(session.session_file));
    expect(said).toEqual([`asyncai-log: log.ndjson: cannot append to ${session.session_file}: it is not a regular file; converted into a new session`]);
  }, 120_000);

  test('a manifest directory that is a symbolic link is refused with one line; nothing is written through it', async () => {
    const dir = tempDir('asyncai-log-planted-');
    const root = join(dir, 'claude');
    const elsewhere = join(dir, 'elsewhere');
    mkdirSync(root);
    mkdirSync(elsewhere);
    symlinkSync(elsewhere, join(root, 'asyncai-log-convert'));
    writeFileSync(join(dir, 'log.ndjson'), ev({ type: 'user', text: 'A question.' }));
    const r = await runBin(args(root, 'log.ndjson'), { cwd: dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`asyncai-log: ${join(root, 'asyncai-log-convert')}: is a symbolic link; the manifest is not read or written through it\n`);
    expect(readdirSync(elsewhere)).toEqual([]);
    expect(existsSync(join(root, 'projects'))).toBe(false);
  });

  test('a file whose name is not UTF-8 is converted, and the next run knows it', async () => {
    const dir = tempDir('asyncai-log-planted-');
    const root = join(dir, 'claude');
    mkdirSync(join(dir, 'tree'));
    const name = Buffer.concat([Buffer.from(join(dir, 'tree', 'caf')), Buffer.from([0xe9, 0xff]), Buffer.from('.ndjson')]);
    writeFileSync(name, ev({ type: 'user', text: 'A question.' }) + ev({ type: 'assistant', text: 'An answer.' }));
    writeFileSync(join(dir, 'tree', 'plain.ndjson'), ev({ type: 'user', text: 'Another question.' }));
    const first = await runBin(args(root, 'tree'), { cwd: dir });
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toBe('');
    expect(lines(first.stdout).map((l) => [l.status, l.reason])).toEqual([['converted', 'new'], ['converted', 'new']]);
    const again = await runBin(args(root, 'tree'), { cwd: dir });
    expect(again.code, again.stderr).toBe(0);
    expect(lines(again.stdout).map((l) => [l.status, l.reason])).toEqual([['skipped', 'unchanged'], ['skipped', 'unchanged']]);
    appendFileSync(name, ev({ type: 'user', text: 'A second question.' }));
    const grown = await runBin(args(root, 'tree'), { cwd: dir });
    expect(lines(grown.stdout).map((l) => [l.status, l.reason])).toEqual([['converted', 'grew'], ['skipped', 'unchanged']]);
  });
});
