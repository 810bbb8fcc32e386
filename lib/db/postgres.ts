// Adapter for a Postgres server reached with a connection string (DATABASE_URL): self-hosting, CI and the
// concurrency tests. A pool, one statement per call.

import pg from 'pg';
import { toDatabaseError } from './errors.js';
import { functionCallStatement } from './function-call.js';
import type { SqlDatabase, SqlTransaction } from './port.js';

export interface PostgresOptions {
  connectionString: string;
  /** Pool size; keep it small on serverless platforms, where every instance has its own pool. */
  maxConnections?: number;
  /** Server-side limit per statement. */
  statementTimeoutMs?: number;
  connectionTimeoutMs?: number;
  idleTimeoutMs?: number;
  /** `application_name`, shown in pg_stat_activity. */
  applicationName?: string;
}

export class PostgresDatabase implements SqlDatabase {
  private readonly pool: pg.Pool;

  constructor(options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 5,
      statement_timeout: options.statementTimeoutMs ?? 10_000,
      connectionTimeoutMillis: options.connectionTimeoutMs ?? 5_000,
      idleTimeoutMillis: options.idleTimeoutMs ?? 10_000,
      application_name: options.applicationName ?? 'chainbreaker',
    });
    // An idle client losing its connection emits 'error' on the pool; without a listener that would crash the
    // process. The next checkout simply gets a fresh connection.
    this.pool.on('error', () => {});
  }

  async call<T>(fn: string, args: Readonly<Record<string, unknown>>): Promise<T> {
    const { text, values } = functionCallStatement(fn, args);
    try {
      const result = await this.pool.query<{ result: T }>(text, values);
      return result.rows[0]?.result ?? (null as T);
    } catch (error) {
      throw toDatabaseError(error, fn);
    }
  }

  async transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken = false;
    try {
      await client.query('begin');
      const tx: SqlTransaction = {
        exec: async (sql) => {
          await client.query(sql);
        },
        query: async <R>(sql: string, params?: readonly unknown[]) =>
          (await client.query(sql, params ? [...params] : undefined)).rows as R[],
      };
      const result = await fn(tx);
      await client.query('commit');
      return result;
    } catch (error) {
      await client.query('rollback').catch(() => {
        broken = true;
      });
      throw error;
    } finally {
      client.release(broken);
    }
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
