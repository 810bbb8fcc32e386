// The whole flow of the API on the local code host and the project's example repositories, through the real
// handlers on a real database: link the installation, list, scan, combinations of one repository, attack
// paths; then what the user's settings do to them without a re-scan, and what other users can reach.

import { randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as ATTACK_PATHS } from '../../api/attack-paths.js';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as COMBOS } from '../../api/repositories/[repo_id]/combos.js';
import { GET as OVERRIDES } from '../../api/repositories/[repo_id]/rule-overrides/index.js';
import { DELETE as CLEAR_OVERRIDE, PUT as SET_OVERRIDE } from '../../api/repositories/[repo_id]/rule-overrides/[rule_id].js';
import { GET as REPOS } from '../../api/repos.js';
import { DELETE as CLEAR_SETTING, PUT as SET_SETTING } from '../../api/rule-settings/[rule_id].js';
import { POST as SCAN } from '../../api/scan.js';
import { AttackPathsResponse, CombosResponse, InstallationLink, ReposResponse, ScanResult } from '../../lib/api/schemas.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { SEVERITIES } from '../../lib/engine/types.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, dispatch, errorOf } from '../support/http.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
});
afterAll(async () => t.close());

type Repos = v.InferOutput<typeof ReposResponse>;
type Scan = v.InferOutput<typeof ScanResult>;
type Combos = v.InferOutput<typeof CombosResponse>;
type AttackPaths = v.InferOutput<typeof AttackPathsResponse>;

/** Sends a request through the handler and checks the status and the body's schema. */
async function call<S extends v.GenericSchema>(
  handler: (request: Request) => Promise<Response>,
  request: Request,
  schema: S,
): Promise<v.InferOutput<S>> {
  const response = await handler(request);
  const body: unknown = await response.json();
  expect(response.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  expect(response.headers.get('cache-control')).toBe('no-store');
  return v.parse(schema, body);
}

const api = (authorization: string) => ({
  repos: async (): Promise<Repos> => call(REPOS, await apiRequest('GET', '/api/repos', { authorization }), ReposResponse),
  link: async (id = 1) => call(CALLBACK, await apiRequest('GET', `/api/github/callback?installation_id=${id}`, { authorization }), InstallationLink),
  scan: async (repo_id: string, ruleset?: string): Promise<Scan> =>
    call(SCAN, await apiRequest('POST', '/api/scan', { authorization, body: ruleset === undefined ? { repo_id } : { repo_id, ruleset } }), ScanResult),
  combos: async (repo: string): Promise<Combos> => call(COMBOS, await apiRequest('GET', `/api/repositories/${repo}/combos`, { authorization }), CombosResponse),
  attackPaths: async (): Promise<AttackPaths> => call(ATTACK_PATHS, await apiRequest('GET', '/api/attack-paths', { authorization }), AttackPathsResponse),
  setSetting: async (rule: string, enabled: boolean) =>
    expect((await SET_SETTING(await apiRequest('PUT', `/api/rule-settings/${rule}`, { authorization, body: { enabled } }))).status).toBe(204),
  clearSetting: async (rule: string) => expect((await CLEAR_SETTING(await apiRequest('DELETE', `/api/rule-settings/${rule}`, { authorization }))).status).toBe(204),
  setOverride: async (repo: string, rule: string, enabled: boolean) =>
    expect((await SET_OVERRIDE(await apiRequest('PUT', `/api/repositories/${repo}/rule-overrides/${rule}`, { authorization, body: { enabled } }))).status).toBe(204),
  clearOverride: async (repo: string, rule: string) =>
    expect((await CLEAR_OVERRIDE(await apiRequest('DELETE', `/api/repositories/${repo}/rule-overrides/${rule}`, { authorization }))).status).toBe(204),
});

/** A signed-in user with a GitHub identity who linked the local installation; ids of the example repositories. */
async function linkedUser() {
  const { userId } = await githubUser(t);
  const client = api(await bearer(userId));
  await client.link();
  const { repositories } = await client.repos();
  const id = (name: string) => repositories.find((r) => r.full_name === `examples/${name}`)?.id ?? '';
  return { userId, client, hardened: id('hardened-service'), triage: id('issue-triage-bot'), release: id('release-pipeline') };
}

const ids = (combos: readonly { id: string }[]) => combos.map((c) => c.id);

function recount(findings: Scan['findings']): Scan['counts'] {
  const counts = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) counts[f.severity] += 1;
  return counts;
}

