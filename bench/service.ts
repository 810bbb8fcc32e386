/**
 * What the service benchmarks share: a migrated database of their own (a fresh database on a Postgres
 * server, dropped at the end; PGlite in memory when no server answers), a counter of database round trips,
 * signed-in users, and the real endpoint modules, loaded with the service's configuration.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Handler } from '../lib/http/endpoint.js';
import { migrate } from '../lib/db/migrate.js';
import type { Database, SqlDatabase } from '../lib/db/port.js';
import { PostgresDatabase } from '../lib/db/postgres.js';

/** The server the benchmarks create their database on: BENCH_DATABASE_URL, else TEST_DATABASE_URL's server, else the local default. */
export const SERVER_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

// The endpoints read their configuration once; the benchmarks want no request log and a rate limit they never reach.
process.env.LOG_LEVEL = 'silent';
process.env.SCAN_RATE_LIMIT = '1000000';

export interface BenchDatabase {
  /** The adapter the endpoints use (also the owner's SQL: `transaction`). */
  db: SqlDatabase;
  /** `postgres 15.x` or `pglite`. */
  kind: string;
  /** Database round trips (`Database.call`s) since the last `reset()`. */
  calls: { fn: string }[];
  resetCalls(): void;
  createUser(): Promise<string>;
  close(): Promise<void>;
}

/** A fresh migrated database named `chainbreaker_bench_<epoch>_<random>` on the server, dropped by `close()`. */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  const name = `chainbreaker_bench_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
  let db: SqlDatabase;
  let kind: string;
  let drop = async () => {};
  const admin = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 3_000 });
  try {
    await admin.connect();
    const [version] = (await admin.query<{ v: string }>(`select current_setting('server_version') as v`)).rows;
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(SERVER_URL);
    url.pathname = `/${name}`;
    db = new PostgresDatabase({ connectionString: url.toString(), maxConnections: 5, statementTimeoutMs: 60_000 });
    kind = `postgres ${version?.v ?? '?'}`;
    drop = async () => {
      const client = new pg.Client({ connectionString: SERVER_URL });
      await client.connect();
      await client.query(`drop database if exists ${name} with (force)`);
      await client.end();
    };
  } catch (error) {
    await admin.end().catch(() => {});
    console.error(`no Postgres server at ${SERVER_URL.replace(/\/\/[^@]*@/, '//')} (${(error as Error).message}): PGlite in memory instead`);
    const { PgliteDatabase } = await import('../lib/db/pglite.js');
    db = await PgliteDatabase.open();
    kind = 'pglite (in memory)';
  }
  await migrate(db);

  const calls: { fn: string }[] = [];
  const counting: SqlDatabase = {
    call: (fn, args) => {
      calls.push({ fn });
      return db.call(fn, args);
    },
    transaction: (fn) => db.transaction(fn),
    close: () => db.close(),
  };
  return {
    db: counting,
    kind,
    calls,
    resetCalls: () => {
      calls.length = 0;
    },
    async createUser() {
      const id = randomUUID();
      await db.transaction((tx) => tx.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@example.test`]));
      return id;
    },
    async close() {
      await db.close();
      await drop();
    },
  };
}

/** The endpoint modules, imported after the configuration above is in place. */
export async function endpoints() {
  const [scan, repos, attackPaths, combos] = await Promise.all([
    import('../api/scan.js'),
    import('../api/repos.js'),
    import('../api/attack-paths.js'),
    import('../api/repositories/[repo_id]/combos.js'),
  ]);
  return { scan: scan.POST, repos: repos.GET, attackPaths: attackPaths.GET, combos: combos.GET } satisfies Record<string, Handler>;
}

/** Plugs the database into the service (the process's `database()`). */
export async function serveWith(db: Database): Promise<void> {
  const { useDatabase } = await import('../lib/db/connection.js');
  useDatabase(db);
}

export async function request(handler: Handler, method: string, path: string, authorization: string, body?: unknown): Promise<Response> {
  const url = new URL(path, 'http://localhost');
  const headers = new Headers({ authorization });
  if (body !== undefined) headers.set('content-type', 'application/json');
  return handler(new Request(url, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) }));
}

export async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await fn();
  return { ms: performance.now() - start, value };
}
