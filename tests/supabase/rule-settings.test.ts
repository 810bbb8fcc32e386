// Global rule preferences, per-repository overrides, and how they merge: the server functions behind the
// rule-settings and rule-overrides endpoints and the scan's rule filter.

import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseError } from '../../lib/db/errors.js';
import {
  clearRuleOverride,
  clearRuleSetting,
  effectiveRuleStates,
  listRuleOverrides,
  listRuleSettings,
  scanContext,
  setRuleOverride,
  setRuleSetting,
} from '../../lib/db/operations.js';
import type { Repository } from '../../lib/db/types.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

async function userWithRepository(): Promise<{ user: string; repo: Repository }> {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user, 1);
  return { user, repo: repositories[0]! };
}

async function rejection(promise: Promise<unknown>): Promise<DatabaseError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a rejection');
    },
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(DatabaseError);
  return error as DatabaseError;
}

describe('global settings', () => {
  test('set upserts, list returns the sparse rows by rule id, clear removes', async () => {
    const user = await t.createUser();
    expect(await listRuleSettings(t.db, user)).toEqual([]);
    const b = await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    const a = await setRuleSetting(t.db, user, 'excessive-permissions', true);
    expect(b).toEqual({ rule_id: 'pipe-to-shell', enabled: false, updated_at: expect.any(String) });
    expect(await listRuleSettings(t.db, user)).toEqual([a, b]);
    expect(await clearRuleSetting(t.db, user, 'pipe-to-shell')).toEqual({ deleted: true });
    expect(await listRuleSettings(t.db, user)).toEqual([a]);
  });

  test('an upsert replaces the value and moves updated_at forward', async () => {
    const user = await t.createUser();
    const first = await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await setRuleSetting(t.db, user, 'pipe-to-shell', true);
    expect(second.enabled).toBe(true);
    expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    expect(await listRuleSettings(t.db, user)).toEqual([second]);
  });

  test('clearing is idempotent', async () => {
    const user = await t.createUser();
    expect(await clearRuleSetting(t.db, user, 'never-set')).toEqual({ deleted: false });
    await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    expect(await clearRuleSetting(t.db, user, 'pipe-to-shell')).toEqual({ deleted: true });
    expect(await clearRuleSetting(t.db, user, 'pipe-to-shell')).toEqual({ deleted: false });
  });

  test("one user's settings never touch another's", async () => {
    const [alice, bob] = [await t.createUser(), await t.createUser()];
    await setRuleSetting(t.db, alice, 'pipe-to-shell', false);
    await clearRuleSetting(t.db, bob, 'pipe-to-shell');
    expect((await listRuleSettings(t.db, alice)).map((s) => s.rule_id)).toEqual(['pipe-to-shell']);
    expect(await listRuleSettings(t.db, bob)).toEqual([]);
  });

  test.each(['Pipe-To-Shell', 'rule id', '', 'x'.repeat(65), 'a/../b', 'rule\u0000'])('a malformed rule id %j is refused', async (ruleId) => {
    const user = await t.createUser();
    const error = await rejection(setRuleSetting(t.db, user, ruleId, false));
    expect(error.kind).toBe('internal');
    expect(await listRuleSettings(t.db, user)).toEqual([]);
  });
});

describe('overrides', () => {
  test('set upserts, list returns the repository overrides by rule id, clear removes', async () => {
    const { user, repo } = await userWithRepository();
    expect(await listRuleOverrides(t.db, user, repo.id)).toEqual([]);
    const first = await setRuleOverride(t.db, user, repo.id, 'pipe-to-shell', false);
    expect(first).toEqual({ rule_id: 'pipe-to-shell', enabled: false, updated_at: expect.any(String) });
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = await setRuleOverride(t.db, user, repo.id, 'pipe-to-shell', true);
    expect(Date.parse(second.updated_at)).toBeGreaterThan(Date.parse(first.updated_at));
    expect(await listRuleOverrides(t.db, user, repo.id)).toEqual([second]);
    expect(await clearRuleOverride(t.db, user, repo.id, 'pipe-to-shell')).toEqual({ deleted: true });
    expect(await clearRuleOverride(t.db, user, repo.id, 'pipe-to-shell')).toEqual({ deleted: false });
    expect(await listRuleOverrides(t.db, user, repo.id)).toEqual([]);
  });

  test('overrides belong to one repository', async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 2);
    await setRuleOverride(t.db, user, repositories[0]!.id, 'pipe-to-shell', false);
    expect(await listRuleOverrides(t.db, user, repositories[1]!.id)).toEqual([]);
  });

  test('a repository the user does not own is not found, distinctly, and nothing is written', async () => {
    const { user: owner, repo } = await userWithRepository();
    const stranger = await t.createUser();
    await setRuleOverride(t.db, owner, repo.id, 'pipe-to-shell', false);

    expect(await listRuleOverrides(t.db, stranger, repo.id)).toBeNull();
    expect((await rejection(setRuleOverride(t.db, stranger, repo.id, 'pipe-to-shell', true))).kind).toBe('not_found');
    expect((await rejection(clearRuleOverride(t.db, stranger, repo.id, 'pipe-to-shell'))).kind).toBe('not_found');
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await rejection(setRuleOverride(t.db, owner, unknown, 'pipe-to-shell', true))).kind).toBe('not_found');
    expect((await rejection(clearRuleOverride(t.db, owner, unknown, 'pipe-to-shell'))).kind).toBe('not_found');

    expect(await listRuleOverrides(t.db, owner, repo.id)).toEqual([{ rule_id: 'pipe-to-shell', enabled: false, updated_at: expect.any(String) }]);
  });
});

