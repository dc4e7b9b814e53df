// A file that is no supported input (an image, any binary) ends with one line on stderr and exit 1, for the
// filter (stdin and a named file), `read` (a file and stdin) and `convert` of it; text with a few bad lines keeps
// one diagnostic per bad line and its good lines.
import { describe, expect, test } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, runBin, tempDir } from '../support/run.js';

const dir = tempDir();
const PNG = join(dir, 'picture.png');
// A PNG signature, then bytes with many newlines in them: each would have been a "line".
writeFileSync(PNG, Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('\n\x00\x01IHDR\n'.repeat(200), 'latin1')]));
const BIN = join(dir, 'blob.json');
writeFileSync(BIN, Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7) % 256)));

describe('binary input', () => {
  test('the filter on stdin says it in one line, exit 1', async () => {
    const result = await runBin([], { input: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x0a, 0x0a]) });
    expect([result.code, result.stderr, result.stdout]).toEqual([1, 'asyncai-log: stdin: not a supported input: it looks like a PNG image\n', '']);
  });

  test('the filter given the file says it in one line, exit 1', async () => {
    const result = await runBin([BIN]);
    expect([result.code, result.stderr]).toEqual([1, `asyncai-log: ${BIN}: not a supported input: it looks like binary data\n`]);
  });

  test('read of the file and of stdin say it in one line, exit 1', async () => {
    const file = await runBin(['read', PNG]);
    expect([file.code, file.stderr, file.stdout]).toEqual([1, `asyncai-log: ${PNG}: not a supported input: it looks like a PNG image\n`, '']);
    const stdin = await runBin(['read', '-'], { input: Buffer.from('\x00\x01\x02binary\n', 'latin1') });
    expect([stdin.code, stdin.stderr]).toEqual([1, 'asyncai-log: stdin: not a supported input: it looks like binary data\n']);
  });

  test('convert of the file fails it with one line, exit 1', async () => {
    const env = cleanEnv();
    const result = await runBin(['convert', BIN, '--session-dir', `claude-code-cli=${tempDir()}`], { env });
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(`asyncai-log: ${BIN}: not a supported input: it looks like binary data\n`);
    expect(JSON.parse(result.stdout)).toMatchObject({ source: BIN, status: 'failed', error: 'not a supported input: it looks like binary data' });
  });

  test('text with a bad line still gets one diagnostic for it, and its good lines are written', async () => {
    const input = '{"type":"user","text":"hi"}\nnot json\n{"type":"assistant","text":"hello"}\n';
    const result = await runBin([], { input });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain('stdin:2:');
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });
});
