import { parse, validate } from 'graphql';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../../bin/cli.js';
import { baselineKey, buildReport, narrowReport } from '../../../lib/engine/report.js';
import type { Finding, RepositoryFile } from '../../../lib/engine/types.js';
import { cleanup, only, tempDir } from '../../bin/support.js';
import { auditRepository, BudgetedReader, collectArchivedSites, fetchReader, liveArchivedFindings, MemoryCache, TTL, type OnlineAuditOptions } from '../../../lib/online/index.js';
import { githubSchema } from '../../support/github/schema.js';
import { FakeActions, sha } from './fake-actions.js';

const C1 = sha('c1');

let fake: FakeActions;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  cleanup();
});
beforeEach(() => {
  const plain = { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1 }, tags: { v1: C1, 'v1.0.0': C1 } };
  fake = new FakeActions()
    .add('old-org/old-action', { ...plain, archived: '2025-03-04T10:20:30Z' })
    .add('undated/archived', { ...plain, archived: true })
    .add('org/maintained', plain)
    // In the snapshot; GitHub says archived (as it is) ...
    .add('actions/create-release', { ...plain, archived: '2021-03-04T00:00:00Z' })
    // ... and here unarchived since the snapshot was made.
    .add('actions/setup-ruby', plain);
  server.resetHandlers(...fake.handlers);
});
afterEach(() => server.resetHandlers());