describe('merge precedence', () => {
  test('an override wins over the global preference, and absent means enabled', async () => {
    const { user, repo } = await userWithRepository();
    await setRuleSetting(t.db, user, 'global-off', false);
    await setRuleSetting(t.db, user, 'global-off-override-on', false);
    await setRuleOverride(t.db, user, repo.id, 'global-off-override-on', true);
    await setRuleSetting(t.db, user, 'global-on-override-off', true);
    await setRuleOverride(t.db, user, repo.id, 'global-on-override-off', false);
    await setRuleOverride(t.db, user, repo.id, 'override-off', false);
    await setRuleSetting(t.db, user, 'global-on', true);

    expect(await effectiveRuleStates(t.db, user, repo.id)).toEqual([
      { rule_id: 'global-off', enabled: false, source: 'global' },
      { rule_id: 'global-off-override-on', enabled: true, source: 'override' },
      { rule_id: 'global-on', enabled: true, source: 'global' },
      { rule_id: 'global-on-override-off', enabled: false, source: 'override' },
      { rule_id: 'override-off', enabled: false, source: 'override' },
    ]);
    expect((await scanContext(t.db, user, repo.id))!.disabled_rules).toEqual(['global-off', 'global-on-override-off', 'override-off']);
  });

  test('clearing the override makes the rule inherit the global setting again; clearing that makes it enabled', async () => {
    const { user, repo } = await userWithRepository();
    await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    await setRuleOverride(t.db, user, repo.id, 'pipe-to-shell', true);
    expect((await scanContext(t.db, user, repo.id))!.disabled_rules).toEqual([]);

    await clearRuleOverride(t.db, user, repo.id, 'pipe-to-shell');
    expect(await effectiveRuleStates(t.db, user, repo.id)).toEqual([{ rule_id: 'pipe-to-shell', enabled: false, source: 'global' }]);
    expect((await scanContext(t.db, user, repo.id))!.disabled_rules).toEqual(['pipe-to-shell']);

    await clearRuleSetting(t.db, user, 'pipe-to-shell');
    expect(await effectiveRuleStates(t.db, user, repo.id)).toEqual([]);
    expect((await scanContext(t.db, user, repo.id))!.disabled_rules).toEqual([]);
  });

  test("another repository's overrides and another user's settings do not apply", async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 2);
    const stranger = await t.createUser();
    await setRuleSetting(t.db, stranger, 'strangers-rule', false);
    await setRuleOverride(t.db, user, repositories[1]!.id, 'pipe-to-shell', false);
    expect(await effectiveRuleStates(t.db, user, repositories[0]!.id)).toEqual([]);
    expect((await scanContext(t.db, user, repositories[0]!.id))!.disabled_rules).toEqual([]);
  });

  test('scan_context returns the repository with its effective disabled rules, or null when not owned', async () => {
    const { user, repo } = await userWithRepository();
    await setRuleSetting(t.db, user, 'pipe-to-shell', false);
    expect(await scanContext(t.db, user, repo.id)).toEqual({ repository: repo, disabled_rules: ['pipe-to-shell'], rule_options: {}, rule_severities: {}, action_references: [], dismissed: [] });
    expect(await scanContext(t.db, await t.createUser(), repo.id)).toBeNull();
    expect(await effectiveRuleStates(t.db, await t.createUser(), repo.id)).toBeNull();
  });
});

