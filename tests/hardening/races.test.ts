// Races through the real handlers on a real Postgres server (a pool, as parallel function instances would
// make them): concurrent writes of one setting and one override, scans of one repository while the latest
// scan is being read, and repository syncs of one user. tests/supabase/concurrency.test.ts proves the same
// of the SQL functions alone; this proves the API on top of them answers every request (no 5xx from a lost
// race) and that readers only ever see complete scans. PGlite has one connection, so this needs
// TEST_DATABASE_URL.

import { afterAll, beforeAll, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost, githubUser, ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, REAL_SERVER_ONLY, testDatabaseTarget, type TestDatabase } from '../support/db.js';
import { githubId } from '../support/db-fixtures.js';
import { linkInstallation } from '../../lib/db/operations.js';
import { send, userWithData } from './support.js';

const onRealServer = testDatabaseTarget.kind === 'postgres';
let t: TestDatabase;

beforeAll(async () => {
  if (!onRealServer) return;
  t = await openTestDatabase({ maxConnections: 20 });
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
});
afterAll(async () => {
  if (onRealServer) await t.close();
});
beforeEach(({ skip }) => {
  skip(!onRealServer, REAL_SERVER_ONLY);
  useCodeHost(examplesCodeHost());
});

const all = <T>(count: number, make: (i: number) => Promise<T>) => Promise.all(Array.from({ length: count }, (_, i) => make(i)));

describe('settings and overrides', () => {
  it('40 concurrent PUT and DELETE of one global setting: all 204, at most one row', async () => {
    const user = await userWithData(t);
    const statuses = await all(40, (i) =>
      i % 2 === 0
        ? send('PUT', '/api/rule-settings/pipe-to-shell', { authorization: user.authorization, body: { enabled: i % 4 === 0 } }).then((r) => r.status)
        : send('DELETE', '/api/rule-settings/pipe-to-shell', { authorization: user.authorization }).then((r) => r.status),
    );
    expect(statuses).toEqual(Array(40).fill(204));
    const rows = await t.query<{ rule_id: string }>('select rule_id from public.rule_settings where user_id = $1', [user.userId]);
    expect(rows.length).toBeLessThanOrEqual(1);

    const puts = await all(40, (i) => send('PUT', '/api/rule-settings/pipe-to-shell', { authorization: user.authorization, body: { enabled: i % 2 === 0 } }).then((r) => r.status));
    expect(puts).toEqual(Array(40).fill(204));
    const listed = (await (await send('GET', '/api/rule-settings', { authorization: user.authorization })).json()) as { settings: { rule_id: string }[] };
    expect(listed.settings.map((s) => s.rule_id)).toEqual(['pipe-to-shell']);
  });

  it('40 concurrent PUT and DELETE of one override: all 204, at most one row', async () => {
    const user = await userWithData(t);
    const repo = user.repos['issue-triage-bot'];
    const path = `/api/repositories/${repo}/rule-overrides/script-injection`;
    const statuses = await all(40, (i) =>
      (i % 3 === 0 ? send('DELETE', path, { authorization: user.authorization }) : send('PUT', path, { authorization: user.authorization, body: { enabled: i % 2 === 0 } })).then(
        (r) => r.status,
      ),
    );
    expect(statuses).toEqual(Array(40).fill(204));
    const [row] = await t.query<{ n: number }>('select count(*)::int as n from public.rule_overrides where user_id = $1', [user.userId]);
    expect(row?.n).toBeLessThanOrEqual(1);
    // Overrides of other repositories and of other rules are untouched by the race.
    const [others] = await t.query<{ n: number }>("select count(*)::int as n from public.rule_overrides where user_id = $1 and (repository_id <> $2 or rule_id <> 'script-injection')", [
      user.userId,
      repo,
    ]);
    expect(others?.n).toBe(0);
  });
});

