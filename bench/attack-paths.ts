/**
 * Attack paths on a real database: a user with 1,000 scanned repositories x 50 findings (real findings of
 * the corpus, scanned with the weak settings fixture so that settings findings take part too), recorded
 * through `record_scan`. Measures `GET /api/attack-paths` and `GET /api/repositories/{id}/combos` through
 * their handlers: p50/p95, database round trips per request, and the database function alone with the
 * size of the JSON it returns.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { COMBINATION_INPUTS } from '../lib/services/attack-paths.js';
import type { StoredFinding } from '../lib/db/types.js';
import { scanRepository } from '../lib/engine/scan.js';
import type { SettingsSnapshot } from '../lib/engine/settings/snapshot.js';
import { bearer } from '../tests/support/auth.js';
import { loadCorpus } from './corpus.js';
import { endpoints, openBenchDatabase, request, serveWith, timed } from './service.js';
import { ms, summarize, table } from './stats.js';

const REPOSITORIES = 1_000;
const FINDINGS_PER_REPOSITORY = 50;
const REQUESTS = 30;

export interface AttackPathsBenchResult {
  database: string;
  repositories: number;
  findings: number;
  attackPaths: EndpointTiming & { databaseAloneMs: ReturnType<typeof summarize>; payloadBytes: number; repositoriesWithCombos: number; combos: number };
  combos: EndpointTiming;
}

interface EndpointTiming {
  requests: number;
  latency: ReturnType<typeof summarize>;
  databaseRoundTrips: number;
}

/** 50 findings per corpus repository, in the engine's order (repositories with fewer are topped up from the next). */
function findingSets(): StoredFinding[][] {
  const settings = JSON.parse(readFileSync(fileURLToPath(new URL('../tests/fixtures/settings/weak.json', import.meta.url)), 'utf8')) as SettingsSnapshot;
  const all: StoredFinding[] = [];
  const sets: StoredFinding[][] = [];
  for (const repo of loadCorpus()) {
    const { records } = scanRepository(repo.files, { settings });
    const findings = records.map((r) => ({ ...r.finding, job: r.job, fingerprint: r.fingerprint }));
    all.push(...findings);
    if (findings.length >= FINDINGS_PER_REPOSITORY) sets.push(findings.slice(0, FINDINGS_PER_REPOSITORY));
  }
  if (sets.length === 0) sets.push(all.slice(0, FINDINGS_PER_REPOSITORY));
  return sets;
}

function counts(findings: readonly StoredFinding[]) {
  const c = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) c[f.severity] += 1;
  return c;
}

