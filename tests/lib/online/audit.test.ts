import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { auditRepository, BudgetedReader, collectReferences, DiskCache, fetchReader, MemoryCache, defaultCachePath, type OnlineAuditOptions } from '../../../lib/online/index.js';
import type { RepositoryFile } from '../../../lib/engine/types.js';
import { FakeActions, sha } from './fake-actions.js';

const C1 = sha('c1');
const C2 = sha('c2');
const C3 = sha('c3');
const B1 = sha('b1');
const B2 = sha('b2');
const FORK = sha('fork');

let fake: FakeActions;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  fake = new FakeActions()
    .add('actions/checkout', {
      defaultBranch: 'main',
      commits: { [C1]: [], [C2]: [C1], [C3]: [C2], [B1]: [C1], [B2]: [B1], [FORK]: [C3] },
      branches: { main: C3, 'releases/v3': B2 },
      tags: { 'v4.0.0': C1, 'v4.1.0': C2, v4: C2 },
      annotated: ['v4.1.0'],
    })
    .add('some-org/deploy', { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1, v1: C1, 'v1-dev': C1 }, tags: { v1: C1, 'v1.1': C1 } });
  server.resetHandlers(...fake.handlers);
});
afterEach(() => server.resetHandlers());

function workflow(...uses: string[]): RepositoryFile[] {
  const steps = uses.map((u) => `      - uses: ${u}`).join('\n');
  return [{ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n` }];
}

function options(extra: Partial<OnlineAuditOptions> = {}): OnlineAuditOptions {
  return { reader: new BudgetedReader(fetchReader({ token: 'ghs_test' })), cache: new MemoryCache(), ...extra };
}

/** A reader without GraphQL: every fact over REST (what a reader that cannot post queries does). */
function restOnly(): BudgetedReader {
  const inner = fetchReader({ token: 'ghs_test' });
  return new BudgetedReader({ get: (path) => inner.get(path) });
}

async function audit(files: RepositoryFile[], extra: Partial<OnlineAuditOptions> = {}) {
  const { records } = await auditRepository(files, options(extra));
  return records.map((r) => `${r.finding.line}:${r.finding.column} ${r.finding.rule_id} ${r.finding.severity}`);
}

describe('collectReferences', () => {
  it('reads owner/repo@ref with its position and version comment, skipping local, docker and malformed uses', () => {
    const refs = collectReferences([
      {
        path: '.github/workflows/a.yml',
        text: [
          'jobs:',
          '  a:',
          '    uses: Org/Repo/.github/workflows/x.yml@main',
          '    steps:',
          `      - uses: "actions/checkout@${C1.toUpperCase()}" # v4.0.0`,
          `      - uses: actions/setup-node@${C2} # tag=v4.1.0`,
          '      - uses: ./local',
          '      - uses: docker://alpine:3',
          '      - uses: evil/x@$(id)',
          '      - name: uses: not/a@key',
        ].join('\n'),
      },
      { path: 'README.md', text: '      - uses: actions/checkout@v4' },
    ]);
    expect(refs).toEqual([
      { file: '.github/workflows/a.yml', line: 3, column: 11, owner: 'org', repo: 'repo', ref: 'main', version: null },
      { file: '.github/workflows/a.yml', line: 5, column: 16, owner: 'actions', repo: 'checkout', ref: C1, version: 'v4.0.0' },
      { file: '.github/workflows/a.yml', line: 6, column: 15, owner: 'actions', repo: 'setup-node', ref: C2, version: 'v4.1.0' },
    ]);
  });
});

