// A pretty-printed JSON document (`opencode export <id>` prints one; Gemini CLI's legacy `.json` chats are
// one): its first line is a lone `{`, its last a `}` in the first column, and every line between is indented.
// The lines between are gathered and the whole parsed as one value, as if it had come on one line; a program
// that loads such a document holds it whole too. LineValues gives the values of an input, line by line or such
// a document whole, to the filter, `read` and `convert` alike. A lone `{` followed by a line that is neither
// indented nor the closing `}` (a JSON Lines file whose first line was cut short) opened no document: from that
// line on the input is read line by line, so nothing after the damage is lost.
import { bytesOf, DEFAULT_MAX_LINE_BYTES, isLazyLine, type Line } from '../lines/lines.js';
import { readLineValue } from '../json/raw-json.js';

/** JSON's whitespace, as bytes. */
const isSpace = (byte: number | undefined): boolean => byte === 0x20 || byte === 0x09 || byte === 0x0a || byte === 0x0d;

/**
 * The line is a lone `{` (with whitespace around). A huge line not yet decoded is looked at in its bytes: it
 * is held as bytes so that it is never one string (lib/lines/lines.ts), and it is almost never a lone brace.
 */
function isLoneBrace(line: Line): boolean {
  const at = isLazyLine(line) ? bytesOf(line) : undefined;
  if (!at) return line.text !== undefined && line.text.trim() === '{';
  const end = at.start + line.bytes;
  let pos = at.start;
  while (pos < end && isSpace(at.source[pos])) pos += 1;
  if (at.source[pos] !== 0x7b) return false;
  for (pos += 1; pos < end; pos += 1) if (!isSpace(at.source[pos])) return false;
  return true;
}

/** The line can be one of a pretty-printed document's after its `{`: indented, or the closing `}`. */
function continuesDocument(line: Line): boolean {
  // A huge line not yet decoded starts with a visible character (lib/lines/lines.ts): not indented, not `}`.
  if (isLazyLine(line)) return false;
  const text = line.text;
  // Over the line limit, its text is not kept: the document's own limit is what applies to it.
  if (text === undefined) return true;
  const head = text.charCodeAt(0);
  return head === 0x20 || head === 0x09 || text.trimEnd() === '}';
}

export class PrettyDocument {
  private lines: string[] = [];
  /** Lines gathered, the `{` included. */
  count = 1;
  private bytes = 0;
  private overLong = false;
  /** Number of the document's first line. */
  readonly first: number;

  /** The `{` line, as read (not the chunk it was cut from). */
  readonly opening: Line;

  private constructor(line: Line, private readonly max: number) {
    this.first = line.no;
    this.opening = { no: line.no, text: line.text, bytes: line.bytes };
    this.lines.push(line.text ?? '');
    this.bytes = line.bytes;
  }

  /** A document starting at `line`, when it is a lone `{` (no JSON value on its own). */
  static start(line: Line, maxBytes = DEFAULT_MAX_LINE_BYTES): PrettyDocument | undefined {
    return isLoneBrace(line) ? new PrettyDocument(line, maxBytes) : undefined;
  }

  /**
   * Add a line; the parsed document once its closing `}` came (throws SyntaxError when it is not JSON). A
   * document over `maxBytes` (like a line over the limit) is not held: its closing line gives `over`.
   */
  push(line: Line): { value: unknown } | { over: number } | undefined {
    const text = line.text ?? '';
    this.count += 1;
    this.bytes += line.bytes + 1;
    if (!this.overLong && this.bytes > this.max) {
      this.overLong = true;
      this.lines = [];
    }
    if (!this.overLong) this.lines.push(text);
    if (text.trimEnd() !== '}') return undefined;
    if (this.overLong) return { over: this.bytes };
    const joined = this.lines.join('\n');
    this.lines = [];
    return { value: JSON.parse(joined) };
  }
}

/** The one diagnostic a value gets instead, located at the line it starts on. */
export type LineDiagnostic = { no: number; bad: string };

/** One value of an input, located at the line it starts on, or the one diagnostic it gets instead. */
export type LineValue = ({ no: number; value: unknown } | LineDiagnostic) & {
  /**
   * The diagnostic of the lines before this one that opened no document after all (a lone `{` and the indented
   * lines after it, if any), given with the value of the first line that is not one of a document's.
   */
  before?: LineDiagnostic;
};

/**
 * The values of an input: each line one JSON value, except a pretty-printed document that opens the input,
 * which is gathered whole (see PrettyDocument).
 */
export class LineValues {
  private document: PrettyDocument | undefined;
  private first = true;
  /** The input opened with a pretty-printed document. */
  opened = false;

  constructor(private readonly maxLineBytes?: number) {}

  /** A document is being gathered: the lines so far gave no value yet. */
  get gathering(): boolean {
    return this.document !== undefined;
  }

  /** The value `line` completes, or undefined while it belongs to a document still open. */
  next(line: Line): LineValue | undefined {
    if (this.first) {
      // A huge line not yet decoded starts with a visible character (lib/lines/lines.ts): it is not blank.
      this.first = isLazyLine(line) || line.text === undefined ? false : line.text.trim() === '';
      this.document = PrettyDocument.start(line, this.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES);
      if (this.document) {
        this.opened = true;
        return undefined;
      }
    }
    const document = this.document;
    if (!document) return readLineValue(line, this.maxLineBytes, line.no);
    if (!continuesDocument(line)) {
      this.document = undefined;
      this.opened = false;
      const value: LineValue = readLineValue(line, this.maxLineBytes, line.no);
      // The `{` alone gets the diagnostic any line that is not JSON gets.
      value.before = document.count === 1
        ? readLineValue(document.opening, this.maxLineBytes, document.first) as LineDiagnostic
        : { no: document.first, bad: `not a JSON document: line ${line.no} is neither indented nor its closing "}"; read line by line from there` };
      return value;
    }
    let whole: ReturnType<PrettyDocument['push']>;
    try {
      whole = document.push(line);
    } catch (error) {
      this.document = undefined;
      return { no: document.first, bad: `not a JSON document: ${(error as Error).message}` };
    }
    if (!whole) return undefined;
    this.document = undefined;
    if ('over' in whole) return { no: document.first, bad: `JSON document of ${whole.over} bytes is over the limit of ${this.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES} bytes; skipped` };
    return { no: document.first, value: whole.value };
  }

  /** The input ended: the diagnostic of a document left open, if any. */
  end(): LineDiagnostic | undefined {
    const document = this.document;
    this.document = undefined;
    return document && { no: document.first, bad: 'the JSON document starting here does not end (no closing "}" in the first column)' };
  }
}
