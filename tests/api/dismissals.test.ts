// Triage through the real handlers on a real database (Postgres with TEST_DATABASE_URL, else PGlite): dismiss a
// finding or an attack path by fingerprint, what that does to POST /api/scan, the combinations and the attack
// paths, the audit trail, reopening, and what another user can reach.

import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET as ATTACK_PATHS } from '../../api/attack-paths.js';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as COMBOS } from '../../api/repositories/[repo_id]/combos.js';
import { GET as LIST } from '../../api/repositories/[repo_id]/dismissals/index.js';
import { DELETE, PUT } from '../../api/repositories/[repo_id]/dismissals/[fingerprint].js';
import { GET as REPOS } from '../../api/repos.js';
import { POST as SCAN } from '../../api/scan.js';
import { AttackPathsResponse, CombosResponse, Dismissal, DismissalsResponse, ReposResponse, ScanResult } from '../../lib/api/schemas.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { combinationFingerprint } from '../../lib/services/attack-paths.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
});
afterAll(async () => t.close());

async function ok<S extends v.GenericSchema>(response: Promise<Response>, schema: S): Promise<v.InferOutput<S>> {
  const answered = await response;
  const body: unknown = await answered.json();
  expect(answered.status, JSON.stringify(body).slice(0, 300)).toBe(200);
  return v.parse(schema, body);
}

/** A user who linked the local installation and scanned issue-triage-bot (the example with attack paths). */
async function scanned(): Promise<{ authorization: string; repo: string; scan: v.InferOutput<typeof ScanResult> }> {
  const { userId } = await githubUser(t);
  const authorization = await bearer(userId);
  expect((await CALLBACK(await apiRequest('GET', '/api/github/callback?installation_id=1', { authorization }))).status).toBe(200);
  const repos = await ok(REPOS(await apiRequest('GET', '/api/repos', { authorization })), ReposResponse);
  const repo = repos.repositories.find((r) => r.full_name.endsWith('/issue-triage-bot'))?.id ?? '';
  const scan = await ok(SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } })), ScanResult);
  return { authorization, repo, scan };
}

const base = (repo: string) => `/api/repositories/${repo}/dismissals`;
const put = async (authorization: string, repo: string, fingerprint: string, body: unknown) =>
  PUT(await apiRequest('PUT', `${base(repo)}/${encodeURIComponent(fingerprint)}`, { authorization, body }));
const del = async (authorization: string, repo: string, fingerprint: string) =>
  DELETE(await apiRequest('DELETE', `${base(repo)}/${encodeURIComponent(fingerprint)}`, { authorization }));
const list = async (authorization: string, repo: string) => ok(LIST(await apiRequest('GET', base(repo), { authorization })), DismissalsResponse);
const combos = async (authorization: string, repo: string) =>
  ok(COMBOS(await apiRequest('GET', `/api/repositories/${repo}/combos`, { authorization })), CombosResponse);
const paths = async (authorization: string) => ok(ATTACK_PATHS(await apiRequest('GET', '/api/attack-paths', { authorization })), AttackPathsResponse);