export async function benchAttackPaths(): Promise<AttackPathsBenchResult> {
  const bench = await openBenchDatabase();
  try {
    await serveWith(bench.db);
    const api = await endpoints();
    const userId = await bench.createUser();
    const installationId = 8_000_001;
    await bench.db.call('link_installation', { p_user_id: userId, p_installation_id: installationId, p_account_login: 'paths-org', p_account_type: 'Organization' });
    const listing = Array.from({ length: REPOSITORIES }, (_, i) => ({
      github_id: 9_000_000 + i,
      installation_id: installationId,
      full_name: `paths-org/repo-${String(i).padStart(4, '0')}`,
      private: i % 3 === 0,
      html_url: `https://github.com/paths-org/repo-${String(i).padStart(4, '0')}`,
      default_branch: 'main',
    }));
    const repositories = await bench.db.call<{ id: string }[]>('sync_repositories', { p_user_id: userId, p_repositories: listing });
    const sets = findingSets();
    // Recorded five at a time (the pool's size), through the function the scan endpoint uses.
    for (let i = 0; i < repositories.length; i += 5) {
      await Promise.all(
        repositories.slice(i, i + 5).map((repository, j) => {
          const findings = sets[(i + j) % sets.length] ?? [];
          return bench.db.call('record_scan', { p_user_id: userId, p_repository_id: repository.id, p_ruleset: 'all', p_counts: counts(findings), p_findings: findings });
        }),
      );
    }
    await bench.db.transaction((tx) => tx.exec('analyze'));
    const authorization = await bearer(userId);

    // The database function alone, and the size of what it hands back.
    const alone: number[] = [];
    let payloadBytes = 0;
    for (let i = 0; i < 5; i++) {
      const { ms: elapsed, value } = await timed(() =>
        bench.db.transaction((tx) => tx.query<{ bytes: number }>('select octet_length(public.attack_path_inputs($1, $2, $3)::text) as bytes', [userId, JSON.stringify(COMBINATION_INPUTS.rules), JSON.stringify(COMBINATION_INPUTS.kinds)])),
      );
      alone.push(elapsed);
      payloadBytes = value[0]?.bytes ?? 0;
    }

    const measure = async (call: () => Promise<Response>): Promise<EndpointTiming & { body: unknown }> => {
      await call(); // warm: JIT and the pool's connections
      const samples: number[] = [];
      let databaseRoundTrips = 0;
      let body: unknown;
      for (let i = 0; i < REQUESTS; i++) {
        bench.resetCalls();
        // Until the whole body is read, as a client receives it (parsing it is the client's time).
        const { ms: elapsed, value: response } = await timed(async () => {
          const r = await call();
          return { status: r.status, text: await r.text() };
        });
        if (response.status !== 200) throw new Error(`${response.status}: ${response.text}`);
        body = JSON.parse(response.text);
        samples.push(elapsed);
        databaseRoundTrips = Math.max(databaseRoundTrips, bench.calls.length);
      }
      return { requests: REQUESTS, latency: summarize(samples), databaseRoundTrips, body };
    };

    const paths = await measure(() => request(api.attackPaths, 'GET', '/api/attack-paths', authorization));
    const pathsBody = paths.body as { repos: unknown[]; total_combos: number };
    const target = repositories[0]?.id ?? '';
    const combos = await measure(() => request(api.combos, 'GET', `/api/repositories/${target}/combos?repo_id=${target}`, authorization));
    return {
      database: bench.kind,
      repositories: REPOSITORIES,
      findings: REPOSITORIES * FINDINGS_PER_REPOSITORY,
      attackPaths: {
        requests: paths.requests,
        latency: paths.latency,
        databaseRoundTrips: paths.databaseRoundTrips,
        databaseAloneMs: summarize(alone),
        payloadBytes,
        repositoriesWithCombos: pathsBody.repos.length,
        combos: pathsBody.total_combos,
      },
      combos: { requests: combos.requests, latency: combos.latency, databaseRoundTrips: combos.databaseRoundTrips },
    };
  } finally {
    await bench.close();
  }
}

export function formatAttackPaths(r: AttackPathsBenchResult): string {
  const a = r.attackPaths;
  const met = (e: EndpointTiming) => (e.latency.p95 < 300 && e.databaseRoundTrips === 1 ? 'met' : 'NOT met');
  return [
    `Attack paths: ${r.repositories} repositories x ${r.findings / r.repositories} findings, ${r.database}, ${a.requests} requests each through the handler`,
    table([
      ['endpoint', 'p50', 'p95', 'max', 'database round trips', 'budget (p95 < 300 ms, 1 round trip)'],
      ['GET /api/attack-paths', ms(a.latency.p50, 0), ms(a.latency.p95, 0), ms(a.latency.max, 0), String(a.databaseRoundTrips), met(a)],
      ['GET /api/repositories/{id}/combos', ms(r.combos.latency.p50, 1), ms(r.combos.latency.p95, 1), ms(r.combos.latency.max, 1), String(r.combos.databaseRoundTrips), met(r.combos)],
    ]),
    `attack_path_inputs alone (in the database, as text): p50 ${ms(a.databaseAloneMs.p50, 0)}, ${(a.payloadBytes / 1024 / 1024).toFixed(1)} MiB of JSON; ${a.combos} combinations in ${a.repositoriesWithCombos} repositories`,
  ].join('\n');
}