async function scansOf(repo: string): Promise<number> {
  const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.scans where repository_id = $1', [repo]);
  return row?.n ?? -1;
}

describe('the flow on the local code host', () => {
  it('links installation 1, lists, scans, and shows combinations and attack paths that agree', async () => {
    const { userId } = await githubUser(t);
    const client = api(await bearer(userId));

    expect(await client.repos()).toEqual({ connected: false, repositories: [] });
    expect(await client.link()).toEqual({ installation_id: 1, account: 'examples', account_type: 'Organization' });

    const first = await client.repos();
    expect(first.connected).toBe(true);
    expect(first.repositories.map((r) => r.full_name)).toEqual(['examples/hardened-service', 'examples/issue-triage-bot', 'examples/release-pipeline']);
    expect(Object.keys(first.repositories[0] ?? {})).toEqual(['id', 'full_name', 'private', 'html_url']);
    // Ids are stable across syncs (and linking again changes nothing).
    await client.link();
    expect(await client.repos()).toEqual(first);
    const [hardened, triage, release] = first.repositories.map((r) => r.id) as [string, string, string];

    // Never scanned: no combinations, and no attack paths.
    expect(await client.combos(triage)).toEqual({ combos: [], critical_count: 0, high_count: 0 });
    expect(await client.attackPaths()).toEqual({ repos: [], total_combos: 0, critical_count: 0, high_count: 0 });

    const scans = { hardened: await client.scan(hardened), triage: await client.scan(triage), release: await client.scan(release) };
    for (const [name, result] of Object.entries(scans)) {
      expect(result.counts, name).toEqual(recount(result.findings));
      expect(Object.keys(result.counts)).toEqual([...SEVERITIES]);
    }
    expect(scans.triage.repo_id).toBe(triage);
    expect(new Set(Object.values(scans).map((s) => s.scan_id)).size).toBe(3);

    // The hardened service: nothing HIGH or MEDIUM with its hardened settings.
    expect(scans.hardened.counts).toMatchObject({ HIGH: 0, MEDIUM: 0 });
    // The triage bot: a script injection in an issues workflow, a read-write default token, no branch protection.
    expect(scans.triage.findings.map((f) => f.rule_id)).toEqual(
      expect.arrayContaining(['script-injection', 'missing-permissions', 'default-token-write', 'branch-protection-missing']),
    );
    // The release pipeline has no settings snapshot: its settings are reported as not assessed, never as safe.
    const unreadable = scans.release.findings.filter((f) => f.rule_id === 'settings-unreadable');
    expect(unreadable.length).toBeGreaterThan(0);
    expect(unreadable.every((f) => f.severity === 'INFO' && f.description.includes('.chainbreaker/settings.json'))).toBe(true);
    expect(scans.release.findings.some((f) => f.rule_id === 'default-token-write')).toBe(false);

    const triageCombos = await client.combos(triage);
    expect(ids(triageCombos.combos)).toEqual(['injection-token-theft', 'repository-takeover']);
    expect(triageCombos).toMatchObject({ critical_count: 2, high_count: 0 });
    const takeover = triageCombos.combos.find((c) => c.id === 'repository-takeover');
    expect(takeover?.components.map((c) => c.rule_id)).toEqual(['script-injection', 'default-token-write', 'branch-protection-missing', 'actions-can-approve-prs']);
    // Components carry the public finding: the nine fields, nothing stored beside them.
    // (`fix` and `fingerprint` are returned by the scan only; components do not carry them.)
    const withoutFix = ({ fix: _fix, fingerprint, ...finding }: Record<string, unknown>) => {
      expect(fingerprint).toEqual(expect.any(String));
      return finding;
    };
    expect(Object.keys(takeover?.components[0]?.finding ?? {})).toEqual(Object.keys(withoutFix(scans.triage.findings[0] ?? {})));
    expect(takeover?.components[0]?.finding).toEqual(withoutFix(scans.triage.findings.find((f) => f.rule_id === 'script-injection') ?? {}));

    const releaseCombos = await client.combos(release);
    expect(ids(releaseCombos.combos)).toEqual(['mutable-action-secret-theft', 'silent-supply-chain-tampering', 'unverifiable-release']);
    expect(await client.combos(hardened)).toEqual({ combos: [], critical_count: 0, high_count: 0 });

    const paths = await client.attackPaths();
    // Repositories without combinations (the hardened one) are left out; the rest by full name.
    expect(paths.repos.map((r) => [r.full_name, ids(r.combos)])).toEqual([
      ['examples/issue-triage-bot', ids(triageCombos.combos)],
      ['examples/release-pipeline', ids(releaseCombos.combos)],
    ]);
    expect(paths.repos[0]).toMatchObject({ repo_id: triage, html_url: first.repositories[1]?.html_url });
    expect(paths.repos[0]?.combos).toEqual(triageCombos.combos);
    const all = paths.repos.flatMap((r) => r.combos);
    expect(paths.total_combos).toBe(all.length);
    expect(paths.critical_count).toBe(all.filter((c) => c.severity === 'CRITICAL').length);
    expect(paths.high_count).toBe(all.filter((c) => c.severity === 'HIGH').length);
    expect(paths).toMatchObject({ total_combos: 5, critical_count: 2, high_count: 0 });
    // release-pipeline's three paths enter through someone else's action on a tag: MEDIUM, in neither count.
    expect(all.filter((c) => c.severity === 'MEDIUM').map((c) => c.id)).toEqual(['mutable-action-secret-theft', 'silent-supply-chain-tampering', 'unverifiable-release']);
  });

  it('scans with the owasp ruleset: only CICD-SEC rules, counts still agreeing', async () => {
    const { client, release } = await linkedUser();
    const all = await client.scan(release, 'all');
    const owasp = await client.scan(release, 'owasp');
    expect(owasp.findings.length).toBeGreaterThan(0);
    expect(owasp.findings.every((f) => f.category.startsWith('CICD-SEC-'))).toBe(true);
    expect(owasp.findings).toEqual(all.findings.filter((f) => f.category.startsWith('CICD-SEC-')));
    expect(owasp.counts).toEqual(recount(owasp.findings));
  });

  it('serves the flow through the router, as npm run dev does', async () => {
    const { userId } = await githubUser(t);
    const authorization = await bearer(userId);
    const linked = await dispatch(await apiRequest('GET', '/api/github/callback?installation_id=1', { authorization }));
    expect(linked.status).toBe(200);
    const { repositories } = (await (await dispatch(await apiRequest('GET', '/api/repos', { authorization }))).json()) as Repos;
    const repo = repositories[1]?.id ?? '';
    const scanned = await dispatch(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } }));
    expect(scanned.status).toBe(200);
    const combos = await dispatch(new Request(`http://localhost/api/repositories/${repo}/combos`, { headers: { authorization } }));
    expect(((await combos.json()) as Combos).critical_count).toBe(2);
  });
});

