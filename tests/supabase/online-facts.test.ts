// online_facts_get / online_facts_put: the online audits' cache shared across users and installations.

import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { migrate, SUPABASE_DIR } from '../../lib/db/migrate.js';
import { PgliteDatabase } from '../../lib/db/pglite.js';
import { DatabaseError } from '../../lib/db/errors.js';
import { onlineFactsGet, onlineFactsPut } from '../../lib/db/operations.js';
import { DatabaseFactCache } from '../../lib/online/db-cache.js';
import { auditRepository, BudgetedReader, type GitHubReader } from '../../lib/online/index.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const unique = () => `t${Math.random().toString(36).slice(2)}`;

test('stores facts with a time to live and returns only the live ones', async () => {
  const ns = unique();
  await onlineFactsPut(t.db, [
    { key: `tags:${ns}/a`, value: { items: [['v1', 'abc']], complete: true }, ttl_seconds: 3600 },
    { key: `commit:${ns}/a@abc`, value: { member: true }, ttl_seconds: 3600 },
    { key: `repo:${ns}/old`, value: 'main', ttl_seconds: 3600 },
  ]);
  await t.query(`update public.online_facts set expires_at = now() - interval '1 second' where key = $1`, [`repo:${ns}/old`]);
  const facts = await onlineFactsGet(t.db, [`tags:${ns}/a`, `commit:${ns}/a@abc`, `repo:${ns}/old`, `repo:${ns}/missing`]);
  expect(facts).toEqual({ [`tags:${ns}/a`]: { items: [['v1', 'abc']], complete: true }, [`commit:${ns}/a@abc`]: { member: true } });
});

test('a later put of the same key wins, also within one batch; null values are facts too', async () => {
  const ns = unique();
  await onlineFactsPut(t.db, [{ key: `tag:${ns}/a@v1`, value: 'one', ttl_seconds: 60 }]);
  expect(await onlineFactsPut(t.db, [{ key: `tag:${ns}/a@v1`, value: 'two', ttl_seconds: 60 }, { key: `tag:${ns}/a@v1`, value: null, ttl_seconds: 60 }])).toEqual({ stored: 1 });
  expect(await onlineFactsGet(t.db, [`tag:${ns}/a@v1`])).toEqual({ [`tag:${ns}/a@v1`]: null });
});

test('refuses what is not a bounded array of facts', async () => {
  await expect(onlineFactsPut(t.db, {} as never)).rejects.toBeInstanceOf(DatabaseError);
  const many = Array.from({ length: 2001 }, (_, i) => ({ key: `k${i}`, value: 1, ttl_seconds: 1 }));
  await expect(onlineFactsPut(t.db, many)).rejects.toBeInstanceOf(DatabaseError);
});

test('neither browser role may call the functions or read the table', async () => {
  const user = await t.createUser();
  for (const sql of [`select public.online_facts_get('["a"]')`, `select public.online_facts_put('[]')`, 'select * from public.online_facts']) {
    const code = await t.as('authenticated', user, (tx) => tx.query(sql)).then(
      () => 'ok',
      (error: unknown) => (error as { code?: string }).code,
    );
    expect(code, sql).toBe('42501');
  }
});

test('two scans (of different users) share facts: the second asks GitHub nothing', async () => {
  const owner = unique();
  const sha = 'a'.repeat(40);
  const requests: string[] = [];
  const github: GitHubReader = {
    get: (path) => {
      requests.push(path);
      // GitHub's repository answer says whether it is public; only then are its facts shared.
      if (path === `/repos/${owner}/action`) return Promise.resolve({ status: 200, remaining: 4000, body: { id: 1, full_name: `${owner}/action`, private: false, visibility: 'public', default_branch: 'main' } });
      return Promise.resolve({ status: 200, remaining: 4000, body: [{ name: 'v1.0.0', commit: { sha } }] });
    },
  };
  const files = [{ path: '.github/workflows/ci.yml', text: `jobs:\n  a:\n    steps:\n      - uses: ${owner}/action@${sha} # v1.0.0\n` }];
  const cache = new DatabaseFactCache(t.db);
  // A REST-only reader cannot ask the Advisory Database or the archived flags (GraphQL only; that would be
  // unassessed): the pin facts only.
  const isEnabled = (id: string) => id !== 'known-vulnerable-action' && id !== 'archived-action';
  expect((await auditRepository(files, { reader: new BudgetedReader(github), cache, isEnabled })).records).toEqual([]);
  // The tags over REST, then (GraphQL's isPrivate not being there) the repository, to learn it is public.
  expect(requests).toEqual([`/repos/${owner}/action/tags?per_page=100&page=1`, `/repos/${owner}/action`]);
  expect((await auditRepository(files, { reader: new BudgetedReader(github), cache: new DatabaseFactCache(t.db), isEnabled })).records).toEqual([]);
  expect(requests).toHaveLength(2);
});

test('the migration that keeps only public facts empties what an earlier version stored', async () => {
  const copy = await mkdtemp(join(tmpdir(), 'chainbreaker-supabase-'));
  const db = await PgliteDatabase.open();
  try {
    await cp(SUPABASE_DIR, copy, { recursive: true });
    const purge = (await readdir(join(copy, 'migrations'))).find((name) => name.endsWith('_online_facts_public_only.sql'));
    expect(purge).toBeDefined();
    const text = await readFile(join(copy, 'migrations', purge!), 'utf8');
    await rm(join(copy, 'migrations', purge!));
    const dir = pathToFileURL(`${copy}/`);
    await migrate(db, { supabaseDir: dir });
    await onlineFactsPut(db, [{ key: 'branches:acme/private-action', value: { items: [['release', 'a'.repeat(40)]], complete: true }, ttl_seconds: 3600 }]);
    expect(Object.keys(await onlineFactsGet(db, ['branches:acme/private-action']))).toHaveLength(1);
    await writeFile(join(copy, 'migrations', purge!), text);
    await migrate(db, { supabaseDir: dir });
    expect(await onlineFactsGet(db, ['branches:acme/private-action'])).toEqual({});
  } finally {
    await db.close();
    await rm(copy, { recursive: true, force: true });
  }
});
