import { createHmac, randomUUID } from 'node:crypto';
import { createLocalJWKSet, exportJWK, generateKeyPair, SignJWT, type JWTVerifyGetKey } from 'jose';
import { describe, expect, it } from 'vitest';
import { authenticate, createVerifier } from '../../lib/auth.js';
import { HttpError } from '../../lib/http/errors.js';
import { signToken } from '../support/auth.js';

const SECRET = 'unit-test-secret-0123456789-0123456789-abcdef';
const USER = randomUUID();
const b64 = (value: object | string) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);
const claims = (extra: object = {}) => ({ sub: USER, aud: 'authenticated', role: 'authenticated', exp: now() + 600, ...extra });

/** A token put together by hand, for shapes jose refuses to sign. */
function handMade(header: object, payload: object, key = SECRET): string {
  const input = `${b64(header)}.${b64(payload)}`;
  return `${input}.${createHmac('sha256', key).update(input).digest('base64url')}`;
}

async function rejection(verify: (h: string | null) => Promise<unknown>, header: string | null): Promise<HttpError> {
  try {
    await verify(header);
  } catch (error) {
    expect(error).toBeInstanceOf(HttpError);
    return error as HttpError;
  }
  throw new Error('the token was accepted');
}

describe('createVerifier (HS256)', () => {
  const verify = createVerifier({ secret: SECRET, jwks: null, issuer: null });
  const hs256 = (payload: object, secret = SECRET) =>
    new SignJWT({ ...payload }).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(secret));

  it('accepts a valid Supabase-shaped token and returns the user id', async () => {
    expect(await verify(`Bearer ${await hs256(claims())}`)).toEqual({ id: USER });
    expect(await verify(`bearer ${await hs256(claims({ aud: ['authenticated', 'other'] }))}`)).toEqual({ id: USER });
  });

  it('marks anonymous sign-ins (is_anonymous: true) so the endpoints can refuse them', async () => {
    expect(await verify(`Bearer ${await hs256(claims({ is_anonymous: true }))}`)).toEqual({ id: USER, anonymous: true });
    expect(await verify(`Bearer ${await hs256(claims({ is_anonymous: false }))}`)).toEqual({ id: USER });
    expect(await verify(`Bearer ${await hs256(claims({ is_anonymous: 'true' }))}`)).toEqual({ id: USER });
  });

  it('refuses every HS256 token when no secret is configured (a JWKS alone)', async () => {
    const jwksOnly = createVerifier({ secret: null, jwks: null, issuer: null });
    expect((await rejection(jwksOnly, `Bearer ${await hs256(claims())}`)).status).toBe(401);
  });

  it('answers a missing or non-Bearer header with a plain Bearer challenge', async () => {
    for (const header of [null, '', 'Basic dXNlcjpwYXNz', 'Token abc']) {
      const error = await rejection(verify, header);
      expect(error.status).toBe(401);
      expect(error.code).toBe('unauthorized');
      expect(error.headers['www-authenticate']).toBe('Bearer');
    }
  });

  const cases: [string, () => Promise<string> | string][] = [
    ['empty bearer', () => 'Bearer '],
    ['garbage', () => 'Bearer not.a.jwt'],
    ['two tokens', async () => `Bearer ${await hs256(claims())} ${await hs256(claims())}`],
    ['wrong secret', async () => `Bearer ${await hs256(claims(), 'another-secret-0123456789-0123456789-xyz')}`],
    ['alg none', () => `Bearer ${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims())}.`],
    ['HS512', async () => `Bearer ${await new SignJWT(claims()).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(SECRET))}`],
    ['RS256 "signed" with the HMAC secret', () => `Bearer ${handMade({ alg: 'RS256', typ: 'JWT' }, claims())}`],
    ['expired', async () => `Bearer ${await hs256(claims({ exp: now() - 10 }))}`],
    ['not yet valid', async () => `Bearer ${await hs256(claims({ nbf: now() + 600 }))}`],
    ['no exp', async () => `Bearer ${await hs256({ sub: USER, aud: 'authenticated', role: 'authenticated' })}`],
    ['no sub', async () => `Bearer ${await hs256({ aud: 'authenticated', role: 'authenticated', exp: now() + 600 })}`],
    ['sub not a UUID', async () => `Bearer ${await hs256(claims({ sub: 'alice' }))}`],
    ['role anon', async () => `Bearer ${await hs256(claims({ role: 'anon' }))}`],
    ['role service_role', async () => `Bearer ${await hs256(claims({ role: 'service_role' }))}`],
    ['no role', async () => `Bearer ${await hs256({ sub: USER, aud: 'authenticated', exp: now() + 600 })}`],
    ['wrong aud', async () => `Bearer ${await hs256(claims({ aud: 'anon' }))}`],
    ['no aud', async () => `Bearer ${await hs256({ sub: USER, role: 'authenticated', exp: now() + 600 })}`],
    [
      'tampered payload',
      async () => {
        const [header, , signature] = (await hs256(claims())).split('.');
        return `Bearer ${header}.${b64(claims({ sub: randomUUID() }))}.${signature}`;
      },
    ],
  ];

  it.each(cases)('rejects %s with 401 invalid_token', async (_name, make) => {
    const error = await rejection(verify, await make());
    expect(error.status).toBe(401);
    expect(error.code).toBe('unauthorized');
    expect(error.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
    expect(JSON.stringify(error.body())).not.toMatch(/eyJ/);
  });

  it('says when a token has expired', async () => {
    const error = await rejection(verify, `Bearer ${await hs256(claims({ exp: now() - 10 }))}`);
    expect(error.message).toBe('The access token has expired.');
  });

  it('checks the issuer when one is configured', async () => {
    const withIssuer = createVerifier({ secret: SECRET, jwks: null, issuer: 'https://p.supabase.co/auth/v1' });
    expect(await withIssuer(`Bearer ${await hs256(claims({ iss: 'https://p.supabase.co/auth/v1' }))}`)).toEqual({ id: USER });
    expect((await rejection(withIssuer, `Bearer ${await hs256(claims({ iss: 'https://evil.example' }))}`)).status).toBe(401);
    expect((await rejection(withIssuer, `Bearer ${await hs256(claims())}`)).status).toBe(401);
  });
});