describe('dismissals', () => {
  it('a dismissed finding leaves the scan counts and every attack path it was part of; reopening brings both back', async () => {
    const { authorization, repo, scan } = await scanned();
    const before = await combos(authorization, repo);
    expect(before.combos.length).toBeGreaterThan(0);
    expect(before.dismissed).toBeUndefined();
    const [path] = before.combos;
    const entry = scan.findings.find((f) => f.rule_id === path?.components[0]?.rule_id && f.file === path.components[0]?.finding.file && f.line === path.components[0]?.finding.line);
    expect(entry?.fingerprint).toBeTruthy();
    const fingerprint = entry?.fingerprint ?? '';

    const dismissed = await ok(put(authorization, repo, fingerprint, { reason: 'accepted_risk', comment: 'only maintainers can label' }), Dismissal);
    expect(dismissed).toMatchObject({ fingerprint, kind: 'finding', reason: 'accepted_risk', comment: 'only maintainers can label' });

    // The attack paths no longer form from it, in both reads.
    const after = await combos(authorization, repo);
    expect(after.combos.some((c) => c.fingerprint === path?.fingerprint)).toBe(false);
    const all = await paths(authorization);
    expect(all.repos.flatMap((r) => r.combos).some((c) => c.fingerprint === path?.fingerprint)).toBe(false);

    // A rescan of the same problem stays dismissed: out of findings and counts, listed apart.
    const rescan = await ok(SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } })), ScanResult);
    expect(rescan.findings.some((f) => f.fingerprint === fingerprint)).toBe(false);
    expect(rescan.dismissed_findings?.map((f) => f.fingerprint)).toEqual([fingerprint]);
    const severity = entry?.severity ?? 'HIGH';
    expect(rescan.counts[severity]).toBe(scan.counts[severity] - 1);

    // The trail says who, when, why; reopening (twice: idempotent) joins it and restores the path.
    for (let i = 0; i < 2; i += 1) expect((await del(authorization, repo, fingerprint)).status).toBe(204);
    const trail = await list(authorization, repo);
    expect(trail.dismissals).toEqual([]);
    expect(trail.events.map((e) => [e.action, e.reason, e.comment])).toEqual([
      ['reopen', null, ''],
      ['dismiss', 'accepted_risk', 'only maintainers can label'],
    ]);
    expect(trail.events.every((e) => e.fingerprint === fingerprint && e.at !== '')).toBe(true);
    expect((await combos(authorization, repo)).combos.map((c) => c.fingerprint)).toEqual(before.combos.map((c) => c.fingerprint));
  });

  it('a dismissed attack path is listed apart with its decision and leaves the totals; its fingerprint is stable', async () => {
    const { authorization, repo } = await scanned();
    const before = await paths(authorization);
    const path = before.repos.flatMap((r) => r.combos)[0];
    expect(path?.fingerprint).toMatch(/^path-/);
    const fingerprint = path?.fingerprint ?? '';
    expect((await put(authorization, repo, fingerprint, { reason: 'false_positive', kind: 'attack_path' })).status).toBe(200);

    const after = await paths(authorization);
    expect(after.total_combos).toBe(before.total_combos - 1);
    expect(after.dismissed?.map((d) => [d.repo_id, d.combo.fingerprint, d.combo.dismissal.reason])).toEqual([[repo, fingerprint, 'false_positive']]);
    const one = await combos(authorization, repo);
    expect(one.dismissed?.map((c) => c.fingerprint)).toEqual([fingerprint]);
    expect(one.combos.some((c) => c.fingerprint === fingerprint)).toBe(false);
    // Its findings are still open: the scan counts do not change for a dismissed path.
    expect((await list(authorization, repo)).dismissals.map((d) => d.kind)).toEqual(['attack_path']);
  });

  it('the fingerprint of a path depends on its kind and its components, not their order', () => {
    expect(combinationFingerprint('k', ['a', 'b'])).toBe(combinationFingerprint('k', ['b', 'a']));
    expect(combinationFingerprint('k', ['a', 'b'])).not.toBe(combinationFingerprint('k2', ['a', 'b']));
    expect(combinationFingerprint('k', ['a', 'b'])).not.toBe(combinationFingerprint('k', ['a', 'c']));
  });

  it('refuses a bad reason, kind, comment or fingerprint with 400/404, and another user\'s repository with 404', async () => {
    const { authorization, repo } = await scanned();
    const bad = [
      { reason: 'because' },
      { reason: 'wont_fix', kind: 'repository' },
      { reason: 'wont_fix', comment: 'x'.repeat(1001) },
      { reason: 'wont_fix', extra: true },
      {},
    ];
    for (const body of bad) {
      const response = await put(authorization, repo, 'abc123', body);
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect((await errorOf(response)).code).toBe('invalid_request');
    }
    expect((await put(authorization, repo, 'a'.repeat(65), { reason: 'wont_fix' })).status).toBe(404);
    expect((await put(authorization, repo, 'a/b', { reason: 'wont_fix' })).status).toBe(404);

    const other = await scanned();
    expect((await put(other.authorization, repo, 'abc123', { reason: 'wont_fix' })).status).toBe(404);
    expect((await del(other.authorization, repo, 'abc123')).status).toBe(404);
    expect((await LIST(await apiRequest('GET', base(repo), { authorization: other.authorization }))).status).toBe(404);
    expect((await list(authorization, repo)).dismissals).toEqual([]);
  });
});
