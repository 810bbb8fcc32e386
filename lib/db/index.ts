// The data layer's entry point: the port, the factory that picks an adapter from configuration (lib/env.ts
// decides which), the typed operations, and the migration runner.

import type { Database } from './port.js';
import type { PostgresOptions } from './postgres.js';
import type { SupabaseOptions } from './supabase.js';

export type DatabaseConfig =
  | ({ kind: 'supabase'; url: string; serviceRoleKey: string } & Omit<SupabaseOptions, 'url' | 'serviceRoleKey'>)
  | ({ kind: 'postgres'; url: string } & Omit<PostgresOptions, 'connectionString'>)
  /** `dataDir` is a directory, or `memory://` for a database that is gone on close. */
  | { kind: 'pglite'; dataDir: string };

/**
 * Opens the configured adapter. Each is imported on demand, so a function deployed against Supabase never
 * loads the Postgres driver or PGlite. The embedded PGlite database is migrated on open (the zero-configuration
 * path must just work); a Postgres server or Supabase project is migrated deliberately, with `npm run
 * db:migrate`.
 */
export async function createDatabase(config: DatabaseConfig): Promise<Database> {
  switch (config.kind) {
    case 'supabase': {
      const { SupabaseDatabase } = await import('./supabase.js');
      const { kind: _kind, ...options } = config;
      return new SupabaseDatabase(options);
    }
    case 'postgres': {
      const { PostgresDatabase } = await import('./postgres.js');
      const { kind: _kind, url, ...options } = config;
      return new PostgresDatabase({ connectionString: url, ...options });
    }
    case 'pglite': {
      const [{ PgliteDatabase }, { migrate }] = await Promise.all([import('./pglite.js'), import('./migrate.js')]);
      const db = await PgliteDatabase.open({ dataDir: config.dataDir });
      try {
        await migrate(db);
      } catch (error) {
        await db.close();
        throw error;
      }
      return db;
    }
  }
}

export type { Database, SqlDatabase, SqlTransaction } from './port.js';
export { DatabaseError, type DatabaseErrorKind } from './errors.js';
export { migrate, seed, MigrationError, type MigrationReport } from './migrate.js';
export * from './operations.js';
export type * from './types.js';
