import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';

/** What the socket says about a request (headers cannot be trusted for it). */
export interface Peer {
  remoteAddress: string | undefined;
}

/**
 * Serves a Web-standard fetch handler with `node:http` (the local development server). The request URL is
 * built on a fixed origin: the `Host` header is the client's to choose and names nothing here.
 */
export function serve(handler: (request: Request, peer: Peer) => Promise<Response>, port: number): Promise<Server> {
  const origin = `http://localhost:${port}`;
  const server = createServer((incoming, outgoing) => {
    void respond(handler, origin, incoming, outgoing);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, () => resolve(server));
  });
}

async function respond(
  handler: (request: Request, peer: Peer) => Promise<Response>,
  origin: string,
  incoming: IncomingMessage,
  outgoing: ServerResponse,
): Promise<void> {
  try {
    const headers = new Headers();
    for (let i = 0; i < incoming.rawHeaders.length; i += 2) headers.append(incoming.rawHeaders[i] ?? '', incoming.rawHeaders[i + 1] ?? '');
    const method = incoming.method ?? 'GET';
    const hasBody = method !== 'GET' && method !== 'HEAD';
    const request = new Request(new URL(incoming.url ?? '/', origin), {
      method,
      headers,
      ...(hasBody ? { body: Readable.toWeb(incoming) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
    });
    const response = await handler(request, { remoteAddress: incoming.socket.remoteAddress });
    // Answered before the body was read to the end (a 413, a 401): the rest of it is still on the wire, so
    // the connection cannot carry another request. Without this, the client reuses it and fails.
    if (hasBody && !incoming.complete) outgoing.setHeader('connection', 'close');
    outgoing.writeHead(response.status, Object.fromEntries(groupHeaders(response.headers)));
    if (response.body === null || method === 'HEAD') outgoing.end();
    else Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>).pipe(outgoing);
  } catch (error) {
    // The handlers turn their own errors into responses; this is a malformed request line or similar.
    process.stderr.write(`${JSON.stringify({ level: 'error', msg: 'dev server could not handle a request', error: String(error) })}\n`);
    if (!outgoing.headersSent) outgoing.writeHead(400, { 'content-type': 'application/json' });
    outgoing.end('{"error":{"code":"invalid_request","message":"Malformed request."}}');
  }
}

function groupHeaders(headers: Headers): Map<string, string | string[]> {
  const grouped = new Map<string, string | string[]>();
  for (const [name, value] of headers) grouped.set(name, value);
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) grouped.set('set-cookie', cookies);
  return grouped;
}
