// Reads Monitor task notifications back into monitor events: the inverse of the XML Claude Code writes for
// its Monitor tool (and this project's harness writes for monitor_event / monitor_end; reference:
// monitor-records.md). Anything else in <task-notification> form (agents, background shells) is not a monitor.

/** A parsed Monitor notification. */
export type MonitorNotification =
  | { kind: 'event'; taskId: string; description: string; event: string; note?: string }
  | { kind: 'end'; taskId: string; description: string; exitCode: number; stopped?: boolean };

/** Undo Claude Code's escaping (only &, < and > are escaped). */
export function unescapeXml(text: string): string {
  return text.replace(/&(amp|lt|gt);/g, (_, name: string) => (name === 'amp' ? '&' : name === 'lt' ? '<' : '>'));
}

// Escaped text holds no literal "<", so the first closing tag after an element's start is its own.
const EVENT = /^<task-notification>\n<task-id>([^<]*)<\/task-id>\n(?:<tool-use-id>[^<]*<\/tool-use-id>\n)?<summary>Monitor event: "([^<]*)"<\/summary>\n((?:<[a-z-]+\/>\n)*)<event>([^<]*)<\/event>(?:\n([^<]*))?\n<\/task-notification>$/;
const END = /^<task-notification>\n<task-id>([^<]*)<\/task-id>\n(?:<tool-use-id>[^<]*<\/tool-use-id>\n)?(?:<output-file>[^<]*<\/output-file>\n)?<status>(completed|failed|killed)<\/status>\n<summary>([^<]*)<\/summary>\n<\/task-notification>$/;
const END_SUMMARY = /^Monitor "([\s\S]*)" (?:(stream ended)|ended without producing output \(exit (-?\d+)\)|script failed \(exit (-?\d+)\)|(stopped))$/;

/** Exit code reported for a stopped monitor, whose real code the notification does not carry. */
export const STOPPED_EXIT_CODE = -1;

/** The monitor event a task-notification XML stands for, or undefined when it is not a Monitor's. */
export function parseMonitorNotification(xml: string): MonitorNotification | undefined {
  const event = EVENT.exec(xml);
  if (event) {
    const parsed: MonitorNotification = {
      kind: 'event',
      taskId: unescapeXml(event[1]!),
      description: unescapeXml(event[2]!),
      event: unescapeXml(event[4]!),
    };
    if (event[5] !== undefined) parsed.note = unescapeXml(event[5]);
    return parsed;
  }
  const end = END.exec(xml);
  if (!end) return undefined;
  const summary = END_SUMMARY.exec(unescapeXml(end[3]!));
  if (!summary) return undefined;
  const base = { kind: 'end' as const, taskId: unescapeXml(end[1]!), description: summary[1]! };
  if (summary[5] !== undefined) return { ...base, exitCode: STOPPED_EXIT_CODE, stopped: true };
  const code = summary[2] !== undefined ? 0 : Number(summary[3] ?? summary[4]);
  return { ...base, exitCode: code };
}
