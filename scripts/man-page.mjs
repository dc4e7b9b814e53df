// The man page, asyncai-log(1), rendered from the built bin's own --help of each command (at 80 columns, as
// when stdout is not a terminal), so the page and the help cannot say different things. Written by the
// build into dist/man/, which package.json's "man" installs. parseManPage is the inverse the tests use.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The sections after NAME and SYNOPSIS: a title and the arguments of the command whose --help it shows. */
export const MAN_SECTIONS = [
  { title: 'DESCRIPTION', args: ['--help'] },
  { title: 'ASYNCAI-LOG READ', args: ['read', '--help'] },
  { title: 'ASYNCAI-LOG CONVERT', args: ['convert', '--help'] },
];

/** Text set as is: roff's escape character, minus signs (so flags copy as typed) and control lines made literal. */
function literal(text) {
  return text.split('\n')
    .map((line) => line.replace(/\\/g, '\\e').replace(/-/g, '\\-').replace(/^([.'])/, '\\&$1'))
    .join('\n');
}

/** The inverse of literal. */
function unliteral(text) {
  return text.split('\n').map((line) => line.replace(/^\\&/, '').replace(/\\-/g, '-').replace(/\\e/g, '\\')).join('\n');
}

/** The --help of `args`, as the built bin prints it when stdout is not a terminal. */
export function helpText(root, args) {
  return execFileSync(process.execPath, [join(root, 'dist', 'bin', 'asyncai-log.js'), ...args], { encoding: 'utf8' }).replace(/\n+$/, '');
}

/** asyncai-log(1) as roff. */
export function renderManPage(root) {
  const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const helps = MAN_SECTIONS.map((section) => ({ ...section, text: helpText(root, section.args) }));
  // The main help's second paragraph is the one-line description.
  const summary = helps[0].text.split('\n\n')[1].replace(/\.$/, '');
  const lines = [
    `.TH ASYNCAI\\-LOG 1 "" "asyncai\\-log ${version}" "User Commands"`,
    '.SH NAME',
    `asyncai\\-log \\- ${literal(summary.charAt(0).toLowerCase() + summary.slice(1))}`,
    '.SH SYNOPSIS',
    '.nf',
    literal(['asyncai-log [options] < events.ndjson', 'asyncai-log read <transcripts..> [options]', 'asyncai-log convert <inputs..> [options]', 'asyncai-log completion'].join('\n')),
    '.fi',
  ];
  for (const { title, text } of helps) lines.push(`.SH "${title}"`, '.nf', literal(text), '.fi');
  lines.push('.SH "SEE ALSO"', 'claude(1), codex(1), and the README of asyncai\\-log.');
  return `${lines.join('\n')}\n`;
}

/** The help text of each section of a page renderManPage wrote, by title. */
export function parseManPage(roff) {
  const sections = {};
  for (const match of roff.matchAll(/^\.SH "?([^"\n]+)"?\n\.nf\n([\s\S]*?)\n\.fi$/gm)) sections[match[1]] = unliteral(match[2]);
  return sections;
}

/** Write dist/man/asyncai-log.1 (dist/ must hold the built bin). */
export function writeManPage(root) {
  mkdirSync(join(root, 'dist', 'man'), { recursive: true });
  writeFileSync(join(root, 'dist', 'man', 'asyncai-log.1'), renderManPage(root));
}
