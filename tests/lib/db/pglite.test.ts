// The embedded adapter: the zero-configuration database of `npm run dev`, created through the same factory
// lib/env.ts's configuration feeds.

import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { createDatabase, DatabaseError, listRuleSettings, setRuleOverride, setRuleSetting } from '../../../lib/db/index.js';
import { migrate } from '../../../lib/db/migrate.js';
import { PgliteDatabase } from '../../../lib/db/pglite.js';

let dataDir: string;
beforeAll(async () => {
  dataDir = join(await mkdtemp(join(tmpdir(), 'chainbreaker-pglite-')), 'nested', 'data');
});
afterAll(() => rm(join(dataDir, '..', '..'), { recursive: true, force: true }));

// Creating an on-disk database, migrating it and opening it again takes ~10 s idle and near 30 s when the
// suite shares 2 cores: a liveness ceiling, not a timing claim.
test('createDatabase opens the data directory migrated, and what is written there survives a restart', { timeout: 120_000 }, async () => {
  const user = '7b0c1c3e-8a5f-4a57-9f3c-1d2e3f405162';
  const first = await createDatabase({ kind: 'pglite', dataDir });
  try {
    await (first as PgliteDatabase).transaction((tx) => tx.query('insert into auth.users (id, email) values ($1, $2)', [user, 'dev@example.test']));
    await setRuleSetting(first, user, 'pipe-to-shell', false);
  } finally {
    await first.close();
  }

  const second = await PgliteDatabase.open({ dataDir });
  try {
    expect((await migrate(second)).applied).toEqual([]);
    expect((await listRuleSettings(second, user)).map((s) => [s.rule_id, s.enabled])).toEqual([['pipe-to-shell', false]]);
    const error = await setRuleOverride(second, user, '00000000-0000-4000-8000-000000000000', 'pipe-to-shell', true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    expect(error).toMatchObject({ kind: 'not_found', sqlState: 'P0002' });
  } finally {
    await second.close();
  }
});
