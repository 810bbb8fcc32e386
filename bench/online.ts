/**
 * The online audits' request budget (issue 17): 100 repositories that share 40 actions, audited one after
 * the other as the service would (one budget per scan, one cache for everyone), on a fake GitHub (msw,
 * GitHub's response shapes) that counts requests. Reports the requests spent with no shared cache (a fresh
 * cache per repository), with a cold shared cache, and with the same cache warm (a second round).
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
  ms: number;
  findings: Record<string, number>;
}

export interface OnlineBenchResult {
  repositories: number;
  actions: number;
  references: number;
  noSharedCache: OnlineBenchRound;
  cold: OnlineBenchRound;
  warm: OnlineBenchRound;
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
  }
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

async function round(fake: FakeActions, cacheFor: (r: number) => FactCache): Promise<OnlineBenchRound> {
  const before = fake.requests.length;
  const findings: Record<string, number> = {};
  const started = performance.now();
  for (let r = 0; r < REPOSITORIES; r++) {
    const reader = new BudgetedReader(fetchReader({ token: 'ghs_bench' }));
    const { records } = await auditRepository(repository(r), { reader, cache: cacheFor(r) });
    for (const record of records) findings[record.finding.rule_id] = (findings[record.finding.rule_id] ?? 0) + 1;
  }
  return { requests: fake.requests.length - before, ms: performance.now() - started, findings };
}

export async function benchOnline(): Promise<OnlineBenchResult> {
  const fake = fakeActions();
  const server = setupServer(...fake.handlers);
  server.listen({ onUnhandledFrame: 'error' });
  try {
    const noSharedCache = await round(fake, () => new MemoryCache());
    const shared = new MemoryCache();
    const cold = await round(fake, () => shared);
    const warm = await round(fake, () => shared);
    return { repositories: REPOSITORIES, actions: ACTIONS, references: REPOSITORIES * USES_PER_REPOSITORY, noSharedCache, cold, warm };
  } finally {
    server.close();
  }
}

export function formatOnline(r: OnlineBenchResult): string {
  const findings = (f: Record<string, number>) => Object.entries(f).sort().map(([id, n]) => `${id} ${n}`).join(', ');
  return [
    `Online audits: ${r.repositories} repositories sharing ${r.actions} actions (${r.references} uses: references), fake GitHub (msw)`,
    table([
      ['cache', 'GitHub requests', 'requests/repository', 'ms', 'findings'],
      ...([
        ['none (fresh per repository)', r.noSharedCache],
        ['shared, cold', r.cold],
        ['shared, warm', r.warm],
      ] as const).map(([name, x]) => [name, String(x.requests), (x.requests / r.repositories).toFixed(2), x.ms.toFixed(0), findings(x.findings)]),
    ]),
  ].join('\n');
}
