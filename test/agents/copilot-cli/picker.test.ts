// The real copilot (1.0.102)'s interactive `/resume` picker lists a session the bin wrote. The picker is a
// terminal UI, so the CLI runs in a real terminal: a detached tmux session of fixed size on a private socket in
// the test's temp dir (no other tmux server is touched), read with `capture-pane` until each screen shows.
// `copilot --resume` with no id did not open the picker here (with one session it resumed that one), so the test
// types `/resume` at the prompt of a new session, as a user would.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { copilotBinary, copilotVariables } from '../../support/copilot-cli.js';
import { startMockChat, type MockChat } from '../../support/mock-chat-completions.js';
import { cleanEnv, run, runBin, sessionOf, tempDir } from '../../support/run.js';

const FIRST_TEXT = 'PICKER_MARK find this session';
/** How long one screen may take to show on a loaded machine: generous, and never asserted on. */
const SCREEN_LIMIT_MS = 120_000;

let mock: MockChat;
beforeAll(async () => {
  const tmux = spawnSync('tmux', ['-V'], { encoding: 'utf8' });
  if (tmux.error || tmux.status !== 0) {
    throw new Error(`tmux is needed to drive copilot's /resume picker in a real terminal, and it did not run (${tmux.error?.message ?? tmux.stderr}): install tmux`);
  }
  mock = await startMockChat();
});
afterAll(async () => {
  await mock?.close();
});

/** A detached tmux session on a private socket, running `command` from `cwd` in a 200x50 terminal. */
async function terminal(command: string[], cwd: string, home: string) {
  const dir = tempDir('asyncai-log-tmux-');
  const socket = join(dir, 'tmux.sock');
  const config = join(dir, 'tmux.conf');
  // The pane stays after the CLI exits, so a failure still shows its last screen.
  writeFileSync(config, 'set -g remain-on-exit on\n');
  const tmux = (...args: string[]) => run('tmux', ['-S', socket, ...args], { env: cleanEnv({ HOME: home }) });
  const started = await tmux('-f', config, 'new-session', '-d', '-s', 'picker', '-x', '200', '-y', '50', '-c', cwd, ...command);
  expect(started.code, started.stderr).toBe(0);
  const screen = async () => (await tmux('capture-pane', '-p', '-t', 'picker')).stdout;
  return {
    /** Poll the screen until `check` holds, and return it; past the limit, fail showing the screen. */
    async waitFor(what: string, check: (screen: string) => boolean): Promise<string> {
      const end = Date.now() + SCREEN_LIMIT_MS;
      let shown = await screen();
      while (!check(shown)) {
        if (Date.now() > end) throw new Error(`copilot did not show ${what}; the screen was:\n${shown}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
        shown = await screen();
      }
      return shown;
    },
    /** Poll until the CLI has exited (its pane is dead), so nothing writes into its HOME any more. */
    async waitForExit(): Promise<void> {
      const end = Date.now() + SCREEN_LIMIT_MS;
      while ((await tmux('display-message', '-p', '-t', 'picker', '#{pane_dead}')).stdout.trim() !== '1') {
        if (Date.now() > end) throw new Error(`copilot did not exit; the screen was:\n${await screen()}`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    },
    type: (text: string) => tmux('send-keys', '-t', 'picker', '-l', text),
    press: (key: string) => tmux('send-keys', '-t', 'picker', key),
    close: () => tmux('kill-server'),
  };
}

test('the real copilot\'s /resume picker lists a session the bin wrote, by its first user text, at its project', async () => {
  const home = tempDir('asyncai-log-copilot-home-');
  const cwd = tempDir('asyncai-log-copilot-project-');
  const events = `${JSON.stringify({ type: 'user', text: FIRST_TEXT })}\n${JSON.stringify({ type: 'assistant', text: 'found' })}\n`;
  const written = await runBin(['--session-format', 'copilot-cli', '--cwd', cwd], { input: events, cwd, env: cleanEnv({ HOME: home }) });
  expect(written.code, written.stderr).toBe(0);
  expect(sessionOf(written).harnesses[0]!.format).toBe('copilot-cli');

  const variables = Object.entries({ HOME: home, LANG: 'C.UTF-8', ...copilotVariables(`${mock.url}/v1`) }).map(([k, v]) => `${k}=${v}`);
  const term = await terminal(['env', ...variables, copilotBinary()], cwd, home);
  try {
    // A new HOME has never trusted the project: the CLI asks first, and Enter answers its default (yes, once).
    const first = await term.waitFor('its folder-trust question or its prompt', (s) => s.includes('Confirm folder trust') || s.includes('/ commands'));
    if (first.includes('Confirm folder trust')) await term.press('Enter');
    await term.waitFor('its prompt', (s) => s.includes('/ commands') && !s.includes('Confirm folder trust'));
    await term.type('/resume');
    await term.waitFor('the /resume command in its menu', (s) => s.includes('Switch sessions'));
    await term.press('Enter');
    const picker = await term.waitFor('the session picker listing the written session', (s) => s.includes('Location') && s.includes(FIRST_TEXT));
    const row = picker.split('\n').find((line) => line.includes(FIRST_TEXT))!;
    expect(row, picker).toContain(cwd);
    // Leave the picker and the CLI the way a user does, so it finishes its writes before the temp dirs go.
    await term.press('Escape');
    await term.waitFor('its prompt again', (s) => s.includes('/ commands') && !s.includes(FIRST_TEXT));
    await term.type('/exit');
    await term.waitFor('the typed /exit', (s) => s.includes('/exit'));
    await term.press('Enter');
    await term.waitForExit();
  } finally {
    await term.close();
  }
}, 600_000);
