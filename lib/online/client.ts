/**
 * The GitHub REST reads of the online audits, through an injected `fetch`, and the budget that keeps a
 * scan inside a share of the token's remaining hourly rate limit.
 */

export interface GitHubAnswer {
  status: number;
  body: unknown;
  /** `x-ratelimit-remaining`, when GitHub sent it. */
  remaining: number | null;
}

/** Reads one REST path (`/repos/o/r/tags?per_page=100`); the only thing the audits need from GitHub. */
export interface GitHubReader {
  get(path: string): Promise<GitHubAnswer>;
}

export interface FetchReaderOptions {
  token: string;
  /** Default https://api.github.com; GitHub Enterprise Server: https://HOST/api/v3. */
  baseUrl?: string | undefined;
  fetch?: typeof fetch;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 2_000_000;

export function fetchReader(options: FetchReaderOptions): GitHubReader {
  const base = (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  return {
    async get(path) {
      // Resolved per call, so a fetch patched after construction (msw in tests) is the one used.
      const response = await (options.fetch ?? globalThis.fetch)(`${base}${path}`, {
        headers: {
          accept: 'application/vnd.github+json',
          authorization: `Bearer ${options.token}`,
          'x-github-api-version': '2022-11-28',
          'user-agent': 'chainbreaker-online-audit',
        },
        signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
      });
      const text = await response.text();
      let body: unknown = null;
      if (text.length <= MAX_BODY_BYTES) {
        try {
          body = JSON.parse(text);
        } catch {
          body = null;
        }
      }
      const remaining = response.headers.get('x-ratelimit-remaining');
      return { status: response.status, body, remaining: remaining === null || !/^\d+$/.test(remaining) ? null : Number(remaining) };
    },
  };
}

/** The budget is spent (or GitHub said the rate limit is): what was not checked is unassessed. */
export class BudgetExhausted extends Error {
  constructor(readonly reason: string) {
    super(reason);
  }
}

export interface BudgetOptions {
  /** Share of the remaining hourly rate limit one run may spend (default 0.1). */
  share?: number;
  /** A hard ceiling whatever the rate limit says (default 1,000). */
  maxRequests?: number;
  /** No request starts after this time (epoch ms): the service's scans must end inside the function limit. */
  deadline?: number;
}

export const DEFAULT_SHARE = 0.1;
export const DEFAULT_MAX_REQUESTS = 1_000;

/**
 * A reader that counts its requests and stops at the budget: at most `share` of the remaining rate limit
 * the first answer reports (and never more than `maxRequests`). A rate-limit answer (403 or 429 with
 * `x-ratelimit-remaining: 0` or `retry-after`) ends the run's online audits at once.
 */
export class BudgetedReader implements GitHubReader {
  requests = 0;
  #limit: number;
  #share: number;
  #exhausted: string | null = null;
  #reader: GitHubReader;
  #deadline: number;

  constructor(reader: GitHubReader, options: BudgetOptions = {}) {
    this.#reader = reader;
    this.#share = Math.min(1, Math.max(0, options.share ?? DEFAULT_SHARE));
    this.#limit = options.maxRequests ?? DEFAULT_MAX_REQUESTS;
    this.#deadline = options.deadline ?? Infinity;
  }

  /** Null while requests may still be made; else why not. */
  get exhausted(): string | null {
    return this.#exhausted;
  }

  async get(path: string): Promise<GitHubAnswer> {
    if (this.#exhausted !== null) throw new BudgetExhausted(this.#exhausted);
    if (this.requests >= this.#limit) {
      this.#exhausted = `the online budget of ${this.#limit} request${this.#limit === 1 ? '' : 's'} was spent`;
      throw new BudgetExhausted(this.#exhausted);
    }
    if (Date.now() >= this.#deadline) {
      this.#exhausted = "the scan's time for online audits ran out";
      throw new BudgetExhausted(this.#exhausted);
    }
    const first = this.requests === 0;
    this.requests++;
    let answer: GitHubAnswer;
    try {
      answer = await this.#reader.get(path);
    } catch (error) {
      // Unreachable or timing out: asking again for every reference would only multiply the wait.
      this.#exhausted = `GitHub could not be reached (${error instanceof Error ? error.message : String(error)})`;
      throw new BudgetExhausted(this.#exhausted);
    }
    if ((answer.status === 403 || answer.status === 429) && (answer.remaining === 0 || answer.status === 429 || isSecondaryLimit(answer.body))) {
      this.#exhausted = 'GitHub answered that the rate limit is spent';
      throw new BudgetExhausted(this.#exhausted);
    }
    if (first && answer.remaining !== null) this.#limit = Math.min(this.#limit, 1 + Math.floor(answer.remaining * this.#share));
    return answer;
  }
}

function isSecondaryLimit(body: unknown): boolean {
  const message = typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : '';
  return /rate limit/i.test(message);
}
