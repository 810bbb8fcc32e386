import { onlineFactsGet, onlineFactsPut } from '../db/operations.js';
import type { Database } from '../db/port.js';
import type { CacheEntry, FactCache } from './cache.js';

/** Keys or entries per database call (the server functions take at most 2,000). */
const BATCH = 1_000;

/**
 * The service's cache: the `online_facts` table, shared by every user and installation (the facts are
 * about action repositories GitHub said are public: `Facts.flush` writes nothing else). One call reads a scan's keys, one call writes what it learnt.
 */
export class DatabaseFactCache implements FactCache {
  constructor(readonly db: Database) {}

  async get(keys: readonly string[]): Promise<Map<string, unknown>> {
    const found = new Map<string, unknown>();
    for (let i = 0; i < keys.length; i += BATCH) {
      const facts = await onlineFactsGet(this.db, keys.slice(i, i + BATCH));
      for (const [key, value] of Object.entries(facts)) found.set(key, value);
    }
    return found;
  }

  async set(entries: readonly CacheEntry[]): Promise<void> {
    for (let i = 0; i < entries.length; i += BATCH) {
      await onlineFactsPut(
        this.db,
        entries.slice(i, i + BATCH).map((e) => ({ key: e.key, value: e.value, ttl_seconds: e.ttlSeconds })),
      );
    }
  }
}
