// The Postgres adapter on a real server: how calls are made, and how failures of the server or the network
// become DatabaseError kinds.

import { createServer, type Server } from 'node:net';
import { afterAll, beforeAll, beforeEach, expect, test } from 'vitest';
import { DatabaseError } from '../../../lib/db/errors.js';
import { listRuleSettings, setRuleSetting } from '../../../lib/db/operations.js';
import { PostgresDatabase } from '../../../lib/db/postgres.js';
import { openTestDatabase, REAL_SERVER_ONLY, testDatabaseTarget, type TestDatabase } from '../../support/db.js';

const onRealServer = testDatabaseTarget.kind === 'postgres';
const url = testDatabaseTarget.kind === 'postgres' ? testDatabaseTarget.url : '';

let t: TestDatabase;
beforeAll(async () => {
  if (onRealServer) t = await openTestDatabase();
});
afterAll(async () => {
  if (onRealServer) await t.close();
});
beforeEach(({ skip }) => {
  skip(!onRealServer, REAL_SERVER_ONLY);
});

async function failure(promise: Promise<unknown>): Promise<DatabaseError> {
  const error = await promise.catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DatabaseError);
  return error as DatabaseError;
}

test('calls functions by named arguments and returns their JSON', async () => {
  const user = await t.createUser();
  const db = new PostgresDatabase({ connectionString: url, maxConnections: 2 });
  try {
    await Promise.all([setRuleSetting(db, user, 'b-rule', false), setRuleSetting(db, user, 'a-rule', true)]);
    expect((await listRuleSettings(db, user)).map((s) => [s.rule_id, s.enabled])).toEqual([
      ['a-rule', true],
      ['b-rule', false],
    ]);
    expect(await db.call('get_repository', { p_user_id: user, p_repository_id: '00000000-0000-4000-8000-000000000000' })).toBeNull();
  } finally {
    await db.close();
  }
});

test('refuses names that are not plain identifiers before anything reaches the server', async () => {
  await expect(t.db.call('list_rule_settings(); drop table x; --', {})).rejects.toThrow(TypeError);
  await expect(t.db.call('list_rule_settings', { 'p_user_id => null); --': 1 })).rejects.toThrow(TypeError);
});

test('an unreachable server is unavailable', async () => {
  const closed = await new Promise<Server>((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
  const { port } = closed.address() as { port: number };
  await new Promise((resolve) => closed.close(resolve));
  const db = new PostgresDatabase({ connectionString: `postgres://postgres@127.0.0.1:${port}/none`, connectionTimeoutMs: 1_000 });
  try {
    expect((await failure(listRuleSettings(db, '00000000-0000-4000-8000-000000000000'))).kind).toBe('unavailable');
  } finally {
    await db.close();
  }
});

test('a server that accepts but never answers is unavailable after the connection timeout', async () => {
  const silent = await new Promise<Server>((resolve) => {
    const server = createServer(() => {});
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
  const { port } = silent.address() as { port: number };
  const db = new PostgresDatabase({ connectionString: `postgres://postgres@127.0.0.1:${port}/none`, connectionTimeoutMs: 200 });
  try {
    expect((await failure(listRuleSettings(db, '00000000-0000-4000-8000-000000000000'))).kind).toBe('unavailable');
  } finally {
    await db.close();
    silent.close();
  }
});

test('a statement over the time limit is unavailable, and the pool recovers', async () => {
  const user = await t.createUser();
  // Long enough that the recovering upsert finishes in time on a loaded machine (50 ms failed once, at a load of
  // 2 cores running a test suite and six other processes), short enough to keep the test quick: the blocked upsert
  // waits for the lock until the limit.
  const db = new PostgresDatabase({ connectionString: url, maxConnections: 1, statementTimeoutMs: 500 });
  try {
    // Hold the user's settings row lock from another connection so the upsert has to wait.
    await setRuleSetting(t.db, user, 'pipe-to-shell', true);
    await t.db.transaction(async (tx) => {
      await tx.query(`select 1 from public.rule_settings where user_id = $1 for update`, [user]);
      const error = await failure(setRuleSetting(db, user, 'pipe-to-shell', false));
      expect(error).toMatchObject({ kind: 'unavailable', sqlState: '57014' });
    });
    expect((await setRuleSetting(db, user, 'pipe-to-shell', false)).enabled).toBe(false);
  } finally {
    await db.close();
  }
});
