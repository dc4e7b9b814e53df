// The rows of an OpenCode session updated in place when a reopened session changes what an earlier run imported:
// only changed rows, JSON in quoted SQL literals, ids checked, rows too long for one argument left out.
import { describe, expect, test } from 'vitest';
import { MAX_STATEMENT_BYTES, rowUpdates } from '../../../lib/opencode-store/update.js';
import type { MessageEntry } from '../../../lib/opencode-store/records.js';

const SES = 'ses_dce19c9fcffeJsdlNRwzjJ8G3A';
const message = (output?: string): MessageEntry => ({
  info: { id: 'msg_231e63647001cBtcOdLW9QMqrj', sessionID: SES, role: 'assistant', finish: 'tool-calls', time: { created: 1, completed: output === undefined ? 1 : 2 } },
  parts: [
    { id: 'prt_231e63647002A6t8wIjCXxFIsb', sessionID: SES, messageID: 'msg_231e63647001cBtcOdLW9QMqrj', type: 'text', text: 'Listing.' },
    { id: 'prt_231e63647003A6t8wIjCXxFIsb', sessionID: SES, messageID: 'msg_231e63647001cBtcOdLW9QMqrj', type: 'tool', tool: 'Bash',
      state: output === undefined ? { status: 'running' } : { status: 'completed', output } },
  ],
});

describe('rowUpdates', () => {
  test('updates the message and the part that changed, quoting the JSON; unchanged and new rows are left to the import', () => {
    const before = new Map([[message().info.id as string, message()]]);
    const after = message("it's b.txt");
    after.parts.push({ id: 'prt_231e63647004A6t8wIjCXxFIsb', sessionID: SES, messageID: after.info.id, type: 'text', text: 'new' });
    const other: MessageEntry = { info: { id: 'msg_231e63648001cBtcOdLW9QMqrj', sessionID: SES, role: 'user' }, parts: [] };
    const { statements, tooLong } = rowUpdates(SES, before, [after, other], 1234);
    expect(tooLong).toEqual([]);
    expect(statements).toEqual([
      `UPDATE message SET data = json('{"role":"assistant","finish":"tool-calls","time":{"created":1,"completed":2}}'), time_updated = 1234 WHERE id = 'msg_231e63647001cBtcOdLW9QMqrj' AND session_id = '${SES}'`,
      `UPDATE part SET data = json('{"type":"tool","tool":"Bash","state":{"status":"completed","output":"it''s b.txt"}}'), time_updated = 1234 WHERE id = 'prt_231e63647003A6t8wIjCXxFIsb' AND session_id = '${SES}'`,
    ]);
    expect(rowUpdates(SES, before, [message()], 1234).statements).toEqual([]);
  });

  test('a row too long for one program argument is reported, not written', () => {
    const before = new Map([[message().info.id as string, message()]]);
    const after = message();
    after.parts[1]!.state = { status: 'completed', output: 'x'.repeat(MAX_STATEMENT_BYTES) };
    expect(rowUpdates(SES, before, [after], 1)).toEqual({ statements: [], tooLong: [{ table: 'part', id: 'prt_231e63647003A6t8wIjCXxFIsb', tool: 'Bash' }] });
  });

  test('an id that is not OpenCode-shaped is refused', () => {
    const bad = message();
    bad.info.id = "msg_x' OR 1=1 --";
    const changed = { ...bad, info: { ...bad.info, finish: 'stop' } };
    expect(() => rowUpdates(SES, new Map([[bad.info.id as string, bad]]), [changed], 1)).toThrow(/not an OpenCode id/);
  });
});