describe('online audits', () => {
  it('reports a fork commit pinned under the parent repository as impostor-commit (HIGH), at the uses: value', async () => {
    expect(await audit(workflow(`actions/checkout@${FORK}`))).toEqual(['6:15 impostor-commit HIGH']);
  });

  it('does not report a commit on a non-default branch as an impostor (it compares the other branches), but as stale', async () => {
    expect(await audit(workflow(`actions/checkout@${B1}`))).toEqual(['6:15 stale-action-ref LOW']);
  });

  it('reports nothing for a release tag commit with its own version comment, or a floating major comment', async () => {
    expect(await audit(workflow(`actions/checkout@${C1} # v4.0.0`, `actions/checkout@${C2} # v4.1.0`, `actions/checkout@${C1} # v4`, `actions/checkout@v4`))).toEqual([]);
  });

  it('reports the default-branch head that no tag points at as stale-action-ref (LOW)', async () => {
    expect(await audit(workflow(`actions/checkout@${C3}`))).toEqual(['6:15 stale-action-ref LOW']);
  });

  it('reports a version comment naming another commit\'s tag as ref-version-mismatch, with the right pin', async () => {
    const { records } = await auditRepository(workflow(`actions/checkout@${C2} # v4.0.0`), options());
    expect(records.map((r) => r.finding.rule_id)).toEqual(['ref-version-mismatch']);
    expect(records[0]?.finding.recommendation).toContain(`actions/checkout@${C1} # v4.0.0`);
  });

  it('dereferences annotated tags when the tag list is too long to hold the comment\'s tag', async () => {
    const tags: Record<string, string> = { 'v4.1.0': C2 };
    for (let i = 0; i < 300; i++) tags[`z${String(i).padStart(3, '0')}`] = C1;
    fake.add('big/action', { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1] }, branches: { main: C2 }, tags, annotated: ['v4.1.0'] });
    // GraphQL pages the tag list (up to 3 pages) and dereferences the annotated tag in the same query.
    expect(await audit(workflow(`big/action@${C1} # v4.1.0`))).toEqual(['6:15 ref-version-mismatch MEDIUM']);
    expect(fake.requests.every((r) => r === 'POST /graphql')).toBe(true);
    expect(fake.queries[0]).toContain('... on Tag { target { oid } }');
    // Over REST, past the 300 tags of the list, it asks the tag ref and the annotated tag object.
    fake.requests = [];
    // (The advisories cannot be asked without GraphQL: unassessed, not clean.)
    expect(await audit(workflow(`big/action@${C1} # v4.1.0`), { reader: restOnly() })).toEqual(['6:15 online-audit-incomplete INFO', '6:15 ref-version-mismatch MEDIUM']);
    expect(fake.requests).toContain('/repos/big/action/git/tags/' + sha('tag-object-v4.1.0'));
  });

  it('reports a ref that is both a branch and a tag (exact names, not matching-refs prefixes) as ref-confusion', async () => {
    expect(await audit(workflow('some-org/deploy@v1', 'some-org/deploy@v1.1', 'some-org/deploy@main'))).toEqual(['6:15 ref-confusion MEDIUM']);
  });

  it('reports an action repository GitHub does not know as unassessed, not clean', async () => {
    const { records } = await auditRepository(workflow(`gone/action@${C1}`, 'gone/action@v2'), options());
    expect(records.map((r) => `${r.finding.line} ${r.finding.rule_id} ${r.finding.severity}`)).toEqual(['6 online-audit-incomplete INFO']);
    expect(records[0]?.finding.description).toMatch(/^2 `uses:` references were not checked online \(gone\/action was not found\)/);
  });

  it('decides no impostor when there are too many branches and tags to compare: unassessed instead', async () => {
    // 40 tags at 40 distinct commits (tags at one commit cost one compare).
    const tags: Record<string, string> = {};
    const commits: Record<string, string[]> = { [C1]: [], [C2]: [C1], [FORK]: [C2] };
    for (let i = 0; i < 40; i++) {
      tags[`v1.${i}.0`] = sha(`t${i}`);
      commits[sha(`t${i}`)] = [C1];
    }
    fake.add('many/tags', { defaultBranch: 'main', commits, branches: { main: C2 }, tags });
    const { records } = await auditRepository(workflow(`many/tags@${FORK}`), options());
    expect(records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
    expect(records[0]?.finding.description).toContain('too many branches and tags');
  });

  it('turns nothing on when every online rule is disabled (no request), and honours single disabled rules', async () => {
    expect(await audit(workflow(`actions/checkout@${FORK}`), { isEnabled: () => false })).toEqual([]);
    expect(fake.requests).toEqual([]);
    expect(await audit(workflow(`actions/checkout@${C3}`), { isEnabled: (id) => id !== 'stale-action-ref' })).toEqual([]);
  });
});