describe('rule options (global settings)', () => {
  test('set stores options, null keeps them, {} clears them; rows without options have no key', async () => {
    const user = await t.createUser();
    const row = await setRuleSetting(t.db, user, 'forbidden-uses', true, { deny: ['docker://*'] });
    expect(row).toEqual({ rule_id: 'forbidden-uses', enabled: true, updated_at: expect.any(String), options: { deny: ['docker://*'] } });
    expect(await setRuleSetting(t.db, user, 'forbidden-uses', false)).toMatchObject({ enabled: false, options: { deny: ['docker://*'] } });
    await setRuleSetting(t.db, user, 'missing-timeout', false);
    expect(await listRuleSettings(t.db, user)).toEqual([
      { rule_id: 'forbidden-uses', enabled: false, updated_at: expect.any(String), options: { deny: ['docker://*'] } },
      { rule_id: 'missing-timeout', enabled: false, updated_at: expect.any(String) },
    ]);
    expect(await setRuleSetting(t.db, user, 'forbidden-uses', true, { allow: ['actions/*'] })).toMatchObject({ options: { allow: ['actions/*'] } });
    expect(await setRuleSetting(t.db, user, 'forbidden-uses', true, {})).toEqual({ rule_id: 'forbidden-uses', enabled: true, updated_at: expect.any(String) });
    const [stored] = await t.query<{ options: unknown }>(`select options from public.rule_settings where user_id = $1 and rule_id = 'forbidden-uses'`, [user]);
    expect(stored?.options).toBeNull();
  });

  test("scan_context carries the options of the user's global settings only", async () => {
    const { user, repo } = await userWithRepository();
    const stranger = await t.createUser();
    await setRuleSetting(t.db, stranger, 'forbidden-uses', true, { deny: ['strangers-pattern'] });
    expect((await scanContext(t.db, user, repo.id))!.rule_options).toEqual({});
    await setRuleSetting(t.db, user, 'unpinned-action', true, { 'trusted-owners': ['my-org'] });
    await setRuleSetting(t.db, user, 'forbidden-uses', false, { allow: ['actions/*'] });
    await setRuleSetting(t.db, user, 'missing-timeout', false);
    expect(await scanContext(t.db, user, repo.id)).toEqual({
      repository: repo,
      disabled_rules: ['forbidden-uses', 'missing-timeout'],
      rule_options: { 'forbidden-uses': { allow: ['actions/*'] }, 'unpinned-action': { 'trusted-owners': ['my-org'] } },
      rule_severities: {},
      action_references: [],
      dismissed: [],
    });
  });

  test('the table refuses options that are not an object or too large (the service bounds them far lower)', async () => {
    const user = await t.createUser();
    expect((await rejection(setRuleSetting(t.db, user, 'forbidden-uses', true, ['docker://*'] as never))).sqlState).toBe('23514');
    expect((await rejection(setRuleSetting(t.db, user, 'forbidden-uses', true, { deny: ['x'.repeat(70_000)] }))).sqlState).toBe('23514');
    expect(await listRuleSettings(t.db, user)).toEqual([]);
  });

  test('an unknown user still gets 28000 with options', async () => {
    expect((await rejection(setRuleSetting(t.db, randomUUID(), 'forbidden-uses', true, { deny: ['a'] }))).sqlState).toBe('28000');
  });
});

describe('rule severities (global settings and overrides)', () => {
  test("scan_context carries the effective severity: the repository's override, else the global one, the user's only", async () => {
    const user = await t.createUser();
    const { repositories } = await userWithRepositories(t.db, user, 2);
    const [repo, second] = repositories as [Repository, Repository];
    const other = await userWithRepository();
    await setRuleSetting(t.db, other.user, 'missing-timeout', true, undefined, 'HIGH');
    expect((await scanContext(t.db, user, repo.id))!.rule_severities).toEqual({});
    await setRuleSetting(t.db, user, 'missing-timeout', true, undefined, 'HIGH');
    await setRuleSetting(t.db, user, 'unpinned-action', true, undefined, 'LOW');
    await setRuleOverride(t.db, user, repo.id, 'unpinned-action', true, 'INFO');
    await setRuleOverride(t.db, user, repo.id, 'pipe-to-shell', true, 'MEDIUM');
    // An override without a severity (only enabled) leaves the global severity in force.
    await setRuleOverride(t.db, user, repo.id, 'missing-timeout', true);
    expect((await scanContext(t.db, user, repo.id))!.rule_severities).toEqual({ 'missing-timeout': 'HIGH', 'pipe-to-shell': 'MEDIUM', 'unpinned-action': 'INFO' });
    // Another repository of the user has the global severities only.
    expect((await scanContext(t.db, user, second.id))!.rule_severities).toEqual({ 'missing-timeout': 'HIGH', 'unpinned-action': 'LOW' });
    // null clears (the rule's own severity); undefined keeps.
    await setRuleOverride(t.db, user, repo.id, 'unpinned-action', false, null);
    await setRuleSetting(t.db, user, 'missing-timeout', false);
    expect((await scanContext(t.db, user, repo.id))!.rule_severities).toEqual({ 'missing-timeout': 'HIGH', 'pipe-to-shell': 'MEDIUM', 'unpinned-action': 'LOW' });
  });

  test('the tables refuse a severity outside HIGH, MEDIUM, LOW, INFO', async () => {
    const { user, repo } = await userWithRepository();
    expect((await rejection(setRuleSetting(t.db, user, 'missing-timeout', true, undefined, 'CRITICAL' as never))).sqlState).toBe('23514');
    expect((await rejection(setRuleOverride(t.db, user, repo.id, 'missing-timeout', true, 'high' as never))).sqlState).toBe('23514');
    expect(await listRuleSettings(t.db, user)).toEqual([]);
  });
});
