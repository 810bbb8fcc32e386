// The dev server's routes for the web client: the development sign-in (loopback only, development secret
// only, POST with the client's header) and the static files of public/ (never outside it, no dotfiles).

import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { describe, expect, it } from 'vitest';
import { DEV_TOKEN_PATH, devTokenRoute, isLoopback } from '../../../lib/dev/dev-token.js';
import { staticFiles } from '../../../lib/dev/static.js';

const SECRET = 'test-secret-for-the-dev-token-route';
const USER = { id: 'de7e1000-0000-4000-8000-000000000001', email: 'dev@chainbreaker.local' };
const post = (headers: Record<string, string> = { 'x-requested-with': 'chainbreaker' }) =>
  new Request(`http://localhost${DEV_TOKEN_PATH}`, { method: 'POST', headers });

describe('the development sign-in route', () => {
  const route = devTokenRoute({ user: USER, secret: SECRET, issuer: null, enabled: true });

  it('answers a loopback POST with a token of the development user signed with the secret', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1', '127.9.8.7']) {
      const response = await route(post(), address);
      expect(response?.status, address).toBe(200);
      expect(response?.headers.get('cache-control')).toBe('no-store');
      const { access_token: token } = (await response?.json()) as { access_token: string };
      const { payload } = await jwtVerify(token, new TextEncoder().encode(SECRET), { audience: 'authenticated' });
      expect(payload.sub).toBe(USER.id);
    }
  });

  it('is a 404 for anyone not on loopback, whatever the headers say', async () => {
    for (const address of ['10.0.0.5', '192.168.1.2', '::ffff:10.0.0.5', 'fe80::1', undefined]) {
      const response = await route(post({ 'x-requested-with': 'chainbreaker', 'x-forwarded-for': '127.0.0.1', host: 'localhost' }), address);
      expect(response?.status, String(address)).toBe(404);
    }
    expect(isLoopback('127.0.0.1.evil')).toBe(false);
  });

  it('does not exist without the development secret or the development user', async () => {
    for (const options of [{ enabled: false, user: USER }, { enabled: true, user: null }]) {
      const response = await devTokenRoute({ ...options, secret: SECRET, issuer: null })(post(), '127.0.0.1');
      expect(response?.status).toBe(404);
    }
  });

  it('refuses GET and a cross-site form post (no client header), and ignores other paths', async () => {
    expect((await route(new Request(`http://localhost${DEV_TOKEN_PATH}`), '127.0.0.1'))?.status).toBe(405);
    expect((await route(post({ 'content-type': 'application/x-www-form-urlencoded' }), '127.0.0.1'))?.status).toBe(403);
    expect(await route(new Request('http://localhost/api/health'), '127.0.0.1')).toBeNull();
  });
});

describe('static files of public/', () => {
  it('serves pages with clean URLs and refuses paths out of the folder and dotfiles', async () => {
    const root = await mkdtemp(join(tmpdir(), 'cb-public-'));
    await mkdir(join(root, 'public/rules'), { recursive: true });
    await writeFile(join(root, 'public/index.html'), '<h1>app</h1>');
    await writeFile(join(root, 'public/rules/x.html'), '<h1>x</h1>');
    await writeFile(join(root, 'public/.env'), 'SECRET=1');
    await writeFile(join(root, 'secret.txt'), 'outside');
    const serve = staticFiles(join(root, 'public'));
    const get = (path: string, method = 'GET') => serve(new Request(`http://localhost${path}`, { method }));

    expect(await (await get('/'))?.text()).toBe('<h1>app</h1>');
    const page = await get('/rules/x');
    expect(page?.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page?.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await page?.text()).toBe('<h1>x</h1>');
    for (const path of ['/../secret.txt', '/%2e%2e/secret.txt', '/rules/%2e%2e/%2e%2e/secret.txt', '/.env', '/rules/nope', '/%00', '/%E0%A4%A']) {
      expect(await get(path), path).toBeNull();
    }
    expect(await get('/', 'POST')).toBeNull();
  });
});
