import { CodeHostError } from '../port.js';
import { isRequestFailure } from './client.js';

/**
 * What went wrong with one request, in the words a person needs: `404 Not Found`, `403 API rate limit
 * exceeded ...`, `no answer before the deadline`. Built from GitHub's status and message only: request
 * headers (the token) and bodies never enter it.
 */
export interface Failure {
  kind: 'not_found' | 'forbidden' | 'rate_limited' | 'unavailable' | 'timeout';
  status: number | undefined;
  reason: string;
  retryAfter: number | undefined;
}

export function describeFailure(error: unknown, now: number = Date.now()): Failure {
  if (error instanceof CodeHostError) return { kind: error.kind, status: undefined, reason: error.message, retryAfter: error.retryAfter };
  if (!isRequestFailure(error)) return { kind: 'unavailable', status: undefined, reason: 'request failed', retryAfter: undefined };
  // Octokit passes an aborted fetch on as is, and wraps one that timed out (`AbortSignal.timeout`).
  const cause = (error as { cause?: unknown }).cause;
  if (error.name === 'AbortError' || error.name === 'TimeoutError' || (isRequestFailure(cause) && cause.name === 'TimeoutError')) {
    return { kind: 'timeout', status: undefined, reason: 'no answer in time', retryAfter: undefined };
  }
  const status = typeof error.status === 'number' ? error.status : undefined;
  const headers = error.response?.headers ?? {};
  const message = githubMessage(error);
  const reason = status === undefined || (status === 500 && error.response === undefined) ? `network error: ${message}` : `${status} ${message}`;
  const retryAfter = retryAfterSeconds(headers, now);
  if (error.message === 'GraphQL Rate Limit Exceeded' || ((status === 403 || status === 429) && (retryAfter !== undefined || /rate limit/i.test(message)))) {
    return { kind: 'rate_limited', status, reason, retryAfter };
  }
  if (status === 404 || status === 410) return { kind: 'not_found', status, reason, retryAfter: undefined };
  if (status === 401 || status === 403) return { kind: 'forbidden', status, reason, retryAfter: undefined };
  return { kind: 'unavailable', status, reason, retryAfter: undefined };
}

/** A `CodeHostError` for a failed critical read: `<what>: <reason>`. */
export function codeHostError(error: unknown, what: string): CodeHostError {
  if (error instanceof CodeHostError) return error;
  const failure = describeFailure(error);
  return new CodeHostError(failure.kind, `${what}: ${failure.reason}`, { retryAfter: failure.retryAfter });
}

/** GitHub's `message` from the error body, else the status text Octokit put in the error; one line, bounded. */
function githubMessage(error: { message?: string; response?: { data?: unknown } }): string {
  const data = error.response?.data;
  const fromBody = typeof data === 'object' && data !== null && 'message' in data && typeof data.message === 'string' ? data.message : undefined;
  const text = fromBody ?? (error.message ?? '').replace(/ - https:\/\/docs\.github\.com\S*$/, '');
  const line = text.replace(/\s+/g, ' ').trim();
  return line === '' ? 'no message' : line.length > 200 ? `${line.slice(0, 200)}…` : line;
}

/** `retry-after` (seconds), else the primary limit's reset time when the remaining budget is 0. */
function retryAfterSeconds(headers: Record<string, string | undefined>, now: number): number | undefined {
  const retryAfter = Number(headers['retry-after']);
  if (headers['retry-after'] !== undefined && Number.isFinite(retryAfter) && retryAfter >= 0) return Math.ceil(retryAfter);
  const reset = Number(headers['x-ratelimit-reset']);
  if (headers['x-ratelimit-remaining'] === '0' && Number.isFinite(reset)) return Math.max(1, Math.ceil(reset - now / 1000));
  return undefined;
}
