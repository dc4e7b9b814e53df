// Warnings a session gives once however many mappers give them: with worker threads each thread's mapper
// says such a warning once, and the run says it once in all. A warning is known by its id, never its text.

/** A warning given once per session: `id` names it (`<format>.<what>`), `text` is what is said. */
export interface OnceWarning {
  readonly id: string;
  readonly text: string;
}

/** The once-only warnings a run has said, by id. */
export class WarnOnce {
  private readonly said = new Set<string>();

  /** True the first time `id` is asked about (say it), false after (it was said). */
  first(id: string): boolean {
    if (this.said.has(id)) return false;
    this.said.add(id);
    return true;
  }
}
