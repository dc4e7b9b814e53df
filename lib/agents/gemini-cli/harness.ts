// The Gemini CLI harness: `<root>/tmp/<slug>/chats/session-<time>-<id8>.jsonl`, chats that `gemini --resume
// <uuid>` loads from the project directory. A resuming CLI appends its own lines (`$set`, new messages) to the
// same file; later lines of ours follow what it wrote, whole, and replace our messages in place by id.
import { randomUUID } from 'node:crypto';
import { readdirSync, realpathSync } from 'node:fs';
import { join } from 'node:path';
import type { GenericEvent } from '../../events.js';
import { EventRejected, type HarnessFactory, type HarnessOptions, type SessionHarness } from '../types.js';
import { AppendFile } from '../../session/append-file.js';
import { chatFileName, projectHash, resolveProjectSlug } from './paths.js';
import { isObject } from '../../util/is-object.js';
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
    const prefix = this.foreignPrefix();
    this.file.write(prefix + this.mapper.drain().map(serialize).join(''));
  }

  finish(): void {
    try {
      const prefix = this.foreignPrefix();
      this.file.write(prefix + [...this.mapper.drain(), this.mapper.closing(this.now())].map(serialize).join(''));
    } finally {
      this.file.close();
    }
  }

  abandon(): void {
    this.mapper.drain();
    this.file.close();
  }

  /**
   * Before our next lines: what another process (a resuming gemini) appended meanwhile. Ours then start on a
   * line of their own; the response copies its history rewrite made are noted (see GeminiRecordMapper.shadow).
   */
  private foreignPrefix(): string {
    const appended = this.file.foreignBytes();
    if (!appended) return '';
    if (!this.foreign) {
      this.foreign = true;
      this.warn(`warn session.foreign_append: ${this.file.path} was appended to by another process (a concurrent resume?); `
        + 'later lines follow what it wrote, so the next resume sees both');
    }
    this.mapper.shadow(responseCopies(appended.text));
    return appended.needsNewline ? '\n' : '';
  }
}

/** The model message ids whose `<id>_response` copy a `$set.messages` line in `text` holds (whole lines only). */
export function responseCopies(text: string): string[] {
  const ids: string[] = [];
  const lines = text.split('\n');
  for (const line of lines.slice(0, -1)) {
    if (!line.includes('"$set"') || !line.includes('_response"')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue; // a damaged foreign line: nothing to learn from it
    }
    const messages = isObject(record) && isObject(record.$set) ? record.$set.messages : undefined;
    if (!Array.isArray(messages)) continue;
    for (const message of messages) {
      if (isObject(message) && typeof message.id === 'string' && message.id.endsWith('_response')) ids.push(message.id.slice(0, -'_response'.length));
    }
  }
  return ids;
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
