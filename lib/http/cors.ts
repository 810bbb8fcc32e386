/**
 * CORS for the browser client's origins (`CORS_ORIGINS`). Only exact origins are allowed, never `*`, and
 * no credentials: the API is called with a bearer token, not cookies.
 */

const ALLOWED_HEADERS = 'authorization, content-type, x-request-id';
const EXPOSED_HEADERS = 'x-request-id, retry-after, www-authenticate';
const PREFLIGHT_MAX_AGE_SECONDS = '600';

function allowedOrigin(request: Request, origins: readonly string[]): string | null {
  const origin = request.headers.get('origin');
  return origin !== null && origins.includes(origin) ? origin : null;
}

/** Headers for an actual (non-preflight) response. */
export function applyCors(headers: Headers, request: Request, origins: readonly string[]): void {
  headers.append('vary', 'Origin');
  const origin = allowedOrigin(request, origins);
  if (origin === null) return;
  headers.set('access-control-allow-origin', origin);
  headers.set('access-control-expose-headers', EXPOSED_HEADERS);
}

/**
 * The answer to `OPTIONS`: 204 with `Allow`, plus the CORS grant when the origin is allowed. A denied
 * origin gets no `Access-Control-*` header, so the browser refuses the actual request.
 */
export function preflightHeaders(request: Request, origins: readonly string[], methods: readonly string[]): Headers {
  const headers = new Headers({ allow: methods.join(', ') });
  headers.append('vary', 'Origin, Access-Control-Request-Method, Access-Control-Request-Headers');
  const origin = allowedOrigin(request, origins);
  if (origin !== null) {
    headers.set('access-control-allow-origin', origin);
    headers.set('access-control-allow-methods', methods.join(', '));
    headers.set('access-control-allow-headers', ALLOWED_HEADERS);
    headers.set('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS);
  }
  return headers;
}
