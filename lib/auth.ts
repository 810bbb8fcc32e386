// Subpath imports: the package root loads all of jose (JWE, key generation...), which costs cold start.
import * as errors from 'jose/errors';
import { createRemoteJWKSet } from 'jose/jwks/remote';
import { jwtVerify, type JWTVerifyGetKey } from 'jose/jwt/verify';
import { env } from './env.js';
import { unauthorized, upstreamUnavailable } from './http/errors.js';

/** The signed-in user a request acts for; `id` is the Supabase `auth.users` id (the token's `sub`). */
export interface User {
  id: string;
  /**
   * A Supabase anonymous sign-in (`is_anonymous: true`): anyone can mint one, so such a user may neither use
   * the code host nor store anything (the endpoint layer answers 403).
   */
  anonymous?: boolean;
  /** The token's `iat` (epoch seconds), when it has one: a session older than a revocation is refused (lib/services/user-access.ts). */
  issuedAt?: number;
}

export interface VerifierOptions {
  /** HS256 secret shared with the identity provider (Supabase's JWT secret); null: asymmetric keys only. */
  secret: string | null;
  /** Resolves ES256/RS256 keys, normally `createRemoteJWKSet(SUPABASE_JWKS_URL)`; null: HS256 only. */
  jwks: JWTVerifyGetKey | null;
  /** Expected `iss`, or null to accept any issuer. */
  issuer: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** RFC 6750 b64token; a generous size cap keeps absurd headers away from the JWT parser. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;
const MAX_TOKEN_LENGTH = 16 * 1024;
const ASYMMETRIC = new Set(['ES256', 'RS256']);

/** The JWKS could not be fetched or read (timeout, network, bad document). */
class KeySetUnavailable extends Error {}

const missing = () => unauthorized('A bearer token is required.', 'Bearer');
const invalid = (message = 'The access token is invalid.') => unauthorized(message, 'Bearer error="invalid_token"');

/**
 * Builds a verifier for `Authorization` header values. Each key type has its own pinned algorithms: HS256
 * only with the shared secret, ES256/RS256 only with keys from the JWKS (whose key type must match), so a
 * token cannot pick the secret as the key for an asymmetric algorithm or declare `none`.
 */
export function createVerifier(options: VerifierOptions): (authorization: string | null) => Promise<User> {
  const secret = options.secret === null ? null : new TextEncoder().encode(options.secret);
  const jwks = options.jwks;
  const key: JWTVerifyGetKey = async (header, token) => {
    if (header.alg === 'HS256' && secret !== null) return secret;
    if (jwks !== null && header.alg !== undefined && ASYMMETRIC.has(header.alg)) {
      try {
        return await jwks(header, token);
      } catch (error) {
        if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) throw error;
        throw new KeySetUnavailable('key set unavailable', { cause: error });
      }
    }
    throw new errors.JOSEAlgNotAllowed('unexpected algorithm');
  };
  const algorithms = [...(secret === null ? [] : ['HS256']), ...(jwks === null ? [] : ASYMMETRIC)];

  return async (authorization) => {
    if (authorization === null || !/^bearer(\s|$)/i.test(authorization.trim())) throw missing();
    const token = BEARER.exec(authorization)?.[1];
    if (token === undefined || token.length > MAX_TOKEN_LENGTH) throw invalid();
    let payload;
    try {
      ({ payload } = await jwtVerify(token, key, {
        algorithms,
        audience: 'authenticated',
        requiredClaims: ['exp', 'sub'],
        ...(options.issuer === null ? {} : { issuer: options.issuer }),
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw invalid('The access token has expired.');
      if (error instanceof KeySetUnavailable) {
        // Not the client's fault, and retrying may work.
        throw upstreamUnavailable('The token signing keys are unavailable; try again shortly.', 503);
      }
      throw invalid();
    }
    if (typeof payload.sub !== 'string' || !UUID.test(payload.sub) || payload['role'] !== 'authenticated') throw invalid();
    const user: User = payload['is_anonymous'] === true ? { id: payload.sub.toLowerCase(), anonymous: true } : { id: payload.sub.toLowerCase() };
    if (typeof payload.iat === 'number' && Number.isFinite(payload.iat)) user.issuedAt = payload.iat;
    return user;
  };
}

let verifier: ((authorization: string | null) => Promise<User>) | undefined;

/** The user of a request, verified against the configured keys; throws a 401 `HttpError` otherwise. */
export function authenticate(request: Request): Promise<User> {
  if (verifier === undefined) {
    const { jwtSigningSecret, jwksUrl, issuer } = env().auth;
    verifier = createVerifier({
      secret: jwtSigningSecret,
      jwks: jwksUrl === null ? null : createRemoteJWKSet(jwksUrl, { timeoutDuration: 3000 }),
      issuer,
    });
  }
  return verifier(request.headers.get('authorization'));
}
