// set_action_references and scan_context's action_references: the `uses:` references a scan stores for the
// next scan's read-ahead (lib/online/service.ts). Per user and repository, bounded, gone with the repository.

import { afterAll, beforeAll, expect, test } from 'vitest';
import { DatabaseError } from '../../lib/db/errors.js';
import { scanContext, setActionReferences, unlinkInstallation } from '../../lib/db/operations.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const REFS = ['actions/checkout@v4#', `actions/setup-node@${'a'.repeat(40)}#v4.0.2`];

test('stores and replaces the references of an owned repository; scan_context returns them ([] before)', async () => {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user, 2);
  const [repo, other] = [repositories[0]!, repositories[1]!];
  expect((await scanContext(t.db, user, repo.id))!.action_references).toEqual([]);
  expect(await setActionReferences(t.db, user, repo.id, REFS)).toEqual({ stored: true });
  expect((await scanContext(t.db, user, repo.id))!.action_references).toEqual(REFS);
  expect((await scanContext(t.db, user, other.id))!.action_references).toEqual([]);
  expect(await setActionReferences(t.db, user, repo.id, [REFS[1]!])).toEqual({ stored: true });
  expect((await scanContext(t.db, user, repo.id))!.action_references).toEqual([REFS[1]]);
  expect(await setActionReferences(t.db, user, repo.id, [])).toEqual({ stored: true });
  expect((await scanContext(t.db, user, repo.id))!.action_references).toEqual([]);
});

test("a user can neither set nor read another user's repository's references", async () => {
  const owner = await t.createUser();
  const stranger = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, owner, 1);
  const repo = repositories[0]!;
  await setActionReferences(t.db, owner, repo.id, REFS);
  expect(await setActionReferences(t.db, stranger, repo.id, ['evil/act@main#'])).toEqual({ stored: false });
  expect(await scanContext(t.db, stranger, repo.id)).toBeNull();
  expect((await scanContext(t.db, owner, repo.id))!.action_references).toEqual(REFS);
});

test('refuses anything but at most 500 strings of 1..400 characters (22023)', async () => {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user, 1);
  const repo = repositories[0]!;
  for (const refs of [Array.from({ length: 501 }, (_, i) => `o/r@v${i}#`), ['x'.repeat(401)], [''], [1], { a: 1 }] as unknown as string[][]) {
    const error = await setActionReferences(t.db, user, repo.id, refs).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(DatabaseError);
    expect((error as DatabaseError).sqlState).toBe('22023');
  }
  expect(await setActionReferences(t.db, user, repo.id, Array.from({ length: 500 }, (_, i) => `o/r@v${i}#`))).toEqual({ stored: true });
});

test('the references go with the repository (unlinking its installation)', async () => {
  const user = await t.createUser();
  const { installationId, repositories } = await userWithRepositories(t.db, user, 1);
  await setActionReferences(t.db, user, repositories[0]!.id, REFS);
  await unlinkInstallation(t.db, user, installationId);
  const left = await t.query('select count(*)::int as n from public.repository_action_references where user_id = $1', [user]);
  expect(left).toEqual([{ n: 0 }]);
});