describe('settings decide what takes part, at scan time and afterwards', () => {
  it('never runs a disabled rule: its findings are neither returned, counted nor stored', async () => {
    const { client, triage } = await linkedUser();
    await client.setSetting('script-injection', false);
    const result = await client.scan(triage);
    expect(result.findings.some((f) => f.rule_id === 'script-injection')).toBe(false);
    expect(result.findings.some((f) => f.rule_id === 'missing-permissions')).toBe(true);
    expect(result.counts).toEqual(recount(result.findings));
    const stored = await t.query<{ rule_id: string }>('select rule_id from public.findings where scan_id = $1', [result.scan_id]);
    expect(stored.map((r) => r.rule_id).sort()).toEqual(result.findings.map((f) => f.rule_id).sort());
    // Turned on again, it still forms nothing until the next scan: the stored scan does not have it.
    await client.clearSetting('script-injection');
    expect((await client.combos(triage)).combos).toEqual([]);
    await client.scan(triage);
    expect(ids((await client.combos(triage)).combos)).toEqual(['injection-token-theft', 'repository-takeover']);
  });

  it('drops combinations of a rule turned off globally after the scan, without a re-scan, and brings them back', async () => {
    const { client, triage, release } = await linkedUser();
    await client.scan(triage);
    await client.scan(release);
    const before = await client.attackPaths();
    expect(before.total_combos).toBe(5);

    await client.setSetting('default-token-write', false);
    expect(ids((await client.combos(triage)).combos)).toEqual(['injection-token-theft']);
    const after = await client.attackPaths();
    expect(after.repos.find((r) => r.repo_id === triage)?.combos.map((c) => c.id)).toEqual(['injection-token-theft']);
    expect(after).toMatchObject({ total_combos: 4, critical_count: 1, high_count: 0 });

    // The amplifier is a rule like any other: off, it is no longer a component.
    await client.setSetting('actions-can-approve-prs', false);
    await client.clearSetting('default-token-write');
    const takeover = (await client.combos(triage)).combos.find((c) => c.id === 'repository-takeover');
    expect(takeover?.components.map((c) => c.rule_id)).toEqual(['script-injection', 'default-token-write', 'branch-protection-missing']);

    await client.clearSetting('actions-can-approve-prs');
    expect(await client.attackPaths()).toEqual(before);
  });

  it('applies per-repository overrides over the global preference, for that repository only', async () => {
    const { client, triage, release } = await linkedUser();
    await client.scan(triage);
    await client.scan(release);

    await client.setOverride(triage, 'script-injection', false);
    expect(await client.combos(triage)).toEqual({ combos: [], critical_count: 0, high_count: 0 });
    const paths = await client.attackPaths();
    expect(paths.repos.map((r) => r.repo_id)).toEqual([release]);
    expect(paths).toMatchObject({ total_combos: 3, critical_count: 0, high_count: 0 });

    // Globally off, but on for this repository: the override wins here and nowhere else.
    await client.setSetting('unpinned-action', false);
    await client.setOverride(triage, 'script-injection', true);
    expect(ids((await client.combos(triage)).combos)).toEqual(['injection-token-theft', 'repository-takeover']);
    // Without unpinned-action the release pipeline keeps one chain, completed by its other alternative.
    const withoutUnpinned = (await client.combos(release)).combos;
    expect(ids(withoutUnpinned)).toEqual(['silent-supply-chain-tampering']);
    // (missing-provenance is a finding of another job, so it no longer joins: paths bind to one job.)
    expect(withoutUnpinned[0]?.components.map((c) => c.rule_id)).toEqual(['download-without-checksum', 'continue-on-error']);
    await client.setOverride(release, 'unpinned-action', true);
    expect(ids((await client.combos(release)).combos)).toEqual(['mutable-action-secret-theft', 'silent-supply-chain-tampering', 'unverifiable-release']);

    // Cleared, the repository inherits the global preference again.
    await client.clearOverride(release, 'unpinned-action');
    expect(ids((await client.combos(release)).combos)).toEqual(['silent-supply-chain-tampering']);
  });
});

