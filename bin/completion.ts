// Shell completion (`asyncai-log completion` prints the bash or zsh script; the script asks
// `asyncai-log --get-yargs-completions <words>`). yargs completes commands and each command's flags; this
// adds what it cannot know here: the default command's flags at the top level, and the values of
// --session-format, --from and --session-dir, and session ids after `read`, `convert` and `sessions`: those the
// sessions index holds (lib/sessions/cache.ts, written by the last `sessions` listing), read from that one file,
// so a Tab press lists no directory and reads no session. The command is ours, so that `completion --help` is its help
// and an extra argument a usage error: yargs' own prints the script for any arguments.
import type { Argv, CommandModule } from 'yargs';
import { inputFormatNames, knownFormats } from '../lib/index.js';
import { readableFormats } from '../lib/read/index.js';
import { cacheDir, cachedIds } from '../lib/sessions/index.js';
import { homedir } from 'node:os';
import { COMMANDS } from './help.js';

/** The commands whose operands may be session ids. */
const ID_COMMANDS = ['read', 'convert', 'sessions'];

type Completions = (error: Error | null, completions: string[] | undefined) => void;

/** The words being completed (the command name first, the word under the cursor last), from our argv. */
function completionWords(argv: readonly string[]): string[] {
  const at = argv.indexOf('--get-yargs-completions');
  return at === -1 ? [] : argv.slice(at + 1);
}

/** What may follow `flag`, or undefined when it takes no value we know. */
function valuesAfter(flag: string, command: string | undefined): string[] | undefined {
  if (flag === '--session-format') return knownFormats();
  if (flag === '--from') return ['auto', ...inputFormatNames()];
  if (flag === '--session-dir') return (command === 'read' || command === 'sessions' ? readableFormats() : knownFormats()).map((format) => `${format}=`);
  if (flag === '--agent' && command === 'sessions') return readableFormats();
  return undefined;
}

/** yargs' completion function (the form that may fall back on its default completion). */
export function completion(filterFlags: () => string[], argv: readonly string[] = process.argv,
  env: Record<string, string | undefined> = process.env, home: string = homedir()) {
  return (current: string, _parsed: unknown, defaultCompletion: (done?: Completions) => void, done: (completions: string[]) => void): void => {
    const words = completionWords(argv);
    const command = words.slice(1, -1).find((word) => COMMANDS.includes(word));
    const values = words.length >= 2 ? valuesAfter(words[words.length - 2]!, command) : undefined;
    if (values !== undefined) return done(values);
    if (command === undefined && current.startsWith('-')) return done(filterFlags());
    if (command !== undefined && ID_COMMANDS.includes(command) && current.length > 0 && !current.startsWith('-') && !current.includes('/')) {
      const ids = cachedIds(cacheDir(env, home)).filter((id) => id.toLowerCase().startsWith(current.toLowerCase()));
      // None: the shell's own completion (file names) stands.
      if (ids.length > 0) return done(ids);
    }
    // The default command is listed as "$0": it is what runs when no command is named, nothing to type.
    defaultCompletion((_error, completions) => done((completions ?? []).filter((entry) => !/^\$0(:|$)/.test(entry))));
  };
}

/**
 * The name yargs' completion is registered under: it must be some name, and its command (which prints the
 * script whatever follows) must be one nobody can type. No shell argument holds a NUL.
 */
export const YARGS_COMPLETION_NAME = '\u0000completion';

/** The `completion` command: no operand, no option but --help; `printScript` prints the script for $SHELL. */
export function completionCommand(printScript: () => void): CommandModule {
  return {
    command: 'completion',
    describe: 'print a bash or zsh completion script (for ~/.bashrc or ~/.zshrc)',
    builder: (y) => y.usage('$0 completion\n\nPrint a bash completion script, or a zsh one when $SHELL is zsh. Install it with:\nasyncai-log completion >> ~/.bashrc (or ~/.zshrc)'),
    handler: () => printScript(),
  };
}
