// `asyncai-log read <transcript | session id>...`: parses the read command's flags and calls runRead
// (lib/read/run-read.ts); exit 0, 1 when a transcript could not be read, 2 on a usage error, 130/143/129
// after SIGINT/SIGTERM/SIGHUP (its temporary copy of a stream removed).
import { homedir, tmpdir } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { parseSessionDirs, removeTempDirs, runRead, USAGE_GROUPS, UsageError, type UsageGroup } from '../../lib/read/index.js';
import { MAX_LINE_BYTES, MAX_THREADS, wholeNumber } from '../arguments.js';
import { READ_EXAMPLES, READ_NOTES } from '../help.js';
import { onStopSignals, runCommand } from '../exit.js';

interface ReadArgs {
  transcripts: string[];
  usage: boolean;
  by?: string;
  tree: boolean;
  inspect: boolean;
  events: boolean;
  subagents: boolean;
  branch?: string;
  spills: boolean;
  'session-dir': string[];
  'max-record-bytes'?: number;
  threads?: number;
  'fidelity-json'?: string;
}

export const readCommand: CommandModule<object, ReadArgs> = {
  command: 'read [transcripts..]',
  describe: 'print agent sessions (files, session ids or unique prefixes of them, - for stdin) and other agent logs as generic events',
  builder: (y) => y
    .positional('transcripts', {
      type: 'string', array: true,
      describe: 'transcript or log files (any format the filter reads), session ids of any agent or unique prefixes of 8 or more characters (looked up under each agent\'s root), - (stdin); with --usage, also directories, and none: every session on this machine',
      default: [],
    })
    .option('usage', { type: 'boolean', default: false, describe: "print the session's token totals instead: one JSON object per transcript (with --by, a directory or no input: grouped)" })
    .option('by', {
      type: 'string', requiresArg: true,
      describe: 'session|day|month|model: with --usage, every agent\'s tokens in one shape grouped by this (days local), with a total row; a table on a terminal, NDJSON otherwise (default with a directory or no input: session)',
    })
    .option('tree', { type: 'boolean', default: false, describe: 'print the branch structure instead: one JSON line per branch' })
    .option('inspect', { type: 'boolean', default: false, describe: "print each session's shape instead, none of its text: records by kind, events, turns, tool calls by name, usage by model, branches, subagents, partial; one JSON object per session" })
    .option('branch', { type: 'string', requiresArg: true, describe: '<id>: read the branch ending at this record (a Claude Code uuid, a pi entry id; default: the one the agent resumes)' })
    .option('events', { type: 'boolean', default: false, describe: 'also print the context the model saw that was not a turn, as context events' })
    .option('subagents', { type: 'boolean', default: false, describe: "also read the session's subagent transcripts" })
    .option('spills', { type: 'boolean', default: true, describe: 'inline spilled tool output; --no-spills: keep the pointer' })
    .option('session-dir', {
      // One value per flag (repeat the flag for more): a list must not swallow the inputs after it.
      type: 'string', array: true, nargs: 1, default: [], requiresArg: true,
      describe: '<format>=<path>: the root that agent\'s session ids are looked up under (default: the agent\'s own, e.g. $CLAUDE_CONFIG_DIR, else ~/.claude)',
    })
    .option('max-record-bytes', {
      type: 'string', requiresArg: true, coerce: wholeNumber('max-record-bytes', 1, MAX_LINE_BYTES),
      describe: '<n>: longest record read, in bytes, 1 to 1 GiB; a longer one is skipped with a warning (default: 65 MiB, what the filter writes from its longest line)',
    })
    .option('threads', {
      type: 'string', requiresArg: true, coerce: wholeNumber('threads', 0, MAX_THREADS),
      describe: '<n>: worker threads for a transcript of 16 MiB or more (with --usage: for several transcripts; with --by: for many session files), 0 to 256; 0: one thread (default: 2 on a machine of 2 cores or more)',
    })
    .option('fidelity-json', {
      type: 'string', requiresArg: true,
      describe: '<file>: at the end, write per input the elements printed by kind, its warnings, and whether it was cut off (a new file; never overwritten)',
    })
    .example(READ_EXAMPLES)
    .epilogue(READ_NOTES) as unknown as Argv<ReadArgs>,
  handler: async (argv: ArgumentsCamelCase<ReadArgs>) => {
    // `read` writes no file of its own but its temporary copies: a signal removes them and ends it at once.
    onStopSignals((code) => {
      removeTempDirs();
      process.exit(code);
    });
    await runCommand(async () => {
      if (argv.usage && argv.tree) throw new UsageError('--usage and --tree cannot be combined');
      if (argv.by !== undefined && !(USAGE_GROUPS as readonly string[]).includes(argv.by)) {
        throw new UsageError(`--by ${argv.by}: expected one of ${USAGE_GROUPS.join(', ')}`);
      }
      if (argv.by !== undefined && !argv.usage) throw new UsageError('--by needs --usage');
      if (argv.inspect) {
        const other = ([['usage', argv.usage], ['tree', argv.tree], ['branch', argv.branch !== undefined], ['events', argv.events],
          ['subagents', argv.subagents], ['fidelity-json', argv['fidelity-json'] !== undefined]] as const).find(([, given]) => given);
        if (other !== undefined) throw new UsageError(`--inspect and --${other[0]} cannot be combined`);
      }
      if (argv.transcripts.length === 0 && !argv.usage) {
        throw new UsageError('missing argument: read wants a transcript file, a session id or - (stdin)');
      }
      if (process.stdin.isTTY && argv.transcripts.includes('-')) {
        process.stderr.write('asyncai-log: reading a transcript or log from the terminal, one JSON object per line; end with Ctrl-D\n');
      }
      const maxRecordBytes = argv['max-record-bytes'];
      const threads = argv.threads;
      // node's --expose-gc (the command's shebang): a full collection between a transcript's two passes.
      const collect = (globalThis as { gc?: () => void }).gc;
      const code = await runRead({
        inputs: argv.transcripts,
        usage: argv.usage,
        ...(argv.by !== undefined ? { by: argv.by as UsageGroup } : {}),
        table: process.stdout.isTTY === true,
        tree: argv.tree,
        inspect: argv.inspect,
        events: argv.events,
        subagents: argv.subagents,
        spills: argv.spills,
        sessionDirs: parseSessionDirs(argv['session-dir']),
        env: process.env,
        homedir: homedir(),
        tmpdir: tmpdir(),
        processCwd: process.cwd(),
        ...(argv.branch !== undefined ? { branch: argv.branch } : {}),
        ...(maxRecordBytes !== undefined ? { maxRecordBytes } : {}),
        ...(threads !== undefined ? { threads } : {}),
        ...(collect !== undefined ? { collect } : {}),
        ...(argv['fidelity-json'] !== undefined ? { fidelityJson: argv['fidelity-json'] } : {}),
      }, { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin });
      return code;
    }, 'read');
  },
};
