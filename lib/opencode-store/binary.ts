// Finding the program a flavour's writer hands its sessions to (`opencode`, `kilo`): named by its variable
// (ASYNCAI_LOG_OPENCODE, ...), else the first executable of that name on PATH. Only this fixed name is looked up;
// nothing from the input is.
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import type { Flavour } from './flavour.js';

/** The one line a run without the program stops with. */
export function missingProgram(flavour: Flavour): string {
  return `--session-format ${flavour.format} needs the ${flavour.program} program: install it (${flavour.install}) `
    + `or name it with ${flavour.programVariable}=<path>`;
}

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** The path of the flavour's program, or undefined when there is none. */
export function findProgram(flavour: Flavour, env: Record<string, string | undefined>): string | undefined {
  const named = env[flavour.programVariable];
  if (named !== undefined && named !== '') return isAbsolute(named) && executable(named) ? named : undefined;
  for (const dir of (env.PATH ?? '').split(delimiter)) {
    if (dir === '' || !isAbsolute(dir)) continue;
    const candidate = join(dir, flavour.program);
    if (executable(candidate)) return candidate;
  }
  return undefined;
}
