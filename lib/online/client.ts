/**
 * The GitHub reads of the online audits (REST GETs and GraphQL queries), through an injected `fetch`, and
 * the budget that keeps a scan inside a share of the token's remaining hourly rate limits (REST's and
 * GraphQL's, which GitHub counts apart).
 */

export interface GitHubAnswer {
  status: number;
  body: unknown;
  /** `x-ratelimit-remaining`, when GitHub sent it. */
  remaining: number | null;
}

/**
 * Reads one REST path (`/repos/o/r/tags?per_page=100`), and, when the reader can, runs one GraphQL query
 * (`POST /graphql`; the answer's body is GitHub's `{ data, errors }`). Without `graphql` every fact is read
 * over REST.
 */
export interface GitHubReader {
  get(path: string): Promise<GitHubAnswer>;
  graphql?(query: string, variables: Record<string, unknown>): Promise<GitHubAnswer>;
  /**
   * How many GraphQL queries may start together now (a budgeted reader: 1 until GitHub has said how many
   * points remain, then what the share leaves). Absent: no limit of the reader's own.
   */
  graphqlAllowance?(): number;
}

export interface FetchReaderOptions {
  token: string;
  /** Default https://api.github.com; GitHub Enterprise Server: https://HOST/api/v3. */
  baseUrl?: string | undefined;
  fetch?: typeof fetch;
  /** Per request (default 10 s). */
  timeoutMs?: number;
}

const MAX_BODY_BYTES = 4_000_000;

/** GitHub's GraphQL endpoint for a REST base: `https://api.github.com/graphql`, or `https://HOST/api/graphql` on Enterprise Server. */
export function graphqlUrl(restBase: string): string {
  const base = restBase.replace(/\/+$/, '');
  return base.endsWith('/api/v3') ? `${base.slice(0, -'/v3'.length)}/graphql` : `${base}/graphql`;
}

