// `asyncai-log convert <file | directory>...`: parses the convert command's flags (the session flags are
// shared with the filter) and calls runConvert. Exit 0 when every input was converted or skipped, 1 when any
// failed, 2 for usage errors, 130/143/129 after SIGINT/SIGTERM/SIGHUP (a second signal stops at once).
import { availableParallelism, homedir } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { parseSessionDirs, runConvert, watchConvert } from '../../lib/convert/index.js';
import { MAX_THREADS, wholeNumber } from '../arguments.js';
import { CONVERT_EXAMPLES, CONVERT_NOTES, inputFormatChoices } from '../help.js';
import { onStopSignals, runCommand } from '../exit.js';
import { maxLineBytesFlag, sessionFlags, type SessionArgs } from './filter.js';

interface ConvertArgs extends SessionArgs {
  inputs: string[];
  'agent-name'?: string;
  from: string;
  jobs: number;
  force: boolean;
  'dry-run': boolean;
  progress?: boolean;
  subagents: boolean;
  'keep-usage': boolean;
  'max-line-bytes': number;
  watch: boolean;
}

export const convertCommand: CommandModule<object, ConvertArgs> = {
  command: 'convert <inputs..>',
  describe: 'convert log files and directories of them into sessions (only what is new or changed)',
  builder: (y) => sessionFlags(y, "the one each file names, else the current directory")
    .positional('inputs', { type: 'string', array: true, describe: 'log files, directories to walk for .jsonl, .ndjson and .json files, and session ids (or unique prefixes of 8 or more characters) of any agent' })
    // Accepted for the filter's sake and unused: convert prints no session line.
    .option('agent-name', { type: 'string', requiresArg: true, hidden: true })
    .option('from', {
      type: 'string', default: 'auto', requiresArg: true,
      describe: `<format>: input format of every file: ${inputFormatChoices()} (default: auto, per file from its first line)`,
    })
    .option('jobs', {
      type: 'string', default: availableParallelism(), requiresArg: true, coerce: wholeNumber('jobs', 1, MAX_THREADS),
      describe: '<n>: files converted at once, 1 to 256 (default: the number of cores)',
    })
    .option('force', { type: 'boolean', default: false, describe: 'convert again what the manifest says is up to date' })
    .option('dry-run', { type: 'boolean', default: false, describe: 'report what would be converted; write nothing' })
    .option('progress', { type: 'boolean', describe: 'a progress line on stderr; --no-progress: none (default: when stderr is a terminal)' })
    .option('subagents', { type: 'boolean', default: false, describe: 'also convert subagent transcripts, each as a session of its own' })
    .option('keep-usage', { type: 'boolean', default: false, describe: "keep the source's token counts in converted records (default: zeroed)" })
    .option('max-line-bytes', maxLineBytesFlag)
    .option('watch', { type: 'boolean', default: false, describe: 'keep running: convert what is new or grew as it happens, one line per change, until SIGINT/SIGTERM' })
    .example(CONVERT_EXAMPLES)
    .epilogue(CONVERT_NOTES) as unknown as Argv<ConvertArgs>,
  handler: async (argv: ArgumentsCamelCase<ConvertArgs>) => {
    const controller = new AbortController();
    let signalCode = 0;
    const onSignal = (code: number) => {
      if (signalCode !== 0) process.exit(code); // the second signal: stop now, mid-file
      signalCode = code;
      process.stderr.write('asyncai-log: convert: finishing the files in progress (a second signal stops at once)\n');
      controller.abort();
    };
    onStopSignals(onSignal);
    await runCommand(async () => {
      const maxLineBytes = argv['max-line-bytes'];
      const options = {
        inputs: argv.inputs.map(String),
        from: argv.from,
        jobs: argv.jobs,
        force: argv.force,
        dryRun: argv['dry-run'],
        subagents: argv.subagents,
        keepUsage: argv['keep-usage'],
        progress: argv.progress ?? process.stderr.isTTY === true,
        maxLineBytes,
        // node's --expose-gc (the command's shebang): a full collection between a transcript's two reads.
        collect: typeof (globalThis as { gc?: unknown }).gc === 'function',
        formats: argv['session-format'],
        sessionDirs: parseSessionDirs(argv['session-dir']),
        agentName: argv['agent-name'] ?? 'asyncai-log',
        env: process.env,
        homedir: homedir(),
        processCwd: process.cwd(),
        ...(argv.cwd !== undefined ? { cwd: argv.cwd } : {}),
        ...(argv.model !== undefined ? { model: argv.model } : {}),
      };
      const io = { stdout: process.stdout, stderr: process.stderr, signal: controller.signal };
      const summary = argv.watch && !argv['dry-run'] ? await watchConvert(options, io) : await runConvert(options, io);
      return signalCode !== 0 ? signalCode : summary.code;
    }, 'convert');
  },
};
