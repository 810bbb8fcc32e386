// The development server (lib/dev/node-server.ts): loopback only unless told otherwise, and a body over the
// limit that keeps streaming in (chunked, no Content-Length) gets 413 while the server keeps serving.

import { connect, type AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { serve } from '../../../lib/dev/node-server.js';
import { createRouter } from '../../../lib/dev/router.js';
import { signToken } from '../../support/auth.js';
import { ROOT, routes } from '../../support/http.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
  server = undefined;
});

const portOf = (s: Server) => (s.address() as AddressInfo).port;

describe('serve', () => {
  it('listens on 127.0.0.1 by default, and where it is told to', async () => {
    server = await serve(async () => new Response('ok'), 0);
    expect((server.address() as AddressInfo).address).toBe('127.0.0.1');
    server.close();
    server = await serve(async () => new Response('ok'), 0, '::1');
    expect((server.address() as AddressInfo).address).toBe('::1');
  });

  it('on a loopback address, refuses a Host other than localhost, 127.0.0.1 or [::1] (DNS rebinding) before the handler runs', async () => {
    let handled = 0;
    server = await serve(async () => {
      handled += 1;
      return new Response('ok');
    }, 0);
    const port = portOf(server);
    const ask = (host: string) =>
      new Promise<string>((resolve, reject) => {
        const socket = connect(port, '127.0.0.1');
        let answer = '';
        socket.on('data', (data: Buffer) => (answer += data.toString()));
        socket.on('end', () => resolve(answer));
        socket.on('error', reject);
        socket.write(`GET /api/health HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`);
      });
    for (const host of ['attacker.example', 'attacker.example:' + port, 'localhost.attacker.example', '127.0.0.1.nip.io', '']) {
      expect((await ask(host)).split('\r\n')[0], host).toBe('HTTP/1.1 421 Misdirected Request');
    }
    expect(handled).toBe(0);
    for (const host of ['localhost', `localhost:${port}`, `127.0.0.1:${port}`, `[::1]:${port}`, 'LOCALHOST']) {
      expect((await ask(host)).split('\r\n')[0], host).toBe('HTTP/1.1 200 OK');
    }
    expect(handled).toBe(5);
  });

  it('answers 413 to an endless chunked body over the limit, and keeps serving', async () => {
    server = await serve(createRouter(ROOT, await routes()), 0);
    const port = portOf(server);
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    let answer = '';
    socket.on('data', (data: Buffer) => (answer += data.toString()));
    socket.on('error', () => undefined); // the server may close the connection while we are still writing
    socket.write(
      `POST /api/scan HTTP/1.1\r\nHost: localhost\r\nAuthorization: Bearer ${await signToken()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`,
    );
    const chunk = ' '.repeat(64 * 1024);
    // Keeps sending well after the server has answered: the chunks that arrive after the body was refused must not crash it.
    for (let i = 0; i < 40 && !socket.destroyed; i += 1) {
      socket.write(`${chunk.length.toString(16)}\r\n${chunk}\r\n`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    for (let waited = 0; !answer.includes('payload_too_large') && waited < 10_000; waited += 50) await new Promise((resolve) => setTimeout(resolve, 50));
    socket.destroy();
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('payload_too_large');
    const health = await fetch(`http://127.0.0.1:${port}/api/health`);
    expect(health.status).toBe(200);
  });
});
