// What the CLIs whose records are chained by `uuid`/`parentUuid` (Claude Code, Qwen Code) share: finding the
// last whole record of a piece of their file, the one later records chain onto.

/** The last complete uuid-bearing record in `text` (bytes another process appended, or our own read back). */
export function lastChainRecordIn(text: string): Record<string, unknown> & { uuid: string } | undefined {
  const lines = text.split('\n');
  // The last piece is incomplete unless the text ended with a newline: never trust it.
  for (let i = lines.length - 2; i >= 0; i -= 1) {
    const line = lines[i]!.trim();
    if (!line.startsWith('{')) continue;
    try {
      const record: unknown = JSON.parse(line);
      if (typeof record === 'object' && record !== null) {
        const uuid = (record as Record<string, unknown>).uuid;
        if (typeof uuid === 'string' && uuid !== '') return record as Record<string, unknown> & { uuid: string };
      }
    } catch {
      // A damaged foreign line: look further back.
    }
  }
  return undefined;
}

/** The uuid of the last complete uuid-bearing record in `text` (bytes another process appended). */
export function lastUuidIn(text: string): string | undefined {
  return lastChainRecordIn(text)?.uuid;
}
