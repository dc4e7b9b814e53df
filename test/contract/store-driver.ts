// The contract driver of a CLI of OpenCode's store layout (OpenCode, Kilo: lib/opencode-store/), made once for
// both (test/contract/drivers/opencode.ts, kilo.ts). Such a CLI keeps sessions in a SQLite database only its own
// program writes: the writer appends to a journal (`<root>/asyncai-log/<ses_id>.jsonl`, the session line's
// `session_file`) while the stream runs and hands it to `<cli> import` at the end. The journal is the append-only
// file of this contract (the database files are the CLI's); the foreign line is one another process adds, which
// the import must pass over. The file-level items name a stand-in program that only checks it was asked to
// import a document (the real one takes seconds to start); the real `<cli> import` and `<cli> run --session`
// continue the session against the chat-completions mock, and a request's `messages` are its elements.
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockChat } from '../support/mock-chat-completions.js';
import { tempDir, type RunResult } from '../support/run.js';
import type { StoreHome } from '../support/store-cli.js';
import type { ContractDriver, Element, Place } from './driver.js';

/** What differs between the CLIs of the layout. */
export interface StoreDriverSpec<Home extends StoreHome> {
  /** Its `--session-format` (and its program's name). */
  format: string;
  /** The environment variable that names its program to the writer (`ASYNCAI_LOG_OPENCODE`). */
  programVariable: string;
  /** The real program. */
  binary(): string;
  /** A home whose config points the CLI at the mock at `baseUrl`, its mock model taking images. */
  home(baseUrl: string): Home;
  /** `<cli> run --session <session>` in `dir`. */
  continueWith(home: Home, dir: string, session: string): Promise<RunResult>;
  /** A text part the CLI adds of its own to a message it sends (not an element of the session). */
  ownText?(text: string): boolean;
}

/** The contract driver of the CLI `spec` names. */
export function storeDriver<Home extends StoreHome>(spec: StoreDriverSpec<Home>): ContractDriver {
  /** The stand-in for the program: succeeds only for `import <a non-empty file>`, run from an existing directory. */
  const standIn = join(tempDir(`asyncai-log-contract-${spec.format}-`), spec.format);
  writeFileSync(standIn, '#!/bin/sh\n[ "$1" = import ] && [ -s "$2" ] && [ -d "$PWD" ]\n');
  chmodSync(standIn, 0o700);

  /** A place in a home of the CLI, the writer handing its sessions to `program`. */
  const homePlace = (home: Home, program: string): Place => ({
    root: home.dataDir, cwd: tempDir('asyncai-log-contract-cwd-'), env: { ...home.env, [spec.programVariable]: program },
  });

  return {
    format: spec.format,
    nativeSession: `${spec.format}/session.json`,
    // The export's tool parts: the tool's name and its state's input.
    nativeCalls: (text) => new Map((JSON.parse(text).messages as any[]).flatMap((m) => m.parts as any[])
      .filter((p) => p.type === 'tool')
      .map((p) => [p.callID, { name: p.tool, args: p.state.input }])),
    keepsImages: true,
    marksErrors: false,
    // A compaction is a user message holding its summary: the CLI still sends the history before it.
    sendsHistoryBeforeCompaction: true,
    // The stand-in never calls a model: the home's mock address is never used.
    place: () => homePlace(spec.home('http://127.0.0.1:9'), standIn),
    owned: (rel) => rel === 'asyncai-log/' || rel.startsWith('asyncai-log/'),
    async realCli() {
      const mock = await startMockChat();
      const home = spec.home(mock.url);
      const place = homePlace(home, spec.binary());
      return {
        place,
        async resume(session) {
          const before = mock.turns().length;
          const run = await spec.continueWith(home, place.cwd, session.session_id);
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
          if (part.type === 'text' && part.text !== '' && spec.ownText?.(part.text) !== true) out.push({ kind: 'text', from, text: part.text });
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
}