export function fetchReader(options: FetchReaderOptions): GitHubReader {
  const base = (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, '');
  const send = async (url: string, init: { method?: string; body?: string }): Promise<GitHubAnswer> => {
    // Resolved per call, so a fetch patched after construction (msw in tests) is the one used.
    const response = await (options.fetch ?? globalThis.fetch)(url, {
      ...init,
      headers: {
        accept: 'application/vnd.github+json',
        authorization: `Bearer ${options.token}`,
        'x-github-api-version': '2022-11-28',
        'user-agent': 'chainbreaker-online-audit',
        ...(init.body === undefined ? {} : { 'content-type': 'application/json' }),
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
  };
  return {
    get: (path) => send(`${base}${path}`, {}),
    graphql: (query, variables) => send(graphqlUrl(base), { method: 'POST', body: JSON.stringify({ query, variables }) }),
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

/** GraphQL cannot be used any more in this run (its own rate limit, or its share of it, is spent): read over REST. */
export class GraphQLUnavailable extends Error {}

/**
 * A reader that counts its requests and stops at the budget: at most `share` of the remaining REST rate
 * limit the first REST answer reports, at most `share` of the remaining GraphQL points the first query's
 * `rateLimit { cost remaining }` reports, and never more than `maxRequests` requests of both kinds. A
 * rate-limit answer (403 or 429 with `x-ratelimit-remaining: 0` or `retry-after`, or a secondary limit,
 * which REST and GraphQL share) ends the run's online audits at once; GraphQL's own limit (a `RATE_LIMITED`
 * error, or its share spent) only ends GraphQL, and the facts are read over REST instead.
 */
export class BudgetedReader implements GitHubReader {
  /** Requests sent, REST and GraphQL. */
  requests = 0;
  /** Of which GraphQL queries. */
  graphqlRequests = 0;
  /** GraphQL points spent, as GitHub reports them (`rateLimit.cost`). */
  graphqlPoints = 0;
  #limit: number;
  #share: number;
  #exhausted: string | null = null;
  #graphqlExhausted: string | null = null;
  #graphqlLimit = Infinity;
  #restSeen = false;
  #reader: GitHubReader;
  #deadline: number;

  constructor(reader: GitHubReader, options: BudgetOptions = {}) {
    this.#reader = reader;
    this.#share = Math.min(1, Math.max(0, options.share ?? DEFAULT_SHARE));
    this.#limit = options.maxRequests ?? DEFAULT_MAX_REQUESTS;
    this.#deadline = options.deadline ?? Infinity;
    // Bound `this` for callers that take the method alone; absent when the inner reader has no GraphQL.
    if (reader.graphql === undefined) this.graphql = undefined;
  }

  /**
   * Moves the time after which no request starts (epoch ms): the service reads ahead during the snapshot
   * under the snapshot's deadline, then gives the audit after the engine its own.
   */
  setDeadline(deadline: number): void {
    this.#deadline = deadline;
  }

  graphqlAllowance(): number {
    if (this.#exhausted !== null || this.#graphqlExhausted !== null) return 0;
    const requests = Math.max(0, this.#limit - this.requests);
    // Until a first answer says how many points remain, one query at a time: the share is not known yet.
    if (this.graphqlRequests === 0) return Math.min(1, requests);
    return Math.min(requests, Math.max(0, this.#graphqlLimit - this.graphqlPoints));
  }

  /** Null while requests may still be made; else why not. */
  get exhausted(): string | null {
    return this.#exhausted;
  }

  /** Throws unless one more request may start. */
  #admit(): void {
    if (this.#exhausted !== null) throw new BudgetExhausted(this.#exhausted);
    if (this.requests >= this.#limit) {
      this.#exhausted = `the online budget of ${this.#limit} request${this.#limit === 1 ? '' : 's'} was spent`;
      throw new BudgetExhausted(this.#exhausted);
    }
    if (Date.now() >= this.#deadline) {
      this.#exhausted = "the scan's time for online audits ran out";
      throw new BudgetExhausted(this.#exhausted);
    }
  }

  async #send(run: () => Promise<GitHubAnswer>, kind: 'rest' | 'graphql'): Promise<GitHubAnswer> {
    this.requests++;
    let answer: GitHubAnswer;
    try {
      answer = await run();
    } catch (error) {
      // A reader found to have no GraphQL only when asked (the service's, whose token comes later): nothing
      // was sent, and the facts are read over REST.
      if (error instanceof GraphQLUnavailable) {
        this.requests--;
        if (kind === 'graphql') this.graphqlRequests--;
        this.#graphqlExhausted = error.message;
        throw error;
      }
      // Unreachable or timing out: asking again for every reference would only multiply the wait.
      this.#exhausted = `GitHub could not be reached (${error instanceof Error ? error.message : String(error)})`;
      throw new BudgetExhausted(this.#exhausted);
    }
    const limited = answer.status === 403 || answer.status === 429;
    // GraphQL's primary limit is its own (points): spent, it only ends GraphQL (below).
    if (kind === 'graphql' && limited && answer.status === 403 && answer.remaining === 0 && !isSecondaryLimit(answer.body, true)) return answer;
    if (limited && (answer.remaining === 0 || answer.status === 429 || isSecondaryLimit(answer.body))) {
      this.#exhausted = 'GitHub answered that the rate limit is spent';
      throw new BudgetExhausted(this.#exhausted);
    }
    return answer;
  }

  async get(path: string): Promise<GitHubAnswer> {
    this.#admit();
    const answer = await this.#send(() => this.#reader.get(path), 'rest');
    if (!this.#restSeen && answer.remaining !== null) {
      this.#restSeen = true;
      this.#limit = Math.min(this.#limit, this.requests + Math.floor(answer.remaining * this.#share));
    }
    return answer;
  }

  graphql?: (query: string, variables: Record<string, unknown>) => Promise<GitHubAnswer> = async (query, variables) => {
    if (this.#graphqlExhausted !== null) throw new GraphQLUnavailable(this.#graphqlExhausted);
    this.#admit();
    if (this.graphqlPoints >= this.#graphqlLimit) {
      this.#graphqlExhausted = `the online budget of ${this.#graphqlLimit} GraphQL point${this.#graphqlLimit === 1 ? '' : 's'} was spent`;
      throw new GraphQLUnavailable(this.#graphqlExhausted);
    }
    this.graphqlRequests++;
    const inner = this.#reader.graphql;
    if (inner === undefined) throw new GraphQLUnavailable('the reader has no GraphQL');
    const answer = await this.#send(() => inner.call(this.#reader, query, variables), 'graphql');
    if (graphqlErrorTypes(answer.body).includes('RATE_LIMITED') || (answer.status === 403 && answer.remaining === 0)) {
      this.#graphqlExhausted = "GitHub answered that the GraphQL rate limit is spent";
      throw new GraphQLUnavailable(this.#graphqlExhausted);
    }
    const rateLimit = field(field(answer.body, 'data'), 'rateLimit');
    const cost = field(rateLimit, 'cost');
    const remaining = field(rateLimit, 'remaining');
    this.graphqlPoints += typeof cost === 'number' && cost > 0 ? cost : 1;
    if (this.#graphqlLimit === Infinity && typeof remaining === 'number') {
      this.#graphqlLimit = this.graphqlPoints + Math.floor(remaining * this.#share);
    }
    return answer;
  };
}

/** The `type` of each error in a GraphQL answer (`NOT_FOUND`, `RATE_LIMITED`, ...). */
export function graphqlErrorTypes(body: unknown): string[] {
  const errors = field(body, 'errors');
  return Array.isArray(errors) ? errors.map((e) => field(e, 'type')).filter((t): t is string => typeof t === 'string') : [];
}

export function field(value: unknown, name: string): unknown {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>)[name] : undefined;
}

/** A rate-limit message (`secondaryOnly`: GitHub's words for the secondary limits, which REST and GraphQL share). */
function isSecondaryLimit(body: unknown, secondaryOnly = false): boolean {
  const message = typeof body === 'object' && body !== null && 'message' in body ? String(body.message) : '';
  return secondaryOnly ? /secondary rate limit/i.test(message) : /rate limit/i.test(message);
}