describe('the shared cache', () => {
  it('costs one lookup for 1,000 repositories pinning the same actions/checkout commit', async () => {
    const cache = new MemoryCache();
    const reader = new BudgetedReader(fetchReader({ token: 'ghs_test' }));
    for (let i = 0; i < 1000; i++) {
      const { records } = await auditRepository(workflow(`actions/checkout@${C1} # v4.0.0`), { reader, cache });
      expect(records).toEqual([]);
    }
    expect(fake.requests).toEqual(['POST /graphql']);
  });

  it('keeps the facts of a private repository (an organisation-internal action) out of the shared cache', async () => {
    fake.add('acme/internal-deploy', { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1 }, tags: { 'v1.0.0': C1 }, private: true });
    const cache = new MemoryCache();
    const first = await auditRepository(workflow(`acme/internal-deploy@${C1} # v1.0.0`, `actions/checkout@${C1} # v4.0.0`), options({ cache }));
    expect(first.records).toEqual([]);
    const stored = [...(await cache.get(['tags:acme/internal-deploy', 'repo:acme/internal-deploy', 'tags:actions/checkout'])).keys()];
    // The public action's facts are shared; the private one's served this run only.
    expect(stored).toEqual(['tags:actions/checkout']);
    const before = fake.requests.length;
    await auditRepository(workflow(`acme/internal-deploy@${C1} # v1.0.0`), options({ cache }));
    expect(fake.requests.length).toBeGreaterThan(before);
  });

  it('re-asks GitHub for ref facts after their TTL (1 h) but keeps commit membership for days', async () => {
    let now = 1_000_000;
    const cache = new MemoryCache({ now: () => now });
    await auditRepository(workflow(`actions/checkout@${B1}`), options({ cache }));
    // One query (tags, branches, default branch, advisories), then compare with main (diverged) and releases/v3.
    expect(fake.requests).toEqual(['POST /graphql', `/repos/actions/checkout/compare/main...${B1}?per_page=1`, `/repos/actions/checkout/compare/releases/v3...${B1}?per_page=1`]);
    const cold = fake.requests.length;
    await auditRepository(workflow(`actions/checkout@${B1}`), options({ cache }));
    expect(fake.requests.length).toBe(cold);
    now += 2 * 3600 * 1000;
    await auditRepository(workflow(`actions/checkout@${B1}`), options({ cache }));
    // Only the tag list again (to decide stale-action-ref); membership and advisories (6 h) are still cached.
    expect(fake.requests.slice(cold)).toEqual(['POST /graphql']);
    expect(fake.queries.at(-1)).toContain('refs/tags/');
    expect(fake.queries.at(-1)).not.toMatch(/refs\/heads\/|securityVulnerabilities|defaultBranchRef/);
  });

  it('keeps facts on disk between runs, bounded, and starts empty from a corrupt or foreign file', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'chainbreaker-online-'));
    try {
      const path = join(dir, 'sub', 'online.json');
      const first = new DiskCache(path);
      await auditRepository(workflow(`actions/checkout@${C1}`), options({ cache: first }));
      await first.save();
      const requests = fake.requests.length;
      const second = new DiskCache(path);
      expect(await audit(workflow(`actions/checkout@${C1}`), { cache: second })).toEqual([]);
      expect(fake.requests.length).toBe(requests);

      const small = new DiskCache(path, { maxEntries: 2 });
      await small.set([1, 2, 3].map((n) => ({ key: `k${n}`, value: n, ttlSeconds: 60 })));
      await small.save();
      expect(Object.keys((JSON.parse(await readFile(path, 'utf8')) as { entries: object }).entries)).toEqual(['k2', 'k3']);

      await writeFile(path, '{not json');
      expect(await new DiskCache(path).get(['k2'])).toEqual(new Map());
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('finds its file under XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultCachePath({ XDG_CACHE_HOME: '/x' })).toBe('/x/chainbreaker/online.json');
    expect(defaultCachePath({ HOME: '/home/u' })).toBe('/home/u/.cache/chainbreaker/online.json');
    expect(defaultCachePath({})).toBeNull();
    // A relative directory would resolve against the working directory, often the scanned repository.
    expect(defaultCachePath({ XDG_CACHE_HOME: '.cache', HOME: '/home/u' })).toBe('/home/u/.cache/chainbreaker/online.json');
    expect(defaultCachePath({ XDG_CACHE_HOME: 'x' })).toBeNull();
    expect(defaultCachePath({ HOME: 'relative/home' })).toBeNull();
  });
});

describe('the budget', () => {
  it('spends at most the set share of the remaining hourly limit and reports the rest as unassessed', async () => {
    fake.remaining = 31; // the first answer says 30 left: 10% is 3 more requests
    for (let i = 0; i < 10; i++) fake.add(`org${i}/action`, { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1 }, tags: { v1: C1 } });
    const files = workflow(...Array.from({ length: 10 }, (_, i) => `org${i}/action@${C1}`));
    const { records, unassessed } = await auditRepository(files, options({ reader: restOnly(), isEnabled: (id) => id !== 'known-vulnerable-action' && id !== 'archived-action' }));
    expect(fake.requests.length).toBe(4);
    expect(unassessed).toBe(6);
    expect(records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
    expect(records[0]?.finding.description).toContain('the online budget of 4 requests was spent');
    expect(records[0]?.finding.line).toBe(10);
  });

  it.each(['403', '429'] as const)('stops at a %s rate-limit answer and reports what it could not check', async (kind) => {
    fake.rateLimit = { after: 1, kind };
    const { records } = await auditRepository(workflow(`actions/checkout@${C1}`, 'some-org/deploy@v1', `actions/checkout@${FORK}`), options());
    // The first request (one GraphQL query) answered the tags and refs of both repositories: ref-confusion is
    // decided; the fork commit needs a compare, which meets the limit.
    expect(records.map((r) => `${r.finding.line} ${r.finding.rule_id}`)).toEqual(['7 ref-confusion', '8 online-audit-incomplete']);
    expect(records[1]?.finding.description).toContain('GitHub answered that the rate limit is spent');
    expect(records[1]?.finding.description).toContain(`actions/checkout@${FORK}`);
    expect(fake.requests).toEqual(['POST /graphql', `/repos/actions/checkout/compare/main...${FORK}?per_page=1`]);
  });
});
