// `read --usage` of several transcripts counts them on worker threads (the agent's usage pool, whole files at a
// time) and prints what one thread prints: the same lines in input order, a missing file or session reported in
// its place.
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import { cleanEnv, runBin, tempDir } from '../support/run.js';
import { Rng } from '../reliability/support.js';
import { assistant, text, writeTranscript } from '../agents/claude-code-cli/reader/support.js';

describe('read --usage over many transcripts', () => {
  test('on worker threads: the same lines in input order as on one thread, a missing file reported in its place', async () => {
    const dir = join(tempDir(), 'projects', '-p');
    const rng = new Rng(7);
    const paths = Array.from({ length: 6 }, (_, i) => writeTranscript(
      Array.from({ length: 50 }, (_, n) => assistant(`a${i}-${n}`, null, [text('x')], {
        id: `m${i}-${n % 20}`, usage: { input_tokens: rng.int(100), output_tokens: rng.int(50) },
      })),
      { dir, name: `5e55e55e-0000-4000-8000-00000000000${i}.jsonl` },
    ));
    // A session id found nowhere is reported in its place too, after what came before it is printed.
    const unknown = '5e55e55e-0000-4000-8000-0000000000ff';
    const inputs = [...paths.slice(0, 3), join(dir, 'missing.jsonl'), unknown, ...paths.slice(3)];
    const root = ['--session-dir', `claude-code-cli=${tempDir()}`];
    const env = cleanEnv();
    const threaded = await runBin(['read', '--usage', '--threads', '2', ...root, ...inputs], { env });
    const single = await runBin(['read', '--usage', '--threads', '0', ...root, ...inputs], { env });
    expect(threaded.code).toBe(1);
    expect([threaded.stdout, threaded.stderr]).toEqual([single.stdout, single.stderr]);
    const sessions = threaded.stdout.trim().split('\n').map((l) => (JSON.parse(l) as { session_id: string }).session_id);
    expect(sessions).toEqual(paths.map((p) => p.split('/').at(-1)!.replace('.jsonl', '')));
    expect(threaded.stderr).toContain('missing.jsonl: cannot be read');
    expect(threaded.stderr.indexOf('missing.jsonl')).toBeLessThan(threaded.stderr.indexOf(`${unknown}: no session`));
  });
});
