import { parse, validate } from 'graphql';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { baselineKey, buildReport, narrowReport } from '../../../lib/engine/report.js';
import type { RepositoryFile } from '../../../lib/engine/types.js';
import { auditRepository, BudgetedReader, fetchReader, inVulnerableRange, MemoryCache, parseRange, releaseAt, type OnlineAuditOptions } from '../../../lib/online/index.js';
import { githubSchema } from '../../support/github/schema.js';
import { FakeActions, sha } from './fake-actions.js';

const C1 = sha('c1');
const C2 = sha('c2');
const C3 = sha('c3');
const FORK = sha('fork');

describe('vulnerable version ranges (the Advisory Database syntax)', () => {
  const release = (version: string) => ({ kind: 'release' as const, version });
  it('matches releases against <, <=, =, >= and two-sided ranges, pre-releases before their release', () => {
    expect(inVulnerableRange(release('4.0.0'), '< 4.0.1')).toBe(true);
    expect(inVulnerableRange(release('4.0.1'), '< 4.0.1')).toBe(false);
    expect(inVulnerableRange(release('2.2.9'), '>= 2, < 2.3')).toBe(true);
    expect(inVulnerableRange(release('2.3.0'), '>= 2, < 2.3')).toBe(false);
    expect(inVulnerableRange(release('1.9.9'), '>= 2, < 2.3')).toBe(false);
    expect(inVulnerableRange(release('2.3.0-rc.1'), '>= 2, < 2.3')).toBe(true);
    expect(inVulnerableRange(release('1.0.8'), '<= 1.0.8')).toBe(true);
    expect(inVulnerableRange(release('1.0.9'), '<= 1.0.8')).toBe(false);
    expect(inVulnerableRange(release('0.2.0'), '= 0.2.0')).toBe(true);
    expect(inVulnerableRange(release('0.2.1'), '= 0.2.0')).toBe(false);
    expect(inVulnerableRange(release('45.0.7'), '<= 45.0.7')).toBe(true);
    expect(inVulnerableRange(release('10.0.0'), '< 9.0.0')).toBe(false);
  });

  it('judges an unresolved floating tag by the newest release of its line, and a branch only by ranges with no fix', () => {
    expect(inVulnerableRange({ kind: 'line', version: '4' }, '< 4.0.1')).toBe(false);
    expect(inVulnerableRange({ kind: 'line', version: '3' }, '< 4.0.1')).toBe(true);
    expect(inVulnerableRange({ kind: 'line', version: '4' }, '>= 4.0.0')).toBe(true);
    expect(inVulnerableRange({ kind: 'line', version: '4' }, '= 4.0.0')).toBe(false);
    expect(inVulnerableRange({ kind: 'branch' }, '< 4.0.1')).toBe(false);
    expect(inVulnerableRange({ kind: 'branch' }, '>= 0')).toBe(true);
  });

  it('refuses text that is not the syntax instead of guessing', () => {
    expect(parseRange('< 4.0.1')).not.toBeNull();
    expect(parseRange('~> 4.0')).toBeNull();
    expect(parseRange('')).toBeNull();
    expect(inVulnerableRange(release('1.0.0'), 'all versions')).toBeNull();
  });

  it('names the release at a commit by its most specific highest tag', () => {
    const tags: [string, string][] = [['v4', C2], ['v4.1.0', C2], ['v4.0.9', C2], ['v4.0.0', C1], ['latest', C2]];
    expect(releaseAt(tags, C2)).toBe('4.1.0');
    expect(releaseAt(tags, C1)).toBe('4.0.0');
    expect(releaseAt(tags, C3)).toBeNull();
  });
});

