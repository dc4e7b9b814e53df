// Droid's token usage in the one shape (`read --usage --by`): Droid keeps none in its session's messages, only the
// session's running totals in `<id>.settings.json` beside `<id>.jsonl` (`tokenUsage`). The session is one entry,
// dated by its `providerLockTimestamp` and of its `model`, as ccusage (20.0.24) dates and names it. Droid counts
// thinking apart from output (`thinkingTokens`; ccusage adds it to the total): here output includes it.
import { isObject } from '../../util/is-object.js';
import { readOwnFile } from '../../util/small-file.js';
import { cannotBeRead } from '../../util/fs-errors.js';
import { tokenCount } from '../../usage.js';
import { ReaderError, type SessionUsage, type UsageEntry } from '../../session/types.js';

/** The settings file of the session file at `path`. */
export function settingsPath(path: string): string {
  return path.replace(/\.jsonl$/, '') + '.settings.json';
}

/** A session's usage: what its settings file says (none when it has none, or none that is JSON). */
function settingsEntries(path: string, options: Parameters<NonNullable<SessionUsage['entries']>>[1]): Promise<UsageEntry[]> {
  const file = settingsPath(path);
  let read;
  try {
    read = readOwnFile(file, 1024 * 1024);
  } catch (error) {
    throw new ReaderError(`${file}: ${cannotBeRead(error)}`);
  }
  if (read === undefined) return Promise.resolve([]);
  let settings: unknown;
  try {
    settings = JSON.parse(read.text);
  } catch {
    options.onWarning({ file, message: 'not JSON; its token usage is not counted' });
    return Promise.resolve([]);
  }
  if (!isObject(settings) || !isObject(settings.tokenUsage)) return Promise.resolve([]);
  const usage = settings.tokenUsage;
  const reasoning = tokenCount(usage.thinkingTokens);
  return Promise.resolve([{
    timestamp: typeof settings.providerLockTimestamp === 'string' ? settings.providerLockTimestamp : undefined,
    model: typeof settings.model === 'string' && settings.model !== '' ? settings.model : undefined,
    tokens: {
      input: tokenCount(usage.inputTokens),
      output: tokenCount(usage.outputTokens) + reasoning,
      cacheRead: tokenCount(usage.cacheReadTokens),
      cacheWrite: tokenCount(usage.cacheCreationTokens),
      reasoning,
    },
  }]);
}

export const droidUsage: SessionUsage = { entries: settingsEntries };
