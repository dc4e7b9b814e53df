// A Claude record mapper for tests: counted uuids (u1, u2, ...) instead of random ones, and the records and
// warnings a list of events maps to.
import type { GenericEvent } from '../../lib/events.js';
import { ClaudeRecordMapper, type ClaudeRecord } from '../../lib/agents/claude-code-cli/records.js';

/** A mapper for session `S` in `/p` whose uuids are u1, u2, ... */
export function testMapper(): ClaudeRecordMapper {
  let n = 0;
  return new ClaudeRecordMapper({ sessionId: 'S', cwd: '/p', newUuid: () => `u${(n += 1)}` });
}

/** Every record and warning `events` map to, through one fresh test mapper. */
export function mapEvents(events: GenericEvent[]): { records: ClaudeRecord[]; warnings: string[] } {
  const mapper = testMapper();
  const records: ClaudeRecord[] = [];
  const warnings: string[] = [];
  for (const event of events) {
    const out = mapper.map(event);
    records.push(...out.records);
    warnings.push(...out.warnings);
  }
  return { records, warnings };
}
