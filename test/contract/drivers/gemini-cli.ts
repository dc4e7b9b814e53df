// Contract driver for Gemini CLI: the root is `<HOME>/.gemini` (settings that keep the CLI offline), the real
// `gemini --resume <uuid>` runs from the project directory against the Gemini API mock, and a
// `:streamGenerateContent` request's `contents` parts are its elements.
import { GEMINI_MODEL, runGemini, writeGeminiSettings } from '../../support/gemini-cli.js';
import { startMockGemini } from '../../support/mock-gemini.js';
import { tempDir } from '../../support/run.js';
import { plainPlace, type ContractDriver, type Element, type NativeCall } from '../driver.js';

/**
 * The calls of a chat file: each `functionCall` part and `toolCalls` entry of every line, a later line's (a
 * message rewritten under its id) in place of an earlier one's.
 */
function nativeCalls(text: string): Map<string, NativeCall> {
  const calls = new Map<string, NativeCall>();
  const visit = (value: unknown): void => {
    if (Array.isArray(value)) {
      value.forEach(visit);
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    const v = value as Record<string, any>;
    if (typeof v.functionCall?.id === 'string') calls.set(v.functionCall.id, { name: v.functionCall.name, args: v.functionCall.args ?? {} });
    for (const call of Array.isArray(v.toolCalls) ? v.toolCalls : []) calls.set(call.id, { name: call.name, args: call.args ?? {} });
    for (const [key, inner] of Object.entries(v)) if (key !== 'functionCall' && key !== 'toolCalls') visit(inner);
  };
  for (const line of text.split('\n')) if (line.trim() !== '') visit(JSON.parse(line));
  return calls;
}

export const driver: ContractDriver = {
  format: 'gemini-cli',
  nativeSession: 'gemini-cli/resumed-later.jsonl',
  nativeCalls,
  keepsImages: true,
  marksErrors: true,
  place: () => plainPlace(),
  owned: () => true,
  async realCli() {
    const mock = await startMockGemini();
    const home = tempDir('asyncai-log-contract-gemini-');
    const place = { ...plainPlace({ HOME: home }), root: writeGeminiSettings(home) };
    return {
      place,
      async resume(session) {
        const before = mock.streamed().length;
        const run = await runGemini({ home, cwd: place.cwd, baseUrl: mock.url,
          args: ['-m', GEMINI_MODEL, '--resume', session.session_id, '-p', 'Reply with exactly: resumed-ok'] });
        return { run, request: mock.streamed()[before]?.body };
      },
      close: () => mock.close(),
    };
  },
  elements(request) {
    const out: Element[] = [];
    for (const turn of (request as any).contents as any[]) {
      const from = turn.role === 'model' ? 'model' : 'user';
      for (const part of turn.parts as any[]) {
        // The CLI's own context, not the conversation.
        if (typeof part.text === 'string' && part.text.startsWith('<session_context>')) continue;
        if (part.thought === true) continue;
        if (typeof part.text === 'string') out.push({ kind: 'text', from, text: part.text });
        else if (part.inlineData) out.push({ kind: 'image' });
        else if (part.functionCall) out.push({ kind: 'call', id: part.functionCall.id, name: part.functionCall.name, args: part.functionCall.args });
        else if (part.functionResponse) {
          const response = part.functionResponse.response ?? {};
          const error = response.error !== undefined;
          out.push({ kind: 'result', id: part.functionResponse.id, text: String(error ? response.error : response.output), error });
        }
      }
    }
    return out;
  },
  // A metadata update, as the CLI appends when it resumes (reference: gemini-cli.md).
  foreignLine: (_session, marker) => `${JSON.stringify({ $set: { lastUpdated: new Date().toISOString(), summary: marker } })}\n`,
  // Its sessions are read through its input adapter, from the session file alone.
  plantSidecars: () => null,
};
