import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../../bin/cli.js';
import { buildReport } from '../../../lib/engine/report.js';
import type { Finding, FindingRecord, RepositoryFile } from '../../../lib/engine/types.js';
import { cleanup, only, tempDir } from '../../bin/support.js';
import { auditRepository, BudgetedReader, collectTagSites, fetchReader, liveImmutableFindings, MemoryCache, TTL, type OnlineAuditOptions } from '../../../lib/online/index.js';
import { FakeActions, sha } from './fake-actions.js';

const C1 = sha('i1');
const C2 = sha('i2');

let fake: FakeActions;
const server = setupServer();
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterAll(() => {
  server.close();
  cleanup();
});
beforeEach(() => {
  const base = { defaultBranch: 'main', commits: { [C1]: [], [C2]: [C1] }, branches: { main: C2 }, tags: { v2: C2, 'v2.0.0': C2, 'v1.0.0': C1 } };
  fake = new FakeActions()
    // Its releases are immutable since v2.
    .add('safe-org/setup-tool', { ...base, releases: { 'v2.0.0': { immutable: true }, 'v1.0.0': { immutable: false } } })
    // Releases, none immutable.
    .add('plain-org/setup-tool', { ...base, releases: { 'v2.0.0': { immutable: false } } })
    // Tags without releases.
    .add('tags-only/setup-tool', base)
    .add('slsa-framework/slsa-github-generator', { ...base, releases: { 'v2.0.0': { immutable: true } } });
  server.resetHandlers(...fake.handlers);
});
afterEach(() => server.resetHandlers());

