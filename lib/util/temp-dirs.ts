// Private temporary directories that must not outlive the process: each is made 0700 under a temporary
// directory and removed by its owner when done, or by `removeTempDirs` when a signal ends the process first
// (a Ctrl-C during `read -` left its copy of stdin, hundreds of MB, in $TMPDIR).
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';

/** The directories made and not yet removed. */
const live = new Set<string>();

/**
 * Make a new private directory `<under>/<prefix>XXXXXX`, known from the moment it exists: made synchronously,
 * so no signal can be handled between its creation and its being listed.
 */
export function makeTempDir(under: string, prefix: string): string {
  const dir = mkdtempSync(join(under, prefix));
  live.add(dir);
  return dir;
}

/** Remove a directory `makeTempDir` made, with everything in it. */
export async function removeTempDir(dir: string): Promise<void> {
  await process.getBuiltinModule('node:fs/promises').rm(dir, { recursive: true, force: true });
  live.delete(dir);
}

/** Remove every directory still listed, at once (a signal handler's last act before the process exits). */
export function removeTempDirs(): void {
  for (const dir of live) {
    try {
      rmSync(dir, { recursive: true, force: true });
    } catch {
      // Nothing more can be done on the way out.
    }
    live.delete(dir);
  }
}
