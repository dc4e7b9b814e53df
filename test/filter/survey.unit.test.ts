// InputSurvey: what a filter input's lines looked like, said in one line when they held no event.
import { describe, expect, test } from 'vitest';
import { InputSurvey } from '../../lib/filter/survey.js';

/** A survey of `lines` lines: JSON values where given, plain text (undefined) or over-long ('long') otherwise. */
function survey(lines: unknown[]): InputSurvey {
  const seen = new InputSurvey();
  for (const line of lines) {
    seen.line(line === 'long');
    if (line !== undefined && line !== 'long') seen.value(line);
  }
  return seen;
}

describe('InputSurvey.describe', () => {
  test('lines that are not JSON look like plain text', () => {
    expect(survey([undefined, undefined]).describe('auto')).toBe('no event in 2 lines: they look like plain text, not JSON');
    expect(survey([undefined]).describe('auto')).toBe('no event in 1 line: it looks like plain text, not JSON');
  });

  test('lines all over the line limit say so', () => {
    expect(survey(['long', 'long']).describe('auto')).toBe('no event in 2 lines: they are over the line limit (--max-line-bytes)');
  });

  test('a --from other than the format the first value looks like names both', () => {
    const events = [{ type: 'user', text: 'hi' }, undefined];
    expect(survey(events).describe('codex-rollout')).toBe('no event in 2 lines: they look like generic events, not codex-rollout (--from)');
    expect(survey([{ nothing: 'known' }]).describe('events')).toBe('no event in 1 line: it looks like no known format, and not events (--from)');
  });

  test('the format --from names, or the one detected, with nothing usable points at the diagnostics above', () => {
    const bad = [{ type: 'user' }, { type: 'mystery' }];
    expect(survey(bad).describe('auto')).toBe('no event in 2 lines: they look like generic events, but none held an event (see above)');
    expect(survey(bad).describe('events')).toBe('no event in 2 lines: they look like generic events, but none held an event (see above)');
  });
});
