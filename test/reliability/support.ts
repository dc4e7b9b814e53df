// Shared helpers for the reliability tests: a seeded random generator (the seed is printed when a property
// fails, and FUZZ_SEED=<n> replays it), the bin spawned with its peak RSS sampled from /proc, and transcript
// readers that tell complete lines from a partial last one.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { closeSync, existsSync, openSync, readFileSync, readdirSync, readSync, statSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { join } from 'node:path';
import { BIN, cleanEnv } from '../support/run.js';

/** A small, fast, seeded PRNG (mulberry32): the same seed gives the same inputs on every machine. */
export class Rng {
  private state: number;
  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }
  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  /** An integer in [lo, hi]. */
  between(lo: number, hi: number): number {
    return lo + this.int(hi - lo + 1);
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  bytes(n: number): Buffer {
    const buf = Buffer.alloc(n);
    for (let i = 0; i < n; i += 1) buf[i] = this.int(256);
    return buf;
  }
}

/** The seed for this run: FUZZ_SEED when given (to replay a failure), else a fresh one. */
export function fuzzSeed(): number {
  const given = process.env.FUZZ_SEED;
  if (given !== undefined && given !== '') return Number(given) >>> 0;
  return Math.floor(Math.random() * 2 ** 32) >>> 0;
}

/** Run a property with a seed; a failure names the seed so it can be replayed with FUZZ_SEED=<seed>. */
export async function withSeed(name: string, body: (rng: Rng) => Promise<void> | void): Promise<void> {
  const seed = fuzzSeed();
  try {
    await body(new Rng(seed));
  } catch (error) {
    const err = error as Error;
    err.message = `[${name}: seed ${seed}, replay with FUZZ_SEED=${seed}] ${err.message}`;
    console.error(`fuzz failure in ${name}: seed ${seed} (replay with FUZZ_SEED=${seed})`);
    throw err;
  }
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: Buffer;
  stderr: string;
  /** Peak RSS seen in /proc (0 unless sampled). */
  peakRssKiB: number;
  /** The process was still running after the hang limit and was killed (a hang: always a failure). */
  hung: boolean;
}

export interface Spawned {
  child: ChildProcessWithoutNullStreams;
  /** Settles when the process has exited and its pipes are closed. */
  exit: Promise<Exited>;
}

/** How long a run may take before it counts as hung (far above any run here, so never a timing assertion). */
export const HANG_LIMIT_MS = 45_000;

/** Peak resident set size of a live process in KiB (VmHWM), or 0 once it is gone. */
function vmHwm(pid: number): number {
  try {
    const match = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Number(match[1]) : 0;
  } catch {
    return 0;
  }
}

/**
 * Spawn the built bin with stdin left open (`nodeArgs` go to node before it). `sampleRss` polls /proc/<pid>/status for VmHWM (the kernel's
 * own peak, so a sample taken any time after the peak sees it) until the process exits.
 */
export function spawnBin(
  args: string[], options: { env?: Record<string, string>; cwd?: string; sampleRss?: boolean; nodeArgs?: string[] } = {},
): Spawned {
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
    env: options.env ?? cleanEnv(),
    ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out: Buffer[] = [];
  let err = '';
  let peak = 0;
  child.stdout.on('data', (d: Buffer) => out.push(d));
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString('utf8');
  });
  child.stdin.on('error', () => {});
  const timer = options.sampleRss && child.pid !== undefined
    ? setInterval(() => {
      peak = Math.max(peak, vmHwm(child.pid!));
    }, 5)
    : undefined;
  let hung = false;
  const limit = setTimeout(() => {
    hung = true;
    child.kill('SIGKILL');
  }, HANG_LIMIT_MS);
  const exit = new Promise<Exited>((resolve) => {
    child.on('close', (code, signal) => {
      if (timer) clearInterval(timer);
      clearTimeout(limit);
      resolve({ code, signal, stdout: Buffer.concat(out), stderr: err, peakRssKiB: peak, hung });
    });
  });
  return { child, exit };
}

/**
 * Write `data` to a child's stdin in pieces, honouring backpressure, then end it. Stops early (without
 * hanging) when the child closes its stdin or exits.
 */
export async function feed(child: ChildProcessWithoutNullStreams, data: Buffer, pieces: number[] = []): Promise<void> {
  let gone = child.exitCode !== null || child.signalCode !== null;
  const stop = new Promise<void>((resolve) => {
    const done = () => {
      gone = true;
      resolve();
    };
    child.once('exit', done);
    child.stdin.once('error', done);
    child.stdin.once('close', done);
  });
  const write = async (part: Buffer) => {
    if (gone) return;
    if (!child.stdin.write(part)) await Promise.race([new Promise((resolve) => child.stdin.once('drain', resolve)), stop]);
  };
  let offset = 0;
  for (const size of pieces) {
    if (offset >= data.length || gone) break;
    const part = data.subarray(offset, offset + size);
    offset += part.length;
    await write(part);
  }
  if (offset < data.length) await write(data.subarray(offset));
  if (!gone) child.stdin.end();
}