/** A job that holds a secret, so the offline rule reports another owner's action on a tag MEDIUM. */
function workflow(...uses: string[]): RepositoryFile[] {
  const steps = uses.map((u) => `      - uses: ${u}`).join('\n');
  return [{ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    env:\n      DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}\n    steps:\n${steps}\n` }];
}

function options(extra: Partial<OnlineAuditOptions> = {}): OnlineAuditOptions {
  return {
    reader: new BudgetedReader(fetchReader({ token: 'ghs_test' })),
    cache: new MemoryCache(),
    isEnabled: (id) => id === 'unpinned-action' || id === 'online-audit-incomplete',
    ...extra,
  };
}

const RELEASE_REQUESTS = /\/releases\/tags\//;

function rows(records: readonly FindingRecord[]): string[] {
  return records.filter((r) => r.finding.rule_id === 'unpinned-action').map((r) => `${r.finding.line} ${r.finding.severity} ${r.fingerprint}`);
}

/** The report without and with the online records. */
async function reports(files: RepositoryFile[], extra: Partial<OnlineAuditOptions> = {}) {
  const audit = await auditRepository(files, options(extra));
  const offline = buildReport([{ name: 'r', files }]);
  const online = buildReport([{ name: 'r', files, extraRecords: audit.records }], { online: true });
  return { audit, offline, online };
}

describe('unpinned-action, amended by immutable releases', () => {
  it('replaces the finding of a tag GitHub says is an immutable release with a LOW one of the same fingerprint', async () => {
    const files = workflow('safe-org/setup-tool@v2.0.0', 'plain-org/setup-tool@v2.0.0');
    const { audit, offline, online } = await reports(files);
    expect(rows(offline.records).map((r) => r.split(' ')[1])).toEqual(['MEDIUM', 'MEDIUM']);
    const [immutable, plain] = rows(offline.records);
    const amended = rows(online.records);
    expect(amended).toEqual([immutable?.replace('MEDIUM', 'LOW'), plain]);
    const finding = online.records.find((r) => r.finding.rule_id === 'unpinned-action' && r.finding.severity === 'LOW')?.finding;
    expect(finding?.description).toBe(
      'Action `safe-org/setup-tool` is referenced by the tag `v2.0.0`, the tag of an immutable release (GitHub says so): its owner can neither move nor delete that tag, so only the release already published runs. LOW: a full commit SHA would still say in the workflow itself which code runs.',
    );
    expect(audit.records.every((r) => r.job === 'build')).toBe(true);
    // One request per distinct release, nothing unassessed.
    expect(fake.requests.filter((p) => RELEASE_REQUESTS.test(p))).toEqual(['/repos/safe-org/setup-tool/releases/tags/v2.0.0', '/repos/plain-org/setup-tool/releases/tags/v2.0.0']);
    expect(audit.unassessed).toBe(0);
  });

  it('leaves `immutable: false` and a tag without a release (404) as they are', async () => {
    const files = workflow('safe-org/setup-tool@v1.0.0', 'tags-only/setup-tool@v2.0.0');
    const { audit, offline, online } = await reports(files);
    expect(audit.records).toEqual([]);
    expect(rows(online.records)).toEqual(rows(offline.records));
    expect(fake.requests.filter((p) => RELEASE_REQUESTS.test(p))).toHaveLength(2);
  });

  it('does not ask a major tag, a branch name or a short SHA: they move with every release whatever the setting', async () => {
    const files = workflow('safe-org/setup-tool@v2', 'safe-org/setup-tool@main', 'safe-org/setup-tool@v2.0', `safe-org/setup-tool@${C2.slice(0, 7)}`);
    const { audit } = await reports(files);
    expect(audit.records).toEqual([]);
    expect(fake.requests.filter((p) => RELEASE_REQUESTS.test(p))).toEqual([]);
  });

  it('asks each distinct release once, and caches the answer (a week when immutable)', async () => {
    let now = Date.parse('2026-11-26T12:00:00Z');
    const cache = new MemoryCache({ now: () => now });
    const files = workflow('safe-org/setup-tool@v2.0.0', 'safe-org/setup-tool@v2.0.0', 'plain-org/setup-tool@v2.0.0');
    const first = await auditRepository(files, options({ cache }));
    expect(first.records.map((r) => r.finding.line)).toEqual([8, 9]);
    // Repeated uses keep their own (distinct) fingerprints, as offline.
    expect(new Set(first.records.map((r) => r.fingerprint)).size).toBe(2);
    const asked = () => fake.requests.filter((p) => RELEASE_REQUESTS.test(p)).length;
    expect(asked()).toBe(2);
    now += (TTL.release + 60) * 1000;
    const second = await auditRepository(files, options({ cache }));
    expect(second.records.map((r) => r.fingerprint)).toEqual(first.records.map((r) => r.fingerprint));
    // The immutable one is still cached; the other is asked again after its day.
    expect(asked()).toBe(3);
    now += TTL.immutableRelease * 1000;
    await auditRepository(files, options({ cache }));
    expect(asked()).toBe(5);
  });

  it('never raises: a use the offline rule does not report stays unreported', async () => {
    // The SLSA generator's release tags are not reported offline; the online record is dropped at the join.
    const files = workflow('slsa-framework/slsa-github-generator@v2.0.0');
    const { audit, offline, online } = await reports(files);
    expect(audit.records).toHaveLength(1);
    expect(rows(offline.records)).toEqual([]);
    expect(rows(online.records)).toEqual([]);
    // Nor does a suppressed offline finding come back or count twice.
    const suppressed: RepositoryFile[] = [{ path: '.github/workflows/ci.yml', text: `${workflow('safe-org/setup-tool@v2.0.0')[0]?.text.trimEnd() ?? ''} # chainbreaker: ignore[unpinned-action]\n` }];
    const again = await reports(suppressed);
    expect(rows(again.online.records)).toEqual([]);
    expect(again.online.suppressed).toBe(again.offline.suppressed);
    expect(again.online.unusedSuppressions).toEqual([]);
  });

  it('keeps the finding and names the reference unassessed when the budget or the rate limit stops the question', async () => {
    const files = workflow('safe-org/setup-tool@v2.0.0');
    for (const reader of [new BudgetedReader(fetchReader({ token: 'ghs_test' }), { maxRequests: 0 }), null]) {
      fake.requests = [];
      fake.rateLimit = reader === null ? { after: 0, kind: '403' } : null;
      const { audit, offline, online } = await reports(files, reader === null ? {} : { reader });
      expect(rows(online.records)).toEqual(rows(offline.records));
      expect(audit.records.map((r) => r.finding.rule_id)).toEqual(['online-audit-incomplete']);
      expect(audit.records[0]?.finding.description).toContain('whether the release safe-org/setup-tool@v2.0.0 is immutable could not be asked');
      expect(audit.records[0]?.finding.description).toContain('`safe-org/setup-tool@v2.0.0`');
      expect(audit.unassessed).toBe(1);
    }
  });

  it('is not asked when unpinned-action is off', async () => {
    const audit = await auditRepository(workflow('safe-org/setup-tool@v2.0.0'), options({ isEnabled: (id) => id === 'online-audit-incomplete' }));
    expect(audit.records).toEqual([]);
    expect(fake.requests).toEqual([]);
  });

  it('gives each site the offline fingerprint (reusable workflow, repeated, action file)', () => {
    const files: RepositoryFile[] = [
      {
        path: '.github/workflows/ci.yml',
        text: [
          'on: push',
          'jobs:',
          '  one:',
          '    runs-on: ubuntu-latest',
          '    steps:',
          '      - uses: safe-org/setup-tool@v2.0.0',
          "      - uses: 'safe-org/setup-tool@v2.0.0'",
          '      - uses: safe-org/setup-tool@v2.0.0',
          '  called:',
          '    uses: safe-org/setup-tool/.github/workflows/x.yml@v2.0.0',
          '',
        ].join('\n'),
      },
      { path: '.github/actions/pack/action.yml', text: 'name: pack\nruns:\n  using: composite\n  steps:\n    - uses: safe-org/setup-tool@v2.0.0\n' },
    ];
    const offline = buildReport([{ name: 'r', files }]).records.filter((r) => r.finding.rule_id === 'unpinned-action');
    expect(offline).toHaveLength(5);
    const online = liveImmutableFindings(collectTagSites(files), () => ({ immutable: true }));
    const shape = (r: FindingRecord) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.job ?? '-'} ${r.fingerprint}`;
    expect(online.map(shape).sort()).toEqual(offline.map(shape).sort());
    expect(online.find((r) => r.job === 'called')?.finding.description).toMatch(/^Reusable workflow `safe-org\/setup-tool\/\.github\/workflows\/x\.yml` is referenced by the tag `v2\.0\.0`/);
  });
});

describe('chainbreaker scan --online', () => {
  it('reports the immutable release LOW with --online, MEDIUM without', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': workflow('safe-org/setup-tool@v2.0.0')[0]?.text ?? '' });
    const cacheHome = tempDir();
    const scan = async (online: boolean) => {
      let stdout = '';
      const argv = ['scan', dir, ...(online ? ['--online'] : []), '--format', 'json', ...only('unpinned-action', 'online-audit-incomplete')];
      const code = await main({ argv, stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => undefined }, env: { GITHUB_TOKEN: 'ghp_test', XDG_CACHE_HOME: cacheHome }, cwd: process.cwd() });
      return { code, findings: (JSON.parse(stdout) as { findings: Finding[] }).findings.map((f) => `${f.line} ${f.rule_id} ${f.severity}`) };
    };
    expect(await scan(false)).toEqual({ code: EXIT.ok, findings: ['8 unpinned-action MEDIUM'] });
    expect(fake.requests).toEqual([]);
    expect((await scan(true)).findings).toEqual(['8 unpinned-action LOW']);
  });
});
