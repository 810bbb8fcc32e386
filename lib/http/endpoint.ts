import { authenticate, type User } from '../auth.js';
import { env } from '../env.js';
import { methodsOf } from '../api/operations.js';
import { readJsonBody, readTextBody, checkContentLength } from './body.js';
import { applyCors, preflightHeaders } from './cors.js';
import { forbidden, methodNotAllowed, notFound } from './errors.js';
import { toErrorResponse } from './error-response.js';
import { log, userPseudonym } from './log.js';
import type { InputOf, Operation, ResultOf } from './operation.js';
import { requestIdOf } from './request-id.js';
import { parseInput, parsePath, pathParams, queryParams } from './validate.js';

/** A Vercel Web-standard function: `export const GET: Handler = endpoint(...)`. */
export type Handler = (request: Request) => Promise<Response>;

/** What a handler receives: the verified user and the validated input of its operation. */
export interface Context<O extends Operation> {
  request: Request;
  requestId: string;
  user: O['auth'] extends true ? User : null;
  params: InputOf<O['params']>;
  query: InputOf<O['query']>;
  /** The validated JSON body, or the raw text for an operation with `rawBody`. */
  body: O['rawBody'] extends { limitBytes: number } ? string : InputOf<O['body']>;
}

// Validated at cold start: a misconfigured deployment fails when its functions load, naming the variable.
const config = env();

/**
 * Wraps a handler in the request path every endpoint shares: request id, body limit, authentication, path /
 * query / body validation, the JSON (200) or empty (204) response, error mapping, CORS, cache headers and
 * one log line. The handler returns the response body of its operation (nothing for 204).
 */
export function endpoint<O extends Operation>(operation: O, handler: (context: Context<O>) => Promise<ResultOf<O>>): Handler {
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    let user: User | null = null;
    let response: Response;
    try {
      const bodyLimit = operation.rawBody?.limitBytes ?? config.bodyLimitBytes;
      checkContentLength(request, bodyLimit);
      if (operation.auth) {
        user = await authenticate(request);
        // Every authenticated endpoint reads or writes the user's data or the code host: none is for anonymous sign-ins.
        if (user.anonymous === true) throw forbidden('Anonymous sessions cannot use this service; sign in with GitHub.');
      }
      const url = new URL(request.url);
      const context = {
        request,
        requestId,
        user,
        params: operation.params === undefined ? undefined : parsePath(operation.params, pathParams(url, operation.params, operation.path)),
        query: operation.query === undefined ? undefined : parseInput(operation.query, queryParams(url, operation.query), 'query'),
        body:
          operation.rawBody !== undefined
            ? await readTextBody(request, bodyLimit)
            : operation.body === undefined
              ? undefined
              : parseInput(operation.body, await readJsonBody(request, bodyLimit), 'body'),
      } as Context<O>; // the fields above are exactly what `Context<O>` spells out per operation
      const result = await handler(context);
      response = operation.response === null ? new Response(null, { status: 204 }) : Response.json(result, { status: 200 });
    } catch (error) {
      response = toErrorResponse(error, { requestId, method: request.method, route: operation.path });
    }
    return finish(response, { request, requestId, route: operation.path, started, user, authenticated: operation.auth });
  };
}

/** `OPTIONS` for a path: `Allow`, and the CORS preflight grant for allowed origins. */
export function preflight(path: string): Handler {
  return async (request) => {
    const started = performance.now();
    const requestId = requestIdOf(request);
    const response = new Response(null, { status: 204, headers: preflightHeaders(request, config.corsOrigins, methodsOf(path)) });
    return finish(response, { request, requestId, route: path, started, user: null, authenticated: false, cors: false });
  };
}

/** 405 for a method a route file does not export (Vercel answers it by itself; the dev server uses this). */
export function methodNotAllowedResponse(request: Request, route: string, allow: readonly string[]): Response {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const response = toErrorResponse(methodNotAllowed(allow), { requestId, method: request.method, route });
  return finish(response, { request, requestId, route, started, user: null, authenticated: false });
}

/** What the request log names as the route of a path no route file serves (never the path: it is the client's). */
export const NO_ROUTE = '(no route)';

/** 404 for a path no route file serves (Vercel answers it by itself; the dev server uses this). */
export function noRouteResponse(request: Request): Response {
  const started = performance.now();
  const requestId = requestIdOf(request);
  const response = toErrorResponse(notFound('No such endpoint.'), { requestId, method: request.method, route: NO_ROUTE });
  return finish(response, { request, requestId, route: NO_ROUTE, started, user: null, authenticated: false });
}

interface Finish {
  request: Request;
  requestId: string;
  route: string;
  started: number;
  user: User | null;
  authenticated: boolean;
  cors?: boolean;
}

function finish(response: Response, f: Finish): Response {
  const headers = response.headers;
  headers.set('x-request-id', f.requestId);
  headers.set('x-content-type-options', 'nosniff');
  if (f.authenticated) headers.set('cache-control', 'no-store');
  if (f.cors !== false) applyCors(headers, f.request, config.corsOrigins);
  log({
    level: 'info',
    msg: 'request',
    request_id: f.requestId,
    method: f.request.method,
    route: f.route,
    status: response.status,
    duration_ms: Math.round((performance.now() - f.started) * 10) / 10,
    user: f.user === null ? null : userPseudonym(f.user.id),
  });
  return response;
}