describe('createVerifier (JWKS)', async () => {
  const es = await generateKeyPair('ES256');
  const rs = await generateKeyPair('RS256');
  const other = await generateKeyPair('ES256');
  const jwks = createLocalJWKSet({
    keys: [
      { ...(await exportJWK(es.publicKey)), kid: 'es', alg: 'ES256' },
      { ...(await exportJWK(rs.publicKey)), kid: 'rs', alg: 'RS256' },
    ],
  });
  const verify = createVerifier({ secret: SECRET, jwks, issuer: null });

  it('accepts ES256 and RS256 tokens from the key set, and still HS256', async () => {
    const es256 = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: 'es' }).sign(es.privateKey);
    const rs256 = await new SignJWT(claims()).setProtectedHeader({ alg: 'RS256', kid: 'rs' }).sign(rs.privateKey);
    const hs256 = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode(SECRET));
    for (const token of [es256, rs256, hs256]) expect(await verify(`Bearer ${token}`)).toEqual({ id: USER });
  });

  it('rejects a key outside the set, and the HMAC secret posing as an RSA key', async () => {
    const foreign = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: 'es' }).sign(other.privateKey);
    expect((await rejection(verify, `Bearer ${foreign}`)).status).toBe(401);
    expect((await rejection(verify, `Bearer ${handMade({ alg: 'RS256', kid: 'rs' }, claims())}`)).status).toBe(401);
    expect((await rejection(verify, `Bearer ${handMade({ alg: 'ES256', kid: 'nope' }, claims())}`)).status).toBe(401);
  });

  it('answers 503 when the key set cannot be fetched', async () => {
    const unreachable: JWTVerifyGetKey = async () => {
      throw new TypeError('fetch failed');
    };
    const offline = createVerifier({ secret: SECRET, jwks: unreachable, issuer: null });
    const token = await new SignJWT(claims()).setProtectedHeader({ alg: 'ES256', kid: 'es' }).sign(es.privateKey);
    const error = await rejection(offline, `Bearer ${token}`);
    expect(error.status).toBe(503);
    expect(error.code).toBe('upstream_unavailable');
  });
});

describe('authenticate', () => {
  it('verifies with the configured secret (the helper signs with the same)', async () => {
    const user = randomUUID();
    const request = new Request('http://localhost/', { headers: { authorization: `Bearer ${await signToken({ sub: user })}` } });
    // `iat` comes along: a session older than a revoked GitHub authorization is refused (lib/services/user-access.ts).
    expect(await authenticate(request)).toEqual({ id: user, issuedAt: expect.any(Number) });
  });
});