let fake: FakeActions;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => server.close());
beforeEach(() => {
  fake = new FakeActions()
    .add('org/act', {
      defaultBranch: 'main',
      commits: { [C1]: [], [C2]: [C1], [C3]: [C2], [FORK]: [C3] },
      branches: { main: C3 },
      tags: { 'v1.0.0': C1, 'v1.1.0': C2, v1: C2 },
      annotated: ['v1.1.0'],
    })
    .advise(
      'org/act',
      { ghsaId: 'GHSA-2222-3333-4444', summary: 'branch names reach a shell unescaped', severity: 'HIGH', range: '< 1.1.0', patched: '1.1.0', cve: 'CVE-2026-0001' },
      { ghsaId: 'GHSA-5555-6666-7777', summary: 'debug log shows the token', severity: 'MODERATE', range: '>= 1.0.0, < 1.0.5', patched: '1.0.5' },
      { ghsaId: 'GHSA-8888-9999-cccc', summary: 'withdrawn: not a vulnerability', severity: 'CRITICAL', range: '>= 0', patched: null, withdrawn: true },
    )
    .add('tj-actions/changed-files', { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1 }, tags: { 'v40.0.0': C1 } })
    .advise(
      'tj-actions/changed-files',
      // In the snapshot too (the snapshot's entry decides), and one the snapshot does not have.
      { ghsaId: 'GHSA-mcph-m25j-8j63', summary: 'file names unescaped', severity: 'HIGH', range: '< 41.0.0', patched: '41.0.0' },
      { ghsaId: 'GHSA-ffff-gggg-hhhh', summary: 'a newer advisory', severity: 'HIGH', range: '< 45.0.0', patched: '45.0.0' },
    );
  server.resetHandlers(...fake.handlers);
});
afterEach(() => server.resetHandlers());

