// Forged and wrong tokens against every endpoint that needs one (enumerated from the route files, see
// support.ts): each is a 401 with the error body and a `WWW-Authenticate` challenge, the handler never
// reaches the database or the code host, and nothing stored for the user the tokens name changes.

import { createHmac, generateKeyPairSync, randomUUID, sign } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { signingSecret, signToken } from '../support/auth.js';
import { examplesCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import {
  authenticatedEndpoints,
  countingCodeHost,
  countingDatabase,
  expectErrorBody,
  send,
  storedFor,
  urlOf,
  userWithData,
  validBody,
  type Endpoint,
  type Fill,
} from './support.js';

let t: TestDatabase;
let list: Endpoint[];
let victim: Awaited<ReturnType<typeof userWithData>>;
let fill: Fill;
let validQueryToken = '';

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
  list = await authenticatedEndpoints();
  victim = await userWithData(t, { scan: true });
  fill = { repo_id: victim.repos['issue-triage-bot'] ?? '', rule_id: 'script-injection', installation_id: '1', scan_id: victim.scanId, fingerprint: '3f2a9c01d4e5b6' };
  validQueryToken = await signToken({ sub: victim.userId });
});
afterAll(async () => t.close());

const b64 = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
/** Claims of a good token for the victim; every forgery below starts from them. */
const claims = (extra: Record<string, unknown> = {}) => ({ sub: victim.userId, aud: 'authenticated', role: 'authenticated', iat: now(), exp: now() + 600, ...extra });
const hmac = (alg: 'sha256' | 'sha384' | 'sha512', input: string, key: string | Buffer) => createHmac(alg, key).update(input).digest('base64url');
/** A token put together by hand: any header, any payload, an HMAC-SHA256 signature with `key`. */
const handMade = (header: object, payload: object, key: string | Buffer = signingSecret()) => {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${hmac('sha256', input, key)}`;
};
const attacker = generateKeyPairSync('rsa', { modulusLength: 2048 });

/** `[name, headers]`: what each forgery sends; `challenge` is the `WWW-Authenticate` expected. */
type Forgery = { name: string; headers: () => Promise<Record<string, string>>; url?: (url: string) => string; challenge: 'missing' | 'invalid' };
const bearer = (token: () => Promise<string> | string, name: string): Forgery => ({
  name,
  headers: async () => ({ authorization: `Bearer ${await token()}` }),
  challenge: 'invalid',
});

const forgeries: Forgery[] = [
  bearer(() => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`, 'alg none, no signature'),
  bearer(() => `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.${hmac('sha256', 'x', signingSecret())}`, 'alg none with a signature'),
  bearer(() => `${b64({ alg: 'None' })}.${b64(claims())}.`, 'alg "None" (case trick)'),
  bearer(() => signToken({ sub: victim.userId, secret: 'an-attacker-secret-0123456789-0123456789' }), 'wrong secret'),
  bearer(() => signToken({ sub: victim.userId, secret: 'a'.repeat(32) }), 'a guessable secret'),
  bearer(() => signToken({ sub: victim.userId, alg: 'HS512' }), 'HS512 with the right secret'),
  bearer(() => signToken({ sub: victim.userId, alg: 'HS384' }), 'HS384 with the right secret'),
  bearer(() => handMade({ alg: 'RS256', typ: 'JWT' }, claims()), 'RS256 whose "key" is the HMAC secret'),
  bearer(() => handMade({ alg: 'ES256', typ: 'JWT' }, claims()), 'ES256 whose "key" is the HMAC secret'),
  bearer(() => {
    const jwk = attacker.publicKey.export({ format: 'jwk' });
    const input = `${b64({ alg: 'RS256', typ: 'JWT', jwk })}.${b64(claims())}`;
    return `${input}.${sign('sha256', Buffer.from(input), attacker.privateKey).toString('base64url')}`;
  }, 'RS256 with the attacker key embedded in the header (jwk)'),
  bearer(() => {
    const input = `${b64({ alg: 'RS256', typ: 'JWT', jku: 'https://attacker.example/jwks.json', kid: 'k1' })}.${b64(claims())}`;
    return `${input}.${sign('sha256', Buffer.from(input), attacker.privateKey).toString('base64url')}`;
  }, 'RS256 naming the attacker key set (jku)'),
  bearer(() => handMade({ alg: 'HS256', typ: 'JWT', kid: '../../../../dev/null' }, claims(), ''), 'kid path traversal, signed with an empty key'),
  bearer(() => signToken({ sub: victim.userId, expiresIn: -30 }), 'expired'),
  bearer(() => signToken({ sub: victim.userId, expiresIn: -1 }), 'expired a second ago'),
  bearer(() => signToken({ sub: victim.userId, notBefore: 600 }), 'not yet valid (nbf)'),
  bearer(() => signToken({ sub: victim.userId, expiresIn: null }), 'no exp'),
  bearer(() => handMade({ alg: 'HS256', typ: 'JWT' }, claims({ exp: String(now() + 600) })), 'exp as a string'),
  bearer(() => signToken({ sub: null }), 'no sub'),
  bearer(() => signToken({ sub: 'alice' }), 'sub not a UUID'),
  bearer(() => signToken({ sub: `${victim.userId} ` }), 'sub with trailing space'),
  bearer(() => signToken({ sub: victim.userId, claims: { role: 'anon' } }), 'role anon'),
  bearer(() => signToken({ sub: victim.userId, claims: { role: 'service_role' } }), 'role service_role'),
  bearer(() => handMade({ alg: 'HS256', typ: 'JWT' }, { sub: victim.userId, aud: 'authenticated', exp: now() + 600 }), 'no role'),
  bearer(() => signToken({ sub: victim.userId, claims: { aud: 'anon' } }), 'wrong aud'),
  bearer(() => handMade({ alg: 'HS256', typ: 'JWT' }, { sub: victim.userId, role: 'authenticated', exp: now() + 600 }), 'no aud'),
  bearer(() => signToken({ sub: victim.userId, claims: { role: 'authenticated', user_metadata: { role: 'service_role' }, app_metadata: { provider: 'github' }, aud: 'service_role' } }), 'wrong aud with metadata claims'),
  bearer(async () => {
    // The attacker's own valid token, with the victim's id pasted in.
    const [header, , signature] = (await signToken({ sub: randomUUID() })).split('.');
    return `${header}.${b64(claims())}.${signature}`;
  }, 'tampered payload (sub swapped)'),
  bearer(async () => {
    const [, payload, signature] = (await signToken({ sub: victim.userId })).split('.');
    return `${b64({ alg: 'HS512', typ: 'JWT' })}.${payload}.${signature}`;
  }, 'tampered header (alg swapped)'),
  bearer(async () => `${(await signToken({ sub: victim.userId })).split('.').slice(0, 2).join('.')}.`, 'signature stripped'),
  bearer(async () => `${(await signToken({ sub: victim.userId })).slice(0, -4)}AAAA`, 'signature altered'),
  bearer(async () => (await signToken({ sub: victim.userId })).split('.').slice(0, 2).join('.'), 'two parts'),
  bearer(async () => `${await signToken({ sub: victim.userId })}.${b64('x')}.${b64('y')}`, 'five parts (JWE-shaped)'),
  bearer(() => signToken({ sub: victim.userId, claims: { pad: 'x'.repeat(20_000) } }), 'a validly signed 27 KB token'),
  bearer(() => 'not.a.jwt', 'garbage'),
  bearer(() => `${b64('{')}.${b64('{')}.${b64('{')}`, 'broken JSON in each part'),
  bearer(() => "' or '1'='1", 'SQL in the token'),
  bearer(async () => `${await signToken({ sub: victim.userId })} ${await signToken({ sub: victim.userId })}`, 'two tokens in one header'),
  {
    name: 'a forged and a valid header (duplicated Authorization)',
    headers: async () => ({ authorization: `Bearer forged.token.x, Bearer ${await signToken({ sub: victim.userId })}` }),
    challenge: 'invalid',
  },
  { name: 'empty Bearer', headers: async () => ({ authorization: 'Bearer ' }), challenge: 'invalid' },
  { name: 'no Authorization header', headers: async () => ({}), challenge: 'missing' },
  { name: 'empty Authorization header', headers: async () => ({ authorization: '' }), challenge: 'missing' },
  { name: 'Basic credentials', headers: async () => ({ authorization: `Basic ${b64('postgres:postgres')}` }), challenge: 'missing' },
  { name: 'a valid token under another scheme (Token)', headers: async () => ({ authorization: `Token ${await signToken({ sub: victim.userId })}` }), challenge: 'missing' },
  { name: 'a valid token with no space after Bearer', headers: async () => ({ authorization: `Bearer${await signToken({ sub: victim.userId })}` }), challenge: 'missing' },
  { name: 'a valid token in another header (apikey)', headers: async () => ({ apikey: await signToken({ sub: victim.userId }) }), challenge: 'missing' },
  { name: 'a valid token in a cookie', headers: async () => ({ cookie: `sb-access-token=${await signToken({ sub: victim.userId })}` }), challenge: 'missing' },
  {
    name: 'a valid token in the query string',
    headers: async () => ({}),
    url: (url) => `${url}${url.includes('?') ? '&' : '?'}access_token=${encodeURIComponent(validQueryToken)}`,
    challenge: 'missing',
  },
];

