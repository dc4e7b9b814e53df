// The default command: the filter. Parses its flags, installs the signal handlers, calls runFilter.
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import {
  DEFAULT_MAX_LINE_BYTES, diagnosticLine, fileInput, HARNESSES, monitorSpecs, parseSessionDirs, runFilter, UsageError, type FilterOptions,
} from '../../lib/filter/index.js';
import { MAX_LINE_BYTES, wholeNumber } from '../arguments.js';
import { FILTER_EXAMPLES, MAIN_NOTES, inputFormatChoices, sessionFormatChoices } from '../help.js';
import { onStopSignals, runCommand } from '../exit.js';
import { mistypedCommand } from '../usage-error.js';

export interface SessionArgs {
  'session-format': string[];
  'session-dir': string[];
  cwd?: string;
  model?: string;
}

/** The default `--session-format`: the registry's first writer, and the model it writes when an event names none. */
const DEFAULT_WRITER = HARNESSES[0]!;

/** The session flags shared by the filter and convert; `cwd` says which directory the session goes to by default. */
export function sessionFlags<T>(y: Argv<T>, cwd: string): Argv<T & SessionArgs> {
  return y
    // One value per flag (repeat the flag for more): a list must not swallow the file operands after it.
    .option('session-format', {
      type: 'string', array: true, nargs: 1, default: [DEFAULT_WRITER.format], requiresArg: true,
      describe: `<format>: transcript format to write, repeatable: ${sessionFormatChoices()} (default: ${DEFAULT_WRITER.format})`,
    })
    .option('session-dir', {
      type: 'string', array: true, nargs: 1, default: [], requiresArg: true,
      describe: `<format>=<path>: that format's storage root, repeatable (default: ${HARNESSES.map((h) => `${h.format}: ${h.rootHelp}`).join('; ')})`,
    })
    .option('cwd', { type: 'string', requiresArg: true, describe: `<dir>: the project directory the session belongs to (default: ${cwd})` })
    .option('model', {
      type: 'string', requiresArg: true,
      describe: `<id>: model for assistant records whose event names none (default: ${DEFAULT_WRITER.defaultModel} for ${DEFAULT_WRITER.format})`,
    }) as unknown as Argv<T & SessionArgs>;
}

/** `--max-line-bytes`, the filter's and convert's. */
export const maxLineBytesFlag = {
  type: 'string', default: DEFAULT_MAX_LINE_BYTES, requiresArg: true, coerce: wholeNumber('max-line-bytes', 1, MAX_LINE_BYTES),
  describe: '<n>: longest input line accepted, in bytes, 1 to 1 GiB; a longer one is reported and skipped (default: 67108864, 64 MiB)',
} as const;

/**
 * How long a run may take to end after SIGINT, SIGTERM or SIGHUP before it is ended as it stands: a last resort for a
 * run that is stuck, not a slow one. On a busy machine the normal end (a flooding monitor's last pipe load
 * written, each monitor's stopped notice) took more than 2 s, and an exit then lost those notices.
 */
const STOP_MS = 10_000;

interface FilterArgs extends SessionArgs {
  'agent-name': string;
  files: string[];
  session: boolean;
  echo: boolean;
  strict: boolean;
  from: string;
  prompt?: string;
  'fidelity-json'?: string;
  'max-line-bytes': number;
  monitor?: string | string[];
  'monitor-description'?: string | string[];
}

/** A flag given once or repeated, as a list. */
function list(value: string | string[] | undefined): string[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

export const filterCommand: CommandModule<object, FilterArgs> = {
  command: '$0 [files..]',
  describe: 'read agent events (files in order, else stdin) and write session transcripts (the default command)',
  builder: (y) => sessionFlags(y, "the input's own where it names one, else the current directory")
    .positional('files', { type: 'string', array: true, describe: 'input files, read in order as one stream (-: stdin)' })
    .option('agent-name', { type: 'string', default: 'asyncai-log', requiresArg: true, describe: '<name>: agent_name in the session line (default: asyncai-log)' })
    .option('session', { type: 'boolean', default: true, describe: 'write transcripts and print the session line; --no-session: neither (default: on)' })
    .option('echo', { type: 'boolean', default: false, describe: 'after the session line, copy the input to stdout unchanged (tee)' })
    .option('strict', { type: 'boolean', default: false, describe: 'stop at the first bad line: write what came before, exit 1' })
    .option('from', {
      type: 'string', default: 'auto', requiresArg: true,
      describe: `<format>: input format: ${inputFormatChoices()} (default: auto, decided from the first line)`,
    })
    .option('prompt', { type: 'string', requiresArg: true, describe: '<text>: record <text> as the first user turn, for streams that do not print their prompt' })
    .option('fidelity-json', {
      type: 'string', requiresArg: true,
      describe: '<file>: at the end, write what each session kept, changed and dropped of the input, by element kind (a new file; never overwritten)',
    })
    .option('max-line-bytes', maxLineBytesFlag)
    .option('monitor', {
      type: 'string',
      describe: '[<command>]: run <command> with $SHELL -c and record each line it prints as a monitor event, repeatable; '
        + 'without a command, stdin is plain text and each line is one',
    })
    .option('monitor-description', {
      type: 'string', requiresArg: true,
      describe: '<text>: description of the n-th --monitor, repeatable, paired by position (default: the command, or "stdin")',
    })
    .example(FILTER_EXAMPLES)
    .epilogue(MAIN_NOTES) as unknown as Argv<FilterArgs>,
  handler: async (argv: ArgumentsCamelCase<FilterArgs>) => {
    const controller = new AbortController();
    let signalCode = 0;
    const onSignal = (code: number) => {
      if (signalCode !== 0) process.exit(code); // the second signal: at once
      signalCode = code;
      // A terminal has echoed ^C where the cursor was: what we say next starts on a line of its own.
      if (code === 130 && process.stderr.isTTY) process.stderr.write('\n');
      controller.abort();
      // The run stops reading and writes what it has (records are written as they are read); whatever holds
      // it up after that (monitors dying slowly, a reader that no longer reads stdout) does not keep it alive.
      setTimeout(() => process.exit(code), STOP_MS).unref();
    };
    // Monitors run in their own process groups, out of reach of a hangup: the run stops them on SIGHUP too.
    onStopSignals(onSignal);
    const monitors = monitorSpecs(list(argv.monitor), list(argv['monitor-description']));
    await runCommand(async () => {
      if (typeof monitors === 'string') throw new UsageError(monitors);
      const files = argv.files ?? [];
      const typo = mistypedCommand(files, existsSync);
      if (typo !== undefined) throw new UsageError(typo);
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
        ...(argv['fidelity-json'] !== undefined ? { fidelityJson: argv['fidelity-json'] } : {}),
      };
      // A file on stdin is read on the main thread (lib/input/file-input.ts); a pipe stays process.stdin.
      const file = fileInput(0);
      const stdin = file ?? process.stdin;
      const result = await runFilter(options, {
        stdin, stdout: process.stdout, stderr: process.stderr, signal: controller.signal,
      });
      if (process.stderr.isTTY) {
        for (const harness of result.harnesses) {
          process.stderr.write(diagnosticLine(`resume with: ${harness.resumeCommand}  (from ${harness.cwd})`));
        }
      }
      return signalCode !== 0 ? signalCode : result.code;
    });
  },
};
