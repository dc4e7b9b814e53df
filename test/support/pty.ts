// The built bin on a pseudo-terminal (test/support/pty-run.py, python3's pty module), for behaviour that
// depends on one: hints on a terminal, Ctrl-D and Ctrl-C typed there, the convert progress line.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { BIN, ROOT, cleanEnv } from './run.js';

export interface PtyRun {
  child: ChildProcessWithoutNullStreams;
  /** What was written so far: stdout and stderr in `stdin` mode; what the terminal showed, as `out`, in `all` mode. */
  out(): string;
  err(): string;
  /** Type into the terminal (`\x03` is Ctrl-C); `end()` types Ctrl-D. */
  type(text: string): void;
  end(): void;
  exit: Promise<{ code: number | null; out: string; err: string }>;
}

/**
 * Start the bin on a terminal: `stdin` mode gives it a terminal as stdin only (stdout and stderr are pipes),
 * `all` mode as stdin, stdout and stderr (what it shows is read back as `out`).
 */
export function startOnTerminal(mode: 'stdin' | 'all', args: string[], options: { env?: Record<string, string>; cwd?: string } = {}): PtyRun {
  const child = spawn('python3', [join(ROOT, 'test', 'support', 'pty-run.py'), mode, process.execPath, BIN, ...args], {
    env: options.env ?? cleanEnv(), cwd: options.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString('utf8'); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
  child.stdin.on('error', () => {});
  const exit = new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, out, err }));
  });
  return {
    child, exit, out: () => out, err: () => err,
    type: (text) => child.stdin.write(text),
    end: () => child.stdin.end(),
  };
}

/**
 * What a terminal shows for `raw` output: `\r` returns to the start of the line, `ESC[2K` erases it, `\n`
 * starts a new one; text overwrites what is under the cursor. One string per screen line.
 */
export function screen(raw: string): string[] {
  const lines: string[] = [];
  let line = '';
  let col = 0;
  for (let i = 0; i < raw.length; i += 1) {
    const c = raw[i]!;
    if (c === '\r') col = 0;
    else if (c === '\n') {
      lines.push(line);
      line = '';
      col = 0;
    } else if (raw.startsWith('\u001b[2K', i)) {
      line = ' '.repeat(col);
      i += 3;
    } else {
      line = line.slice(0, col) + c + line.slice(col + 1);
      col += 1;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}
