// The project directory a CLI that resolves its working directory (Gemini CLI, Qwen Code) files a session under.
import { realpathSync } from 'node:fs';

/** The project path the CLI would use: the directory with symlinks resolved (a path from the input is taken as it is). */
export function projectPath(cwd: string, fromInput: boolean): string {
  if (fromInput) return cwd;
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}
