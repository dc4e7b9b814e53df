// Contract driver for Claude Code: the root is CLAUDE_CONFIG_DIR, the real `claude -p --resume` runs from the
// project directory against the Messages API mock, and a request's `messages` are its elements.
import { randomUUID } from 'node:crypto';
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { startMockAnthropic } from '../../support/mock-anthropic.js';
import { resumeWithClaude } from '../../support/run.js';
import { plainPlace, type ContractDriver, type Element } from '../driver.js';

function text(value: unknown): string {
  if (typeof value === 'string') return value;
  return Array.isArray(value) ? value.map((b: any) => (b.type === 'text' ? b.text : '')).join('') : '';
}

export const driver: ContractDriver = {
  format: 'claude-code-cli',
  nativeSession: 'claude-code-cli/parallel-bash/0b9a1c52-6f0e-4d1a-9a55-3c1f2a000001.jsonl',
  // Every assistant record's tool_use blocks.
  nativeCalls: (text) => new Map(text.split('\n').filter((l) => l.trim() !== '').map((l) => JSON.parse(l))
    .flatMap((r) => (r.type === 'assistant' && Array.isArray(r.message?.content) ? r.message.content : []))
    .filter((b: any) => b.type === 'tool_use')
    .map((b: any) => [b.id, { name: b.name, args: b.input }])),
  keepsImages: true,
  marksErrors: true,
  place: () => plainPlace(),
  owned: () => true,
  async realCli() {
    const mock = await startMockAnthropic();
    const place = plainPlace();
    return {
      place,
      async resume(session) {
        const before = mock.requests.length;
        const run = await resumeWithClaude({ configDir: place.root, cwd: place.cwd, session: session.session_id, baseUrl: mock.url });
        return { run, request: mock.requests[before]?.body };
      },
      close: () => mock.close(),
    };
  },
  elements(request) {
    const out: Element[] = [];
    for (const m of (request as any).messages as any[]) {
      // Claude Code's own environment, sent as a message of role `system`: not the conversation.
      if (m.role === 'system') continue;
      const from = m.role === 'assistant' ? 'model' : 'user';
      const blocks = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content as any[];
      for (const b of blocks) {
        // Claude Code's own context (its reminders), not the conversation.
        if (b.type === 'text' && String(b.text).startsWith('<system-reminder>') && !String(b.text).includes('<task-notification>')) continue;
        if (b.type === 'text') out.push({ kind: 'text', from, text: b.text });
        else if (b.type === 'image') out.push({ kind: 'image' });
        else if (b.type === 'tool_use') out.push({ kind: 'call', id: b.id, name: b.name, args: b.input });
        else if (b.type === 'tool_result') {
          // Claude Code folds the notifications that follow a result into its content, each a reminder of its own.
          const [result, ...reminders] = text(b.content).split('\n\n<system-reminder>');
          out.push({ kind: 'result', id: b.tool_use_id, text: result!, error: b.is_error === true });
          for (const reminder of reminders) out.push({ kind: 'text', from: 'user', text: `<system-reminder>${reminder}` });
        }
      }
    }
    return out;
  },
  // State, not conversation: Claude Code appends such records (reference: claude-code-transcript.md).
  foreignLine: (session, marker) => `${JSON.stringify({ type: 'custom-title', customTitle: marker, sessionId: session.session_id })}\n`,
  plantSidecars(session, marker) {
    // `<session>/tool-results/` (a spill the appended call's result points at) and `<session>/subagents/`.
    const dir = join(dirname(session.session_file), session.session_id);
    const spills = join(dir, 'tool-results');
    const subagents = join(dir, 'subagents');
    mkdirSync(spills, { recursive: true });
    mkdirSync(subagents, { recursive: true });
    writeFileSync(join(spills, 'contract.txt'), `${marker} spilled`);
    const common = { sessionId: session.session_id, cwd: '/', timestamp: new Date().toISOString() };
    writeFileSync(join(subagents, 'agent-contract.jsonl'), `${JSON.stringify({
      ...common, parentUuid: null, isSidechain: true, type: 'user', uuid: randomUUID(), message: { role: 'user', content: `${marker} subagent` },
    })}\n`);
    const lines = readFileSync(session.session_file, 'utf8').split('\n').filter((l) => l !== '');
    const last = (JSON.parse(lines[lines.length - 1]!) as { uuid: string }).uuid;
    const call = randomUUID();
    appendFileSync(session.session_file, [
      { ...common, parentUuid: last, isSidechain: false, type: 'assistant', uuid: call, message: {
        id: 'msg_contract_spill', type: 'message', role: 'assistant', model: 'claude-sonnet-4-5-20250929', stop_reason: 'tool_use',
        content: [{ type: 'tool_use', id: 'toolu_contract_spill', name: 'Bash', input: {} }], usage: { input_tokens: 1, output_tokens: 1 } } },
      { ...common, parentUuid: call, isSidechain: false, type: 'user', uuid: randomUUID(), message: { role: 'user', content: [{
        type: 'tool_result', tool_use_id: 'toolu_contract_spill', content: `Output too large. Full output saved to: ${join(spills, 'contract.txt')}` }] } },
    ].map((r) => `${JSON.stringify(r)}\n`).join(''));
    return [{ dir: spills, text: `${marker} spilled` }, { dir: subagents, text: `${marker} subagent` }];
  },
};
