// The plumbing shared by the loopback API mocks: collect a request body (parsed as JSON when it is JSON),
// listen on an ephemeral loopback port, close without waiting for keep-alive connections.
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

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

/** Listen on 127.0.0.1 with an ephemeral port: the base URL and a close that drops open connections. */
export async function listenLoopback(server: Server): Promise<{ url: string; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }),
  };
}
