// Warnings given once: a session's, however many mappers give them (each harness's mapper says such a
// warning once, and the run says it once in all), and an input adapter's, once per kind of thing it skips. A warning is known by its id, never its text.

/** A warning given once per session: `id` names it (`<format>.<what>`), `text` is what is said. */
export interface OnceWarning {
  readonly id: string;
  readonly text: string;
}

/** The once-only warnings said so far, by id. */
export class WarnOnce {
  private readonly said = new Set<string>();

  /** True the first time `id` is asked about (say it), false after (it was said). */
  first(id: string): boolean {
    if (this.said.has(id)) return false;
    this.said.add(id);
    return true;
  }

  /** Say `message` through `warn` the first time `id` comes, and nothing after. */
  warn(id: string, message: string, warn: (message: string) => void): void {
    if (this.first(id)) warn(message);
  }
}
