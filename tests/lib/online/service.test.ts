import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Database } from '../../../lib/db/port.js';
import { scanRepository } from '../../../lib/engine/scan.js';
import type { GitHubReader } from '../../../lib/online/client.js';
import { withOnlineAudits } from '../../../lib/online/service.js';
import { openTestDatabase, type TestDatabase } from '../../support/db.js';

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
            ? { default_branch: 'main' }
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
    await withOnlineAudits(result, { reader: () => Promise.resolve(github(owner, requests)), db: t.db, files: files(owner), isEnabled: () => true, deadline: Date.now() + 10_000 });
    expect(result.findings.map((f) => `${f.line} ${f.rule_id}`)).toEqual(['3 missing-timeout', '6 impostor-commit']);
    expect(result.records.map((r) => r.finding)).toEqual(result.findings);
    expect(result.counts.HIGH).toBe(before + 1);
  }
  // tags, repository, compare with main (diverged), branches; then every branch and tag compared (v1.0.0).
  expect(requests).toHaveLength(5);
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
