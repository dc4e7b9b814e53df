// Rows of a session the CLI already holds, changed in place: `<program> import` skips every id it has, so a
// message or part an earlier run imported and this run changed (a tool call whose result came later) is written
// with `<program> db "UPDATE ..."`, one statement per row (the only form that needs no sqlite3 program). The
// values are JSON in SQL string literals (quotes doubled); ids must look like OpenCode's.
import type { MessageEntry, Part } from './records.js';

/** One argument of a program stays under Linux's 128 KiB per-argument limit with room to spare. */
export const MAX_STATEMENT_BYTES = 120 * 1024;

const ID = /^(ses|msg|prt)_[0-9A-Za-z]{1,64}$/;

function literal(text: string): string {
  return `'${text.replace(/'/g, "''")}'`;
}

function checkedId(id: unknown): string {
  if (typeof id !== 'string' || !ID.test(id)) throw new Error(`not an OpenCode id: ${JSON.stringify(id)}`);
  return id;
}

function without(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const rest: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!keys.includes(key)) rest[key] = value;
  return rest;
}

export interface RowUpdates {
  statements: string[];
  /** Rows whose statement would be over MAX_STATEMENT_BYTES: left as they were. */
  tooLong: { table: 'message' | 'part'; id: string; tool?: string }[];
}

/**
 * The UPDATE statements that bring the rows of `before` (as an earlier run imported them) to `after` (this
 * run's copies of the same messages): each message info and each earlier part whose JSON changed. Parts new in
 * `after` are left to the import. `now` is their `time_updated`.
 */
export function rowUpdates(sessionId: string, before: ReadonlyMap<string, MessageEntry>, after: readonly MessageEntry[], now: number): RowUpdates {
  const out: RowUpdates = { statements: [], tooLong: [] };
  const session = checkedId(sessionId);
  const add = (table: 'message' | 'part', id: string, data: Record<string, unknown>, tool?: string) => {
    const statement = `UPDATE ${table} SET data = json(${literal(JSON.stringify(data))}), time_updated = ${Math.trunc(now)} `
      + `WHERE id = ${literal(checkedId(id))} AND session_id = ${literal(session)}`;
    if (Buffer.byteLength(statement) > MAX_STATEMENT_BYTES) out.tooLong.push({ table, id, ...(tool !== undefined ? { tool } : {}) });
    else out.statements.push(statement);
  };
  for (const message of after) {
    const id = message.info.id as string;
    const earlier = before.get(id);
    if (!earlier) continue;
    if (JSON.stringify(earlier.info) !== JSON.stringify(message.info)) add('message', id, without(message.info, ['id', 'sessionID']));
    const earlierParts = new Map(earlier.parts.map((part): [unknown, Part] => [part.id, part]));
    for (const part of message.parts) {
      const old = earlierParts.get(part.id);
      if (old === undefined || JSON.stringify(old) === JSON.stringify(part)) continue;
      add('part', part.id as string, without(part, ['id', 'sessionID', 'messageID']), typeof part.tool === 'string' ? part.tool : undefined);
    }
  }
  return out;
}
