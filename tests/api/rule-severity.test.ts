// A rule's severity in the user's rule settings (issue 27, item 5): `severity` in PUT /api/rule-settings/{rule_id}
// and PUT /api/repositories/{repo_id}/rule-overrides/{rule_id}, read back by the GETs, validated, and applied by
// POST /api/scan as the CLI's `rules.<id>.severity` is (the repository's override over the global setting).

import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as COMBOS } from '../../api/repositories/[repo_id]/combos.js';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as REPOS } from '../../api/repos.js';
import { GET as LIST_OVERRIDES } from '../../api/repositories/[repo_id]/rule-overrides/index.js';
import { DELETE as DELETE_OVERRIDE, PUT as PUT_OVERRIDE } from '../../api/repositories/[repo_id]/rule-overrides/[rule_id].js';
import { GET } from '../../api/rule-settings/index.js';
import { PUT } from '../../api/rule-settings/[rule_id].js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterEach(() => useCodeHost(examplesCodeHost()));
afterAll(async () => t.close());

interface Row {
  rule_id: string;
  enabled: boolean;
  updated_at: string;
  severity?: string;
  options?: unknown;
}

const putGlobal = async (authorization: string, ruleId: string, body: unknown) => PUT(await apiRequest('PUT', `/api/rule-settings/${ruleId}`, { authorization, body }));
const putOverride = async (authorization: string, repo: string, ruleId: string, body: unknown) =>
  PUT_OVERRIDE(await apiRequest('PUT', `/api/repositories/${repo}/rule-overrides/${ruleId}`, { authorization, body }));
