// The default command: the filter. Parses its flags, installs the signal handlers, calls runFilter.
import { homedir } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { parseSessionDirs, runFilter, UsageError, type FilterOptions } from '../../lib/filter.js';
import { fileInput } from '../../lib/input/file-input.js';
import { DEFAULT_MAX_LINE_BYTES } from '../../lib/input/lines.js';
import { monitorSpecs } from '../../lib/monitor/index.js';
import { MAX_LINE_BYTES, MAX_THREADS, wholeNumber } from '../arguments.js';
import { runCommand } from '../exit.js';

export interface SessionArgs {
  'session-format': string[];
  'session-dir': string[];
  cwd?: string;
  model?: string;
  'agent-name': string;
}

/** The session flags shared by the filter and convert. */
export function sessionFlags<T>(y: Argv<T>): Argv<T & SessionArgs> {
  return y
    // One value per flag (repeat the flag for more): a list must not swallow the file operands after it.
    .option('session-format', {
      type: 'string', array: true, nargs: 1, default: ['claude-code-cli'], requiresArg: true,
      describe: 'transcript format to write (repeatable)',
    })
    .option('session-dir', {
      type: 'string', array: true, nargs: 1, default: [], requiresArg: true,
      describe: "a harness's storage root, as <format>=<path> (repeatable)",
    })
    .option('cwd', { type: 'string', requiresArg: true, describe: 'project directory the session belongs to' })
    .option('model', { type: 'string', requiresArg: true, describe: 'model for assistant records that name none' })
    .option('agent-name', { type: 'string', default: 'asyncai-log', requiresArg: true, describe: 'agent name for the session line' }) as unknown as Argv<T & SessionArgs>;
}

/** `--max-line-bytes`, the filter's and convert's. */
export const maxLineBytesFlag = {
  type: 'string', default: DEFAULT_MAX_LINE_BYTES, requiresArg: true, coerce: wholeNumber('max-line-bytes', 1, MAX_LINE_BYTES),
  describe: 'longest input line accepted, in bytes (1 to 1 GiB)',
} as const;

/** How long a run may take to end after SIGINT or SIGTERM before it is ended as it stands. */
const STOP_MS = 2000;

interface FilterArgs extends SessionArgs {
  files: string[];
  session: boolean;
  echo: boolean;
  strict: boolean;
  from: string;
  prompt?: string;
  'max-line-bytes': number;
  monitor?: string | string[];
  'monitor-description'?: string | string[];
  threads: number;
}

/** A flag given once or repeated, as a list. */
function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const filterCommand: CommandModule<object, FilterArgs> = {
  command: '$0 [files..]',
  describe: 'read events (files in order, else stdin) and write a session transcript (the default command)',
  builder: (y) => sessionFlags(y)
    .positional('files', { type: 'string', array: true, describe: 'input files, read in order as one stream (-: stdin)' })
    .option('session', { type: 'boolean', default: true, describe: 'write a transcript (--no-session: none)' })
    .option('echo', { type: 'boolean', default: false, describe: 'after the session line, copy every input line to stdout' })
    .option('strict', { type: 'boolean', default: false, describe: 'stop at the first bad line (exit 1)' })
    .option('threads', {
      type: 'string', default: 2, requiresArg: true, coerce: wholeNumber('threads', 0, MAX_THREADS),
      describe: 'worker threads for a large file of events, 0 to 256 (0: read on one thread)',
    })
    .option('from', { type: 'string', default: 'auto', requiresArg: true, describe: 'input format (auto: from the first line)' })
    .option('prompt', { type: 'string', requiresArg: true, describe: 'first user turn, for streams that do not echo their prompt' })
    .option('max-line-bytes', maxLineBytesFlag)
    .option('monitor', {
      type: 'string',
      describe: 'run a command ($SHELL -c) and record each stdout line as a monitor event (repeatable); without a command, stdin is plain text and each line is one',
    })
    .option('monitor-description', {
      type: 'string', requiresArg: true,
      describe: 'description of the n-th --monitor (repeatable, paired by position; default: the command, or "stdin")',
    }) as unknown as Argv<FilterArgs>,
  handler: async (argv: ArgumentsCamelCase<FilterArgs>) => {
    const controller = new AbortController();
    let signalCode = 0;
    const onSignal = (code: number) => () => {
      if (signalCode !== 0) process.exit(code); // the second signal: at once
      signalCode = code;
      // A terminal has echoed ^C where the cursor was: what we say next starts on a line of its own.
      if (code === 130 && process.stderr.isTTY) process.stderr.write('\n');
      controller.abort();
      // The run stops reading and writes what it has (records are written as they are read); whatever holds
      // it up after that (monitors dying slowly, a reader that no longer reads stdout) does not keep it alive.
      setTimeout(() => process.exit(code), STOP_MS).unref();
    };
    process.on('SIGINT', onSignal(130));
    process.on('SIGTERM', onSignal(143));
    const monitors = monitorSpecs(list(argv.monitor), list(argv['monitor-description']));
    // Monitors run in their own process groups, out of reach of a hangup: stop them ourselves.
    if (typeof monitors !== 'string' && monitors.length > 0) process.on('SIGHUP', onSignal(129));
    await runCommand(async () => {
      if (typeof monitors === 'string') throw new UsageError(monitors);
      const files = argv.files ?? [];
      // Events typed at a terminal: say what is expected and how to end, rather than wait in silence.
      if (process.stdin.isTTY && (files.length === 0 || files.includes('-'))) {
        const plain = typeof monitors !== 'string' && monitors.some((spec) => spec.command === undefined);
        process.stderr.write(plain
          ? 'asyncai-log: reading lines from the terminal, each recorded as a monitor event; end with Ctrl-D\n'
          : 'asyncai-log: reading events from the terminal, one JSON object per line (see --help); end with Ctrl-D\n');
      }
      const options: FilterOptions = {
        formats: argv['session-format'],
        sessionDirs: parseSessionDirs(argv['session-dir']),
        agentName: argv['agent-name'],
        noSession: !argv.session,
        echo: argv.echo,
        strict: argv.strict,
        from: argv.from,
        maxLineBytes: argv['max-line-bytes'],
        threads: argv.threads,
        files,
        ...(typeof monitors !== 'string' && monitors.length > 0
          ? { monitors, shell: process.env.SHELL !== undefined && process.env.SHELL !== '' ? process.env.SHELL : '/bin/sh' }
          : {}),
        env: process.env,
        homedir: homedir(),
        processCwd: process.cwd(),
        ...(argv.cwd !== undefined ? { cwd: argv.cwd } : {}),
        ...(argv.model !== undefined ? { model: argv.model } : {}),
        ...(argv.prompt !== undefined ? { prompt: argv.prompt } : {}),
      };
      // A file on stdin is read on the main thread (lib/input/file-input.ts); a pipe stays process.stdin.
      const file = fileInput(0);
      const stdin = file ?? process.stdin;
      const result = await runFilter(options, {
        stdin, ...(file ? { stdinFd: 0 } : {}), stdout: process.stdout, stderr: process.stderr, signal: controller.signal,
      });
      if (process.stderr.isTTY) {
        for (const harness of result.harnesses) {
          process.stderr.write(`asyncai-log: resume with: ${harness.resumeCommand}  (from ${harness.cwd})\n`);
        }
      }
      return signalCode !== 0 ? signalCode : result.code;
    });
  },
};