function workflow(...uses: string[]): RepositoryFile[] {
  const steps = uses.map((u) => `      - uses: ${u}`).join('\n');
  return [{ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n` }];
}

function options(extra: Partial<OnlineAuditOptions> = {}): OnlineAuditOptions {
  return {
    reader: new BudgetedReader(fetchReader({ token: 'ghs_test' })),
    cache: new MemoryCache(),
    isEnabled: (id) => id === 'archived-action' || id === 'online-audit-incomplete',
    ...extra,
  };
}

async function live(files: RepositoryFile[], extra: Partial<OnlineAuditOptions> = {}): Promise<string[]> {
  const { records } = await auditRepository(files, options(extra));
  return records.map((r) => `${r.finding.line}:${r.finding.column} ${r.finding.rule_id} ${r.finding.severity}`);
}

describe('archived-action, live', () => {
  it('reports every use of an archived repository the snapshot lacks, from the batched query (one request)', async () => {
    const files = workflow('old-org/old-action@v1', 'org/maintained@v1', `Old-Org/Old-Action/sub@${C1}`, 'undated/archived@v1.0.0');
    const { records } = await auditRepository(files, options());
    expect(records.map((r) => `${r.finding.line} ${r.finding.rule_id} ${r.finding.severity}`)).toEqual(['6 archived-action LOW', '8 archived-action LOW', '9 archived-action LOW']);
    expect(records[0]?.finding.description).toBe('`old-org/old-action` is archived (since 2025-03-04, GitHub says): it receives no fixes, security fixes included.');
    // As written (case kept), and no date when GitHub gives none.
    expect(records[1]?.finding.description).toContain('`Old-Org/Old-Action` is archived (since 2025-03-04');
    expect(records[2]?.finding.description).toBe('`undated/archived` is archived: it receives no fixes, security fixes included.');
    expect(records.every((r) => r.job === 'build')).toBe(true);
    expect(fake.requests).toEqual(['POST /graphql']);
    for (const query of fake.queries) expect(validate(githubSchema(), parse(query))).toEqual([]);
    expect(fake.queries[0]?.match(/isArchived archivedAt/g)).toHaveLength(3);
    // Names travel as variables.
    expect(fake.queries[0]).not.toContain('old-org');
  });

  it('asks on the alias the pin audits already send: no extra request, no extra alias', async () => {
    const files = workflow(`old-org/old-action@${C1}`);
    await auditRepository(files, options({ isEnabled: () => true }));
    expect(fake.requests).toEqual(['POST /graphql']);
    expect(fake.queries[0]?.match(/repository\(owner:/g)).toHaveLength(1);
    expect(fake.queries[0]).toContain('isArchived archivedAt');
  });

  it('reports nothing for a repository that is not archived', async () => {
    expect(await live(workflow('org/maintained@v1'))).toEqual([]);
    expect(fake.requests).toEqual(['POST /graphql']);
  });

  it('leaves the repositories the snapshot lists to the snapshot: not asked, one finding with its replacement, kept when unarchived since', async () => {
    const files = workflow('actions/create-release@v1', 'actions/setup-ruby@v1');
    expect(await live(files)).toEqual([]);
    // Nothing to ask: no request at all.
    expect(fake.requests).toEqual([]);
    const report = buildReport([{ name: 'r', files, extraRecords: (await auditRepository(files, options())).records }]);
    const found = report.records.filter((r) => r.finding.rule_id === 'archived-action');
    expect(found.map((r) => r.finding.line)).toEqual([6, 7]);
    expect(found[0]?.finding.recommendation).toContain('softprops/action-gh-release');
    expect(found[1]?.finding.recommendation).toContain('ruby/setup-ruby');
  });

  it('reports what GitHub could not answer as unassessed, never as not archived', async () => {
    // A repository GitHub does not know.
    const gone = await auditRepository(workflow('gone/away@v1'), options());
    expect(gone.records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
    expect(gone.records[0]?.finding.description).toContain('gone/away was not found');
    // GraphQL rate limited (GitHub's RATE_LIMITED error, and a 403).
    for (const kind of ['error', '403'] as const) {
      fake.graphqlLimited = kind;
      const { records, unassessed } = await auditRepository(workflow('old-org/old-action@v1'), options());
      expect(records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
      expect(records[0]?.finding.description).toContain('whether old-org/old-action is archived could not be asked (GitHub answered that the GraphQL rate limit is spent)');
      expect(unassessed).toBe(1);
    }
    // A reader without GraphQL (the flag is asked by GraphQL only).
    const inner = fetchReader({ token: 'ghs_test' });
    const restOnly = await auditRepository(workflow('old-org/old-action@v1'), options({ reader: new BudgetedReader({ get: (path) => inner.get(path) }) }));
    expect(restOnly.records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
    expect(restOnly.records[0]?.finding.description).toContain('this reader has no GraphQL');
  });

  it('caches the flag in the shared cache: a hit costs no request, and it is asked again after its TTL', async () => {
    let now = Date.parse('2026-11-26T12:00:00Z');
    const cache = new MemoryCache({ now: () => now });
    const files = workflow('old-org/old-action@v1', 'org/maintained@v1');
    expect(await live(files, { cache })).toEqual(['6:15 archived-action LOW']);
    expect(fake.requests).toHaveLength(1);
    expect(await live(files, { cache })).toEqual(['6:15 archived-action LOW']);
    expect(fake.requests).toHaveLength(1);
    // The cached "not archived" is a fact too: a repository archived meanwhile is seen after the TTL.
    fake.add('org/maintained', { defaultBranch: 'main', commits: { [C1]: [] }, branches: { main: C1 }, tags: { v1: C1 }, archived: '2026-11-26T13:00:00Z' });
    now += (TTL.archived - 60) * 1000;
    expect(await live(files, { cache })).toHaveLength(1);
    expect(fake.requests).toHaveLength(1);
    now += 120 * 1000;
    expect(await live(files, { cache })).toEqual(['6:15 archived-action LOW', '7:15 archived-action LOW']);
    expect(fake.requests).toHaveLength(2);
  });

  it('honours a suppression comment on the uses: line or alone above it, counted and not reported unused', async () => {
    const files: RepositoryFile[] = [
      {
        path: '.github/workflows/ci.yml',
        text: [
          'on: push',
          'jobs:',
          '  build:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - uses: old-org/old-action@v1 # chainbreaker: ignore[archived-action] vendored fork planned',
          '      # chainbreaker: ignore[archived-action]',
          '      - uses: undated/archived@v1',
          '      - uses: old-org/old-action@v1.0.0',
          '',
        ].join('\n'),
      },
    ];
    const { records } = await auditRepository(files, options());
    expect(records.map((r) => r.finding.line)).toEqual([6, 8, 9]);
    const only = { disabled: new Set(['unpinned-uses', 'missing-timeout', 'excessive-permissions', 'default-permissions']), online: true };
    const report = buildReport([{ name: 'r', files, extraRecords: records }], only);
    expect(report.records.filter((r) => r.finding.rule_id === 'archived-action').map((r) => r.finding.line)).toEqual([9]);
    expect(report.suppressed).toBeGreaterThanOrEqual(2);
    expect(report.unusedSuppressions).toEqual([]);
  });

  it('gives a live finding the fingerprint, job and position the offline rule gives the same use', async () => {
    // Uses of a repository the snapshot lists, read as if it did not: every shape of `uses:` the offline rule
    // reports (step, reusable workflow, quoted, repeated in a job, in another job, in an action file).
    const files: RepositoryFile[] = [
      {
        path: '.github/workflows/ci.yml',
        text: [
          'on: push',
          'jobs:',
          '  release:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - uses: actions/create-release@v1',
          "      - uses: 'actions/create-release@v1'",
          '      - uses: actions/create-release@v1',
          '      - uses: "actions/create-release@v1"   # pinned later',
          '  again:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - uses: actions/create-release@v1',
          '  called:',
          '    uses: actions/create-release/.github/workflows/x.yml@v1',
          '',
        ].join('\n'),
      },
      { path: '.github/actions/pack/action.yml', text: "name: pack\nruns:\n  using: composite\n  steps:\n    - uses: actions/create-release@v1\n    - uses: actions/create-release@v1\n" },
    ];
    const offline = buildReport([{ name: 'r', files }]).records.filter((r) => r.finding.rule_id === 'archived-action');
    expect(offline.length).toBe(8);
    const fact = { archived: true, archivedAt: null };
    const online = liveArchivedFindings(collectArchivedSites(files), () => fact, () => undefined);
    const shape = (r: (typeof online)[number]) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.job ?? '-'} ${r.fingerprint}`;
    expect(online.map(shape).sort()).toEqual(offline.map(shape).sort());
    // Distinct fingerprints for repeated uses (occurrences), as offline.
    expect(new Set(online.map((r) => r.fingerprint)).size).toBe(8);
  });

  it('lets a baseline cover the live finding by its line-independent fingerprint', async () => {
    const before = workflow('old-org/old-action@v1');
    const after: RepositoryFile[] = [{ path: before[0]?.path ?? '', text: (before[0]?.text ?? '').replace('    steps:\n', '    timeout-minutes: 5\n    steps:\n') }];
    const first = await auditRepository(before, options());
    const second = await auditRepository(after, options());
    expect(second.records[0]?.finding.line).toBe((first.records[0]?.finding.line ?? 0) + 1);
    expect(second.records[0]?.fingerprint).toBe(first.records[0]?.fingerprint);
    const baseline = new Set(buildReport([{ name: 'r', files: before, extraRecords: first.records }]).records.map(baselineKey));
    const narrowed = narrowReport(buildReport([{ name: 'r', files: after, extraRecords: second.records }]), { baseline });
    expect(narrowed.records.filter((r) => r.finding.rule_id === 'archived-action')).toEqual([]);
    expect(narrowed.baselined).toBeGreaterThan(0);
  });
});

