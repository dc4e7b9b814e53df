// `convert <id>`: an argument that names no file and is a session id, or a prefix of 8 characters or more of one,
// of any registered agent is the session it names, looked up as `read <id>` looks it up (lib/agents/
// find-sessions.ts, under `--session-dir <format>=<dir>`, else each agent's default root): that session's file,
// or that one session of a store. None or several is a failed input of one line. Everything else is listed
// by discover.ts as before.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { findSessionsById, lookupProblem, mayBeSessionId, storeForId, type LookupContext } from '../agents/find-sessions.js';
import { discoverSources, type Discovered } from './discover.js';

/** What `inputs` name, in order: files, trees and stores as discoverSources lists them, and sessions by id. */
export async function discoverInputs(inputs: readonly string[], context: LookupContext): Promise<Discovered[]> {
  const { processCwd } = context;
  const out: Discovered[] = [];
  for (const input of inputs) {
    if (existsSync(resolve(processCwd, input))) {
      out.push(...discoverSources([input], processCwd));
      continue;
    }
    const keeper = storeForId(input, context);
    if (keeper !== undefined) {
      out.push({ kind: 'store', path: keeper.db, db: keeper.db, agent: keeper.agent, only: input });
      continue;
    }
    if (!mayBeSessionId(input)) {
      out.push(...discoverSources([input], processCwd));
      continue;
    }
    const found = await findSessionsById(input, context);
    const problem = lookupProblem(found.matches, `under ${found.searched.join(', ')}`);
    if (problem !== undefined) {
      out.push({ kind: 'error', path: input, error: problem });
      continue;
    }
    for (const item of discoverSources([found.matches[0]!.files[0]!], processCwd)) {
      if (item.kind === 'source') item.source.byId = true;
      out.push(item);
    }
  }
  return out;
}
