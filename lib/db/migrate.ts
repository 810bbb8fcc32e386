// Applies supabase/bootstrap.sql and then every pending file of supabase/migrations, in version order, to a
// database reached over SQL (Postgres or PGlite), recording each applied migration with a checksum. One
// transaction, under an advisory lock: concurrent runs against one database queue up, and a failure applies
// nothing. Safe to run any number of times.

import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import type { SqlDatabase, SqlTransaction } from './port.js';

/** The project's supabase/ directory, resolved from this file so that it works from any working directory. */
export const SUPABASE_DIR = new URL('../../supabase/', import.meta.url);

const MIGRATION_FILE = /^(\d{14})_([a-z0-9_]+)\.sql$/;

// Any constant works; this one spells "chain".
const MIGRATION_LOCK_KEY = 0x636861696e;

export interface Migration {
  version: string;
  name: string;
  sql: string;
  /** sha256 of the file with line endings normalized, so a checkout's newline style does not matter. */
  checksum: string;
}

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

export class MigrationError extends Error {
  override readonly name = 'MigrationError';
}

export async function readMigrations(supabaseDir: URL = SUPABASE_DIR): Promise<Migration[]> {
  const directory = new URL('migrations/', supabaseDir);
  const files = (await readdir(directory)).filter((file) => file.endsWith('.sql')).sort();
  return Promise.all(
    files.map(async (file) => {
      const match = MIGRATION_FILE.exec(file);
      if (match === null) {
        throw new MigrationError(`supabase/migrations/${file}: expected <14-digit timestamp>_<snake_case_name>.sql`);
      }
      const sql = normalize(await readFile(new URL(file, directory), 'utf8'));
      return { version: match[1]!, name: match[2]!, sql, checksum: sha256(sql) };
    }),
  );
}

export async function readBootstrap(supabaseDir: URL = SUPABASE_DIR): Promise<string> {
  return normalize(await readFile(new URL('bootstrap.sql', supabaseDir), 'utf8'));
}

export async function migrate(db: SqlDatabase, options: { supabaseDir?: URL } = {}): Promise<MigrationReport> {
  const [bootstrap, migrations] = await Promise.all([readBootstrap(options.supabaseDir), readMigrations(options.supabaseDir)]);
  return db.transaction(async (tx) => {
    await tx.exec(`set local client_min_messages = warning; select pg_advisory_xact_lock(${MIGRATION_LOCK_KEY});`);
    await tx.exec(bootstrap);
    await tx.exec(`
      create schema if not exists chainbreaker_migrations;
      revoke all on schema chainbreaker_migrations from public;
      create table if not exists chainbreaker_migrations.schema_migrations (
        version text primary key,
        name text not null,
        checksum text not null,
        applied_at timestamptz not null default now()
      );
    `);
    const recorded = new Map(
      (await tx.query<{ version: string; checksum: string }>('select version, checksum from chainbreaker_migrations.schema_migrations')).map(
        (row) => [row.version, row.checksum],
      ),
    );
    const report: MigrationReport = { applied: [], alreadyApplied: [] };
    for (const migration of migrations) {
      const label = `${migration.version}_${migration.name}`;
      const checksum = recorded.get(migration.version);
      if (checksum !== undefined) {
        if (checksum !== migration.checksum) {
          throw new MigrationError(`Migration ${label} was changed after it was applied; add a new migration instead.`);
        }
        report.alreadyApplied.push(label);
        continue;
      }
      await apply(tx, migration, label);
      report.applied.push(label);
    }
    return report;
  });
}

/** Runs supabase/seed.sql (development data; idempotent). */
export async function seed(db: SqlDatabase, options: { supabaseDir?: URL } = {}): Promise<void> {
  const sql = await readFile(new URL('seed.sql', options.supabaseDir ?? SUPABASE_DIR), 'utf8');
  await db.transaction((tx) => tx.exec(sql));
}

async function apply(tx: SqlTransaction, migration: Migration, label: string): Promise<void> {
  try {
    await tx.exec(migration.sql);
  } catch (error) {
    throw new MigrationError(`Migration ${label} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  await tx.query('insert into chainbreaker_migrations.schema_migrations (version, name, checksum) values ($1, $2, $3)', [
    migration.version,
    migration.name,
    migration.checksum,
  ]);
}

function normalize(sql: string): string {
  return sql.replace(/\r\n/g, '\n');
}

function sha256(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
