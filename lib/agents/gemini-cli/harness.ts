// The Gemini CLI harness: `<root>/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, chats that `gemini --resume
// <uuid>` loads from the project directory. A resuming CLI appends its own lines (`$set`, new messages) to the
// same file; later lines of ours follow what it wrote, whole, and replace our messages in place by id.
import { randomUUID } from 'node:crypto';
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type SessionHarness } from '../../harnesses/types.js';
import { AppendFile } from '../../session/append-file.js';
import { chatFileName, projectHash, resolveProjectSlug } from './paths.js';
import { GeminiRecordMapper, type ChatLine } from './records.js';

export const FORMAT = 'gemini-cli';

function serialize(line: ChatLine): string {
  try {
    return `${JSON.stringify(line)}\n`;
  } catch (error) {
    throw new EventRejected(`cannot be serialised: ${(error as Error).message}`);
  }
}

class GeminiHarness implements SessionHarness {
  readonly format = FORMAT;
  private foreign = false;

  constructor(
    readonly sessionId: string,
    readonly cwd: string,
    private readonly file: AppendFile,
    private readonly mapper: GeminiRecordMapper,
    private readonly warn: (message: string) => void,
    private readonly now: () => string,
  ) {}

  get sessionFile(): string {
    return this.file.path;
  }

  get resumeCommand(): string {
    return `gemini --resume ${this.sessionId}`;
  }

  add(event: GenericEvent, where: string): void {
    for (const warning of this.mapper.map(event)) this.warn(`${where}: ${warning}`);
  }

  flush(): void {
    if (!this.mapper.pending) return;
    const text = this.mapper.drain().map(serialize).join('');
    this.write(text);
  }

  finish(): void {
    try {
      const text = [...this.mapper.drain(), this.mapper.closing(this.now())].map(serialize).join('');
      this.write(text);
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.mapper.drain();
    this.file.close();
  }

  /** Write after whatever another process (a resuming gemini) appended, starting on a line of our own. */
  private write(text: string): void {
    const appended = this.file.foreignBytes();
    if (appended) {
      if (!this.foreign) {
        this.foreign = true;
        this.warn(`warn session.foreign_append: ${this.file.path} was appended to by another process (a concurrent resume?); `
          + 'later lines follow what it wrote, so the next resume sees both');
      }
      if (appended.needsNewline) text = `\n${text}`;
    }
    this.file.write(text);
  }
}

/** The project path the CLI would use: the directory with symlinks resolved (a path from the input is taken as it is). */
function projectPath(cwd: string, fromInput: boolean): string {
  if (fromInput) return cwd;
  try {
    return realpathSync(cwd);
  } catch {
    return cwd;
  }
}

/** The CLI deletes every chat whose name ends in the same 8-character id as one it cleans up: never share one. */
function shortIdTaken(dir: string, sessionId: string): boolean {
  const suffix = `-${sessionId.slice(0, 8)}.jsonl`;
  try {
    return readdirSync(dir).some((name) => name.endsWith(suffix) || name.endsWith(suffix.slice(0, -1)));
  } catch {
    return false;
  }
}

/** Create a chat (metadata written at once) for the harness or for tests; `clock` gives "now" as ISO text. */
export function createGeminiHarness(options: HarnessOptions, clock: () => Date = () => new Date()): SessionHarness {
  const project = projectPath(options.cwd, options.cwdFromInput === true);
  const slug = resolveProjectSlug(options.root, project);
  const dir = join(options.root, 'tmp', slug, 'chats');
  const started = clock();
  let sessionId = '';
  const { file } = AppendFile.createExclusive(dir, () => {
    do sessionId = randomUUID();
    while (shortIdTaken(dir, sessionId));
    return chatFileName(started, sessionId);
  }, options.root);
  const mapper = new GeminiRecordMapper({
    sessionId,
    projectHash: projectHash(project),
    startedAt: started.toISOString(),
    ...(options.model !== undefined ? { model: options.model } : {}),
    ...(options.provenance !== undefined ? { provenance: options.provenance } : {}),
  });
  try {
    file.write(serialize(mapper.metadata()));
  } catch (error) {
    file.close();
    throw error;
  }
  return new GeminiHarness(sessionId, options.cwd, file, mapper, options.warn, () => clock().toISOString());
}

export const geminiCli: HarnessFactory = {
  format: FORMAT,
  defaultRoot(env, homedir) {
    const home = env.GEMINI_CLI_HOME !== undefined && env.GEMINI_CLI_HOME !== '' ? env.GEMINI_CLI_HOME : homedir;
    return join(home, '.gemini');
  },
  create: (options) => createGeminiHarness(options),
};
