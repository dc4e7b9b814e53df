// `asyncai-log sessions [id]`: parses the sessions command's flags and calls runSessions (lib/sessions/run.ts);
// exit 0, 1 when an id names no session or several or a store could not be read, 2 on a usage error.
import { homedir, tmpdir } from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { listedFormats, parseSessionDirs, parseSince, runSessions, UsageError } from '../../lib/sessions/index.js';
import { SESSIONS_EXAMPLES, SESSIONS_NOTES, helpWidth } from '../help.js';
import { runCommand } from '../exit.js';

interface SessionsArgs {
  id?: string;
  agent: string[];
  cwd?: string;
  here: boolean;
  since?: string;
  grep?: string;
  json: boolean;
  table: boolean;
  cache: boolean;
  'session-dir': string[];
}

export const sessionsCommand: CommandModule<object, SessionsArgs> = {
  command: 'sessions [id]',
  describe: 'list every session of every agent on this machine, newest first (a table on a terminal, else NDJSON)',
  builder: (y) => y
    .positional('id', { type: 'string', describe: 'only the session of this id, or of this unique prefix of 8 or more characters' })
    .option('agent', {
      type: 'string', array: true, nargs: 1, default: [], requiresArg: true,
      describe: `<format>: only this agent's sessions (repeat for more): ${listedFormats().join(', ')}`,
    })
    .option('cwd', { type: 'string', requiresArg: true, describe: '<dir>: only sessions of this project directory or one below it' })
    .option('here', { type: 'boolean', default: false, describe: 'only sessions of the current directory or one below it (--cwd .)' })
    .option('since', { type: 'string', requiresArg: true, describe: '<time>: only sessions updated since then: a date or time (2026-12-01, 2026-12-01T10:00Z) or an age (30m, 12h, 7d, 2w)' })
    .option('grep', { type: 'string', requiresArg: true, describe: '<text>: only sessions whose conversation holds this text (any case), with where it matched' })
    .option('json', { type: 'boolean', default: false, describe: 'NDJSON even on a terminal' })
    .option('table', { type: 'boolean', default: false, describe: 'a table even when stdout is not a terminal' })
    .option('cache', { type: 'boolean', default: true, describe: 'keep what was read of each session in ~/.cache/asyncai-log ($XDG_CACHE_HOME); --no-cache: read every session again, keep nothing' })
    .option('session-dir', {
      type: 'string', array: true, nargs: 1, default: [], requiresArg: true,
      describe: '<format>=<path>: the root that agent\'s sessions are listed under (default: the agent\'s own, e.g. $CLAUDE_CONFIG_DIR, else ~/.claude)',
    })
    .example(SESSIONS_EXAMPLES)
    .epilogue(SESSIONS_NOTES) as unknown as Argv<SessionsArgs>,
  handler: async (argv: ArgumentsCamelCase<SessionsArgs>) => {
    await runCommand(async () => {
      const formats = listedFormats();
      for (const agent of argv.agent) {
        if (!formats.includes(agent)) throw new UsageError(`--agent: unknown agent ${JSON.stringify(agent)} (one of ${formats.join(', ')})`);
      }
      const sessionDirs = parseSessionDirs(argv['session-dir']);
      for (const format of Object.keys(sessionDirs)) {
        if (!formats.includes(format)) throw new UsageError(`--session-dir: unknown format ${JSON.stringify(format)} (one of ${formats.join(', ')})`);
      }
      if (argv.json && argv.table) throw new UsageError('--json and --table cannot be combined');
      if (argv.here && argv.cwd !== undefined) throw new UsageError('--here and --cwd cannot be combined');
      if (argv.grep === '') throw new UsageError('--grep: the text is empty');
      const since = argv.since === undefined ? undefined : parseSince(argv.since, Date.now());
      const cwd = argv.here ? '.' : argv.cwd;
      return runSessions({
        ...(argv.id !== undefined ? { id: argv.id } : {}),
        agents: argv.agent,
        ...(cwd !== undefined ? { cwd } : {}),
        ...(since !== undefined ? { since } : {}),
        ...(argv.grep !== undefined ? { grep: argv.grep } : {}),
        table: argv.table || (!argv.json && process.stdout.isTTY === true),
        // A table through a pipe (--table): $COLUMNS wide, else 160 columns.
        width: process.stdout.isTTY === true ? helpWidth() : Number.parseInt(process.env.COLUMNS ?? '', 10) || 160,
        noCache: !argv.cache,
        sessionDirs,
        env: process.env,
        homedir: homedir(),
        tmpdir: tmpdir(),
        processCwd: process.cwd(),
      }, { stdout: process.stdout, stderr: process.stderr });
    }, 'sessions');
  },
};
