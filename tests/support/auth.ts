import { randomUUID } from 'node:crypto';
import { SignJWT, type JWTPayload } from 'jose';
import { env } from '../../lib/env.js';

/**
 * Test tokens shaped like Supabase access tokens, signed with the secret the API verifies with (the
 * configured `JWT_SIGNING_SECRET`, else the development default).
 */

export interface TokenOptions {
  /** The user id (`sub`); default a fresh UUID. `null` leaves `sub` out. */
  sub?: string | null;
  /** Claims merged over the defaults (`aud`/`role` `authenticated`, `iss` when configured). */
  claims?: JWTPayload;
  /** Seconds from now; negative for an expired token; `null` leaves `exp` out. Default one hour. */
  expiresIn?: number | null;
  /** Seconds from now for `nbf`. */
  notBefore?: number;
  /** HMAC key; default the API's secret. */
  secret?: string;
  alg?: 'HS256' | 'HS384' | 'HS512';
}

export function signingSecret(): string {
  const secret = env().auth.jwtSigningSecret;
  if (secret === null) throw new Error('the tests sign HS256 tokens: configure JWT_SIGNING_SECRET (or nothing)');
  return secret;
}

export async function signToken(options: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const issuer = env().auth.issuer;
  const sub = options.sub === undefined ? randomUUID() : options.sub;
  const payload: JWTPayload = {
    aud: 'authenticated',
    role: 'authenticated',
    ...(issuer === null ? {} : { iss: issuer }),
    ...(sub === null ? {} : { sub }),
    ...options.claims,
  };
  const jwt = new SignJWT(payload).setProtectedHeader({ alg: options.alg ?? 'HS256', typ: 'JWT' }).setIssuedAt(now);
  if (options.expiresIn !== null) jwt.setExpirationTime(now + (options.expiresIn ?? 3600));
  if (options.notBefore !== undefined) jwt.setNotBefore(now + options.notBefore);
  return jwt.sign(new TextEncoder().encode(options.secret ?? signingSecret()));
}

/** `Authorization` header value for a user. */
export async function bearer(userId: string, options: Omit<TokenOptions, 'sub'> = {}): Promise<string> {
  return `Bearer ${await signToken({ ...options, sub: userId })}`;
}
