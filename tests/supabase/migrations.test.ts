// The migration runner and `npm run db:migrate`: a fresh database takes the migrations twice, edits to an
// applied migration are refused, and a failing migration applies nothing.

import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, mkdtemp, rm, writeFile, readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { migrate, MigrationError, readMigrations, SUPABASE_DIR } from '../../lib/db/migrate.js';
import { PgliteDatabase } from '../../lib/db/pglite.js';
import { PostgresDatabase } from '../../lib/db/postgres.js';
import { openTestDatabase, REAL_SERVER_ONLY, testDatabaseTarget, type TestDatabase } from '../support/db.js';

const run = promisify(execFile);
const onRealServer = testDatabaseTarget.kind === 'postgres';

let expected: string[];
beforeAll(async () => {
  expected = (await readMigrations()).map((m) => `${m.version}_${m.name}`);
  expect(expected.length).toBeGreaterThan(0);
});

/** A copy of supabase/ to edit. */
async function supabaseCopy(): Promise<{ dir: URL; path: string; remove: () => Promise<void> }> {
  const path = await mkdtemp(join(tmpdir(), 'chainbreaker-supabase-'));
  await cp(SUPABASE_DIR, path, { recursive: true });
  return { dir: pathToFileURL(`${path}/`), path, remove: () => rm(path, { recursive: true, force: true }) };
}

test('a fresh embedded database takes the migrations twice, recording each once with its checksum', async () => {
  const db = await PgliteDatabase.open();
  try {
    expect(await migrate(db)).toEqual({ applied: expected, alreadyApplied: [] });
    expect(await migrate(db)).toEqual({ applied: [], alreadyApplied: expected });
    const recorded = await db.transaction((tx) =>
      tx.query<{ version: string; name: string; checksum: string }>('select version, name, checksum from chainbreaker_migrations.schema_migrations order by version'),
    );
    const migrations = await readMigrations();
    expect(recorded).toEqual(migrations.map((m) => ({ version: m.version, name: m.name, checksum: m.checksum })));
  } finally {
    await db.close();
  }
});

describe('on the shared test database', () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase();
  });
  afterAll(() => t.close());

  test('an applied migration that was edited afterwards is refused', async () => {
    const copy = await supabaseCopy();
    try {
      const [first] = (await readdir(join(copy.path, 'migrations'))).sort();
      const file = join(copy.path, 'migrations', first!);
      await writeFile(file, `${await readFile(file, 'utf8')}\n-- an afterthought\n`);
      const error = await migrate(t.db, { supabaseDir: copy.dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(/was changed after it was applied/);
    } finally {
      await copy.remove();
    }
  });

  test('a failing migration applies nothing, not even the pending ones before it', async () => {
    const copy = await supabaseCopy();
    const table = `marker_${randomBytes(4).toString('hex')}`;
    try {
      await writeFile(join(copy.path, 'migrations', '20991231000000_first.sql'), `create table public.${table} (id int);`);
      await writeFile(join(copy.path, 'migrations', '20991231000001_broken.sql'), 'create tabel oops;');
      const error = await migrate(t.db, { supabaseDir: copy.dir }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(MigrationError);
      expect((error as Error).message).toMatch(/^Migration 20991231000001_broken failed/);
      const [row] = await t.query<{ table: string | null; recorded: number }>(
        `select to_regclass($1)::text as table,
                (select count(*)::int from chainbreaker_migrations.schema_migrations where version like '2099%') as recorded`,
        [`public.${table}`],
      );
      expect(row).toEqual({ table: null, recorded: 0 });
    } finally {
      await copy.remove();
    }
  });

  test('a migration file named otherwise is refused', async () => {
    const copy = await supabaseCopy();
    try {
      await writeFile(join(copy.path, 'migrations', 'add-things.sql'), 'select 1;');
      await expect(migrate(t.db, { supabaseDir: copy.dir })).rejects.toThrow(/expected <14-digit timestamp>_<snake_case_name>\.sql/);
    } finally {
      await copy.remove();
    }
  });
});

describe('on a fresh database of the real server', () => {
  const serverUrl = process.env.TEST_DATABASE_URL ?? '';
  const databases: string[] = [];

  async function freshDatabase(): Promise<string> {
    const name = `chainbreaker_test_${Math.floor(Date.now() / 1000)}_${randomBytes(4).toString('hex')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`).finally(() => admin.end());
    databases.push(name);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    return url.toString();
  }

  afterAll(async () => {
    if (databases.length === 0) return;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    for (const name of databases) await admin.query(`drop database if exists ${name} with (force)`);
    await admin.end();
  });

  test('`npm run db:migrate` succeeds twice', async ({ skip }) => {
    skip(!onRealServer, REAL_SERVER_ONLY);
    const url = await freshDatabase();
    const env = { ...process.env, DATABASE_URL: url };
    const first = await run('npm', ['run', '--silent', 'db:migrate'], { env });
    expect(first.stdout).toContain(`${expected.length} applied, 0 already applied`);
    const second = await run('npm', ['run', '--silent', 'db:migrate'], { env });
    expect(second.stdout).toContain(`0 applied, ${expected.length} already applied`);
    expect(second.stdout).not.toContain('postgres:@');
  });

  test('concurrent runs against one database queue up behind the lock; each migration applies once', async ({ skip }) => {
    skip(!onRealServer, REAL_SERVER_ONLY);
    const url = await freshDatabase();
    const dbs = [0, 1, 2].map(() => new PostgresDatabase({ connectionString: url, maxConnections: 1, statementTimeoutMs: 0 }));
    try {
      const reports = await Promise.all(dbs.map((db) => migrate(db)));
      expect(reports.map((r) => r.applied.length).sort()).toEqual([0, 0, expected.length]);
    } finally {
      await Promise.all(dbs.map((db) => db.close()));
    }
  });
});
