/**
 * What is left of each installation's GitHub request budget, as GitHub's rate-limit headers last said
 * (`x-ratelimit-remaining`, `x-ratelimit-reset`, per `x-ratelimit-resource`: REST `core` and `graphql` are
 * separate budgets). Kept per process: every instance learns from its own requests, so a fresh instance
 * lets the first request through and knows from its answer. Bounded: past `MAX_ENTRIES` the oldest go.
 */

export interface Budget {
  /** Requests left in the tightest of the installation's budgets. */
  remaining: number;
  /** When that budget is refilled (epoch ms). */
  resetAt: number;
}

const MAX_ENTRIES = 10_000;

export class BudgetBook {
  readonly #entries = new Map<string, Budget>();

  /** Records what an answer to one of the installation's requests says about its budget. */
  observe(installationId: number, headers: Headers): void {
    const remaining = Number(headers.get('x-ratelimit-remaining'));
    const reset = Number(headers.get('x-ratelimit-reset'));
    if (headers.get('x-ratelimit-remaining') === null || !Number.isFinite(remaining) || !Number.isFinite(reset)) return;
    const key = `${installationId}\0${headers.get('x-ratelimit-resource') ?? 'core'}`;
    this.#entries.delete(key);
    this.#entries.set(key, { remaining, resetAt: reset * 1000 });
    for (const oldest of this.#entries.keys()) {
      if (this.#entries.size <= MAX_ENTRIES) break;
      this.#entries.delete(oldest);
    }
  }

  /** The tightest budget of the installation not yet reset at `now`, or null when none is known. */
  budget(installationId: number, now = Date.now()): Budget | null {
    let tightest: Budget | null = null;
    for (const resource of ['core', 'graphql', 'search']) {
      const entry = this.#entries.get(`${installationId}\0${resource}`);
      if (entry === undefined || entry.resetAt <= now) continue;
      if (tightest === null || entry.remaining < tightest.remaining) tightest = entry;
    }
    return tightest;
  }
}
