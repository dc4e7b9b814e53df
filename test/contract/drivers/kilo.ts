// Contract driver for Kilo, an OpenCode fork with OpenCode's layout: a SQLite database only its own program
// writes. The writer appends to a journal (`<root>/asyncai-log/<ses_id>.jsonl`, the session line's
// `session_file`) while the stream runs and hands it to `kilo import` at the end. The journal is the append-only
// file of this contract (the database files are Kilo's); the foreign line is one another process adds, which the
// import must pass over. The file-level items name a stand-in program that only checks it was asked to import a
// document (the real one takes seconds to start); the real `kilo import` and `kilo run --session` continue the
// session against the chat-completions mock, and a request's `messages` are its elements.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockChat } from '../../support/mock-chat-completions.js';
import { continueWithKilo, kiloBinary, kiloHome, type KiloHome } from '../../support/kilo.js';
import { tempDir } from '../../support/run.js';
import type { ContractDriver, Element, Place } from '../driver.js';

/** The stand-in for `kilo`: succeeds only for `import <a non-empty file>`, run from an existing directory. */
const STAND_IN = join(tempDir('asyncai-log-contract-kilo-'), 'kilo');
writeFileSync(STAND_IN, '#!/bin/sh\n[ "$1" = import ] && [ -s "$2" ] && [ -d "$PWD" ]\n');
chmodSync(STAND_IN, 0o700);

/** A place in a Kilo home, the writer handing its sessions to `program`. */
function homePlace(home: KiloHome, program: string): Place {
  return { root: home.dataDir, cwd: tempDir('asyncai-log-contract-cwd-'), env: { ...home.env, ASYNCAI_LOG_KILO: program } };
}

export const driver: ContractDriver = {
  format: 'kilo',
  nativeSession: 'kilo/session.json',
  // The export's tool parts: the tool's name and its state's input.
  nativeCalls: (text) => new Map((JSON.parse(text).messages as any[]).flatMap((m) => m.parts as any[])
    .filter((p) => p.type === 'tool')
    .map((p) => [p.callID, { name: p.tool, args: p.state.input }])),
  keepsImages: true,
  marksErrors: false,
  // A compaction is a user message holding its summary: Kilo, as OpenCode, still sends the history before it.
  sendsHistoryBeforeCompaction: true,
  // The stand-in never calls a model: the home's mock address is never used.
  place: () => homePlace(kiloHome('http://127.0.0.1:9'), STAND_IN),
  owned: (rel) => rel === 'asyncai-log/' || rel.startsWith('asyncai-log/'),
  async realCli() {
    const mock = await startMockChat();
    // The home's model takes images (Kilo replaces an image by an error text for a text-only model).
    const home = kiloHome(mock.url);
    const place = homePlace(home, kiloBinary());
    return {
      place,
      async resume(session) {
        const before = mock.turns().length;
        const run = await continueWithKilo(home, place.cwd, session.session_id);
        return { run, request: mock.turns()[before] };
      },
      close: () => mock.close(),
    };
  },
  elements(request) {
    const out: Element[] = [];
    for (const m of (request as any).messages as any[]) {
      if (m.role === 'system') continue;
      const from = m.role === 'assistant' ? 'model' : 'user';
      if (m.role === 'tool') {
        const text = typeof m.content === 'string' ? m.content : (m.content as any[]).map((c) => c.text ?? '').join('');
        out.push({ kind: 'result', id: m.tool_call_id, text });
        continue;
      }
      const parts = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : (m.content ?? []) as any[];
      for (const part of parts) {
        // Kilo adds an `<environment_details>` text (message time, working directory) to a user message it sends.
        if (part.type === 'text' && part.text !== '' && !/^\s*<environment_details>/.test(part.text)) out.push({ kind: 'text', from, text: part.text });
        else if (part.type === 'image_url') out.push({ kind: 'image' });
      }
      for (const call of (m.tool_calls ?? []) as any[]) out.push({ kind: 'call', id: call.id, name: call.function.name, args: JSON.parse(call.function.arguments) });
    }
    return out;
  },
  foreignLine: (_session, marker) => `${JSON.stringify({ foreign: marker })}\n`,
  // Its sessions are read through its input adapter, from the session file alone.
  plantSidecars: () => null,
};