/** A transcript split into its complete lines (each parsed) and the partial last line, if any. */
export interface TranscriptState {
  records: any[];
  /** Complete lines that are not valid JSON (must be none). */
  damaged: string[];
  /** The text after the last newline, when the file does not end with one. */
  partial: string | undefined;
}

export function transcriptState(file: string): TranscriptState {
  const text = existsSync(file) ? readFileSync(file, 'utf8') : '';
  const pieces = text.split('\n');
  const tail = pieces.pop()!;
  const records: any[] = [];
  const damaged: string[] = [];
  for (const line of pieces) {
    if (line === '') continue;
    try {
      records.push(JSON.parse(line));
    } catch {
      damaged.push(line.length > 200 ? `${line.slice(0, 200)}...` : line);
    }
  }
  return { records, damaged, partial: tail === '' ? undefined : tail };
}

/** What `scanTranscript` keeps of a transcript too long to hold as one string. */
export interface TranscriptScan {
  /** The records `keep` chose, in order. */
  kept: any[];
  /** The last complete record. */
  last: any;
  /** How many complete records. */
  count: number;
  damaged: string[];
  partial: string | undefined;
}

/**
 * `transcriptState` for a transcript of any length (a monitor's flood on a busy machine passes V8's longest
 * string): read 16 MiB at a time, split as bytes, only the records `keep` chooses (and the last) held.
 */
export function scanTranscript(file: string, keep: (record: any) => boolean): TranscriptScan {
  const out: TranscriptScan = { kept: [], last: undefined, count: 0, damaged: [], partial: undefined };
  if (!existsSync(file)) return out;
  const fd = openSync(file, 'r');
  const chunk = Buffer.alloc(16 * 1024 * 1024);
  let carry = Buffer.alloc(0);
  try {
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      if (n === 0) break;
      let data = Buffer.concat([carry, chunk.subarray(0, n)]);
      let start = 0;
      for (let nl = data.indexOf(10); nl !== -1; nl = data.indexOf(10, start)) {
        const line = data.subarray(start, nl);
        start = nl + 1;
        if (line.length === 0) continue;
        const text = line.toString('utf8');
        try {
          const record = JSON.parse(text);
          out.count += 1;
          out.last = record;
          if (keep(record)) out.kept.push(record);
        } catch {
          out.damaged.push(text.length > 200 ? `${text.slice(0, 200)}...` : text);
        }
      }
      carry = Buffer.from(data.subarray(start));
      data = carry;
    }
  } finally {
    closeSync(fd);
  }
  out.partial = carry.length === 0 ? undefined : carry.toString('utf8');
  return out;
}

/**
 * Process `pid` catches `signal` (its bit in SigCgt, /proc/<pid>/status). Node itself catches SIGINT and SIGTERM
 * from its start (to reset the terminal, then die of the signal); SIGHUP only once a listener is added. The
 * commands add their SIGHUP listener after the others (bin/exit.ts), so `catches(pid, 'SIGHUP')` says the run
 * handles all three; while a wait has them off (lib/util/default-signals.ts) it is false again.
 */
export function catches(pid: number, signal: NodeJS.Signals): boolean {
  const number = osConstants.signals[signal];
  let status: string;
  try {
    status = readFileSync(`/proc/${pid}/status`, 'utf8');
  } catch {
    return false;
  }
  const mask = /^SigCgt:\s+([0-9a-f]+)$/m.exec(status);
  return mask !== null && (BigInt(`0x${mask[1]}`) & (1n << BigInt(number - 1))) !== 0n;
}

/** Every file under `dir`, as paths relative to it (symlinks listed, not followed). */
export function listTree(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(join(dir, rel), { withFileTypes: true })) {
      const path = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        out.push(`${path}/`);
        walk(path);
      } else {
        out.push(path);
      }
    }
  };
  walk('');
  return out.sort();
}

/** File mode bits (permissions only). */
export function modeOf(path: string): number {
  return statSync(path).mode & 0o777;
}

/** The session line of a run's stdout. */
export function sessionFromStdout(stdout: Buffer | string): { session_id: string; session_file: string } {
  const text = typeof stdout === 'string' ? stdout : stdout.toString('utf8');
  return JSON.parse(text.slice(0, text.indexOf('\n'))).result;
}

export { until } from '../support/run.js';

/** One generic event as an NDJSON line. */
export const ev = (o: object): string => `${JSON.stringify(o)}\n`;

/** The run's result, failing the test when the process hung (it was killed at the hang limit). */
export async function finished(run: Spawned): Promise<Exited> {
  const result = await run.exit;
  if (result.hung) throw new Error(`the process hung and was killed after ${HANG_LIMIT_MS} ms; stderr: ${result.stderr.slice(0, 2000)}`);
  return result;
}
