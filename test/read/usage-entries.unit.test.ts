// The agents' usage counting modules a `read --usage --by` worker loads alone (lib/agents/usage-entries.ts) are
// those of the registry: every agent that counts its own entries, with the same function, and no other.
import { describe, expect, test } from 'vitest';
import { AGENTS } from '../../lib/agents/index.js';
import { loadUsageEntries, USAGE_ENTRIES_FORMATS } from '../../lib/agents/usage-entries.js';

describe('usage entries loaded alone', () => {
  test('each agent\'s is the registry\'s own, for exactly the agents that count their own entries', async () => {
    const counting = AGENTS.filter((agent) => agent.usage?.entries !== undefined).map((agent) => agent.harness.format);
    expect([...USAGE_ENTRIES_FORMATS].sort()).toEqual([...counting].sort());
    for (const agent of AGENTS) expect(await loadUsageEntries(agent.harness.format), agent.harness.format).toBe(agent.usage?.entries);
    expect(await loadUsageEntries('toString')).toBeUndefined();
  });
});
