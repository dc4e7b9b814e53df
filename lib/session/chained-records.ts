// What the CLIs whose records are chained onto the last one share (by `uuid`/`parentUuid`: Claude Code, Qwen Code;
// by `id`/`parentId`: Copilot CLI, Pi, Factory Droid): finding the last whole record of a piece of their file, the
// one later records chain onto.

/**
 * The last whole JSON object line of `text` that `accept` takes (bytes another process appended, or our own read
 * back): the record later ones chain onto. A damaged line, or one that is not an object, is passed over.
 */
export function lastRecordIn<R extends Record<string, unknown>>(text: string,
  accept: (record: Record<string, unknown>) => record is R): R | undefined {
  const lines = text.split('\n');
  // The last piece is incomplete unless the text ended with a newline: never trust it.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    let record: unknown;
    try {
      record = JSON.parse(line);
    } catch {
      continue; // a damaged foreign line: look further back
    }
    if (typeof record !== 'object' || record === null) continue;
    const object = record as Record<string, unknown>;
    if (accept(object)) return object;
  }
  return undefined;
}

/** A record with a string `id` (what an `accept` of lastRecordIn narrows to where records chain by id). */
export type IdRecord = Record<string, unknown> & { id: string };

const hasUuid = (record: Record<string, unknown>): record is Record<string, unknown> & { uuid: string } =>
  typeof record.uuid === 'string' && record.uuid !== '';

/** The last complete uuid-bearing record in `text` (bytes another process appended, or our own read back). */
export function lastChainRecordIn(text: string): Record<string, unknown> & { uuid: string } | undefined {
  return lastRecordIn(text, hasUuid);
}

/** The uuid of the last complete uuid-bearing record in `text` (bytes another process appended). */
export function lastUuidIn(text: string): string | undefined {
  return lastChainRecordIn(text)?.uuid;
}