describe("other users' repositories", () => {
  it('are 404 on every endpoint that names one, and never appear in lists or attack paths', async () => {
    const alice = await linkedUser();
    const bob = await linkedUser();
    await alice.client.scan(alice.triage);
    const bobAuth = await bearer(bob.userId);

    const attempts = [
      await SCAN(await apiRequest('POST', '/api/scan', { authorization: bobAuth, body: { repo_id: alice.triage } })),
      await COMBOS(await apiRequest('GET', `/api/repositories/${alice.triage}/combos`, { authorization: bobAuth })),
      await OVERRIDES(await apiRequest('GET', `/api/repositories/${alice.triage}/rule-overrides`, { authorization: bobAuth })),
      await SET_OVERRIDE(await apiRequest('PUT', `/api/repositories/${alice.triage}/rule-overrides/script-injection`, { authorization: bobAuth, body: { enabled: false } })),
    ];
    for (const response of attempts) {
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toEqual({ code: 'not_found', message: 'Not found.' });
    }
    // Nothing of Alice's changed: no scan recorded for Bob, her combinations intact.
    expect(await scansOf(alice.triage)).toBe(1);
    expect(ids((await alice.client.combos(alice.triage)).combos)).toEqual(['injection-token-theft', 'repository-takeover']);
    // Each user has their own rows for the same code-host repositories.
    expect(bob.triage).not.toBe(alice.triage);
    expect((await bob.client.repos()).repositories.map((r) => r.id)).not.toContain(alice.triage);
    expect(await bob.client.attackPaths()).toEqual({ repos: [], total_combos: 0, critical_count: 0, high_count: 0 });
  });

  it('are 404 like repositories that do not exist, and malformed ids in the path are 404 too', async () => {
    const { client, userId } = await linkedUser();
    const authorization = await bearer(userId);
    for (const repo of [randomUUID(), 'not-a-uuid', 'x'.repeat(5000)]) {
      const response = await COMBOS(await apiRequest('GET', `/api/repositories/${repo}/combos`, { authorization }));
      expect(response.status).toBe(404);
    }
    const missing = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: randomUUID() } }));
    expect(missing.status).toBe(404);
    expect((await client.repos()).repositories).toHaveLength(3);
  });
});
