// One transcript reading printed as `read` prints it (run-read.ts): its usage totals, its branches, or its events,
// with its subagents' after; and a stream's chunks watched for a cut-off last line.
import type { TranscriptReading } from '../session/types.js';
import type { Output } from './output.js';
import type { ReadCommandOptions } from './read-options.js';

export async function readOne(reader: TranscriptReading, options: ReadCommandOptions, out: Output): Promise<void> {
  const subagents = options.subagents ? await reader.subagents() : [];
  if (options.usage) {
    const totals = { session_id: reader.sessionId, ...(await reader.usage()) } as Record<string, unknown>;
    if (options.subagents) {
      const list: Record<string, unknown>[] = [];
      for (const sub of subagents) list.push({ agent_id: sub.agentId, ...(await sub.usage()) });
      totals.subagents = list;
    }
    await out.write(totals);
    return;
  }
  if (options.tree) {
    for (const sub of [reader, ...subagents]) {
      const tree = await sub.tree();
      for (const branch of tree.branches) {
        if (out.closed) return;
        await out.write({ session_id: reader.sessionId, ...(sub.agentId !== undefined ? { agent_id: sub.agentId } : {}), ...branch });
      }
    }
    return;
  }
  for (const source of [reader, ...subagents]) {
    for await (const text of source.ndjson((event, error) => out.unwritable(event, error))) {
      if (out.closed) return;
      await out.writeText(text);
    }
  }
}

/** `chunks` as they are; at their end, `done` learns whether the last non-empty one ended in a newline (else the input was cut off). */
export async function* endsInNewline(chunks: AsyncIterable<Buffer | string>, done: (ends: boolean) => void): AsyncIterable<Buffer> {
  let last = 0x0a;
  for await (const chunk of chunks) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    if (bytes.length > 0) last = bytes[bytes.length - 1]!;
    yield bytes;
  }
  done(last === 0x0a);
}
