/**
 * The online audits' request budget (issue 17): 100 repositories that share 40 actions, audited one after
 * the other as the service would (one budget per scan, one cache for everyone), on a fake GitHub (msw,
 * GitHub's response shapes, GraphQL executed against GitHub's schema) that counts requests. Reports the
 * requests spent with no shared cache (a fresh cache per repository), with a cold shared cache, and with the
 * same cache warm (a second round); each over REST only (a reader without GraphQL: every fact one REST
 * request, as before the batching, and no live advisory lookup) and with the GraphQL batches (facts of up
 * to 25 repositories per query, REST kept for compare, and the live advisories).
 */
import { setupServer } from 'msw/node';
import { auditRepository, BudgetedReader, fetchReader, MemoryCache, type FactCache } from '../lib/online/index.js';
import type { RepositoryFile } from '../lib/engine/types.js';
import { FakeActions, sha } from '../tests/lib/online/fake-actions.js';
import { table } from './stats.js';

const REPOSITORIES = 100;
const ACTIONS = 40;
const USES_PER_REPOSITORY = 12;

export interface OnlineBenchRound {
  requests: number;
  /** Of which GraphQL queries, and the points they cost. */
  graphql: number;
  points: number;
  ms: number;
  findings: Record<string, number>;
}

export interface OnlineBenchResult {
  repositories: number;
  actions: number;
  references: number;
  rest: { noSharedCache: OnlineBenchRound; cold: OnlineBenchRound; warm: OnlineBenchRound };
  graphql: { noSharedCache: OnlineBenchRound; cold: OnlineBenchRound; warm: OnlineBenchRound };
}

function fakeActions(): FakeActions {
  const fake = new FakeActions();
  fake.remaining = 1_000_000;
  for (let a = 0; a < ACTIONS; a++) {
    const c = (n: number) => sha(`a${a}-c${n}`);
    fake.add(`org${a}/action${a}`, {
      defaultBranch: 'main',
      commits: { [c(1)]: [], [c(2)]: [c(1)], [c(3)]: [c(2)], [c(4)]: [c(3)], [sha(`a${a}-fork`)]: [c(4)] },
      branches: { main: c(4), 'releases/v1': c(2) },
      tags: { 'v1.0.0': c(1), 'v1.1.0': c(2), 'v1.2.0': c(3), v1: c(3) },
    });
    // One action in eight has a published advisory the built-in snapshot does not have.
    if (a % 8 === 0) fake.advise(`org${a}/action${a}`, { ghsaId: `GHSA-${a}a${a}a-bbbb-cccc`.slice(0, 19), summary: 'a flaw fixed in 1.2.0', severity: 'HIGH', range: '< 1.2.0', patched: '1.2.0' });
  }
  fake.graphqlRemaining = 1_000_000;
  return fake;
}

/** The `uses:` of repository `r`: mostly tag pins with their version, some tags, heads, wrong comments, and forks. */
function repository(r: number): RepositoryFile[] {
  const lines: string[] = [];
  for (let i = 0; i < USES_PER_REPOSITORY; i++) {
    const a = (r * 7 + i * 13) % ACTIONS;
    const name = `org${a}/action${a}`;
    const kind = (r + i) % 10;
    const c = (n: number) => sha(`a${a}-c${n}`);
    if (kind < 5) lines.push(`${name}@${c(3)} # v1.2.0`);
    else if (kind < 7) lines.push(`${name}@v1`);
    else if (kind === 7) lines.push(`${name}@${c(4)}`);
    else if (kind === 8) lines.push(`${name}@${c(2)} # v1.2.0`);
    else lines.push(r % 25 === 0 ? `${name}@${sha(`a${a}-fork`)}` : `${name}@${c(1)} # v1.0.0`);
  }
  const steps = lines.map((l) => `      - uses: ${l}`).join('\n');
  return [{ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n${steps}\n` }];
}

async function round(fake: FakeActions, cacheFor: (r: number) => FactCache, graphql: boolean): Promise<OnlineBenchRound> {
  const before = fake.requests.length;
  const findings: Record<string, number> = {};
  let queries = 0;
  let points = 0;
  const started = performance.now();
  for (let r = 0; r < REPOSITORIES; r++) {
    const inner = fetchReader({ token: 'ghs_bench' });
    const reader = new BudgetedReader(graphql ? inner : { get: (path) => inner.get(path) });
    // Without GraphQL the advisories and archived flags cannot be asked: those rules are left out of the REST-only rounds.
    const { records } = await auditRepository(repository(r), { reader, cache: cacheFor(r), isEnabled: (id) => graphql || (id !== 'known-vulnerable-action' && id !== 'archived-action') });
    queries += reader.graphqlRequests;
    points += reader.graphqlPoints;
    for (const record of records) findings[record.finding.rule_id] = (findings[record.finding.rule_id] ?? 0) + 1;
  }
  return { requests: fake.requests.length - before, graphql: queries, points, ms: performance.now() - started, findings };
}

async function rounds(fake: FakeActions, graphql: boolean) {
  const noSharedCache = await round(fake, () => new MemoryCache(), graphql);
  const shared = new MemoryCache();
  const cold = await round(fake, () => shared, graphql);
  const warm = await round(fake, () => shared, graphql);
  return { noSharedCache, cold, warm };
}

export async function benchOnline(): Promise<OnlineBenchResult> {
  const fake = fakeActions();
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledRequest: 'error' });
  try {
    const rest = await rounds(fake, false);
    const graphql = await rounds(fake, true);
    return { repositories: REPOSITORIES, actions: ACTIONS, references: REPOSITORIES * USES_PER_REPOSITORY, rest, graphql };
  } finally {
    server.close();
  }
}

export function formatOnline(r: OnlineBenchResult): string {
  const findings = (f: Record<string, number>) => Object.entries(f).sort().map(([id, n]) => `${id} ${n}`).join(', ');
  const rows = (mode: string, x: OnlineBenchResult['rest']) =>
    ([
      ['none (fresh per repository)', x.noSharedCache],
      ['shared, cold', x.cold],
      ['shared, warm', x.warm],
    ] as const).map(([name, y]) => [mode, name, String(y.requests), String(y.graphql), String(y.points), (y.requests / r.repositories).toFixed(2), y.ms.toFixed(0), findings(y.findings)]);
  return [
    `Online audits: ${r.repositories} repositories sharing ${r.actions} actions (${r.references} uses: references), fake GitHub (msw)`,
    table([['reads', 'cache', 'GitHub requests', 'of which GraphQL', 'GraphQL points', 'requests/repository', 'ms', 'findings'], ...rows('REST only', r.rest), ...rows('GraphQL batches', r.graphql)]),
  ].join('\n');
}