describe('scans', () => {
  it('20 concurrent scans of one repository: all 200, and concurrent reads only ever see a complete latest scan', async () => {
    const user = await userWithData(t);
    const repo = user.repos['issue-triage-bot'] ?? '';
    const first = await send('POST', '/api/scan', { authorization: user.authorization, body: { repo_id: repo } });
    expect(first.status).toBe(200);
    const baseline = (await first.json()) as { findings: unknown[]; counts: Record<string, number> };
    const combos = async () => (await send('GET', `/api/repositories/${repo}/combos`, { authorization: user.authorization })).json() as Promise<Record<string, unknown>>;
    const paths = async () => (await send('GET', '/api/attack-paths', { authorization: user.authorization })).json() as Promise<Record<string, unknown>>;
    const expectedCombos = await combos();
    const expectedPaths = await paths();
    expect(expectedCombos).toMatchObject({ critical_count: 2 });

    // Readers run while the scans are recorded: a scan row visible before its findings would show as no
    // combination at all. They read as fast as they can, so the per-user limit of expensive reads is off here.
    const readsLimit = env().readsRateLimit.max;
    env().readsRateLimit.max = 0;
    onTestFinished(() => {
      env().readsRateLimit.max = readsLimit;
    });
    let scanning = true;
    const reads: Record<string, unknown>[][] = [[], []];
    const readers = all(4, async (i) => {
      while (scanning) {
        if (i % 2 === 0) reads[0]!.push(await combos());
        else reads[1]!.push(await paths());
      }
    });
    const responses = await all(20, () => send('POST', '/api/scan', { authorization: user.authorization, body: { repo_id: repo } }));
    scanning = false;
    await readers;

    expect(responses.map((r) => r.status)).toEqual(Array(20).fill(200));
    const bodies = (await Promise.all(responses.map((r) => r.json()))) as { scan_id: string; findings: unknown[]; counts: unknown }[];
    // Identical scans of one repository are stored once (record_scan returns the latest): one scan id.
    expect(new Set(bodies.map((b) => b.scan_id)).size).toBe(1);
    for (const body of bodies) {
      expect(body.findings).toEqual(baseline.findings);
      expect(body.counts).toEqual(baseline.counts);
    }
    expect(reads[0]!.length + reads[1]!.length).toBeGreaterThan(4);
    for (const read of reads[0]!) expect(read).toEqual(expectedCombos);
    for (const read of reads[1]!) expect(read).toEqual(expectedPaths);

    const perScan = await t.query<{ n: number }>(
      'select count(f.*)::int as n from public.scans s left join public.findings f on f.scan_id = s.id where s.repository_id = $1 group by s.id',
      [repo],
    );
    expect(perScan.map((r) => r.n)).toEqual(Array(1).fill(baseline.findings.length));
  });
});

describe('repository syncs', () => {
  it('20 concurrent syncs of one user: all 200, no duplicate rows, ids stable across syncs and renames', async () => {
    const { userId, account } = await githubUser(t);
    const authorization = await bearer(userId);
    const host = new ScriptedCodeHost();
    const installations = [githubId(), githubId(), githubId()];
    for (const installationId of installations) {
      await linkInstallation(t.db, userId, { installationId, accountLogin: `org-${installationId}`, accountType: 'Organization' });
      host.owners[`org-${installationId}`] = [account.login];
      for (let i = 0; i < 60; i += 1) {
        const fullName = `org-${installationId}/repo-${String(i).padStart(2, '0')}`;
        host.repositories.push({ githubId: githubId(), installationId, fullName, private: i % 2 === 0, htmlUrl: `https://github.com/${fullName}`, defaultBranch: 'main' });
      }
    }
    useCodeHost(host);
    const list = async () => {
      const response = await send('GET', '/api/repos', { authorization });
      expect(response.status).toBe(200);
      return ((await response.json()) as { repositories: { id: string; full_name: string }[] }).repositories;
    };
    const first = await list();
    expect(first).toHaveLength(180);

    // Renamed on the code host while the syncs race: same GitHub ids, new names.
    for (const r of host.repositories.slice(0, 10)) r.fullName = `${r.fullName}-renamed`;
    const results = await all(20, () => list());
    const idsByName = (rows: { id: string; full_name: string }[]) => new Map(rows.map((r) => [r.full_name.replace(/-renamed$/, ''), r.id]));
    for (const result of results) {
      expect(result).toHaveLength(180);
      expect(idsByName(result)).toEqual(idsByName(first));
    }
    const [row] = await t.query<{ rows: number; distinct_ids: number }>(
      'select count(*)::int as rows, count(distinct github_id)::int as distinct_ids from public.repositories where user_id = $1',
      [userId],
    );
    expect(row).toEqual({ rows: 180, distinct_ids: 180 });
  });

  it('two users syncing the same installation at once each get their own rows', async () => {
    const owners = [await githubUser(t), await githubUser(t)];
    const users = owners.map((o) => o.userId);
    const installationId = githubId();
    const host = new ScriptedCodeHost();
    host.owners['shared'] = owners.map((o) => o.account.login);
    for (let i = 0; i < 30; i += 1) {
      host.repositories.push({ githubId: githubId(), installationId, fullName: `shared/repo-${i}`, private: false, htmlUrl: `https://github.com/shared/repo-${i}`, defaultBranch: 'main' });
    }
    for (const userId of users) await linkInstallation(t.db, userId, { installationId, accountLogin: 'shared', accountType: 'Organization' });
    useCodeHost(host);
    const statuses = await all(20, async (i) => (await send('GET', '/api/repos', { authorization: await bearer(users[i % 2]!) })).status);
    expect(statuses).toEqual(Array(20).fill(200));
    const rows = await t.query<{ user_id: string; n: number }>(
      'select user_id, count(*)::int as n from public.repositories where user_id = any($1::uuid[]) group by user_id order by user_id',
      [users],
    );
    expect(rows.map((r) => r.n)).toEqual([30, 30]);
  });
});
