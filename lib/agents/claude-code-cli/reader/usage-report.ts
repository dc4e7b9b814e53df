// The usage line of one transcript, as `read --usage` prints it: counted on this thread, or on a worker
// (usage-worker.ts, of lib/session/file-pool.ts); apart from both, so that the worker imports nothing of the pool.
import type { ClaudeTranscriptReader } from './reader.js';

/** One transcript's usage line: its session, totals, and with `subagents` each subagent's. */
export async function usageReport(reader: ClaudeTranscriptReader, subagents: boolean): Promise<Record<string, unknown>> {
  const subs = subagents ? await reader.subagents() : [];
  const report = { session_id: reader.sessionId, ...(await reader.usage()) } as Record<string, unknown>;
  if (subagents) {
    const list: Record<string, unknown>[] = [];
    for (const sub of subs) list.push({ agent_id: sub.agentId, ...(await sub.usage()) });
    report.subagents = list;
  }
  return report;
}
