// The per-user scan rate limit (`SCAN_RATE_LIMIT` per `SCAN_RATE_LIMIT_WINDOW_SECONDS`, counted by
// consume_rate_limit in Postgres) across "function instances": two separately loaded copies of the handler
// modules, each with its own database handle (two connection pools on a real server), share one budget per
// user. And the default budget is enough for an org-wide scan of a few hundred repositories by a client with
// bounded concurrency (the reasoning is in docs/security.md, "Rate limiting").

import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import type { CodeHost } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import type { Database } from '../../lib/db/port.js';
import { PostgresDatabase } from '../../lib/db/postgres.js';
import { DEFAULT_SCAN_RATE_LIMIT, DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS, env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, testDatabaseTarget, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest } from '../support/http.js';
import { expectErrorBody } from './support.js';

const LIMIT = 5;
let t: TestDatabase;

/** One "function instance": its own copy of the modules (so its own database and code host singletons). */
interface Instance {
  scan: (authorization: string, repo_id: string) => Promise<Response>;
  db: Database;
  /** The database this copy of the modules uses. */
  database: () => Promise<Database>;
}
const instances: Instance[] = [];

async function loadInstance(db: Database, host: CodeHost): Promise<Instance> {
  vi.resetModules();
  const saved = { limit: process.env.SCAN_RATE_LIMIT, window: process.env.SCAN_RATE_LIMIT_WINDOW_SECONDS };
  process.env.SCAN_RATE_LIMIT = String(LIMIT);
  process.env.SCAN_RATE_LIMIT_WINDOW_SECONDS = '60';
  try {
    const [{ POST }, database, codehost] = await Promise.all([import('../../api/scan.js'), import('../../lib/db/connection.js'), import('../../lib/codehost/index.js')]);
    database.useDatabase(db);
    codehost.useCodeHost(host);
    return { db, database: database.database, scan: async (authorization, repo_id) => POST(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id } })) };
  } finally {
    process.env.SCAN_RATE_LIMIT = saved.limit;
    process.env.SCAN_RATE_LIMIT_WINDOW_SECONDS = saved.window;
  }
}

/** A database handle of its own: a second pool on a real server; on PGlite (one engine per process) a wrapper. */
function separateHandle(): Database {
  if (testDatabaseTarget.kind === 'postgres') return new PostgresDatabase({ connectionString: testDatabaseTarget.url, maxConnections: 6, applicationName: 'chainbreaker-instance' });
  return { call: (fn, args) => t.db.call(fn, args), close: async () => undefined };
}

beforeAll(async () => {
  t = await openTestDatabase({ maxConnections: 8 });
  useDatabase(t.db);
  for (let i = 0; i < 2; i += 1) instances.push(await loadInstance(separateHandle(), new ScriptedCodeHost()));
});
afterAll(async () => {
  for (const instance of instances) await instance.db.close();
  await t.close();
});

async function scanner() {
  const userId = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, userId, 3);
  return { userId, authorization: await bearer(userId), repos: repositories.map((r) => r.id) };
}

async function scansOf(userId: string): Promise<number> {
  const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.scans where user_id = $1', [userId]);
  return row?.n ?? -1;
}

describe(`the scan rate limit across function instances (${testDatabaseTarget.kind === 'postgres' ? 'two connection pools' : 'one PGlite engine'})`, () => {
  it('is one budget per user: scans alternating between instances stop at the limit, then 429 with Retry-After from both', async () => {
    const [a, b] = instances as [Instance, Instance];
    expect(await a.database()).toBe(a.db);
    expect(await b.database()).toBe(b.db);
    expect(a.db).not.toBe(b.db);
    const user = await scanner();
    const statuses: number[] = [];
    for (let i = 0; i < LIMIT; i += 1) statuses.push((await (i % 2 === 0 ? a : b).scan(user.authorization, user.repos[i % 3]!)).status);
    expect(statuses).toEqual(Array(LIMIT).fill(200));

    for (const instance of [a, b]) {
      const refused = await instance.scan(user.authorization, user.repos[0]!);
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect((await expectErrorBody(refused, 'rate_limited')).message).toBe('Too many requests; try again later.');
    }
    // Each repository's repeated identical scan is stored once (record_scan returns the latest one).
    expect(await scansOf(user.userId)).toBe(Math.min(LIMIT, 3));

    // Another user is unaffected, on either instance.
    const other = await scanner();
    expect((await a.scan(other.authorization, other.repos[0]!)).status).toBe(200);
    expect((await b.scan(other.authorization, other.repos[1]!)).status).toBe(200);
  });

  it('admits exactly the limit when both instances take a burst of scans at once', async () => {
    const user = await scanner();
    const statuses = (
      await Promise.all(Array.from({ length: 16 }, (_, i) => instances[i % 2]!.scan(user.authorization, user.repos[i % 3]!)))
    ).map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(LIMIT);
    expect(statuses.filter((s) => s === 429)).toHaveLength(16 - LIMIT);
    // Identical scans of a repository are stored once: one row per repository among those admitted.
    expect(await scansOf(user.userId)).toBeGreaterThanOrEqual(1);
    expect(await scansOf(user.userId)).toBeLessThanOrEqual(Math.min(LIMIT, 3));
  });
});

describe('the default budget', () => {
  it(`lets a client scan an organization of ${DEFAULT_SCAN_RATE_LIMIT} repositories, 8 at a time, without a 429`, async () => {
    expect(env().scanRateLimit).toEqual({ max: DEFAULT_SCAN_RATE_LIMIT, windowSeconds: DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS });
    expect(DEFAULT_SCAN_RATE_LIMIT).toBeGreaterThanOrEqual(300);
    useCodeHost(new ScriptedCodeHost());
    const userId = await t.createUser();
    const authorization = await bearer(userId);
    const { repositories } = await userWithRepositories(t.db, userId, DEFAULT_SCAN_RATE_LIMIT);
    const queue = repositories.map((r) => r.id);
    const statuses: number[] = [];
    const worker = async () => {
      for (let repo = queue.shift(); repo !== undefined; repo = queue.shift()) {
        statuses.push((await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } }))).status);
      }
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(statuses.filter((s) => s !== 200)).toEqual([]);
    expect(statuses).toHaveLength(DEFAULT_SCAN_RATE_LIMIT);
    // The next one in the same window is told when to come back.
    const next = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repositories[0]!.id } }));
    expect(next.status).toBe(429);
    expect(Number(next.headers.get('retry-after'))).toBeLessThanOrEqual(DEFAULT_SCAN_RATE_LIMIT_WINDOW_SECONDS);
  });
});
