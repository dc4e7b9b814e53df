// The live output of Gemini CLI (`--output-format stream-json`), OpenCode (`run --format json`), pi (`--mode json`),
// droid (`exec -o stream-json`) and Copilot CLI (`-p --output-format json`) through the built bin: each captured
// stream, piped in with nothing but `--cwd`, is detected from its first line and
// written as a Claude Code session that the real claude resumes, sending the whole conversation.
import { describe, expect, test } from 'vitest';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startMockAnthropic } from '../support/mock-anthropic.js';
import { FIXTURES, cleanEnv, resumeWithClaude, runBin, sessionOf, tempDir } from '../support/run.js';
import { blocksOf, resultText } from './support.js';

interface Case {
  fixture: string;
  /** The fixture's folder under fixtures/, when it is not the format's name. */
  folder?: string;
  /** What the stream does not carry (OpenCode does not print the prompt). */
  args: string[];
  user: string;
  call: { name: string; input: object };
  result: string;
  error: string;
  reply: string;
}

const CASES: [string, Case][] = [
  ['gemini-stream-json', {
    fixture: 'run', args: [], user: 'Read notes.txt and missing.txt, and look at @pixel.png',
    call: { name: 'read_file', input: { file_path: 'notes.txt' } },
    result: '[Gemini CLI printed no output for this call: its stream-json carries what a tool displays, not what the model saw]',
    error: 'File not found: /home/user/project/missing.txt',
    reply: 'The notes say hi; missing.txt does not exist; the image is one pixel.',
  }],
  ['opencode-run-json', {
    fixture: 'thinking', args: ['--prompt', 'What is here?'], user: 'What is here?',
    call: { name: 'bash', input: { command: 'ls', description: 'List files' } },
    result: 'notes.txt\npixel.png\n',
    error: 'File not found: /home/user/project/missing.txt',
    reply: 'There are notes.txt and pixel.png; missing.txt does not exist; the image is one pixel.',
  }],
  ['pi-session', {
    fixture: 'json-run', folder: 'pi', args: [], user: 'What files are here?',
    call: { name: 'Bash', input: { command: 'ls' } },
    result: 'notes.txt\npixel.png\n',
    error: "ENOENT: no such file or directory, access '/home/user/project/missing.txt'",
    reply: 'There are notes.txt and pixel.png; missing.txt does not exist.',
  }],
  ['droid-stream-json', {
    fixture: 'stream-json', folder: 'droid', args: [], user: 'Print notes.txt and read missing.txt',
    call: { name: 'Execute', input: { command: 'cat notes.txt', summary: 'print the notes', riskLevel: 'low', riskLevelReason: 'reads a file' } },
    result: 'the notes say hi\n\n\n[Process exited with code 0]',
    error: "Error: Error reading file: ENOENT: no such file or directory, access '/home/user/project/missing.txt'",
    reply: 'The notes say hi; missing.txt does not exist.',
  }],
  ['copilot-events', {
    fixture: 'json-run', folder: 'copilot-cli', args: [], user: 'Read missing.txt and notes.txt, and look at the image',
    call: { name: 'Bash', input: { command: 'cat notes.txt', description: 'Read the notes' } },
    result: 'the notes say hi\n<shellId: 0 completed with exit code 0>',
    error: 'Path does not exist',
    reply: 'The notes say hi; missing.txt does not exist; the image is one pixel.',
  }],
];

describe('live agent streams through the bin, resumed by the real claude', () => {
  test.each(CASES)('%s: the session holds the prompt, the calls, their results and the reply', async (format, c) => {
    const env = cleanEnv();
    const project = join(tempDir(), 'project');
    mkdirSync(project);
    const input = readFileSync(join(FIXTURES, c.folder ?? format, `${c.fixture}.jsonl`));
    const piped = await runBin(['--cwd', project, ...c.args], { input, env });
    expect(piped.code).toBe(0);
    const session = sessionOf(piped);
    expect(session.session_file.startsWith(join(env.HOME!, '.claude', 'projects'))).toBe(true);
    const records = readFileSync(session.session_file, 'utf8').split('\n').filter((l) => l !== '').map((l) => JSON.parse(l));
    // The prompt: the content itself, or its first block when an image came with it (Copilot's attachment).
    const prompt = records[0].message.content;
    expect(records[0].type).toBe('user');
    expect(typeof prompt === 'string' ? prompt : prompt[0].text).toBe(c.user);
    expect(records.at(-1)).toMatchObject({ type: 'assistant', message: { content: [{ type: 'text', text: c.reply }] } });

    const anthropic = await startMockAnthropic();
    try {
      const resumed = await resumeWithClaude({ configDir: join(env.HOME!, '.claude'), cwd: project, session: session.session_id, baseUrl: anthropic.url });
      expect(resumed.code).toBe(0);
      const blocks = blocksOf(anthropic.requests.at(-1)!.body);
      expect(blocks[0]).toEqual({ role: 'user', block: expect.objectContaining({ text: c.user }) });
      const call = blocks.find((b) => b.block.type === 'tool_use' && b.block.name === c.call.name);
      expect(call?.block.input).toEqual(c.call.input);
      const results = blocks.filter((b) => b.block.type === 'tool_result');
      expect(results.find((b) => b.block.tool_use_id === call?.block.id && resultText(b.block) === c.result)).toBeDefined();
      expect(results.find((b) => b.block.is_error === true && resultText(b.block) === c.error)).toBeDefined();
      expect(blocks).toContainEqual({ role: 'assistant', block: expect.objectContaining({ type: 'text', text: c.reply }) });
    } finally {
      await anthropic.close();
    }
  });
});
