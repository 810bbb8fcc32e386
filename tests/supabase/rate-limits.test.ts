// consume_rate_limit: the per-user scan limit that holds across function instances.

import { afterAll, beforeAll, expect, test } from 'vitest';
import { DatabaseError } from '../../lib/db/errors.js';
import { consumeRateLimit } from '../../lib/db/operations.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const scan = { bucket: 'scan', limit: 3, windowSeconds: 60 };

test('allows `limit` calls per window, then refuses with the seconds until the window ends', async () => {
  const user = await t.createUser();
  const decisions = [];
  for (let i = 0; i < 5; i++) decisions.push(await consumeRateLimit(t.db, user, scan));
  expect(decisions.map((d) => [d.allowed, d.remaining])).toEqual([
    [true, 2],
    [true, 1],
    [true, 0],
    [false, 0],
    [false, 0],
  ]);
  expect(decisions.slice(0, 3).every((d) => d.retry_after_seconds === 0)).toBe(true);
  for (const refused of decisions.slice(3)) {
    expect(refused.retry_after_seconds).toBeGreaterThanOrEqual(59);
    expect(refused.retry_after_seconds).toBeLessThanOrEqual(60);
    expect(refused.limit).toBe(3);
  }
  expect(new Set(decisions.map((d) => d.reset_at)).size).toBe(1);
});

test('a new window starts once the old one has passed', async () => {
  const user = await t.createUser();
  for (let i = 0; i < 4; i++) await consumeRateLimit(t.db, user, scan);
  await t.query(`update public.rate_limits set window_started_at = now() - interval '61 seconds' where user_id = $1`, [user]);
  const next = await consumeRateLimit(t.db, user, scan);
  expect(next).toMatchObject({ allowed: true, remaining: 2, retry_after_seconds: 0 });
});

test('the retry time shrinks as the window runs out', async () => {
  const user = await t.createUser();
  for (let i = 0; i < 3; i++) await consumeRateLimit(t.db, user, scan);
  await t.query(`update public.rate_limits set window_started_at = now() - interval '50 seconds' where user_id = $1`, [user]);
  const refused = await consumeRateLimit(t.db, user, scan);
  expect(refused.allowed).toBe(false);
  expect(refused.retry_after_seconds).toBeGreaterThanOrEqual(9);
  expect(refused.retry_after_seconds).toBeLessThanOrEqual(10);
});

test('users and buckets are counted separately', async () => {
  const [alice, bob] = [await t.createUser(), await t.createUser()];
  for (let i = 0; i < 3; i++) await consumeRateLimit(t.db, alice, scan);
  expect((await consumeRateLimit(t.db, alice, scan)).allowed).toBe(false);
  expect((await consumeRateLimit(t.db, bob, scan)).allowed).toBe(true);
  expect((await consumeRateLimit(t.db, alice, { ...scan, bucket: 'sync' })).allowed).toBe(true);
});

test('refused calls do not grow the count without bound', async () => {
  const user = await t.createUser();
  for (let i = 0; i < 10; i++) await consumeRateLimit(t.db, user, scan);
  const [row] = await t.query<{ used: number }>('select used from public.rate_limits where user_id = $1', [user]);
  expect(row!.used).toBe(4);
});

test.each([
  { limit: 0, windowSeconds: 60 },
  { limit: 3, windowSeconds: 0 },
])('a non-positive limit or window is refused: %o', async (bad) => {
  const user = await t.createUser();
  const error = await consumeRateLimit(t.db, user, { bucket: 'scan', ...bad }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(DatabaseError);
  expect((error as DatabaseError).sqlState).toBe('22023');
});
