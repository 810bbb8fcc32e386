/**
 * The code-host benchmarks, on the fake GitHub (msw, 50 ms added to every request) and a real database,
 * through the real endpoint handlers:
 *
 * - scan endpoint: `POST /api/scan` end to end for repositories with 1, 10 and 60 workflows, sequential
 *   round trips to GitHub on the critical path (first scan of the installation: the token request; then
 *   cached), next to two naive strategies measured in the same run (list `.github/workflows` through the
 *   contents API, then one request per file: in parallel, and one after the other);
 * - request budget: requests per scan (public, private, an installation without the settings permissions,
 *   whose unreadable areas cost no request and no 403), per repository sync;
 * - repository sync: `GET /api/repos` for a user with 5 installations x 300 repositories (pages of 100):
 *   requests, round trips, latency, database round trips.
 */
import { createSign } from 'node:crypto';
import type { CodeHost, FetchOptions, RepositoryLocator, RepositorySnapshot } from '../lib/codehost/port.js';
import type { RepositoryFile } from '../lib/engine/types.js';
import { bearer } from '../tests/support/auth.js';
import { startFakeGitHub, testAppCredentials, testGitHubCodeHost, type FakeGitHub, type Permissions } from '../tests/support/github/index.js';
import { loadCorpus } from './corpus.js';
import { endpoints, openBenchDatabase, request, serveWith, timed, type BenchDatabase } from './service.js';
import { ms, summarize, table } from './stats.js';

export const LATENCY_MS = 50;
const WORKFLOW_COUNTS = [1, 10, 60] as const;
const SCANS_PER_CASE = 5;
const SYNC_INSTALLATIONS = 5;
const SYNC_REPOSITORIES = 300;
/** Issue 31: a service scan of a 300-file repository, token cached; p95 budget 1.5 s. */
const LARGE_FILES = 300;
const LARGE_SCANS = 20;
const LARGE_BUDGET_MS = 1500;

interface ScanCase {
  workflows: number;
  /** The first scan of the installation in the process: the token request comes first. */
  coldToken: { ms: number; roundTrips: number; requests: number };
  /** With the installation token cached: p50 over the scans. */
  cachedToken: { p50Ms: number; roundTrips: number; requests: number };
  naiveParallel: { p50Ms: number; roundTrips: number; requests: number };
  naiveSequential: { p50Ms: number; roundTrips: number; requests: number };
  findings: number;
}

/** A 300-file repository scanned through the endpoint with the token cached. */
export interface LargeScan {
  files: number;
  scans: number;
  p50Ms: number;
  p95Ms: number;
  roundTrips: number;
  requests: number;
  findings: number;
}

export interface GitHubBenchResult {
  latencyMs: number;
  database: string;
  scan: ScanCase[];
  large: LargeScan;
  budget: {
    publicScan: number;
    privateScan: number;
    /** Of those, REST requests (the rest are GraphQL queries, on GitHub's separate GraphQL budget). */
    publicRest: number;
    privateRest: number;
    /** Requests of a scan whose locator still says private while the repository is public (a stale sync). */
    stalePrivateScan: number;
    /** A public repository with 10 workflows and 30 action definitions under packages/ (token cached). */
    actionsScan: { requests: number; graphql: number; roundTrips: number; files: number };
    /** An installation with Metadata and Contents only: requests, 403s answered, areas recorded unreadable. */
    contentsOnly: { requests: number; forbidden: number; unreadable: string[] };
    perSyncedRepository: number;
  };
  sync: {
    installations: number;
    repositories: number;
    requests: number;
    roundTrips: number;
    p50Ms: number;
    databaseRoundTrips: number;
    databaseFunctions: string[];
  };
}