function workflow(...uses: string[]): RepositoryFile[] {
  const steps = uses.map((u) => `      - uses: ${u}`).join('\n');
  return [{ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n` }];
}

function options(extra: Partial<OnlineAuditOptions> = {}): OnlineAuditOptions {
  return { reader: new BudgetedReader(fetchReader({ token: 'ghs_test' })), cache: new MemoryCache(), isEnabled: (id) => id === 'known-vulnerable-action' || id === 'online-audit-incomplete', ...extra };
}

async function live(...uses: string[]) {
  const { records } = await auditRepository(workflow(...uses), options());
  return records.map((r) => `${r.finding.line} ${r.finding.rule_id} ${r.finding.severity}`);
}

describe('known-vulnerable-action, live', () => {
  it('reports an exact tag in a range, with every matching advisory, ignoring withdrawn ones', async () => {
    const { records } = await auditRepository(workflow('org/act@v1.0.0'), options());
    expect(records.map((r) => `${r.finding.rule_id} ${r.finding.severity}`)).toEqual(['known-vulnerable-action HIGH']);
    const text = records[0]?.finding.description ?? '';
    expect(text).toContain('GHSA-2222-3333-4444 / CVE-2026-0001: branch names reach a shell unescaped, fixed in 1.1.0');
    expect(text).toContain('GHSA-5555-6666-7777');
    expect(text).not.toContain('GHSA-8888-9999-cccc');
    expect(records[0]?.finding.recommendation).toContain('1.1.0 or later');
  });

  it('resolves a SHA by the release tag at that commit (annotated or not), before its comment', async () => {
    expect(await live(`org/act@${C1}`)).toEqual(['6 known-vulnerable-action HIGH']);
    // The comment says v1.0.0, the commit is v1.1.0 (a fixed release): not affected.
    expect(await live(`org/act@${C2} # v1.0.0`)).toEqual([]);
  });

  it('resolves a floating tag through the tag list (v1 is v1.1.0 here), and does not judge an untagged commit without a comment', async () => {
    expect(await live('org/act@v1')).toEqual([]);
    expect(await live(`org/act@${C3}`)).toEqual([]);
  });

  it('judges a branch only by an advisory no release fixes', async () => {
    expect(await live('org/act@main')).toEqual([]);
    fake.advise('org/act', { ghsaId: 'GHSA-jjjj-mmmm-pppp', summary: 'unfixed', severity: 'LOW', range: '>= 0', patched: null });
    const { records } = await auditRepository(workflow('org/act@main'), options());
    expect(records.map((r) => `${r.finding.rule_id} ${r.finding.severity}`)).toEqual(['known-vulnerable-action LOW']);
    expect(records[0]?.finding.description).toContain('no fixed release yet');
  });

  it('keeps the snapshot authoritative for its own advisories and adds the others, as one finding with the offline fingerprint', async () => {
    const files = workflow('tj-actions/changed-files@v40.0.0');
    const offline = buildReport([{ name: 'r', files }]);
    const offlineRecords = offline.records.filter((r) => r.finding.rule_id === 'known-vulnerable-action');
    expect(offlineRecords).toHaveLength(1);
    const { records } = await auditRepository(files, options());
    expect(records).toHaveLength(1);
    expect(records[0]?.fingerprint).toBe(offlineRecords[0]?.fingerprint);
    expect(records[0]?.job).toBe(offlineRecords[0]?.job);
    expect(records[0]?.finding.line).toBe(offlineRecords[0]?.finding.line);
    expect(records[0]?.finding.column).toBe(offlineRecords[0]?.finding.column);

    const joined = buildReport([{ name: 'r', files, extraRecords: records }]);
    const found = joined.records.filter((r) => r.finding.rule_id === 'known-vulnerable-action');
    expect(found).toHaveLength(1);
    const text = found[0]?.finding.description ?? '';
    expect(text.match(/GHSA-mcph-m25j-8j63/g)).toHaveLength(1);
    expect(text).toContain('GHSA-ffff-gggg-hhhh: a newer advisory, fixed in 45.0.0');
    // A baseline made without --online covers the live finding (same file and fingerprint).
    const baseline = new Set(offline.records.map(baselineKey));
    expect(narrowReport(joined, { baseline }).records.filter((r) => r.finding.rule_id === 'known-vulnerable-action')).toEqual([]);
  });

  it('reports a live-only advisory on a use the snapshot does not flag, and nothing when only snapshot advisories match', async () => {
    const files = workflow('org/act@v1.0.0');
    expect(buildReport([{ name: 'r', files }]).records.filter((r) => r.finding.rule_id === 'known-vulnerable-action')).toEqual([]);
    const { records } = await auditRepository(files, options());
    const joined = buildReport([{ name: 'r', files, extraRecords: records }]).records.filter((r) => r.finding.rule_id === 'known-vulnerable-action');
    expect(joined.map((r) => r.fingerprint)).toEqual(records.map((r) => r.fingerprint));
    // tj-actions/changed-files v40.0.0: with the newer advisory gone from the answer, only the snapshot's own
    // advisory matches live: no online finding, the offline one is left alone.
    fake.advisories.set('tj-actions/changed-files', (fake.advisories.get('tj-actions/changed-files') ?? []).filter((v) => v.ghsaId === 'GHSA-mcph-m25j-8j63'));
    expect(await live('tj-actions/changed-files@v40.0.0')).toEqual([]);
  });

  it('asks every package of a scan in one query, validated against GitHub\'s schema, and caches the answer', async () => {
    const cache = new MemoryCache();
    await auditRepository(workflow('org/act@v1.0.0', 'tj-actions/changed-files@v40.0.0', 'nobody/there@v1'), options({ cache }));
    expect(fake.requests).toEqual(['POST /graphql']);
    for (const query of fake.queries) expect(validate(githubSchema(), parse(query))).toEqual([]);
    expect(fake.queries[0]?.match(/securityVulnerabilities\(ecosystem: ACTIONS/g)).toHaveLength(3);
    // Names travel as variables, never inside the document.
    expect(fake.queries[0]).not.toContain('org/act');
    await auditRepository(workflow('org/act@v1.0.0'), options({ cache }));
    expect(fake.requests).toHaveLength(1);
  });

  it('falls back to the snapshot when GraphQL is rate limited (RATE_LIMITED error or 403), and says so: unassessed, not clean', async () => {
    for (const kind of ['error', '403'] as const) {
      fake.graphqlLimited = kind;
      fake.requests = [];
      const { records } = await auditRepository(workflow('org/act@v1.0.0'), options());
      expect(records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
      expect(records[0]?.finding.description).toContain('the GitHub Advisory Database could not be asked (GitHub answered that the GraphQL rate limit is spent)');
      expect(records[0]?.finding.description).toContain('built-in snapshot only');
      expect(fake.requests).toEqual(['POST /graphql']);
    }
  });
});

describe('GraphQL batching and its budget', () => {
  it('reads the pin facts over REST when GraphQL is rate limited, without ending the REST budget', async () => {
    fake.graphqlLimited = 'error';
    const { records } = await auditRepository(workflow(`org/act@${FORK}`), options({ isEnabled: (id) => id === 'impostor-commit' }));
    expect(records.map((r) => r.finding.rule_id)).toEqual(['impostor-commit']);
    expect(fake.requests[0]).toBe('POST /graphql');
    expect(fake.requests).toContain('/repos/org/act/tags?per_page=100&page=1');
  });

  it('spends at most the set share of the remaining GraphQL points, then reads over REST', async () => {
    fake.graphqlRemaining = 11; // the first answer says 10 left: 10% is one more query
    const uses: string[] = [];
    for (let i = 0; i < 60; i++) {
      fake.add(`many${i}/act`, { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1, v1: C1 }, tags: { v1: C1 } });
      uses.push(`many${i}/act@v1`);
    }
    const reader = new BudgetedReader(fetchReader({ token: 'ghs_test' }));
    const { records } = await auditRepository(workflow(...uses), options({ reader, isEnabled: (id) => id === 'ref-confusion' }));
    expect(records).toHaveLength(60);
    expect(reader.graphqlRequests).toBe(2);
    expect(reader.graphqlPoints).toBe(2);
    // 25 + 25 repositories by GraphQL; the last 10 by REST (heads and tags, each exact).
    expect(fake.requests.filter((r) => r === 'POST /graphql')).toHaveLength(2);
    expect(fake.requests.filter((r) => r.includes('/git/matching-refs/'))).toHaveLength(20);
  });

  it('pages tag lists longer than 100 in further batched rounds', async () => {
    const tags: Record<string, string> = { 'v9.0.0': C2 };
    for (let i = 0; i < 150; i++) tags[`a${String(i).padStart(3, '0')}`] = C1;
    fake.add('long/list', { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1] }, branches: { main: C2 }, tags });
    // v9.0.0 sorts after the 150 a-tags: on the second page.
    const { records } = await auditRepository(workflow(`long/list@${C1} # v9.0.0`), options({ isEnabled: () => true }));
    expect(records.map((r) => r.finding.rule_id)).toEqual(['ref-version-mismatch']);
    expect(fake.requests).toEqual(['POST /graphql', 'POST /graphql']);
  });
});

