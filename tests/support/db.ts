// Per-file access to the test database prepared by db-global-setup.ts: the adapter the application uses
// (PGlite in memory, or a pool on the real server), superuser SQL for arranging and asserting, PostgREST-style
// role switching for row-level security, and users to own things. Files share the server database, so every
// test works with users it created and never counts rows it does not own.

import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject } from 'vitest';
import { functionCallStatement } from '../../lib/db/function-call.js';
import { migrate } from '../../lib/db/migrate.js';
import { PgliteDatabase } from '../../lib/db/pglite.js';
import type { SqlDatabase, SqlTransaction } from '../../lib/db/port.js';
import { PostgresDatabase } from '../../lib/db/postgres.js';

export type TestDatabaseTarget = { kind: 'postgres'; url: string } | { kind: 'pglite'; dumpFile: string };

declare module 'vitest' {
  export interface ProvidedContext {
    testDatabase: TestDatabaseTarget;
  }
}

/** Where this run's data tests go; `kind` 'postgres' means a real server (TEST_DATABASE_URL). */
export const testDatabaseTarget: TestDatabaseTarget = inject('testDatabase');

/** Why a test that needs a real server (concurrency, a pool) is skipped on PGlite. */
export const REAL_SERVER_ONLY =
  'needs a real Postgres server for concurrent connections: set TEST_DATABASE_URL (CI does)';

/** The roles PostgREST switches to: the browser's two, and the API's. */
export type ApiRole = 'anon' | 'authenticated' | 'service_role';

export interface TestDatabase {
  readonly db: SqlDatabase;
  /** One statement (or script without parameters) as the database owner, in its own transaction. */
  query<R>(sql: string, params?: readonly unknown[]): Promise<R[]>;
  /**
   * Runs `fn` the way PostgREST runs a request: in a transaction, `set local role <role>` and the JWT claims
   * in `request.jwt.claims`. The transaction rolls back afterwards, so nothing done inside persists.
   */
  as<R>(role: ApiRole, userId: string | null, fn: (tx: SqlTransaction) => Promise<R>): Promise<R>;
  /**
   * Calls a server function the way PostgREST does for the service-role key: in a transaction, as role
   * service_role with its claims, committing on success. What the Supabase adapter's requests end up doing.
   */
  callAsServiceRole<T>(fn: string, args: Readonly<Record<string, unknown>>): Promise<T>;
  /** A new auth.users row (inserted as Supabase's auth server would, with just id and email). */
  createUser(): Promise<string>;
  close(): Promise<void>;
}

export async function openTestDatabase(options: { maxConnections?: number } = {}): Promise<TestDatabase> {
  const db: SqlDatabase =
    testDatabaseTarget.kind === 'postgres'
      ? new PostgresDatabase({ connectionString: testDatabaseTarget.url, maxConnections: options.maxConnections ?? 4 })
      : await PgliteDatabase.open({ loadDataDir: new Blob([await readFile(testDatabaseTarget.dumpFile)]) });
  return wrap(db);
}

/**
 * A database no other test file shares, for a test that drains every installation's queued jobs (the cron
 * endpoint, `npm run dev`'s background drain): on a shared server such a drain would take other files' jobs.
 * PGlite in memory, migrated here when the run's database is a server (a few seconds).
 */
export async function openIsolatedDatabase(): Promise<TestDatabase> {
  if (testDatabaseTarget.kind === 'pglite') return openTestDatabase();
  const db = await PgliteDatabase.open();
  await migrate(db);
  return wrap(db);
}

const ROLLBACK = Symbol('rollback');

function wrap(db: SqlDatabase): TestDatabase {
  return {
    db,
    query: (sql, params) => db.transaction((tx) => tx.query(sql, params)),
    async as<R>(role: ApiRole, userId: string | null, fn: (tx: SqlTransaction) => Promise<R>): Promise<R> {
      const claims = JSON.stringify(userId === null ? { role } : { sub: userId, role, aud: role });
      let result: R | undefined;
      try {
        await db.transaction(async (tx) => {
          await tx.exec(`set local role ${role}`);
          await tx.query(`select set_config('request.jwt.claims', $1, true)`, [claims]);
          result = await fn(tx);
          throw ROLLBACK;
        });
      } catch (error) {
        if (error !== ROLLBACK) throw error;
      }
      return result as R;
    },
    callAsServiceRole<T>(fn: string, args: Readonly<Record<string, unknown>>): Promise<T> {
      const { text, values } = functionCallStatement(fn, args);
      return db.transaction(async (tx) => {
        await tx.exec('set local role service_role');
        await tx.query(`select set_config('request.jwt.claims', '{"role":"service_role"}', true)`);
        const [row] = await tx.query<{ result: T }>(text, values);
        return row?.result ?? (null as T);
      });
    },
    async createUser() {
      const id = randomUUID();
      await db.transaction((tx) => tx.query('insert into auth.users (id, email) values ($1, $2)', [id, `${id}@example.test`]));
      return id;
    },
    close: () => db.close(),
  };
}
