// `npm run db:migrate [-- --seed]`: applies supabase/bootstrap.sql and the pending migrations to DATABASE_URL
// (a Postgres server or a Supabase project's connection string), or, when it is unset, to the embedded PGlite
// database of `npm run dev` (PGLITE_DATA_DIR, default .data/pglite). `--seed` then applies supabase/seed.sql.

import { DEFAULT_PGLITE_DATA_DIR } from '../lib/env.js';
import { migrate, seed } from '../lib/db/migrate.js';
import { PgliteDatabase } from '../lib/db/pglite.js';
import type { SqlDatabase } from '../lib/db/port.js';
import { PostgresDatabase } from '../lib/db/postgres.js';

const withSeed = process.argv.includes('--seed');
const databaseUrl = process.env.DATABASE_URL?.trim() || undefined;

let db: SqlDatabase;
let target: string;
if (databaseUrl !== undefined) {
  db = new PostgresDatabase({ connectionString: databaseUrl, maxConnections: 1, statementTimeoutMs: 0 });
  target = describeUrl(databaseUrl);
} else {
  const dataDir = process.env.PGLITE_DATA_DIR?.trim() || DEFAULT_PGLITE_DATA_DIR;
  db = await PgliteDatabase.open({ dataDir });
  target = `embedded PGlite database in ${dataDir}`;
}

try {
  const report = await migrate(db);
  for (const label of report.applied) console.log(`applied ${label}`);
  console.log(`${target}: ${report.applied.length} applied, ${report.alreadyApplied.length} already applied`);
  if (withSeed) {
    await seed(db);
    console.log('applied supabase/seed.sql');
  }
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await db.close();
}

/** The URL without its password, for the log line. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    parsed.password = '';
    return parsed.toString();
  } catch {
    return 'DATABASE_URL';
  }
}
