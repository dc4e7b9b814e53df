// Where Codex keeps a rollout: `sessions/YYYY/MM/DD/rollout-YYYY-MM-DDTHH-MM-SS-<uuid>.jsonl` under its home.
// Codex 0.171.0 names the file and its date folders in local time (checked by running it with several TZ
// values); `session_meta` and every line's timestamp are UTC.

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
