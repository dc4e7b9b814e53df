// fileInput: a regular file on stdin is read on the main thread, from where its offset stands, in full
// and in order; anything else (a pipe) is left to Node's stream; the descriptor is never closed.
import { describe, expect, test } from 'vitest';
import { closeSync, fstatSync, openSync, readSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { fileInput, FILE_READ_BYTES } from '../../lib/input/file-input.js';
import { ROOT, tempDir } from '../support/run.js';

async function collect(stream: NodeJS.ReadableStream): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return chunks;
}

describe('fileInput', () => {
  test('a file is read whole, in order, in chunks of at most 64 KiB, and stays open', async () => {
    const path = join(tempDir(), 'in.ndjson');
    const data = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `{"n":${i}}\n`).join(''));
    writeFileSync(path, data);
    const fd = openSync(path, 'r');
    try {
      const chunks = await collect(fileInput(fd)!);
      expect(Buffer.concat(chunks).equals(data)).toBe(true);
      expect(Math.max(...chunks.map((c) => c.length))).toBeLessThanOrEqual(FILE_READ_BYTES);
      expect(fstatSync(fd).isFile()).toBe(true);
    } finally {
      closeSync(fd);
    }
  });

  test('reading starts where the file offset stands, as a shell redirection left it', async () => {
    const path = join(tempDir(), 'in.txt');
    writeFileSync(path, 'skip\nkeep\n');
    const fd = openSync(path, 'r');
    try {
      readSync(fd, Buffer.alloc(5), 0, 5, null);
      expect(Buffer.concat(await collect(fileInput(fd)!)).toString()).toBe('keep\n');
    } finally {
      closeSync(fd);
    }
  });

  test('a pipe is not a file: the caller keeps its own stream', () => {
    const module = pathToFileURL(join(ROOT, 'dist', 'lib', 'input', 'file-input.js')).href;
    const child = spawnSync(process.execPath, [
      '--input-type=module', '-e', `import { fileInput } from ${JSON.stringify(module)}; process.stdout.write(String(fileInput(0) === undefined));`,
    ], { input: 'piped', encoding: 'utf8' });
    expect(child.stdout).toBe('true');
  });
});