async function settings(authorization: string): Promise<Row[]> {
  const response = await GET(await apiRequest('GET', '/api/rule-settings', { authorization }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { settings: Row[] }).settings;
}
async function overrides(authorization: string, repo: string): Promise<Row[]> {
  const response = await LIST_OVERRIDES(await apiRequest('GET', `/api/repositories/${repo}/rule-overrides`, { authorization }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { overrides: Row[] }).overrides;
}
async function owner() {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user);
  return { user, repo: repositories[0]?.id ?? '', authorization: await bearer(user) };
}

describe('severity in the rule settings', () => {
  it('stores a global severity, keeps it when only enabled or options change, and clears it with null', async () => {
    const { authorization } = await owner();
    expect((await putGlobal(authorization, 'unpinned-action', { enabled: true, severity: 'LOW' })).status).toBe(204);
    expect(await settings(authorization)).toEqual([{ rule_id: 'unpinned-action', enabled: true, updated_at: expect.any(String), severity: 'LOW' }]);
    // A client that only toggles the rule, or only sets options, does not erase the severity.
    expect((await putGlobal(authorization, 'unpinned-action', { enabled: false })).status).toBe(204);
    expect((await putGlobal(authorization, 'unpinned-action', { enabled: false, options: { 'trusted-owners': ['my-org'] } })).status).toBe(204);
    expect((await settings(authorization))[0]).toEqual({
      rule_id: 'unpinned-action',
      enabled: false,
      updated_at: expect.any(String),
      severity: 'LOW',
      options: { 'trusted-owners': ['my-org'] },
    });
    expect((await putGlobal(authorization, 'unpinned-action', { enabled: false, severity: 'HIGH' })).status).toBe(204);
    expect((await settings(authorization))[0]?.severity).toBe('HIGH');
    expect((await putGlobal(authorization, 'unpinned-action', { enabled: true, severity: null })).status).toBe(204);
    expect((await settings(authorization))[0]).not.toHaveProperty('severity');
  });

  it('stores a repository override with a severity, keeps it on a toggle, clears it with null or DELETE', async () => {
    const { repo, authorization } = await owner();
    expect((await putOverride(authorization, repo, 'missing-timeout', { enabled: true, severity: 'MEDIUM' })).status).toBe(204);
    expect(await overrides(authorization, repo)).toEqual([{ rule_id: 'missing-timeout', enabled: true, updated_at: expect.any(String), severity: 'MEDIUM' }]);
    expect((await putOverride(authorization, repo, 'missing-timeout', { enabled: false })).status).toBe(204);
    expect((await overrides(authorization, repo))[0]).toMatchObject({ enabled: false, severity: 'MEDIUM' });
    expect((await putOverride(authorization, repo, 'missing-timeout', { enabled: true, severity: null })).status).toBe(204);
    expect((await overrides(authorization, repo))[0]).not.toHaveProperty('severity');
    expect((await putOverride(authorization, repo, 'missing-timeout', { enabled: true, severity: 'INFO' })).status).toBe(204);
    expect((await DELETE_OVERRIDE(await apiRequest('DELETE', `/api/repositories/${repo}/rule-overrides/missing-timeout`, { authorization }))).status).toBe(204);
    expect(await overrides(authorization, repo)).toEqual([]);
  });

  it.each([['critical'], ['CRITICAL'], ['high'], ['none'], [''], [3], [['HIGH']], [{ level: 'HIGH' }]])(
    'rejects severity %j with one 400 naming the allowed values, storing nothing',
    async (severity) => {
      const { repo, authorization } = await owner();
      await putGlobal(authorization, 'missing-timeout', { enabled: true, severity: 'LOW' });
      for (const response of [
        await putGlobal(authorization, 'missing-timeout', { enabled: true, severity }),
        await putOverride(authorization, repo, 'missing-timeout', { enabled: true, severity }),
      ]) {
        expect(response.status).toBe(400);
        const error = await errorOf(response);
        expect(error.code).toBe('invalid_request');
        const details = error.details as { location: string; path: unknown[]; message: string }[];
        expect(details).toHaveLength(1);
        expect(details[0]).toMatchObject({ location: 'body', path: ['severity'] });
        expect(details[0]?.message).toContain("must be one of HIGH, MEDIUM, LOW, INFO, or null for the rule's own severity");
      }
      expect((await settings(authorization))[0]?.severity).toBe('LOW');
      expect(await overrides(authorization, repo)).toEqual([]);
    },
  );

  it("is the user's own: another user sees none of it and cannot set it on the repository", async () => {
    const alice = await owner();
    const bob = await owner();
    await putGlobal(alice.authorization, 'missing-timeout', { enabled: true, severity: 'HIGH' });
    await putOverride(alice.authorization, alice.repo, 'missing-timeout', { enabled: true, severity: 'INFO' });
    expect(await settings(bob.authorization)).toEqual([]);
    const refused = await putOverride(bob.authorization, alice.repo, 'missing-timeout', { enabled: true, severity: 'LOW' });
    expect(refused.status).toBe(404);
    expect((await overrides(alice.authorization, alice.repo))[0]?.severity).toBe('INFO');
    // Row-level security, as for the rest of the row: a signed-in browser reads its own severities only.
    const read = (userId: string) =>
      t.as('authenticated', userId, async (tx) => ({
        settings: await tx.query<{ severity: string }>('select severity from public.rule_settings'),
        overrides: await tx.query<{ severity: string }>('select severity from public.rule_overrides'),
      }));
    expect(await read(alice.user)).toEqual({ settings: [{ severity: 'HIGH' }], overrides: [{ severity: 'INFO' }] });
    expect(await read(bob.user)).toEqual({ settings: [], overrides: [] });
  });
});

describe('POST /api/scan re-rates findings by the severity settings', () => {
  async function examplesUser() {
    useCodeHost(examplesCodeHost());
    const { userId } = await githubUser(t);
    const authorization = await bearer(userId);
    expect((await CALLBACK(await apiRequest('GET', '/api/github/callback?installation_id=1', { authorization }))).status).toBe(200);
    const listed = (await (await REPOS(await apiRequest('GET', '/api/repos', { authorization }))).json()) as { repositories: { id: string; full_name: string }[] };
    return { userId, authorization, triage: listed.repositories.find((r) => r.full_name === 'examples/issue-triage-bot')?.id ?? '' };
  }
  interface Scanned {
    counts: Record<string, number>;
    findings: { rule_id: string; severity: string; fingerprint: string }[];
  }
  const scan = async (authorization: string, repo: string): Promise<Scanned> => {
    const response = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } }));
    expect(response.status).toBe(200);
    return (await response.json()) as Scanned;
  };
  const severitiesOf = (scanned: Scanned, ruleId: string) => [...new Set(scanned.findings.filter((f) => f.rule_id === ruleId).map((f) => f.severity))];
  const countsOf = (scanned: Scanned) => {
    const counts: Record<string, number> = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
    for (const f of scanned.findings) counts[f.severity] = (counts[f.severity] ?? 0) + 1;
    return counts;
  };

  it('reports, counts and stores the global severity; a repository override beats it; clearing both restores the rule\'s own', async () => {
    const { authorization, triage } = await examplesUser();
    const before = await scan(authorization, triage);
    const own = severitiesOf(before, 'unpinned-action');
    expect(own.length).toBeGreaterThan(0);
    expect(own).not.toEqual(['INFO']);

    expect((await putGlobal(authorization, 'unpinned-action', { enabled: true, severity: 'INFO' })).status).toBe(204);
    const global = await scan(authorization, triage);
    expect(severitiesOf(global, 'unpinned-action')).toEqual(['INFO']);
    expect(global.findings.map((f) => f.fingerprint)).toEqual(before.findings.map((f) => f.fingerprint));
    expect(global.counts).toEqual(countsOf(global));
    expect(global.counts.INFO).toBeGreaterThan(before.counts.INFO ?? 0);
    // Other rules keep their severities.
    expect(global.findings.filter((f) => f.rule_id !== 'unpinned-action')).toEqual(before.findings.filter((f) => f.rule_id !== 'unpinned-action'));
    // What is stored (and read by the attack paths and the Findings view) is the re-rated severity.
    const stored = await t.query<{ severity: string }>(
      `select distinct f.severity from public.findings f join public.scans s on s.id = f.scan_id
       where s.id = (select id from public.scans where repository_id = $1 order by seq desc limit 1) and f.rule_id = 'unpinned-action'`,
      [triage],
    );
    expect(stored).toEqual([{ severity: 'INFO' }]);

    expect((await putOverride(authorization, triage, 'unpinned-action', { enabled: true, severity: 'HIGH' })).status).toBe(204);
    const overridden = await scan(authorization, triage);
    expect(severitiesOf(overridden, 'unpinned-action')).toEqual(['HIGH']);
    expect(overridden.counts).toEqual(countsOf(overridden));

    // An override without a severity leaves the global one in force.
    expect((await putOverride(authorization, triage, 'unpinned-action', { enabled: true, severity: null })).status).toBe(204);
    expect(severitiesOf(await scan(authorization, triage), 'unpinned-action')).toEqual(['INFO']);

    expect((await putGlobal(authorization, 'unpinned-action', { enabled: true, severity: null })).status).toBe(204);
    const restored = await scan(authorization, triage);
    expect(restored.findings).toEqual(before.findings);
    expect(restored.counts).toEqual(before.counts);
  });

  it('attack paths read the re-rated severity, as the CLI\'s do: a CRITICAL path whose entry is rated MEDIUM is HIGH', async () => {
    const { authorization, triage } = await examplesUser();
    await scan(authorization, triage);
    const paths = async () => {
      const response = await COMBOS(await apiRequest('GET', `/api/repositories/${triage}/combos`, { authorization }));
      expect(response.status).toBe(200);
      return ((await response.json()) as { combos: { severity: string; components: { rule_id: string; finding: { severity: string } }[] }[] }).combos;
    };
    const entered = (combos: Awaited<ReturnType<typeof paths>>) => combos.filter((c) => c.components.some((x) => x.rule_id === 'script-injection'));
    const before = entered(await paths());
    expect(before.length).toBeGreaterThan(0);
    expect(before.map((c) => c.severity)).toContain('CRITICAL');

    expect((await putOverride(authorization, triage, 'script-injection', { enabled: true, severity: 'MEDIUM' })).status).toBe(204);
    await scan(authorization, triage);
    const after = entered(await paths());
    expect(after).toHaveLength(before.length);
    expect(after.every((c) => c.severity === 'HIGH')).toBe(true);
    expect(after.flatMap((c) => c.components.filter((x) => x.rule_id === 'script-injection').map((x) => x.finding.severity))).toEqual(after.map(() => 'MEDIUM'));
  });
});
