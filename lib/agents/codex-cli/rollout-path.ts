// Where Codex keeps a rollout: `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<uuid>.jsonl` under its home,
// named for the session's start. Codex 0.171.0 names the file and its date folders in local time (checked by
// running it with several TZ values); `session_meta` and every line's timestamp are UTC.

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** The date folders of a session started at `started`, in local time: `["2026", "11", "29"]`. */
export function rolloutDirParts(started: Date): [string, string, string] {
  return [pad(started.getFullYear(), 4), pad(started.getMonth() + 1), pad(started.getDate())];
}

/** The rollout file name of session `uuid` started at `started`, in local time, as Codex names its own. */
export function rolloutFileName(started: Date, uuid: string): string {
  const [year, month, day] = rolloutDirParts(started);
  const time = `${pad(started.getHours())}-${pad(started.getMinutes())}-${pad(started.getSeconds())}`;
  return `rollout-${year}-${month}-${day}T${time}-${uuid}.jsonl`;
}

/**
 * The start a session is filed under: `startedAt` (RFC 3339, e.g. a converted log's first event) when it is a
 * time whose local year has four digits, else now. Only digits of it reach the path.
 */
export function sessionStart(startedAt: string | undefined, now: Date = new Date()): Date {
  if (startedAt === undefined) return now;
  const date = new Date(startedAt);
  const year = date.getFullYear();
  return Number.isNaN(year) || year < 1 || year > 9999 ? now : date;
}
