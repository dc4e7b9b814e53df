// Untrusted text (a file name, a path, a piece of an input line) as a diagnostic shows it: one line on stderr
// that a terminal only prints. Control characters (C0, DEL, C1), line and paragraph separators, bidi
// controls and lone surrogates are written as escapes (`\n`, `\x1b`, `\u{2028}`), so a name can neither
// forge a second `asyncai-log:` line nor send an escape sequence to the terminal.

// C0 and DEL, C1, U+2028/2029, the bidi embeddings, overrides and isolates, and lone surrogates (matched
// by code unit: no `u` flag, under which a lone surrogate could not be matched alone).
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** One character as its escape: `\n`, `\r`, `\t`, `\xHH` below U+0100, else `\u{HHHH}`. */
function escapeOne(char: string): string {
  const short = SHORT[char];
  if (short !== undefined) return short;
  const code = char.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u{${code.toString(16)}}`;
}

/** `text` with every character unsafe on a terminal written as an escape (see the header); the rest as it is. */
export function escapeText(text: string): string {
  return text.replace(UNSAFE, escapeOne);
}

/** One diagnostic line for stderr: `asyncai-log: <message>`, the message escaped (escapeText), then a newline. */
export function diagnosticLine(message: string): string {
  return `asyncai-log: ${escapeText(message)}\n`;
}
