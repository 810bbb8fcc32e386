import { Octokit } from '@octokit/core';
import { paginateRest } from '@octokit/plugin-paginate-rest';
import { retry } from '@octokit/plugin-retry';
import { throttling } from '@octokit/plugin-throttling';
import Bottleneck from 'bottleneck';

/** The Octokit the adapter uses: core + pagination, and GitHub's recommended retry and throttling behaviour. */
export const GitHubOctokit = Octokit.plugin(paginateRest, retry, throttling);
export type GitHubOctokit = InstanceType<typeof GitHubOctokit>;
export type RequestFunction = GitHubOctokit['request'];

export const DEFAULT_BASE_URL = 'https://api.github.com';

/** GitHub's GraphQL endpoint for a REST root: `<root>/graphql`, or `https://HOST/api/graphql` on Enterprise Server. */
export function graphqlUrl(apiUrl: string): string {
  return /\/api\/v3\/?$/.test(apiUrl) ? apiUrl.replace(/\/api\/v3\/?$/, '/api/graphql') : `${apiUrl.replace(/\/+$/, '')}/graphql`;
}

export interface ClientOptions {
  /** REST root, `https://api.github.com` by default (GitHub Enterprise Server: `https://HOST/api/v3`). */
  baseUrl?: string;
  /** The fetch every request goes through; the global fetch (read at call time) when absent. */
  fetch?: typeof globalThis.fetch;
  /** Retry 5xx answers with back-off (plugin-retry). On by default; tests turn it off. */
  retry?: boolean;
  /** Queue requests as GitHub recommends and retry short secondary rate limits (plugin-throttling). On by default. */
  throttle?: boolean;
  /** Where Octokit's own warnings go (deprecations, limit handler errors); silent when absent. Never receives tokens. */
  log?: { warn(message: string): void; error(message: string): void };
  /**
   * How long a request sent without an operation's deadline may take, per attempt (default 5 s). That is
   * the installation token request: the auth strategy sends it by itself and shares it with every operation
   * that needs the token meanwhile, so a hung one would otherwise hold all of them up, operation after
   * operation, until the connection gave up (minutes).
   */
  requestTimeoutMs?: number;
}

const DEFAULT_REQUEST_TIMEOUT_MS = 5_000;
/** A secondary rate limit this short is waited out (once) instead of failing the scan. */
const MAX_SECONDARY_WAIT_SECONDS = 5;
const RETRIES = 2;

/**
 * Octokit with this adapter's defaults. Retries are capped low and rate limits are never waited out for
 * long: a scan has a deadline, and a `CodeHostError` with `retryAfter` tells the caller when to come back.
 */
export function octokitClass(options: ClientOptions): typeof GitHubOctokit {
  const baseFetch = options.fetch;
  const log = options.log;
  const requestTimeoutMs = options.requestTimeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  return GitHubOctokit.defaults({
    baseUrl: (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, ''),
    userAgent: 'chainbreaker',
    // Resolved per call so that a fetch patched after construction (msw in tests) is the one used.
    request: {
      fetch: (input: RequestInfo | URL, init?: RequestInit) =>
        (baseFetch ?? globalThis.fetch)(input, init?.signal ? init : { ...init, signal: AbortSignal.timeout(requestTimeoutMs) }),
    },
    log: {
      debug: () => {},
      info: () => {},
      warn: (message: string) => log?.warn(message),
      error: (message: string) => log?.error(message),
    },
    retry: { enabled: options.retry ?? true, retries: RETRIES },
    throttle:
      options.throttle === false
        ? { enabled: false }
        : {
            enabled: true,
            onRateLimit: () => false,
            onSecondaryRateLimit: (retryAfter: number, _options: unknown, _octokit: unknown, retryCount: number) =>
              retryCount === 0 && retryAfter <= MAX_SECONDARY_WAIT_SECONDS,
            // The plugin sends every GraphQL request through its one-per-second queue for writes. This
            // adapter never writes (its one POST, the installation token, goes through the plugin's auth
            // queue), and a GraphQL query costs one point like a GET, so queries share the global queue only.
            write: new Bottleneck.Group(),
          },
  });
}

/** The parts of a failed Octokit request this adapter reads (RequestError, or fetch's AbortError). */
export interface RequestFailure {
  name?: string;
  status?: number;
  message?: string;
  response?: { headers?: Record<string, string | undefined>; data?: unknown };
}

export function isRequestFailure(error: unknown): error is RequestFailure {
  return typeof error === 'object' && error !== null;
}

/** A request function for one operation: every request carries the operation's deadline signal and is counted. */
export interface BoundRequest {
  request: RequestFunction;
  /** HTTP requests sent so far, retries included. */
  readonly count: number;
}

export function bindRequest(
  octokit: GitHubOctokit,
  signal: AbortSignal,
  options: Pick<ClientOptions, 'fetch'>,
  /** Sees every answer's headers (the installation's rate-limit budget). */
  observe?: (headers: Headers) => void,
): BoundRequest {
  let count = 0;
  const fetch = async (input: RequestInfo | URL, init?: RequestInit) => {
    count++;
    const response = await (options.fetch ?? globalThis.fetch)(input, init);
    observe?.(response.headers);
    return response;
  };
  return {
    request: octokit.request.defaults({ request: { signal, fetch } }),
    get count() {
      return count;
    },
  };
}
