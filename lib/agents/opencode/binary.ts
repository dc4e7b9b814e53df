// Finding the `opencode` program the writer hands its sessions to: named by ASYNCAI_LOG_OPENCODE, else the
// first executable `opencode` on PATH. Only this fixed name is looked up; nothing from the input is.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';

/** The variable that names the program (a path), ahead of PATH. */
export const OPENCODE_VARIABLE = 'ASYNCAI_LOG_OPENCODE';

/** The one line a run without the program stops with. */
export const MISSING_OPENCODE = `--session-format opencode needs the opencode program: install it (npm install -g opencode-ai) `
  + `or name it with ${OPENCODE_VARIABLE}=<path>`;

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The path of the `opencode` program, or undefined when there is none. */
export function findOpencode(env: Record<string, string | undefined>): string | undefined {
  const named = env[OPENCODE_VARIABLE];
  if (named !== undefined && named !== '') return isAbsolute(named) && executable(named) ? named : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, 'opencode');
    if (executable(candidate)) return candidate;
  }
  return undefined;
}
