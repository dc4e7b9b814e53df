// A synchronous wait a signal can still end. While the event loop is blocked, the handlers a command installed
// for SIGINT, SIGTERM and SIGHUP cannot run, so a signal would wait with us; for the length of `body` they are
// taken off, and the signal ends the process as it ends any program (status 130, 143, 129 in a shell).
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Run `body` (a synchronous wait) with SIGINT, SIGTERM and SIGHUP at their default action, then give the
 * handlers back. Only for a wait before anything is written: nothing is cleaned up if a signal comes. A
 * worker thread receives no signals and runs `body` as it is.
 */
export function withDefaultSignals<T>(body: () => T): T {
  if (!process.getBuiltinModule('node:worker_threads').isMainThread) return body();
  const saved = SIGNALS.map((signal) => ({ signal, listeners: process.listeners(signal) }));
  // With no listener left, Node gives the signal back its default action.
  for (const { signal } of saved) process.removeAllListeners(signal);
  try {
    return body();
  } finally {
    for (const { signal, listeners } of saved) for (const listener of listeners) process.on(signal, listener);
  }
}