describe('suppression comments and baselines cover online findings', () => {
  it('suppresses an online finding by a comment on its uses: line (or alone above it), counted and not reported unused', async () => {
    const files: RepositoryFile[] = [
      {
        path: '.github/workflows/ci.yml',
        text: [
          'on: push',
          'permissions: {}',
          'jobs:',
          '  build:',
          '    runs-on: ubuntu-latest',
          '    timeout-minutes: 5',
          '    steps:',
          `      - uses: org/act@${FORK} # chainbreaker: ignore[impostor-commit] reviewed: our fork`,
          '      # chainbreaker: ignore[stale-action-ref]',
          `      - uses: org/act@${C3}`,
          '',
        ].join('\n'),
      },
    ];
    const { records } = await auditRepository(files, options({ isEnabled: (id) => id === 'impostor-commit' || id === 'stale-action-ref' }));
    expect(records.map((r) => `${r.finding.line} ${r.finding.rule_id}`)).toEqual(['8 impostor-commit', '10 stale-action-ref']);
    const report = buildReport([{ name: 'r', files, extraRecords: records }], { disabled: new Set(['unpinned-uses', 'known-vulnerable-action']), online: true });
    expect(report.records.filter((r) => r.finding.rule_id === 'impostor-commit' || r.finding.rule_id === 'stale-action-ref')).toEqual([]);
    expect(report.suppressed).toBeGreaterThanOrEqual(2);
    expect(report.unusedSuppressions).toEqual([]);
    // Used by the online findings: an online run without them reports the same comments unused; an offline
    // run cannot judge them and reports nothing.
    expect(buildReport([{ name: 'r', files }], { disabled: new Set(['unpinned-uses', 'known-vulnerable-action']), online: true }).unusedSuppressions.map((u) => u.line)).toEqual([8, 9]);
    expect(buildReport([{ name: 'r', files }], { disabled: new Set(['unpinned-uses', 'known-vulnerable-action']) }).unusedSuppressions).toEqual([]);
  });

  it('lets a baseline cover online findings by their line-independent fingerprint', async () => {
    const before = workflow(`org/act@${FORK}`);
    const after: RepositoryFile[] = [{ path: before[0]?.path ?? '', text: (before[0]?.text ?? '').replace('    steps:\n', '    timeout-minutes: 5\n    steps:\n') }];
    const first = await auditRepository(before, options({ isEnabled: (id) => id === 'impostor-commit' }));
    const second = await auditRepository(after, options({ isEnabled: (id) => id === 'impostor-commit' }));
    expect(second.records[0]?.finding.line).toBe((first.records[0]?.finding.line ?? 0) + 1);
    const baseline = new Set(buildReport([{ name: 'r', files: before, extraRecords: first.records }]).records.map(baselineKey));
    const narrowed = narrowReport(buildReport([{ name: 'r', files: after, extraRecords: second.records }]), { baseline });
    expect(narrowed.records.filter((r) => r.finding.rule_id === 'impostor-commit')).toEqual([]);
    expect(narrowed.baselined).toBeGreaterThan(0);
  });
});
