import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { DEFAULT_HOST, isLoopbackHost } from '../env.js';

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

/** What the socket says about a request (headers cannot be trusted for it). */
export interface Peer {
  remoteAddress: string | undefined;
}

/** The host name of a `Host` header (`name`, `name:port`, `[v6]:port`), lower case; null when malformed. */
function hostName(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^(\[[0-9a-f:.]+\]|[^:[\]]+)(?::\d{1,5})?$/i.exec(header.trim());
  return match?.[1]?.toLowerCase() ?? null;
}

/**
 * Serves a Web-standard fetch handler with `node:http` (the local development server), on `host` (default
 * loopback only: the server runs on the public development secret). The request URL is built on a fixed
 * origin: the `Host` header is the client's to choose and names nothing here. On a loopback address, a
 * request whose `Host` is not `localhost`, `127.0.0.1` or `[::1]` is refused (421) before the handler sees
 * it: a web page of another site whose name resolves to 127.0.0.1 (DNS rebinding) must not reach the API.
 */
export function serve(handler: (request: Request, peer: Peer) => Promise<Response>, port: number, host: string = DEFAULT_HOST): Promise<Server> {
  const origin = `http://localhost:${port}`;
  const loopback = isLoopbackHost(host);
  const server = createServer((incoming, outgoing) => {
    if (loopback && !LOOPBACK_NAMES.has(hostName(incoming.headers.host) ?? '')) {
      outgoing.writeHead(421, { 'content-type': 'application/json', connection: 'close' });
      outgoing.end(JSON.stringify({ error: { code: 'forbidden', message: 'This development server answers only requests for localhost, 127.0.0.1 or [::1].' } }));
      incoming.resume();
      return;
    }
    void respond(handler, origin, incoming, outgoing);
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

/**
 * The request body as a web stream. Not `Readable.toWeb`: when a reader cancels it (a body over the limit),
 * Node's adapter still enqueues the chunks that keep arriving and throws "Controller is already closed"
 * outside any handler, which kills the process. Here a cancelled body is drained and dropped instead, and the
 * connection is closed once the answer is sent (see `respond`).
 */
function bodyStream(incoming: IncomingMessage): ReadableStream<Uint8Array> {
  let done = false;
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        incoming.pause();
        incoming.on('data', (chunk: Buffer) => {
          if (done) return;
          controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
          if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
        });
        incoming.once('end', () => {
          if (done) return;
          done = true;
          controller.close();
        });
        incoming.once('error', (error) => {
          if (done) return;
          done = true;
          controller.error(error);
        });
      },
      pull() {
        incoming.resume();
      },
      cancel() {
        done = true;
        incoming.resume(); // discard the rest; the connection closes after the answer
      },
    },
    { highWaterMark: 1 },
  );
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
      ...(hasBody ? { body: bodyStream(incoming), duplex: 'half' } : {}),
    });
    const response = await handler(request, { remoteAddress: incoming.socket.remoteAddress });
    // Answered before the body was read to the end (a 413, a 401): the rest of it is still on the wire.
    if (hasBody && !incoming.complete) lingerThenClose(incoming, outgoing);
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

/** How long, and how many more bytes, the rest of a refused body is read and dropped before the connection goes. */
const LINGER_MS = 2_000;
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * The rest of a body the handler did not read is drained and dropped, for a bounded time and size, and then
 * the connection is closed. Closing it at once would reset it while the client is still sending, and a reset
 * makes the client drop the answer it was sent (the 413) unread; draining forever would let one client hold
 * the connection with an endless body. A body that ends in time leaves the connection reusable.
 */
function lingerThenClose(incoming: IncomingMessage, outgoing: ServerResponse): void {
  outgoing.setHeader('connection', 'close');
  // Without `connection: close` in the answer's head Node would not close; with it, Node closes as soon as
  // the answer is sent. So the header is sent, and the socket is kept until the drain below is over.
  const socket = incoming.socket;
  const destroySoon = socket.destroySoon.bind(socket);
  let drained = 0;
  let closed = false;
  const close = () => {
    if (closed) return;
    closed = true;
    clearTimeout(timer);
    destroySoon();
  };
  const timer = setTimeout(close, LINGER_MS);
  timer.unref();
  socket.destroySoon = () => {
    if (incoming.complete) close();
  };
  incoming.on('data', (chunk: Buffer) => {
    drained += chunk.byteLength;
    if (drained > LINGER_BYTES) close();
  });
  incoming.once('end', () => {
    if (outgoing.writableFinished) close();
    else outgoing.once('finish', close);
  });
  incoming.resume();
}

function groupHeaders(headers: Headers): Map<string, string | string[]> {
  const grouped = new Map<string, string | string[]>();
  for (const [name, value] of headers) grouped.set(name, value);
  const cookies = headers.getSetCookie();
  if (cookies.length > 0) grouped.set('set-cookie', cookies);
  return grouped;
}
