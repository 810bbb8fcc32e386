import { expect } from 'vitest';
import { fileURLToPath } from 'node:url';
import { createRouter, discoverRoutes, matchRoute } from '../../lib/dev/router.js';

/** The project root (route files live under `api/`). */
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface RequestOptions {
  /** `Authorization` header value (see `bearer` in ./auth.ts). */
  authorization?: string;
  /** JSON-encoded unless a string. */
  body?: unknown;
  headers?: Record<string, string>;
}

/**
 * A request as Vercel hands it to a route module: the dynamic segments of the file's path also appear as
 * query parameters (`/api/rule-settings/x` -> `?rule_id=x`), so handlers can be called directly.
 */
export async function apiRequest(method: string, path: string, options: RequestOptions = {}): Promise<Request> {
  const url = new URL(path, 'http://localhost');
  const match = matchRoute(await routes(), url.pathname);
  for (const [name, value] of Object.entries(match?.params ?? {})) {
    if (!url.searchParams.has(name)) url.searchParams.set(name, value);
  }
  const headers = new Headers(options.headers);
  if (options.authorization !== undefined) headers.set('authorization', options.authorization);
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    if (!headers.has('content-type')) headers.set('content-type', 'application/json');
  }
  return new Request(url, { method, headers, ...(body === undefined ? {} : { body }) });
}

let cached: ReturnType<typeof discoverRoutes> | undefined;
export function routes() {
  cached ??= discoverRoutes(ROOT);
  return cached;
}

/** Sends a request through the dev server's router (404 for unknown paths, 405 for unexported methods). */
export async function dispatch(request: Request): Promise<Response> {
  return createRouter(ROOT, await routes())(request);
}

export async function errorOf(response: Response): Promise<{ code: string; message: string; details?: unknown }> {
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  return body.error;
}
