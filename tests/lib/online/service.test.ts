import { setupServer } from 'msw/node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../lib/db/port.js';
import { onlineFactsGet } from '../../../lib/db/operations.js';
import { scanRepository } from '../../../lib/engine/scan.js';
import { fetchReader, type GitHubReader } from '../../../lib/online/client.js';
import { withOnlineAudits } from '../../../lib/online/service.js';
import { openTestDatabase, type TestDatabase } from '../../support/db.js';
import { FakeActions, sha } from './fake-actions.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(() => t.close());

const TAGGED = 'b'.repeat(40);
const FORK = 'f'.repeat(40);
const files = (owner: string) => [
  { path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${owner}/act@${FORK}\n      - run: make\n` },
];

/** One action repository where FORK is a fork's commit: the tag list, the repository, compare (diverged), branches. */
function github(owner: string, requests: string[]): GitHubReader {
  return {
    get(path) {
      requests.push(path);
      const body =
        path === `/repos/${owner}/act/tags?per_page=100&page=1`
          ? [{ name: 'v1.0.0', commit: { sha: TAGGED } }]
          : path === `/repos/${owner}/act`
            ? { default_branch: 'main', private: false, visibility: 'public' }
            : path.startsWith(`/repos/${owner}/act/compare/`)
              ? { status: 'diverged' }
              : path === `/repos/${owner}/act/branches?per_page=100&page=1`
                ? [{ name: 'main', commit: { sha: TAGGED } }]
                : null;
      return Promise.resolve({ status: body === null ? 404 : 200, body, remaining: 4000 });
    },
  };
}

it('adds the online findings to the scan in order and counts them; the second scan of anyone costs no request', async () => {
  const owner = `o${Math.random().toString(36).slice(2)}`;
  const requests: string[] = [];
  for (let i = 0; i < 2; i++) {
    const result = scanRepository(files(owner), { isEnabled: (id) => id === 'impostor-commit' || id === 'missing-timeout' });
    const before = result.counts.HIGH;
    // A REST-only reader: the live advisories and archived flags (GraphQL only) are not asked (their own tests).
    await withOnlineAudits(result, { reader: () => Promise.resolve(github(owner, requests)), db: t.db, files: files(owner), isEnabled: (id) => id !== 'known-vulnerable-action' && id !== 'archived-action', deadline: Date.now() + 10_000 });
    expect(result.findings.map((f) => `${f.line} ${f.rule_id}`)).toEqual(['3 missing-timeout', '6 impostor-commit']);
    expect(result.records.map((r) => r.finding)).toEqual(result.findings);
    expect(result.counts.HIGH).toBe(before + 1);
  }
  // tags, repository, compare with main (diverged), branches; v1.0.0 is main's head, so no further compare.
  expect(requests).toHaveLength(4);
});

it('reports every reference unassessed when no installation reader can be had, and survives a failing database', async () => {
  const broken: Database = { call: () => Promise.reject(new Error('database down')), close: () => Promise.resolve() };
  const result = scanRepository(files('x'), { isEnabled: () => false });
  await withOnlineAudits(result, { reader: () => Promise.reject(new Error('installation 1: token refused')), db: broken, files: files('x'), isEnabled: () => true, deadline: Date.now() + 10_000 });
  expect(result.findings).toEqual([expect.objectContaining({ line: 6, rule_id: 'online-audit-incomplete', severity: 'INFO', description: expect.stringContaining('GitHub could not be reached (installation 1: token refused)') })]);
  expect(result.counts.INFO).toBe(1);
});

it('starts no request after the deadline', async () => {
  const requests: string[] = [];
  const result = scanRepository(files('late'), { isEnabled: () => false });
  await withOnlineAudits(result, { reader: () => Promise.resolve(github('late', requests)), db: t.db, files: files('late'), isEnabled: () => true, deadline: Date.now() - 1 });
  expect(requests).toEqual([]);
  expect(result.findings[0]?.description).toContain("the scan's time for online audits ran out");
});

describe('the service path over GitHub\'s real shapes (msw: REST and GraphQL validated against the schema)', () => {
  const C1 = sha('svc-c1');
  const C2 = sha('svc-c2');
  const SVC_FORK = sha('svc-fork');
  let fake: FakeActions;
  const server = setupServer();
  beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
  afterAll(() => server.close());

  function setup(owner: string): void {
    fake = new FakeActions()
      .add(`${owner}/act`, { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1], [SVC_FORK]: [C2] }, branches: { main: C2 }, tags: { 'v1.0.0': C1, 'v1.1.0': C2 } })
      .advise(`${owner}/act`, { ghsaId: 'GHSA-2222-3333-4444', summary: 'a shell injection', severity: 'CRITICAL', range: '< 1.1.0', patched: '1.1.0' });
    server.resetHandlers(...fake.handlers);
  }

  const workflowOf = (owner: string) => [
    {
      path: '.github/workflows/ci.yml',
      text: [
        'on: push',
        'permissions: {}',
        'jobs:',
        '  a:',
        '    runs-on: ubuntu-latest',
        '    timeout-minutes: 5',
        '    steps:',
        `      - uses: ${owner}/act@${C1} # v1.0.0`,
        `      - uses: ${owner}/act@${SVC_FORK} # chainbreaker: ignore[impostor-commit] our own fork, reviewed`,
        '',
      ].join('\n'),
    },
  ];

  it('reports live advisories and honours suppression comments, with the installation token; the second scan costs nothing', async () => {
    const owner = `s${Math.random().toString(36).slice(2)}`;
    setup(owner);
    const files = workflowOf(owner);
    const enabled = (id: string) => id === 'impostor-commit' || id === 'known-vulnerable-action' || id === 'online-audit-incomplete';
    for (let i = 0; i < 2; i++) {
      // The service scans with `online: true`: the impostor-commit directive is unused until the audits join.
      const result = scanRepository(files, { isEnabled: enabled, online: true });
      expect(result.unusedSuppressions.map((u) => u.line)).toEqual([9]);
      await withOnlineAudits(result, { reader: () => Promise.resolve(fetchReader({ token: 'ghs_installation' })), db: t.db, files, isEnabled: enabled, deadline: Date.now() + 10_000 });
      expect(result.findings.map((f) => `${f.line} ${f.rule_id} ${f.severity}`)).toEqual(['8 known-vulnerable-action HIGH']);
      expect(result.counts.HIGH).toBe(1);
      expect(result.suppressed).toBe(1);
      expect(result.unusedSuppressions).toEqual([]);
    }
    // One GraphQL query and the compares that prove the fork commit is on no branch or tag (v1.1.0 is the head
    // of main, compared already); nothing on the second scan.
    expect(fake.requests).toEqual(['POST /graphql', `/repos/${owner}/act/compare/main...${SVC_FORK}?per_page=1`, `/repos/${owner}/act/compare/v1.0.0...${SVC_FORK}?per_page=1`]);
  });

  it('writes to the shared table only the facts of repositories GitHub said are public, over REST as over GraphQL', async () => {
    const restOnly = (): GitHubReader => {
      const inner = fetchReader({ token: 'ghs_installation' });
      return { get: (path) => inner.get(path) };
    };
    const keysOf = (owner: string, commit: string) => [`tags:${owner}/act`, `repo:${owner}/act`, `branches:${owner}/act`, `commit:${owner}/act@${commit}`];
    const enabled = (id: string) => id === 'impostor-commit' || id === 'online-audit-incomplete';
    for (const [visibility, reader] of [
      ['private', restOnly],
      ['private', () => fetchReader({ token: 'ghs_installation' })],
      ['public', restOnly],
      ['public', () => fetchReader({ token: 'ghs_installation' })],
    ] as const) {
      const owner = `v${Math.random().toString(36).slice(2)}`;
      fake = new FakeActions().add(`${owner}/act`, { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1], [SVC_FORK]: [C2] }, branches: { main: C2 }, tags: { 'v1.0.0': C1 }, private: visibility === 'private' });
      server.resetHandlers(...fake.handlers);
      const files = [{ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${owner}/act@${SVC_FORK}\n` }];
      const result = scanRepository(files, { isEnabled: enabled, online: true });
      await withOnlineAudits(result, { reader: () => Promise.resolve(reader()), db: t.db, files, isEnabled: enabled, deadline: Date.now() + 10_000 });
      // The verdict is the same either way: the facts served this scan.
      expect(result.findings.map((f) => f.rule_id)).toEqual(['impostor-commit']);
      const stored = Object.keys(await onlineFactsGet(t.db, keysOf(owner, SVC_FORK))).sort();
      // Another tenant must not learn that a private repository exists, its branches, its tags or its commits.
      expect(stored, `${visibility} over ${reader === restOnly ? 'REST' : 'GraphQL'}`).toEqual(visibility === 'private' ? [] : keysOf(owner, SVC_FORK).sort());
    }
  });

  it('caches nothing over REST for a repository whose answer does not say it is public', async () => {
    const owner = `u${Math.random().toString(36).slice(2)}`;
    const requests: string[] = [];
    const reader: GitHubReader = {
      get(path) {
        requests.push(path);
        // A repository answer without `private` or `visibility` (a proxy that trims it): not positively public.
        if (path === `/repos/${owner}/act`) return Promise.resolve({ status: 200, body: { default_branch: 'main' }, remaining: 4000 });
        return github(owner, []).get(path);
      },
    };
    const result = scanRepository(files(owner), { isEnabled: (id) => id === 'impostor-commit' });
    await withOnlineAudits(result, { reader: () => Promise.resolve(reader), db: t.db, files: files(owner), isEnabled: (id) => id === 'impostor-commit', deadline: Date.now() + 10_000 });
    expect(result.findings.map((f) => f.rule_id)).toEqual(['impostor-commit']);
    expect(await onlineFactsGet(t.db, [`tags:${owner}/act`, `repo:${owner}/act`, `branches:${owner}/act`, `commit:${owner}/act@${FORK}`])).toEqual({});
  });

  it('falls back to the snapshot, reported as unassessed, when GraphQL answers RATE_LIMITED', async () => {
    const owner = `s${Math.random().toString(36).slice(2)}`;
    setup(owner);
    fake.graphqlLimited = 'error';
    const files = workflowOf(owner);
    const result = scanRepository(files, { isEnabled: () => false });
    await withOnlineAudits(result, { reader: () => Promise.resolve(fetchReader({ token: 'ghs_installation' })), db: t.db, files, isEnabled: (id) => id === 'known-vulnerable-action' || id === 'online-audit-incomplete', deadline: Date.now() + 10_000 });
    expect(result.findings.map((f) => `${f.line} ${f.rule_id}`)).toEqual(['8 online-audit-incomplete']);
    expect(result.findings[0]?.description).toContain('GraphQL rate limit is spent');
  });
});
