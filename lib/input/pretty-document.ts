// A pretty-printed JSON document on stdin (`opencode export <id>` prints one): its first line is a lone `{`,
// its last a `}` in the first column. The lines between are gathered and the whole parsed as one value, as
// if it had come on one line; a program that loads such a document holds it whole too.
import type { Line } from './lines.js';

export class PrettyDocument {
  private lines: string[] = [];
  /** Number of the document's first line. */
  readonly first: number;

  private constructor(line: Line) {
    this.first = line.no;
    this.lines.push(line.text ?? '');
  }

  /** A document starting at `line`, when it is a lone `{` (no JSON value on its own). */
  static start(line: Line): PrettyDocument | undefined {
    return line.text !== undefined && line.text.trim() === '{' ? new PrettyDocument(line) : undefined;
  }

  /** Add a line; the parsed document once its closing `}` came (throws SyntaxError when it is not JSON). */
  push(line: Line): { value: unknown } | undefined {
    const text = line.text ?? '';
    this.lines.push(text);
    if (text.trimEnd() !== '}') return undefined;
    const joined = this.lines.join('\n');
    this.lines = [];
    return { value: JSON.parse(joined) };
  }
}
