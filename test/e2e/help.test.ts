// --help, the man page and shell completion, run as a user runs them: the examples and the accepted values
// are in each command's help, the help wraps to the terminal (80 columns when stdout is not one), the man
// page says what --help says, and `asyncai-log completion` completes commands, flags and their values.
import { describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { knownFormats } from '../../lib/agents/index.js';
import { inputFormatNames } from '../../lib/agents/input-formats.js';
import { MAN_SECTIONS, parseManPage } from '../../scripts/man-page.mjs';
import { ROOT, cleanEnv, run, runBin, tempDir, BIN } from '../support/run.js';

/** The help as a terminal of `columns` shows it (script(1) gives the bin a pseudo-terminal). */
async function helpInTerminal(args: string[], columns: number): Promise<string> {
  const command = `stty cols ${columns} rows 50; exec "${process.execPath}" "${BIN}" ${args.join(' ')}`;
  const r = await run('script', ['-qec', command, '/dev/null'], { env: cleanEnv() });
  expect(r.code).toBe(0);
  return r.stdout.replace(/\r/g, '');
}

const widest = (text: string) => Math.max(...text.split('\n').map((line) => line.length));
/** The help with its wrapping and alignment undone: words separated by single spaces. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
/** The Options section of a help. */
const optionsOf = (text: string) => text.slice(text.indexOf('Options:'), text.indexOf('Examples:'));
const GLUED_LABEL = /\S\[(boolean|string|number|array|count|required|default|choices)/;

describe('--help', () => {
  test("each command's help has examples of its real uses", async () => {
    const main = (await runBin(['--help'])).stdout;
    for (const example of [
      'some-agent --json | asyncai-log', 'claude --resume <session_id>',
      'codex exec --json "fix the bug" | asyncai-log --prompt "fix the bug"',
      'claude -p --output-format stream-json --verbose "fix the bug" \\',
      '--monitor "tail -f build.log"', 'asyncai-log --from codex-rollout < rollout-', 'codex resume <session_id of the codex-cli entry in the session line>',
      'asyncai-log read <session_id>', 'asyncai-log convert ~/.codex/sessions',
    ]) expect(main).toContain(example);
    expect((await runBin(['read', '--help'])).stdout).toContain('asyncai-log read <session_id> | asyncai-log --cwd ~/elsewhere');
    expect((await runBin(['convert', '--help'])).stdout).toContain('asyncai-log convert ~/.codex/sessions --dry-run');
  });

  test('the filter and convert list the values of --session-format and --from', async () => {
    for (const args of [['--help'], ['convert', '--help']]) {
      const help = flat((await runBin(args)).stdout);
      expect(help).toContain(`--session-format <format>: transcript format to write, repeatable: ${knownFormats().join(', ')} (default: claude-code-cli)`);
      expect(help).toMatch(new RegExp(`--from <format>: input format[^:]*: ${['auto', ...inputFormatNames()].join(', ')} \\(default: auto`));
    }
  });

  test("each command's help offers only what the command does", async () => {
    const convert = optionsOf((await runBin(['convert', '--help'])).stdout);
    expect(convert).not.toContain('--agent-name');
    expect(convert).not.toContain('session line');
    expect(convert).not.toMatch(/--(echo|strict|prompt|monitor|threads)\b/);
    const read = optionsOf((await runBin(['read', '--help'])).stdout);
    expect(read).not.toMatch(/--(session-format|cwd|model|from|agent-name|jobs)\b/);
    const main = flat(optionsOf((await runBin(['--help'])).stdout));
    expect(main).toContain('--agent-name <name>: agent_name in the session line');
    expect(main).not.toMatch(/--(jobs|dry-run|usage|tree|threads)\b/);
  });

  test('without a terminal the help is 80 columns wide', async () => {
    for (const args of [['--help'], ['read', '--help'], ['convert', '--help']]) {
      const help = (await runBin(args)).stdout;
      expect(widest(help)).toBeLessThanOrEqual(80);
      expect(widest(help)).toBeGreaterThan(72);
      // Types and defaults are said in each option's text, never in a column that can glue onto it.
      expect(help).not.toMatch(/\[(boolean|string|number|array|count)\]/);
    }
  });

  test('in a terminal the help wraps to its width, and never glues a word to a label', async () => {
    for (const columns of [50, 64, 100, 132]) {
      for (const args of [['--help'], ['convert', '--help']]) {
        const help = await helpInTerminal(args, columns);
        expect(help).toContain('--session-format');
        expect(widest(help)).toBeLessThanOrEqual(columns);
        if (columns > 80) expect(widest(help)).toBeGreaterThan(80);
        expect(help).not.toMatch(GLUED_LABEL);
      }
    }
  });
});

describe('man page', () => {
  test('asyncai-log(1) holds the --help of each command, as the bin prints it', async () => {
    const page = readFileSync(join(ROOT, 'dist', 'man', 'asyncai-log.1'), 'utf8');
    expect(page).toMatch(/^\.TH ASYNCAI\\-LOG 1 /);
    const sections = parseManPage(page);
    for (const { title, args } of MAN_SECTIONS) {
      expect(sections[title]).toBe((await runBin(args)).stdout.replace(/\n+$/, ''));
    }
  });

  test('package.json installs it', () => {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8'));
    expect(pkg.man).toEqual(['./dist/man/asyncai-log.1']);
    expect(pkg.files).toContain('dist/man');
  });
});

describe('completion', () => {
  /** A bash that has sourced `asyncai-log completion`, completing `line` (the word under the cursor last). */
  async function complete(line: string[]): Promise<string[]> {
    const bin = tempDir('asyncai-log-path-');
    mkdirSync(bin, { recursive: true });
    symlinkSync(join(ROOT, 'bin', 'launch.mjs'), join(bin, 'asyncai-log'));
    const env = cleanEnv({ PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`, SHELL: '/bin/bash' });
    const words = line.map((word) => `'${word}'`).join(' ');
    const script = `source <(asyncai-log completion); COMP_WORDS=(${words}); COMP_CWORD=${line.length - 1}; `
      + '_asyncai-log_yargs_completions; printf "%s\\n" "${COMPREPLY[@]}"';
    const r = await run('bash', ['-c', script], { env });
    expect(r.stderr).toBe('');
    return r.stdout.split('\n').filter((word) => word !== '');
  }

  test('asyncai-log completion prints a bash script, and a zsh one under zsh', async () => {
    const bash = await runBin(['completion'], { env: cleanEnv({ SHELL: '/bin/bash' }) });
    expect(bash.code).toBe(0);
    expect(bash.stdout).toContain('complete -o bashdefault -o default -F _asyncai-log_yargs_completions asyncai-log');
    const zsh = await runBin(['completion'], { env: cleanEnv({ SHELL: '/usr/bin/zsh' }) });
    expect(zsh.code).toBe(0);
    expect(zsh.stdout).toMatch(/^#compdef asyncai-log/);
    expect(zsh.stdout).toContain('compdef _asyncai-log_yargs_completions asyncai-log');
  });

  test('bash completes commands, each command\'s flags, and the values of --session-format and --from', async () => {
    expect(await complete(['asyncai-log', ''])).toEqual(['read', 'convert', 'sessions', 'completion']);
    expect(await complete(['asyncai-log', 'conv'])).toEqual(['convert']);
    expect(await complete(['asyncai-log', '--session-f'])).toEqual(['--session-format']);
    expect(await complete(['asyncai-log', '--no-s'])).toEqual(['--no-session', '--no-strict']);
    expect(await complete(['asyncai-log', '--session-format', ''])).toEqual(knownFormats());
    expect(await complete(['asyncai-log', '--from', 'codex-'])).toEqual(inputFormatNames().filter((name) => name.startsWith('codex-')));
    expect(await complete(['asyncai-log', 'convert', '--dry'])).toEqual(['--dry-run']);
    expect(await complete(['asyncai-log', 'convert', 'x', '--session-dir', 'co'])).toEqual(['codex-cli=', 'copilot-cli=']);
    expect(await complete(['asyncai-log', 'read', '--tr'])).toEqual(['--tree']);
    expect(await complete(['asyncai-log', 'sessions', '--agent', 'q'])).toEqual(['qwen-code']);
  });
});

describe('unknown flags', () => {
  // [arguments, what is said, the command whose help to try]
  const cases: [string[], string, string][] = [
    [['--sesion-format', 'x'], 'unknown option --sesion-format (did you mean --session-format?)', ''],
    [['--no-sesion'], 'unknown option --no-sesion (did you mean --no-session?)', ''],
    [['--modle=opus'], 'unknown option --modle (did you mean --model?)', ''],
    [['--cwd', '/p', '--frobnicate'], 'unknown option --frobnicate', ''],
    [['convert', '--dryrun', 'logs'], 'unknown option --dryrun (did you mean --dry-run?)', ' convert'],
    [['convert', 'logs', '--echo'], 'unknown option --echo', ' convert'],
    [['read', 'x.jsonl', '--tre'], 'unknown option --tre (did you mean --tree?)', ' read'],
    [['-z'], 'unknown option -z', ''],
    [['conver', 'logs'], 'unexpected argument "conver" (did you mean convert?)', ''],
  ];
  for (const [args, message, command] of cases) {
    test(`asyncai-log ${args.join(' ')}: one line naming it and the help to try, exit 2, nothing written`, async () => {
      const home = tempDir();
      const r = await runBin(args, { input: '{"type":"user","text":"hi"}\n', env: cleanEnv({ CLAUDE_CONFIG_DIR: home, CODEX_HOME: home }) });
      expect(r.code).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toBe(`asyncai-log: ${message}\nTry 'asyncai-log${command} --help'.\n`);
    });
  }
});
