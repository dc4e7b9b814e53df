// Untrusted text in a diagnostic is escaped (lib/util/shown-text.ts), and a bad line is quoted once, cut to
// one length, the same way in every message (lib/lines/line-messages.ts).
import { describe, expect, test } from 'vitest';
import { diagnosticLine, escapeText } from '../../lib/util/shown-text.js';
import { invalidJsonMessage, PREVIEW_CHARS, preview, previewValue } from '../../lib/lines/line-messages.js';

describe('escapeText', () => {
  test('newlines, ESC, DEL, C1, line separators, bidi controls and lone surrogates are written as escapes', () => {
    expect(escapeText('a\nasyncai-log: forged')).toBe('a\\nasyncai-log: forged');
    expect(escapeText('\x1b[31mred\r\t\x00\x7f')).toBe('\\x1b[31mred\\r\\t\\x00\\x7f');
    expect(escapeText('\u009b31m \u2028 \u202e \ud800 \udc00')).toBe('\\x9b31m \\u{2028} \\u{202e} \\u{d800} \\u{dc00}');
  });

  test('printable text, non-ASCII letters, emoji and backslashes are left as they are', () => {
    const text = 'dir/été 😀 \\n "quoted" \ufffd';
    expect(escapeText(text)).toBe(text);
  });

  test('a diagnostic line is one line whatever its message holds', () => {
    expect(diagnosticLine('x\ny\x1b: bad')).toBe('asyncai-log: x\\ny\\x1b: bad\n');
  });
});

/** What JSON.parse throws for `text`. */
function parseError(text: string): unknown {
  try {
    JSON.parse(text);
  } catch (error) {
    return error;
  }
  throw new Error(`${text} is JSON`);
}

describe('a bad line quoted in a diagnostic', () => {
  test('invalid JSON quotes the line once, not V8\'s piece of it as well', () => {
    expect(invalidJsonMessage(parseError('not json'), 'not json')).toBe('invalid JSON: Unexpected token \'o\': "not json"');
  });

  test('a long line is cut to PREVIEW_CHARS, with ... after the closing quote', () => {
    const long = 'x'.repeat(200);
    expect(preview(long)).toBe(`"${'x'.repeat(PREVIEW_CHARS)}"...`);
    const message = invalidJsonMessage(parseError(long), long);
    expect(message.split('x'.repeat(10)).length - 1).toBe(PREVIEW_CHARS / 10);
    expect(message.endsWith(`"${'x'.repeat(PREVIEW_CHARS)}"...`)).toBe(true);
  });

  test('a cut never splits a surrogate pair, and control characters are escaped inside the quotes', () => {
    const text = `${'a'.repeat(PREVIEW_CHARS - 1)}😀tail`;
    expect(preview(text)).toBe(`"${'a'.repeat(PREVIEW_CHARS - 1)}"...`);
    expect(preview('a\nb\x1b')).toBe('"a\\nb\\u001b"');
  });

  test('a value from a line is cut to the same length the same way', () => {
    expect(previewValue('y'.repeat(200))).toBe(preview('y'.repeat(200)));
    expect(previewValue({ a: 'z'.repeat(200) })).toBe(`${JSON.stringify({ a: 'z'.repeat(200) }).slice(0, PREVIEW_CHARS)}...`);
    expect(previewValue(7)).toBe('7');
  });
});
