import { SignJWT } from 'jose';

/**
 * The development sign-in of `npm run dev`: `POST /__dev/token` answers a token of the development user, so
 * the web client's "Sign in as the development user" works without an identity provider. It lives in the dev
 * server only (not under `api/`, so a deployment has no such route), exists only while tokens are signed with
 * the public development secret, and answers only requests from a loopback address: anyone else gets the
 * same 404 as for a path that does not exist.
 */

export const DEV_TOKEN_PATH = '/__dev/token';
const TOKEN_LIFETIME_SECONDS = 12 * 3600;

export interface DevUser {
  id: string;
  email: string;
}

export function isLoopback(address: string | undefined): boolean {
  if (address === undefined) return false;
  const v4 = address.startsWith('::ffff:') ? address.slice(7) : address;
  return v4 === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(v4);
}

export async function signDevToken(user: DevUser, secret: string, issuer: string | null, lifetimeSeconds = TOKEN_LIFETIME_SECONDS): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ aud: 'authenticated', role: 'authenticated', email: user.email, ...(issuer === null ? {} : { iss: issuer }) })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(new TextEncoder().encode(secret));
}

/**
 * The route's handler: null when the request is not for it (the caller goes on to the API and the files).
 * `remoteAddress` is the socket's peer, never a header (headers are the client's to choose).
 */
export function devTokenRoute(options: { user: DevUser | null; secret: string; issuer: string | null; enabled: boolean }) {
  return async (request: Request, remoteAddress: string | undefined): Promise<Response | null> => {
    if (new URL(request.url).pathname !== DEV_TOKEN_PATH) return null;
    const json = (status: number, body: unknown) =>
      Response.json(body, { status, headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } });
    if (!options.enabled || options.user === null || !isLoopback(remoteAddress)) {
      return json(404, { error: { code: 'not_found', message: 'No such endpoint.' } });
    }
    if (request.method !== 'POST') return json(405, { error: { code: 'method_not_allowed', message: 'Use POST.' } });
    // A cross-site form post would carry no custom header; the client sends this one (no CORS grant for it).
    if (request.headers.get('x-requested-with') !== 'chainbreaker') {
      return json(403, { error: { code: 'forbidden', message: 'Send the x-requested-with: chainbreaker header.' } });
    }
    const accessToken = await signDevToken(options.user, options.secret, options.issuer);
    return json(200, { access_token: accessToken, token_type: 'bearer', expires_in: TOKEN_LIFETIME_SECONDS, user: options.user });
  };
}
