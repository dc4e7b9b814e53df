// The thread decision: a large regular file of generic events, written for one agent that has a writer on
// worker threads (`Agent.threaded`, from the registry), is parsed and serialised on worker threads; anything
// else is read line by line on this thread.
import { fstatSync, readSync } from 'node:fs';
import { findAgent } from '../agents/index.js';
import { detectInputFormat, findInputFormat } from '../input/index.js';
import { LineSplitter } from '../input/lines.js';
import type { FilterLines } from './lines.js';
import type { FilterSession } from './session.js';
import type { FilterIO, FilterOptions } from './types.js';

/** Files smaller than this are not worth starting threads for. */
const THREADS_MIN_BYTES = 8 * 1024 * 1024;
/** Bytes read to see what the input is. */
const HEAD_BYTES = 64 * 1024;

/** What the head of the input decided: how many threads (0: none), and the bytes read to decide. */
export interface ThreadPlan {
  head: Buffer;
  threads: number;
}

/**
 * When the filter runs on worker threads: its only input (stdin or one file argument) is a regular file of at
 * least `threadsMinBytes`, its first line is a generic event (or `--from events` says so), the only transcript
 * is of an agent with a writer on threads, and nothing needs the input line by line on this thread (no
 * monitor, `--echo` or `--strict`). Reads the head of the file to decide; when the answer is no, the caller
 * puts the head back.
 */
export function threadPlan(options: FilterOptions, fd: number): ThreadPlan | undefined {
  const threads = options.threads ?? 2;
  if (threads <= 0 || options.noSession || options.echo || options.strict) return undefined;
  if ((options.monitors ?? []).length > 0 || options.formats.length !== 1) return undefined;
  if (findAgent(options.formats[0]!)?.threaded === undefined) return undefined;
  if (options.from !== 'auto' && options.from !== 'events') return undefined;
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile() || stat.size < (options.threadsMinBytes ?? THREADS_MIN_BYTES)) return undefined;
  } catch {
    return undefined;
  }
  const buf = Buffer.allocUnsafeSlow(HEAD_BYTES);
  let got = 0;
  try {
    got = readSync(fd, buf, 0, HEAD_BYTES, null);
  } catch {
    // The stream reads it again and reports what fails.
  }
  const head = buf.subarray(0, got);
  if (options.from === 'events' || firstLineIsEvent(head, got < HEAD_BYTES)) return { head, threads };
  return { head, threads: 0 };
}

/**
 * Whether the first non-blank line of `head` is a generic event (as the auto detection decides). Its lines
 * end with a newline, or at the end of `head` when it is `whole` (the input ended there).
 */
function firstLineIsEvent(head: Buffer, whole: boolean): boolean {
  const splitter = new LineSplitter();
  const [first] = [...splitter.push(head), ...(whole ? splitter.end() : [])];
  if (first?.text === undefined) return false;
  try {
    return detectInputFormat(JSON.parse(first.text))?.name === 'events';
  } catch {
    return false;
  }
}

/** The one input, a regular file on `fd` named `name`, and how the run reads its lines otherwise. */
export interface ThreadedInput {
  fd: number;
  name: string;
  plan: ThreadPlan;
  lines: FilterLines;
  session: FilterSession;
}

/**
 * Run the rest of the input on worker threads. False when the session is not one the agent writes on threads
 * (the input is then read on this thread, from the head on). A run that fails is said and ends with code 1.
 */
export async function runThreaded(input: ThreadedInput, options: FilterOptions, io: FilterIO): Promise<boolean> {
  const { session, lines, plan } = input;
  const { result } = session;
  lines.reader.adapter ??= findInputFormat('events')!.create();
  // Said at the end of the run, as any stop is.
  if (!session.open(lines.reader.adapter.facts())) return true;
  const logger = session.logger;
  const target = logger?.harnesses[0];
  const threaded = target !== undefined ? findAgent(target.format)?.threaded : undefined;
  if (!logger || !target || !threaded?.accepts(target)) return false;
  result.threads = plan.threads;
  try {
    await threaded.run(target, {
      fd: input.fd,
      head: plan.head,
      threads: plan.threads,
      ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}),
      ...(io.signal ? { signal: io.signal } : {}),
      ...(options.threadWorkerUrl !== undefined ? { workerUrl: options.threadWorkerUrl } : {}),
      sink: {
        active: () => logger.isActive(target),
        diagnostic(line, message, bad, once) {
          if (once !== undefined && !session.once.first(once)) return;
          if (bad) result.badLines += 1;
          session.report(`${input.name}:${line}: ${message}`);
        },
        event: (event, line) => session.writeOrReport(event, `${input.name}:${line}`),
        mapped(count) {
          result.events += count;
        },
        flush: () => logger.flush(),
        warn: session.report,
        mainLines(lineBase, atStart = false) {
          const splitter = new LineSplitter({ atStart, ...(options.maxLineBytes !== undefined ? { maxLineBytes: options.maxLineBytes } : {}) });
          const now = new Date().toISOString();
          return {
            push(chunk) {
              for (const line of splitter.push(chunk)) lines.handle(line, now, lineBase, input.name);
            },
            end() {
              for (const line of splitter.end()) lines.handle(line, now, lineBase, input.name);
              logger.flush();
              return splitter.lineCount;
            },
          };
        },
      },
    });
    if (io.signal?.aborted) result.aborted = true;
  } catch (error) {
    result.code = 1;
    session.report(`${input.name}: ${(error as Error).message}`);
  }
  return true;
}