describe('chainbreaker scan --online', () => {
  async function scan(dir: string, online: boolean, cacheHome: string) {
    let stdout = '';
    const argv = ['scan', dir, ...(online ? ['--online'] : []), '--format', 'json', ...only('archived-action', 'online-audit-incomplete')];
    const code = await main({ argv, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => undefined }, env: { GITHUB_TOKEN: 'ghp_test', XDG_CACHE_HOME: cacheHome }, cwd: process.cwd() });
    return { code, findings: (JSON.parse(stdout) as { findings: Finding[] }).findings.map((f) => `${f.line} ${f.rule_id}`) };
  }

  it('reports the live archived repository only with --online, the snapshot one either way', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': workflow('old-org/old-action@v1', 'actions/create-release@v1', 'org/maintained@v1')[0]?.text ?? '' });
    const cacheHome = tempDir();
    expect(await scan(dir, false, cacheHome)).toEqual({ code: EXIT.ok, findings: ['7 archived-action'] });
    expect(fake.requests).toEqual([]);
    expect(await scan(dir, true, cacheHome)).toEqual({ code: EXIT.ok, findings: ['6 archived-action', '7 archived-action'] });
    expect(fake.requests).toEqual(['POST /graphql']);
    // The disk cache answers the second run.
    expect((await scan(dir, true, cacheHome)).findings).toEqual(['6 archived-action', '7 archived-action']);
    expect(fake.requests).toEqual(['POST /graphql']);
  });
});
