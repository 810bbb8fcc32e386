import { CodeHostError } from '../codehost/port.js';
import { DatabaseError } from '../db/errors.js';
import { describeError, log } from './log.js';
import { HttpError, notFound, unauthorized, upstreamUnavailable, type ErrorBody } from './errors.js';

export interface ErrorContext {
  requestId: string;
  method: string;
  route: string;
}

/**
 * Typed errors of lower layers that mean something to the client; null for anything unexpected. The
 * database's kinds map here and nowhere else: `not_found` is what its functions raise for a repository the
 * user does not own; `unknown_user` for a validly signed token whose user is gone (deleted since it was
 * issued), which no retry will fix; `conflict` (a serialization failure or deadlock) and `unavailable` are
 * transient.
 * The code host's kinds map here too.
 */
function asHttpError(error: unknown): HttpError | null {
  if (error instanceof HttpError) return error;
  if (error instanceof DatabaseError) {
    switch (error.kind) {
      case 'not_found':
        return notFound();
      case 'unknown_user':
        return unauthorized('The access token names a user that does not exist.', 'Bearer error="invalid_token"');
      case 'conflict':
        return upstreamUnavailable('A concurrent change got in the way; retry the request.', 503, 1);
      case 'unavailable':
        return upstreamUnavailable('The database is unavailable; try again shortly.', 503, 5);
      case 'internal':
        return null;
    }
  }
  // The code host's: a repository it no longer has is gone for the client too; anything else is its fault,
  // 502 for a bad answer, 503 when it cannot be reached or asks us to wait (with its Retry-After).
  if (error instanceof CodeHostError) {
    switch (error.kind) {
      case 'not_found':
        return notFound();
      case 'forbidden':
        return upstreamUnavailable('The code host refused access; check what the App installation may read.', 502, error.retryAfter);
      case 'unavailable':
        return upstreamUnavailable('The code host failed; try again shortly.', 502, error.retryAfter);
      case 'rate_limited':
        return upstreamUnavailable('The code host is rate limiting requests; try again later.', 503, error.retryAfter ?? 60);
      case 'timeout':
        return upstreamUnavailable('The code host did not answer in time; try again shortly.', 503, error.retryAfter);
    }
  }
  return null;
}

/**
 * The one place where anything thrown becomes a response. Expected failures keep their status, code,
 * message and details; anything else is logged with its stack and answered with a 500 whose body holds
 * only the request id.
 */
export function toErrorResponse(error: unknown, context: ErrorContext): Response {
  const known = asHttpError(error);
  // A lower layer's outage (a 503 from the database) is logged with its cause, like anything unexpected.
  if (known === null || (known !== error && known.status >= 500)) {
    log({ level: 'error', msg: 'unexpected error', request_id: context.requestId, method: context.method, route: context.route, error: describeError(error) });
  }
  if (known !== null) return jsonError(known.status, known.body(), known.headers);
  return jsonError(500, { error: { code: 'internal', message: 'Internal server error.', details: { request_id: context.requestId } } });
}

function jsonError(status: number, body: ErrorBody, headers: Readonly<Record<string, string>> = {}): Response {
  return Response.json(body, { status, headers });
}
