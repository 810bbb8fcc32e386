/** One error type for every expected failure; `toErrorResponse` turns it (or anything else) into the body. */

export type ErrorCode =
  | 'invalid_request'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'method_not_allowed'
  | 'payload_too_large'
  | 'rate_limited'
  | 'upstream_unavailable'
  | 'insufficient_storage'
  | 'internal';

export interface ErrorBody {
  error: { code: ErrorCode; message: string; details?: unknown };
}

/** One problem with a request's input: where (`body`, `query`, `path`) and which key inside it. */
export interface InputIssue {
  location: 'body' | 'query' | 'path';
  path: (string | number)[];
  message: string;
}

export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: ErrorCode,
    message: string,
    readonly details?: unknown,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  body(): ErrorBody {
    return { error: { code: this.code, message: this.message, ...(this.details === undefined ? {} : { details: this.details }) } };
  }
}

export const invalidRequest = (message: string, issues?: InputIssue[]) => new HttpError(400, 'invalid_request', message, issues);

export const unauthorized = (message: string, challenge: string) =>
  new HttpError(401, 'unauthorized', message, undefined, { 'www-authenticate': challenge });

export const forbidden = (message = 'You are not allowed to do this.') => new HttpError(403, 'forbidden', message);

export const notFound = (message = 'Not found.') => new HttpError(404, 'not_found', message);

/** The target is in a state that refuses the request (a suspended installation); the message says until when. */
export const conflict = (message: string) => new HttpError(409, 'conflict', message);

export const methodNotAllowed = (allow: readonly string[]) =>
  new HttpError(405, 'method_not_allowed', 'Method not allowed.', undefined, { allow: allow.join(', ') });

export const payloadTooLarge = (limitBytes: number) =>
  new HttpError(413, 'payload_too_large', `The request body is larger than ${limitBytes} bytes.`);

/** The user's stored scans are at their quota: the scan was made but not stored (507 Insufficient Storage). */
export const storageQuotaExceeded = (message: string) => new HttpError(507, 'insufficient_storage', message);

export const rateLimited = (retryAfterSeconds: number) =>
  new HttpError(429, 'rate_limited', 'Too many requests; try again later.', undefined, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });

/** A fault of a service this one depends on (the code host, the database): 502 bad answer, 503 unreachable. */
export const upstreamUnavailable = (message: string, status: 502 | 503 = 503, retryAfterSeconds?: number) =>
  new HttpError(
    status,
    'upstream_unavailable',
    message,
    undefined,
    retryAfterSeconds === undefined ? {} : { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) },
  );