describe('forged and wrong tokens', () => {
  it(`are refused with 401 on every authenticated endpoint (${forgeries.length} tokens), touching nothing`, async () => {
    expect(forgeries.length).toBeGreaterThanOrEqual(13);
    expect(list.length).toBeGreaterThanOrEqual(11);
    const db = countingDatabase(t.db);
    const host = countingCodeHost(examplesCodeHost());
    const before = await storedFor(t, victim.userId);
    useDatabase(db);
    useCodeHost(host);
    let requests = 0;
    try {
      for (const endpoint of list) {
        for (const forgery of forgeries) {
          const url = forgery.url?.(urlOf(endpoint, fill)) ?? urlOf(endpoint, fill);
          const response = await send(endpoint.method, url, { headers: await forgery.headers(), body: validBody(endpoint, fill) });
          requests += 1;
          const what = `${endpoint.name} with ${forgery.name}`;
          expect(response.status, what).toBe(401);
          expect(response.headers.get('www-authenticate'), what).toBe(forgery.challenge === 'missing' ? 'Bearer' : 'Bearer error="invalid_token"');
          expect(response.headers.get('cache-control'), what).toBe('no-store');
          const error = await expectErrorBody(response, 'unauthorized');
          expect(error.details, what).toBeUndefined();
          expect(error.message, what).toMatch(/^(A bearer token is required\.|The access token is invalid\.|The access token has expired\.)$/);
        }
      }
    } finally {
      useDatabase(t.db);
      useCodeHost(examplesCodeHost());
    }
    expect(requests).toBe(list.length * forgeries.length);
    expect(db.calls).toEqual([]);
    expect(host.calls).toEqual([]);
    expect(await storedFor(t, victim.userId)).toEqual(before);
  });

  it('a validly signed token of an anonymous sign-in (is_anonymous: true) gets 403 on every authenticated endpoint, touching nothing', async () => {
    const db = countingDatabase(t.db);
    const host = countingCodeHost(examplesCodeHost());
    const before = await storedFor(t, victim.userId);
    useDatabase(db);
    useCodeHost(host);
    try {
      for (const endpoint of list) {
        const authorization = `Bearer ${await signToken({ sub: victim.userId, claims: { is_anonymous: true } })}`;
        const response = await send(endpoint.method, urlOf(endpoint, fill), { authorization, body: validBody(endpoint, fill) });
        expect(response.status, endpoint.name).toBe(403);
        const error = await expectErrorBody(response, 'forbidden');
        expect(error.message).toContain('Anonymous sessions');
      }
    } finally {
      useDatabase(t.db);
      useCodeHost(examplesCodeHost());
    }
    expect(db.calls).toEqual([]);
    expect(host.calls).toEqual([]);
    expect(await storedFor(t, victim.userId)).toEqual(before);
    // `is_anonymous: false` is an ordinary user.
    const response = await send('GET', '/api/repos', { authorization: `Bearer ${await signToken({ sub: victim.userId, claims: { is_anonymous: false } })}` });
    expect(response.status).toBe(200);
  });

  it('while the same requests with a valid token (lower-case scheme too) get through', async () => {
    // The control: the harness above reaches the handlers, so its 401s are the tokens' doing. Unlinking
    // goes last: it takes the victim's repositories with it.
    const unlinkLast = (e: Endpoint) => Number(e.path === '/api/installations/{installation_id}');
    for (const endpoint of [...list].sort((a, b) => unlinkLast(a) - unlinkLast(b))) {
      for (const authorization of [`Bearer ${await signToken({ sub: victim.userId })}`, `bearer ${await signToken({ sub: victim.userId })}`]) {
        const response = await send(endpoint.method, urlOf(endpoint, fill), { authorization, body: validBody(endpoint, fill) });
        expect(response.status, endpoint.name).not.toBe(401);
        // Completing a GitHub authorization needs a state this session started: past authentication, a 400.
        if (endpoint.name === 'POST /api/github/authorization') expect(response.status, endpoint.name).toBe(400);
        else expect(response.status, endpoint.name).toBeLessThan(300);
      }
    }
  });

  it('a validly signed token whose user no longer exists reads nothing and writes nothing: 401 on writes, never a 5xx', async () => {
    // Supabase's access tokens stay valid until they expire, also after the user was deleted.
    const gone = await userWithData(t);
    const authorization = await signToken({ sub: gone.userId }).then((token) => `Bearer ${token}`);
    await t.query('delete from auth.users where id = $1', [gone.userId]);
    const goneFill = { ...fill, repo_id: gone.repos['issue-triage-bot'] ?? '' };
    const statuses: Record<string, number> = {};
    for (const endpoint of list) {
      const response = await send(endpoint.method, urlOf(endpoint, goneFill), { authorization, body: validBody(endpoint, goneFill) });
      statuses[endpoint.name] = response.status;
      expect(response.status, endpoint.name).toBeLessThan(500);
      if (response.status === 401) expect(response.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    }
    // The writes that nothing else refuses first are 401 (not a 503 "retry", which a client would retry forever).
    expect(statuses['POST /api/scan']).toBe(401);
    expect(statuses['PUT /api/rule-settings/{rule_id}']).toBe(401);
    expect(statuses['PUT /api/repositories/{repo_id}/rule-overrides/{rule_id}']).toBe(404);
    // The callback counts against the user's rate limit first (before any GitHub call): a write, so 401.
    expect(statuses['GET /api/github/callback']).toBe(401);
    expect(await storedFor(t, gone.userId)).toMatchObject({ installations: 0, repositories: 0, scans: 0, rule_settings: 0, rule_overrides: 0, rate_limits: 0 });
  });
});
