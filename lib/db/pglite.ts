// Adapter for PGlite, Postgres compiled to WebAssembly and run in-process: the zero-configuration database
// of `npm run dev` (persisted in a data directory) and of tests on a machine without a Postgres server (in
// memory). One connection, so calls are serialized; that is its nature, not a limit worth working around.

import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { pgmq } from '@electric-sql/pglite-pgmq';
import { toDatabaseError } from './errors.js';
import { functionCallStatement } from './function-call.js';
import type { SqlDatabase, SqlTransaction } from './port.js';

export interface PgliteOptions {
  /** Directory to persist the database in (created if missing); omitted or `memory://`, it lives in memory. */
  dataDir?: string;
  /** A data directory tarball (from `dumpDataDir`) to start from, e.g. an already migrated database. */
  loadDataDir?: Blob;
}

export class PgliteDatabase implements SqlDatabase {
  readonly pglite: PGlite;

  private constructor(pglite: PGlite) {
    this.pglite = pglite;
  }

  static async open(options: PgliteOptions = {}): Promise<PgliteDatabase> {
    // PGlite creates the directory itself but not its parents; `memory://` and other schemes are not paths.
    if (options.dataDir !== undefined && !/^[a-z]+:\/\//.test(options.dataDir)) {
      await mkdir(options.dataDir, { recursive: true });
    }
    // pgmq (the monitoring queue's extension, pure SQL) is loaded into every instance, as Supabase hosts it.
    const pglite = await PGlite.create({
      extensions: { pgmq },
      ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
      ...(options.loadDataDir === undefined ? {} : { loadDataDir: options.loadDataDir }),
    });
    return new PgliteDatabase(pglite);
  }

  async call<T>(fn: string, args: Readonly<Record<string, unknown>>): Promise<T> {
    const { text, values } = functionCallStatement(fn, args);
    try {
      const result = await this.pglite.query<{ result: T }>(text, values);
      return result.rows[0]?.result ?? (null as T);
    } catch (error) {
      throw toDatabaseError(error, fn);
    }
  }

  transaction<T>(fn: (tx: SqlTransaction) => Promise<T>): Promise<T> {
    return this.pglite.transaction((pgTx) =>
      fn({
        exec: async (sql) => {
          await pgTx.exec(sql);
        },
        query: async <R>(sql: string, params?: readonly unknown[]) =>
          (await pgTx.query<R>(sql, params ? [...params] : undefined)).rows,
      }),
    );
  }

  async close(): Promise<void> {
    if (!this.pglite.closed) await this.pglite.close();
  }
}