/** Workflows of the corpus that name no local action (those cost a follow-up, measured apart in the tests). */
function corpusWorkflows(count: number): RepositoryFile[] {
  const out: RepositoryFile[] = [];
  for (const repo of loadCorpus()) {
    for (const file of repo.files) {
      if (!file.path.startsWith('.github/workflows/') || /uses:\s*['"]?\.\//.test(file.text)) continue;
      out.push({ path: `.github/workflows/w${String(out.length).padStart(3, '0')}-${file.path.split('/').pop() ?? ''}`, text: file.text });
      if (out.length === count) return out;
    }
  }
  return out;
}

/** The GitHub identity a signed-in user has (Supabase's `auth.identities` row), as tests/support/codehost.ts adds it. */
async function signInWithGitHub(bench: BenchDatabase, userId: string, account: { id: string; login: string }): Promise<void> {
  const data = JSON.stringify({ sub: account.id, provider_id: account.id, user_name: account.login, preferred_username: account.login });
  await bench.db.transaction((tx) => tx.query(`insert into auth.identities (provider_id, user_id, identity_data, provider) values ($1, $2, $3::jsonb, 'github')`, [account.id, userId, data]));
}

/** Installation token for the naive strategies, cached like the adapter's. */
class TokenSource {
  readonly #tokens = new Map<number, string>();
  constructor(readonly apiUrl: string) {}

  async token(installationId: number): Promise<string> {
    const cached = this.#tokens.get(installationId);
    if (cached !== undefined) return cached;
    const { appId, privateKey } = testAppCredentials();
    const now = Math.floor(Date.now() / 1000) - 30;
    const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const input = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: now, exp: now + 600, iss: appId })}`;
    const jwt = `${input}.${createSign('sha256').update(input).sign(privateKey, 'base64url')}`;
    const response = await fetch(`${this.apiUrl}/app/installations/${installationId}/access_tokens`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
    const { token } = (await response.json()) as { token: string };
    this.#tokens.set(installationId, token);
    return token;
  }
}

/**
 * The naive strategy: the workflows listed through the contents API, then one request per file (all at
 * once, or one after the other). Settings come from the adapter's own batch, sent alongside, so the
 * difference measured is the files alone.
 */
class NaiveCodeHost implements Pick<CodeHost, 'fetchSnapshot'> {
  constructor(
    readonly real: CodeHost,
    readonly tokens: TokenSource,
    readonly sequential: boolean,
  ) {}

  async fetchSnapshot(locator: RepositoryLocator, options?: FetchOptions): Promise<RepositorySnapshot> {
    const [snapshot, files] = await Promise.all([this.real.fetchSnapshot(locator, options), this.files(locator)]);
    return { ...snapshot, files, requests: snapshot.requests + 1 + files.length };
  }

  async files(locator: RepositoryLocator): Promise<RepositoryFile[]> {
    const token = await this.tokens.token(locator.installationId);
    const get = async (url: string) => {
      const response = await fetch(url, { headers: { authorization: `token ${token}`, accept: 'application/vnd.github+json' } });
      if (!response.ok) throw new Error(`${url}: ${response.status}`);
      return (await response.json()) as unknown;
    };
    const listing = (await get(`${this.tokens.apiUrl}/repos/${locator.fullName}/contents/.github/workflows`)) as { type: string; path: string; url: string }[];
    const wanted = listing.filter((e) => e.type === 'file' && /\.ya?ml$/.test(e.path));
    const read = async (entry: { path: string; url: string }): Promise<RepositoryFile> => {
      const body = (await get(entry.url)) as { content: string };
      return { path: entry.path, text: Buffer.from(body.content, 'base64').toString('utf8') };
    };
    if (!this.sequential) return Promise.all(wanted.map(read));
    const files: RepositoryFile[] = [];
    for (const entry of wanted) files.push(await read(entry));
    return files;
  }
}

export async function benchGitHub(): Promise<GitHubBenchResult> {
  const { github, close } = startFakeGitHub({ latencyMs: LATENCY_MS });
  const bench = await openBenchDatabase();
  try {
    return await run(github, bench);
  } finally {
    close();
    await bench.close();
  }
}

async function run(github: FakeGitHub, bench: BenchDatabase): Promise<GitHubBenchResult> {
  await serveWith(bench.db);
  const { useCodeHost } = await import('../lib/codehost/index.js');
  const api = await endpoints();
  const host = testGitHubCodeHost();
  useCodeHost(host);

  const org = { id: 7_000_001, login: 'bench-org' };
  github.addInstallation({ id: org.id, account: { login: org.login, id: 7_100_001, type: 'Organization' } });
  for (const n of WORKFLOW_COUNTS) {
    const files = Object.fromEntries(corpusWorkflows(n).map((f) => [f.path, f.text]));
    github.addRepository({ fullName: `${org.login}/workflows-${n}`, installationId: org.id, files });
  }
  github.addRepository({ fullName: `${org.login}/private-10`, installationId: org.id, visibility: 'private', files: Object.fromEntries(corpusWorkflows(10).map((f) => [f.path, f.text])) });
  github.addRepository({ fullName: `${org.login}/workflows-${LARGE_FILES}`, installationId: org.id, files: Object.fromEntries(corpusWorkflows(LARGE_FILES).map((f) => [f.path, f.text])) });

  const userId = await bench.createUser();
  const authorization = await bearer(userId);
  // An organization link is kept only while the user is an owner of the organization on GitHub, and the
  // membership must name the account the user signed in with (by id: a renamed login is not the owner).
  const owner = { id: '7400001', login: 'bench-owner' };
  await signInWithGitHub(bench, userId, owner);
  github.addMember(org.login, owner, 'active', 'admin');
  await bench.db.call('link_installation', { p_user_id: userId, p_installation_id: org.id, p_account_login: org.login, p_account_type: 'Organization', p_github_user_id: '7400001' });
  const listed = await request(api.repos, 'GET', '/api/repos', authorization);
  const listedBody = (await listed.json()) as { connected?: boolean; repositories?: { id: string; full_name: string }[] };
  if (listed.status !== 200 || listedBody.repositories === undefined) throw new Error(`GET /api/repos: ${listed.status} ${JSON.stringify(listedBody).slice(0, 300)}`);
  const { repositories } = listedBody as { repositories: { id: string; full_name: string }[] };
  const idOf = (name: string) => {
    const id = repositories.find((r) => r.full_name === `${org.login}/${name}`)?.id;
    if (id === undefined) throw new Error(`bench: ${org.login}/${name} is not among the ${repositories.length} repositories GET /api/repos listed (connected: ${String(listedBody.connected)}); the owner check or the sync dropped it`);
    return id;
  };

  // One POST /api/scan: latency, GitHub round trips and requests.
  const scanOnce = async (repoId: string) => {
    github.reset();
    const { ms: elapsed, value: response } = await timed(() => request(api.scan, 'POST', '/api/scan', authorization, { repo_id: repoId }));
    if (response.status !== 200) throw new Error(`POST /api/scan: ${response.status} ${await response.text()}`);
    const body = (await response.json()) as { findings: unknown[] };
    return { ms: elapsed, roundTrips: github.roundTrips(), requests: github.count(), findings: body.findings.length };
  };
  const repeated = async (repoId: string) => {
    const runs = [];
    for (let i = 0; i < SCANS_PER_CASE; i++) runs.push(await scanOnce(repoId));
    return { p50Ms: summarize(runs.map((r) => r.ms)).p50, roundTrips: Math.max(...runs.map((r) => r.roundTrips)), requests: Math.max(...runs.map((r) => r.requests)) };
  };

  const tokens = new TokenSource(host.apiUrl);
  const naiveParallel = new NaiveCodeHost(host, tokens, false) as unknown as CodeHost;
  const naiveSequential = new NaiveCodeHost(host, tokens, true) as unknown as CodeHost;
  const cases: ScanCase[] = [];
  for (const n of WORKFLOW_COUNTS) {
    const repoId = idOf(`workflows-${n}`);
    // A fresh adapter has no token cached: its first scan is the cold start of an installation.
    useCodeHost(testGitHubCodeHost());
    const cold = await scanOnce(repoId);
    const cached = await repeated(repoId);
    useCodeHost(naiveParallel);
    await tokens.token(org.id);
    const parallel = await repeated(repoId);
    useCodeHost(naiveSequential);
    const sequential = await repeated(repoId);
    useCodeHost(host);
    cases.push({
      workflows: n,
      coldToken: { ms: cold.ms, roundTrips: cold.roundTrips, requests: cold.requests },
      cachedToken: cached,
      naiveParallel: parallel,
      naiveSequential: sequential,
      findings: cold.findings,
    });
  }

  // A 300-file repository, token cached (the adapter of the last case has it): p50 and p95 of the endpoint.
  useCodeHost(host);
  await scanOnce(idOf(`workflows-${LARGE_FILES}`));
  const largeRuns = [];
  for (let i = 0; i < LARGE_SCANS; i++) largeRuns.push(await scanOnce(idOf(`workflows-${LARGE_FILES}`)));
  const largeStats = summarize(largeRuns.map((r) => r.ms));
  const large: LargeScan = {
    files: LARGE_FILES,
    scans: LARGE_SCANS,
    p50Ms: largeStats.p50,
    p95Ms: largeStats.p95,
    roundTrips: Math.max(...largeRuns.map((r) => r.roundTrips)),
    requests: Math.max(...largeRuns.map((r) => r.requests)),
    findings: largeRuns[0]?.findings ?? 0,
  };

  // Request budget: requests per scan with the token cached, and how many of them are GraphQL queries
  // (GitHub counts those against a separate hourly budget of points: one point each here).
  const requestsOf = async (repo: string) => {
    const { requests } = await scanOnce(idOf(repo));
    return { requests, graphql: github.count('POST /graphql') };
  };
  await requestsOf('workflows-10');
  const publicCounts = await requestsOf('workflows-10');
  const privateCounts = await requestsOf('private-10');
  const publicScan = publicCounts.requests;
  const privateScan = privateCounts.requests;
  // The repository was made public after the sync: the public-only areas follow in a second round.
  github.reset();
  const stale = await host.fetchSnapshot({ installationId: org.id, fullName: `${org.login}/workflows-10`, defaultBranch: 'main', private: true });
  const stalePrivateScan = stale.requests;

  // Action definitions outside the workflow surface (issue 17): 30 under packages/, found by the tree
  // listing and read in one round of batched GraphQL queries.
  const actionFiles = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`packages/p${String(i).padStart(2, '0')}/action.yml`, 'name: p\ndescription: p\nruns:\n  using: composite\n  steps:\n    - run: echo hi\n      shell: bash\n']));
  github.addRepository({ fullName: `${org.login}/actions-30`, installationId: org.id, files: { ...Object.fromEntries(corpusWorkflows(10).map((f) => [f.path, f.text])), ...actionFiles } });
  await host.fetchSnapshot({ installationId: org.id, fullName: `${org.login}/actions-30`, defaultBranch: 'main', private: false });
  github.reset();
  const withActions = await host.fetchSnapshot({ installationId: org.id, fullName: `${org.login}/actions-30`, defaultBranch: 'main', private: false });
  const actionsScan = { requests: withActions.requests, graphql: github.count('POST /graphql'), roundTrips: github.roundTrips(), files: withActions.files.length };

  // An installation granted Metadata and Contents only: every settings area it cannot read is recorded
  // unreadable from the token's permissions, without a request.
  const narrow = { id: 7_000_002, login: 'narrow-org' };
  const contentsOnly: Permissions = { metadata: 'read', contents: 'read' };
  github.addInstallation({ id: narrow.id, account: { login: narrow.login, id: 7_100_002, type: 'Organization' }, permissions: contentsOnly });
  github.addRepository({ fullName: `${narrow.login}/app`, installationId: narrow.id, files: Object.fromEntries(corpusWorkflows(10).map((f) => [f.path, f.text])) });
  await host.fetchSnapshot({ installationId: narrow.id, fullName: `${narrow.login}/app`, defaultBranch: 'main', private: false });
  github.reset();
  const narrowSnapshot = await host.fetchSnapshot({ installationId: narrow.id, fullName: `${narrow.login}/app`, defaultBranch: 'main', private: false });
  const budget = {
    publicScan,
    privateScan,
    publicRest: publicScan - publicCounts.graphql,
    privateRest: privateScan - privateCounts.graphql,
    stalePrivateScan,
    actionsScan,
    contentsOnly: {
      requests: github.count(),
      forbidden: github.count((r) => r.status === 403),
      unreadable: Object.keys(narrowSnapshot.settings.unreadable ?? {}).sort(),
    },
    perSyncedRepository: 0,
  };

  // Repository sync: 5 installations x 300 repositories, pages of 100, for a new user.
  const syncUser = await bench.createUser();
  const syncOwner = { id: '7400002', login: 'bench-sync-owner' };
  await signInWithGitHub(bench, syncUser, syncOwner);
  const syncAuthorization = await bearer(syncUser);
  for (let i = 0; i < SYNC_INSTALLATIONS; i++) {
    const id = 7_200_000 + i;
    const login = `sync-org-${i}`;
    github.addInstallation({ id, account: { login, id: 7_300_000 + i, type: 'Organization' } });
    for (let r = 0; r < SYNC_REPOSITORIES; r++) {
      github.addRepository({ fullName: `${login}/repo-${String(r).padStart(3, '0')}`, installationId: id, visibility: r % 4 === 0 ? 'private' : 'public', empty: true });
    }
    github.addMember(login, syncOwner, 'active', 'admin');
    await bench.db.call('link_installation', { p_user_id: syncUser, p_installation_id: id, p_account_login: login, p_account_type: 'Organization', p_github_user_id: '7400002' });
  }
  const syncs = [];
  for (let i = 0; i < SCANS_PER_CASE; i++) {
    github.reset();
    bench.resetCalls();
    const { ms: elapsed, value: response } = await timed(() => request(api.repos, 'GET', '/api/repos', syncAuthorization));
    const body = (await response.json()) as { repositories: unknown[] };
    if (response.status !== 200 || body.repositories.length !== SYNC_INSTALLATIONS * SYNC_REPOSITORIES) {
      throw new Error(`bench: GET /api/repos for the sync user: ${response.status}, ${body.repositories?.length ?? 0} repositories listed, ${SYNC_INSTALLATIONS * SYNC_REPOSITORIES} expected`);
    }
    syncs.push({ ms: elapsed, requests: github.count(), roundTrips: github.roundTrips(), db: bench.calls.map((c) => c.fn) });
  }
  const last = syncs[syncs.length - 1];
  const sync = {
    installations: SYNC_INSTALLATIONS,
    repositories: SYNC_INSTALLATIONS * SYNC_REPOSITORIES,
    requests: last?.requests ?? 0,
    roundTrips: last?.roundTrips ?? 0,
    p50Ms: summarize(syncs.map((s) => s.ms)).p50,
    databaseRoundTrips: last?.db.length ?? 0,
    databaseFunctions: last?.db ?? [],
  };
  budget.perSyncedRepository = sync.requests / sync.repositories;
  return { latencyMs: LATENCY_MS, database: bench.kind, scan: cases, large, budget, sync };
}

export function formatGitHub(r: GitHubBenchResult): string {
  const row = (label: string, x: { p50Ms?: number; ms?: number; roundTrips: number; requests: number }) => [label, ms(x.p50Ms ?? x.ms ?? NaN, 0), String(x.roundTrips), String(x.requests)];
  const lines = [`Scan endpoint: POST /api/scan through the handler, fake GitHub (+${r.latencyMs} ms per request), ${r.database}; p50 of ${SCANS_PER_CASE}`];
  const rows: string[][] = [['workflows', 'strategy', 'latency', 'GitHub round trips', 'requests']];
  for (const c of r.scan) {
    rows.push([String(c.workflows), ...row('adapter, first scan (token request)', c.coldToken)]);
    rows.push(['', ...row('adapter, token cached', c.cachedToken)]);
    rows.push(['', ...row('naive: list + 1 per file, parallel', c.naiveParallel)]);
    rows.push(['', ...row('naive: list + 1 per file, sequential', c.naiveSequential)]);
  }
  lines.push(table(rows));
  const worst = Math.max(...r.scan.map((c) => c.coldToken.roundTrips));
  const cached = Math.max(...r.scan.map((c) => c.cachedToken.roundTrips));
  lines.push(`critical path: ${worst} round trips with the token request, ${cached} with the token cached (budget <= 2, 1 cached: ${worst <= 2 && cached <= 1 ? 'met' : 'NOT met'})`);
  const l = r.large;
  lines.push(
    `${l.files}-file repository, token cached, ${l.scans} scans: p50 ${ms(l.p50Ms, 0)}, p95 ${ms(l.p95Ms, 0)} (budget p95 < ${LARGE_BUDGET_MS} ms: ${l.p95Ms < LARGE_BUDGET_MS ? 'met' : 'NOT met'}), ` +
      `${l.roundTrips} sequential GitHub round trips, ${l.requests} requests, ${l.findings} findings`,
  );
  lines.push('');
  lines.push('Code-host requests (token cached)');
  lines.push(
    table([
      ['case', 'requests'],
      ['scan, public repository', `${r.budget.publicScan} (REST ${r.budget.publicRest} + GraphQL ${r.budget.publicScan - r.budget.publicRest})`],
      ['scan, private repository', `${r.budget.privateScan} (REST ${r.budget.privateRest} + GraphQL ${r.budget.privateScan - r.budget.privateRest})`],
      ['scan, made public since the sync (second round)', String(r.budget.stalePrivateScan)],
      [
        'scan, public, + 30 action definitions outside .github',
        `${r.budget.actionsScan.requests} (GraphQL ${r.budget.actionsScan.graphql}), ${r.budget.actionsScan.roundTrips} round trips, ${r.budget.actionsScan.files} files`,
      ],
      ['scan, installation with Metadata + Contents only', `${r.budget.contentsOnly.requests} (${r.budget.contentsOnly.forbidden} answered 403)`],
      ['sync, per repository (pages of 100)', r.budget.perSyncedRepository.toFixed(3)],
    ]),
  );
  lines.push(
    `goal <= 6 per scan: public ${r.budget.publicScan <= 6 ? 'met' : 'NOT met'}, private ${r.budget.privateScan <= 6 ? 'met' : 'NOT met'}; ` +
      `against the 5,000 REST requests an hour: ${Math.floor(5000 / r.budget.publicRest)} public or ${Math.floor(5000 / r.budget.privateRest)} private scans`,
  );
  lines.push(`unreadable without a request (Metadata + Contents only): ${r.budget.contentsOnly.unreadable.join(', ')}`);
  lines.push('');
  lines.push(`Repository sync: GET /api/repos, ${r.sync.installations} installations x ${r.sync.repositories / r.sync.installations} repositories, p50 of ${SCANS_PER_CASE}`);
  lines.push(
    table([
      ['repositories', 'GitHub requests', 'round trips', 'latency', 'database round trips'],
      [String(r.sync.repositories), String(r.sync.requests), String(r.sync.roundTrips), ms(r.sync.p50Ms, 0), `${r.sync.databaseRoundTrips} (${r.sync.databaseFunctions.join(', ')})`],
    ]),
  );
  return lines.join('\n');
}
