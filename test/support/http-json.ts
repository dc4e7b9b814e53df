// The request plumbing shared by the loopback API mocks: collect the body, parse it as JSON when it is JSON.
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

/** A request listener that calls `handle` with the whole body, parsed (or the raw text when not JSON). */
export function withJsonBody(handle: (req: IncomingMessage, res: ServerResponse, body: any) => void): RequestListener {
  return (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      try { body = raw ? JSON.parse(raw) : null; } catch { body = raw; }
      handle(req, res, body);
    });
  };
}
