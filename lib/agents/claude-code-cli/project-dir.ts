// Claude Code's project directory name for a cwd: every character that is not ASCII alphanumeric becomes
// "-", and a name over 200 characters is cut and suffixed with a hash of the original cwd (exactly as
// Claude Code 2.1.328 does it, or `claude --resume` will not find the session).

const MAX_NAME = 200;

/** Claude Code's 32-bit string hash over UTF-16 code units. */
function hash(text: string): number {
  let h = 0;
  for (let i = 0; i < text.length; i += 1) h = ((h << 5) - h + text.charCodeAt(i)) | 0;
  return h;
}

/** Encode an absolute cwd as Claude Code's `projects/<name>` directory name. */
export function encodeProjectDir(cwd: string): string {
  const encoded = cwd.replace(/[^a-zA-Z0-9]/g, '-');
  if (encoded.length <= MAX_NAME) return encoded;
  return `${encoded.slice(0, MAX_NAME)}-${Math.abs(hash(cwd)).toString(36)}`;
}
