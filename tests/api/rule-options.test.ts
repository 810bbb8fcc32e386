// Per-rule options in the user's rule settings (issues 15 and 17): PUT /api/rule-settings/{rule_id} with
// `options`, read back by GET, validated against the rule's own schema, and applied by POST /api/scan.

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as REPOS } from '../../api/repos.js';
import { GET } from '../../api/rule-settings/index.js';
import { PUT } from '../../api/rule-settings/[rule_id].js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterEach(() => useCodeHost(examplesCodeHost()));
afterAll(async () => t.close());

interface Setting {
  rule_id: string;
  enabled: boolean;
  updated_at: string;
  options?: Record<string, unknown>;
}

async function settingsOf(userId: string): Promise<Setting[]> {
  const response = await GET(await apiRequest('GET', '/api/rule-settings', { authorization: await bearer(userId) }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { settings: Setting[] }).settings;
}

const put = async (userId: string, ruleId: string, body: unknown) =>
  PUT(await apiRequest('PUT', `/api/rule-settings/${ruleId}`, { authorization: await bearer(userId), body }));

describe('rule settings with options', () => {
  it('stores options, shows them, keeps them when only enabled changes, and clears them with {}', async () => {
    const user = await t.createUser();
    expect((await put(user, 'forbidden-uses', { enabled: true, options: { deny: ['docker://*', 'evil-org'] } })).status).toBe(204);
    expect((await put(user, 'missing-timeout', { enabled: false })).status).toBe(204);
    expect(await settingsOf(user)).toEqual([
      { rule_id: 'forbidden-uses', enabled: true, updated_at: expect.any(String), options: { deny: ['docker://*', 'evil-org'] } },
      // No options: no key, as before this addition.
      { rule_id: 'missing-timeout', enabled: false, updated_at: expect.any(String) },
    ]);
    // A client that only toggles the rule (the web client) does not erase the policy.
    expect((await put(user, 'forbidden-uses', { enabled: false })).status).toBe(204);
    expect((await settingsOf(user))[0]).toMatchObject({ enabled: false, options: { deny: ['docker://*', 'evil-org'] } });
    expect((await put(user, 'forbidden-uses', { enabled: true, options: { allow: ['actions/*'] } })).status).toBe(204);
    expect((await settingsOf(user))[0]?.options).toEqual({ allow: ['actions/*'] });
    expect((await put(user, 'forbidden-uses', { enabled: true, options: {} })).status).toBe(204);
    expect((await settingsOf(user))[0]).toEqual({ rule_id: 'forbidden-uses', enabled: true, updated_at: expect.any(String) });
  });

  it.each([
    ['an unknown option, with a suggestion', 'pipe-to-shell', { 'trusted-host': ['x.test'] }, ['options'], 'unknown option "trusted-host" (did you mean "trusted-hosts"?)'],
    ['both lists', 'forbidden-uses', { allow: ['a'], deny: ['b'] }, ['options'], 'not both'],
    ['a list that is a string', 'forbidden-uses', { deny: 'docker://*' }, ['options', 'deny'], 'must be a list of uses patterns'],
    ['a bad pattern', 'forbidden-uses', { deny: ['a b'] }, ['options', 'deny', '0'], 'is not a uses pattern'],
    ['too many patterns', 'forbidden-uses', { deny: Array.from({ length: 101 }, (_, i) => `o${i}`) }, ['options', 'deny'], 'at most 100 entries'],
    ['too long a pattern', 'forbidden-uses', { deny: [`a/${'b'.repeat(199)}`] }, ['options', 'deny', '0'], 'at most 200 characters'],
    ['a URL for an owner', 'unpinned-action', { 'trusted-owners': ['https://github.com/x'] }, ['options', 'trusted-owners', '0'], 'is not a GitHub owner'],
    ['options for a rule without options', 'missing-timeout', { minutes: 5 }, ['options'], 'this rule takes no options'],
    ['options that are a list', 'forbidden-uses', ['docker://*'], ['options', '0'], 'must be a mapping of option names to values, not a list'],
    ['options that are a string', 'forbidden-uses', 'deny', ['options'], 'must be a mapping of option names to values'],
  ])('rejects %s with 400 naming the option, storing nothing', async (_what, ruleId, options, path, message) => {
    const user = await t.createUser();
    const response = await put(user, ruleId, { enabled: true, options });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    const details = error.details as { location: string; path: unknown[]; message: string }[];
    expect(details[0]).toMatchObject({ location: 'body', path });
    expect(`${error.message} ${details[0]?.message ?? ''}`).toContain(message);
    expect(await settingsOf(user)).toEqual([]);
  });

  it('a rejected PUT leaves the stored options as they were', async () => {
    const user = await t.createUser();
    await put(user, 'forbidden-uses', { enabled: true, options: { deny: ['evil-org'] } });
    expect((await put(user, 'forbidden-uses', { enabled: true, options: { deny: ['evil-org'], allow: ['x'] } })).status).toBe(400);
    expect((await settingsOf(user))[0]?.options).toEqual({ deny: ['evil-org'] });
  });

  it('refuses options with a __proto__, constructor or prototype key with 400 instead of dropping it', async () => {
    const user = await t.createUser();
    await put(user, 'forbidden-uses', { enabled: true, options: { deny: ['evil-org'] } });
    for (const body of [
      '{"enabled": true, "options": {"deny": ["x"], "__proto__": {"allow": ["evil"]}}}',
      '{"enabled": true, "options": {"deny": ["x"], "constructor": {"prototype": {"deny": []}}}}',
      '{"enabled": true, "options": {"deny": ["x"], "prototype": 1}}',
    ]) {
      const response = await put(user, 'forbidden-uses', body);
      expect(response.status, body).toBe(400);
      expect((await errorOf(response)).message).toMatch(/has the key "(__proto__|constructor|prototype)"/);
    }
    expect((await settingsOf(user))[0]?.options).toEqual({ deny: ['evil-org'] });
    // A value that merely spells one is a value like any other.
    expect((await put(user, 'forbidden-uses', { enabled: true, options: { deny: ['constructor'] } })).status).toBe(204);
  });
});

describe('POST /api/scan applies the options of the rule settings', () => {
  async function examplesUser() {
    useCodeHost(examplesCodeHost());
    const { userId } = await githubUser(t);
    const authorization = await bearer(userId);
    expect((await CALLBACK(await apiRequest('GET', '/api/github/callback?installation_id=1', { authorization }))).status).toBe(200);
    const listed = (await (await REPOS(await apiRequest('GET', '/api/repos', { authorization }))).json()) as { repositories: { id: string; full_name: string }[] };
    return { userId, authorization, triage: listed.repositories.find((r) => r.full_name === 'examples/issue-triage-bot')?.id ?? '' };
  }
  const scan = async (authorization: string, repo: string) => {
    const response = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } }));
    expect(response.status).toBe(200);
    return ((await response.json()) as { findings: { rule_id: string; description: string; line: number }[] }).findings;
  };

  it('forbids nothing without a policy, reports what a deny-list names, and trusted owners silence unpinned-action', async () => {
    const { userId, authorization, triage } = await examplesUser();
    const before = await scan(authorization, triage);
    expect(before.filter((f) => f.rule_id === 'forbidden-uses')).toEqual([]);
    const unpinnedBefore = before.filter((f) => f.rule_id === 'unpinned-action' && f.description.includes('`actions/'));
    expect(unpinnedBefore.length).toBeGreaterThan(0);

    expect((await put(userId, 'forbidden-uses', { enabled: true, options: { deny: ['actions/checkout'] } })).status).toBe(204);
    expect((await put(userId, 'unpinned-action', { enabled: true, options: { 'trusted-owners': ['actions'] } })).status).toBe(204);
    const after = await scan(authorization, triage);
    const forbidden = after.filter((f) => f.rule_id === 'forbidden-uses');
    expect(forbidden.length).toBeGreaterThan(0);
    expect(forbidden.every((f) => f.description.includes('`actions/checkout@') && f.description.includes("deny-list"))).toBe(true);
    expect(after.filter((f) => f.rule_id === 'unpinned-action' && f.description.includes('`actions/'))).toEqual([]);

    // Turning the rule off wins over its options.
    expect((await put(userId, 'forbidden-uses', { enabled: false })).status).toBe(204);
    expect((await scan(authorization, triage)).filter((f) => f.rule_id === 'forbidden-uses')).toEqual([]);
  });

  it('refuses to scan with stored options the rule no longer takes, saying what to change, rather than dropping the policy', async () => {
    const { userId, authorization, triage } = await examplesUser();
    // As if stored under an older, looser schema.
    await t.query(`insert into public.rule_settings (user_id, rule_id, enabled, options) values ($1, 'forbidden-uses', true, '{"deny": ["docker://*"], "mode": "strict"}')`, [userId]);
    const response = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: triage } }));
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toContain('PUT /api/rule-settings/forbidden-uses');
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.scans where repository_id = $1', [triage]);
    expect(row?.n).toBe(0);
  });

  it('ignores stored options of a rule id this version does not have', async () => {
    const { userId, authorization, triage } = await examplesUser();
    await t.query(`insert into public.rule_settings (user_id, rule_id, enabled, options) values ($1, 'retired-rule', true, '{"deny": ["x"]}')`, [userId]);
    expect((await scan(authorization, triage)).length).toBeGreaterThan(0);
  });
});
