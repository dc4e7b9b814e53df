// Test helpers for running the built bin with monitors: start it with stdin left open (to feed and signal
// it), wait for what the transcript shows, and read the transcript back as short labels.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { BIN, cleanEnv } from '../support/run.js';

/** One generic event as an NDJSON line. */
export const ev = (o: object) => `${JSON.stringify(o)}\n`;

export function records(file: string): any[] {
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
}

/** The transcript as a list of short labels: `user:<text>`, `event:<text>`, `end:<status>`. */
export function story(file: string): string[] {
  return records(file).flatMap((r) => {
    if (r.type === 'user') return [`user:${r.message.content}`];
    if (r.type === 'assistant') return [`assistant:${r.message.content[0].text}`];
    if (r.type !== 'attachment') return [];
    const xml: string = r.attachment.prompt;
    const event = /<event>([\s\S]*)<\/event>/.exec(xml);
    if (event) return [`event:${event[1]}`];
    return [`end:${/<status>(.*)<\/status>/.exec(xml)![1]}:${/<summary>(.*)<\/summary>/.exec(xml)![1]}`];
  });
}

export function args(root: string, ...more: string[]): string[] {
  return ['--session-dir', `claude-code-cli=${root}`, '--cwd', '/home/user/project', ...more];
}

export interface Live {
  child: ChildProcessWithoutNullStreams;
  session: Promise<string>;
  exit: Promise<{ code: number | null; stderr: string }>;
}

/** Start the bin with stdin left open, so a test can feed it and signal it. */
export function start(argv: string[], cwd: string): Live {
  const child = spawn(process.execPath, [BIN, ...argv], { cwd, env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  const session = new Promise<string>((resolve) => {
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString('utf8');
      const nl = out.indexOf('\n');
      if (nl !== -1) resolve(JSON.parse(out.slice(0, nl)).result.session_file);
    });
  });
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  const exit = new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stderr: err }));
  });
  return { child, session, exit };
}

export { until } from '../support/run.js';
