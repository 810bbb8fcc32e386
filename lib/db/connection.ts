import type { Database } from './port.js';
import { env } from '../env.js';

let current: Promise<Database> | undefined;

/**
 * The process's database, opened on first use with the adapter the environment chose. The adapter module is
 * imported only then, so an endpoint module stays light at cold start and a deployment on Supabase never
 * loads the Postgres driver or PGlite.
 */
export function database(): Promise<Database> {
  current ??= import('./index.js')
    .then(({ createDatabase }) => createDatabase(env().database))
    .catch((error: unknown) => {
      current = undefined; // the next request tries again
      throw error;
    });
  return current;
}

/** Uses an already open database from now on (the dev server's migrated one, a test's). */
export function useDatabase(db: Database): void {
  current = Promise.resolve(db);
}
