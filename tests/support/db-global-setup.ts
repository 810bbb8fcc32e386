// Vitest global setup for the data tests: prepares one migrated database per test run and tells the test
// files (through `inject('testDatabase')`, see db.ts) where it is.
//
// * TEST_DATABASE_URL set (CI): a fresh database `chainbreaker_test_<epoch>_<random>` on that server,
//   migrated once and dropped at the end; every test file connects to it and isolates itself by creating
//   its own users. Databases that a crashed run left behind are dropped once they are a day old.
// * Otherwise: PGlite. Migrating takes seconds, so the migrated data directory is dumped once to a tarball
//   under node_modules/.cache, keyed by the migrations' content and the PGlite version, and every test file
//   starts its own in-memory instance from it.

import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrate, readBootstrap, readMigrations } from '../../lib/db/migrate.js';
import { PgliteDatabase } from '../../lib/db/pglite.js';
import { PostgresDatabase } from '../../lib/db/postgres.js';
import type { TestDatabaseTarget } from './db.js';

const TEST_DATABASE_PREFIX = 'chainbreaker_test_';
const STALE_AFTER_SECONDS = 24 * 60 * 60;

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  const serverUrl = process.env.TEST_DATABASE_URL?.trim();
  if (serverUrl) {
    const { target, teardown } = await createServerDatabase(serverUrl);
    project.provide('testDatabase', target);
    return teardown;
  }
  project.provide('testDatabase', { kind: 'pglite', dumpFile: await migratedPgliteDump() });
}

async function createServerDatabase(serverUrl: string): Promise<{ target: TestDatabaseTarget; teardown: () => Promise<void> }> {
  const now = Math.floor(Date.now() / 1000);
  const name = `${TEST_DATABASE_PREFIX}${now}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await dropStaleDatabases(admin, now);
    await admin.query(`create database ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const teardown = async () => {
    const client = new pg.Client({ connectionString: serverUrl });
    await client.connect();
    try {
      await client.query(`drop database if exists ${name} with (force)`);
    } finally {
      await client.end();
    }
  };
  const db = new PostgresDatabase({ connectionString: url.toString(), maxConnections: 1 });
  try {
    await migrate(db);
  } catch (error) {
    await db.close();
    await teardown();
    throw error;
  }
  await db.close();
  return { target: { kind: 'postgres', url: url.toString() }, teardown };
}

async function dropStaleDatabases(admin: pg.Client, now: number): Promise<void> {
  const { rows } = await admin.query<{ datname: string }>('select datname from pg_database where datname like $1', [
    `${TEST_DATABASE_PREFIX}%`,
  ]);
  for (const { datname } of rows) {
    const createdAt = Number(/^chainbreaker_test_(\d+)_[0-9a-f]+$/.exec(datname)?.[1]);
    if (Number.isFinite(createdAt) && now - createdAt > STALE_AFTER_SECONDS) {
      await admin.query(`drop database if exists ${datname} with (force)`);
    }
  }
}

async function migratedPgliteDump(): Promise<string> {
  const pglitePackage = new URL('../../node_modules/@electric-sql/pglite/package.json', import.meta.url);
  const pgliteVersion = (JSON.parse(await readFile(pglitePackage, 'utf8')) as { version: string }).version;
  // The dump holds the pgmq extension's objects too (the monitoring queue): its package's version is part of the key.
  const pgmqPackage = new URL('../../node_modules/@electric-sql/pglite-pgmq/package.json', import.meta.url);
  const pgmqVersion = (JSON.parse(await readFile(pgmqPackage, 'utf8')) as { version: string }).version;
  const hash = createHash('sha256').update(pgliteVersion).update(pgmqVersion).update(await readBootstrap());
  for (const migration of await readMigrations()) hash.update(migration.version).update(migration.checksum);
  const cacheDir = fileURLToPath(new URL('../../node_modules/.cache/chainbreaker-db/', import.meta.url));
  const dumpFile = `${cacheDir}pglite-${hash.digest('hex').slice(0, 16)}.tar`;
  if (await exists(dumpFile)) return dumpFile;

  const db = await PgliteDatabase.open();
  try {
    await migrate(db);
    const dump = await db.pglite.dumpDataDir('none');
    await mkdir(cacheDir, { recursive: true });
    // Written aside and renamed, so a concurrent run never reads half a file.
    const partial = `${dumpFile}.${process.pid}.partial`;
    await writeFile(partial, Buffer.from(await dump.arrayBuffer()));
    await rename(partial, dumpFile);
    // Dumps of earlier migrations are of no further use.
    for (const file of await readdir(cacheDir)) {
      if (/^pglite-[0-9a-f]+\.tar$/.test(file) && `${cacheDir}${file}` !== dumpFile) await rm(`${cacheDir}${file}`, { force: true });
    }
  } finally {
    await db.close();
  }
  return dumpFile;
}

async function exists(file: string): Promise<boolean> {
  try {
    await stat(file);
    return true;
  } catch {
    return false;
  }
}
