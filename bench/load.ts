/**
 * Load on the local server (`npm run bench -- --only load`): `npm run dev` started as a child process (the
 * embedded database in memory, or DATABASE_URL's server, which it migrates and seeds), the development
 * user linked to the example repositories, then autocannon with a mix of reads and scans: 50 connections,
 * 30 s. Reports requests/s, latency percentiles overall and per kind of request, and every response that
 * is not a success. The scan rate limit is off for the run (SCAN_RATE_LIMIT=0): 50 connections of one
 * user scan far more than the per-user limit allows, and the 429s would measure the limit, not the server.
 * `--connections N` and `--duration S` change the defaults.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { ms, summarize, table } from './stats.js';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface LoadOptions {
  connections: number;
  durationSeconds: number;
}

export interface LoadResult {
  connections: number;
  durationSeconds: number;
  database: string;
  requests: number;
  requestsPerSecond: { mean: number; p50: number; min: number };
  latencyMs: { p50: number; p90: number; p99: number; max: number };
  /** Connection errors and timeouts (autocannon's), and responses that were not 2xx. */
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /** Per kind of request: count and latency (measured per response, in ms). */
  perRequest: Record<string, { n: number; p50: number; p99: number }>;
}

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(`--${name}`);
  const value = index === -1 ? Number.NaN : Number(process.argv[index + 1]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
}

export async function benchLoad(options: LoadOptions = { connections: option('connections', 50), durationSeconds: option('duration', 30) }): Promise<LoadResult> {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const server = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      SCAN_RATE_LIMIT: '0',
      ...(process.env.DATABASE_URL ? {} : { PGLITE_DATA_DIR: 'memory://' }),
      NODE_ENV: 'development',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const token = await readyToken(server);
    const authorization = `Bearer ${token}`;
    const repos = await prepare(base, authorization);
    const mix = requestMix(repos, authorization);

    const samples = new Map<string, number[]>(mix.map((r) => [r.name, []]));
    const position = new WeakMap<object, number>();
    const result = await new Promise<autocannon.Result>((resolve, reject) => {
      const instance = autocannon(
        {
          url: base,
          connections: options.connections,
          duration: options.durationSeconds,
          // Each connection walks the mix in order, so its n-th response answers mix[n % length].
          requests: mix.map(({ method, path, body, headers }) => ({ method, path, body, headers })),
        },
        (error: unknown, done: autocannon.Result) => (error ? reject(error instanceof Error ? error : new Error(String(error))) : resolve(done)),
      );
      instance.on('response', (client, _status, _bytes, responseTime) => {
        const n = position.get(client) ?? 0;
        position.set(client, n + 1);
        samples.get(mix[n % mix.length]!.name)?.push(responseTime);
      });
    });
    const perRequest = Object.fromEntries(
      [...samples].map(([name, times]) => {
        const s = summarize(times);
        return [name, { n: s.n, p50: s.p50, p99: s.p99 }];
      }),
    );
    return {
      connections: options.connections,
      durationSeconds: options.durationSeconds,
      database: process.env.DATABASE_URL ? 'Postgres (DATABASE_URL)' : 'embedded PGlite, in memory',
      requests: result.requests.total,
      requestsPerSecond: { mean: result.requests.average, p50: result.requests.p50, min: result.requests.min },
      latencyMs: { p50: result.latency.p50, p90: result.latency.p90, p99: result.latency.p99, max: result.latency.max },
      errors: result.errors,
      timeouts: result.timeouts,
      non2xx: result.non2xx,
      statusCodes: Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [code, stat.count ?? 0])),
      perRequest,
    };
  } finally {
    await stop(server);
  }
}

export function formatLoad(r: LoadResult): string {
  const rows = [
    ['request', 'n', 'p50', 'p99'],
    ...Object.entries(r.perRequest).map(([name, s]) => [name, String(s.n), ms(s.p50, 1), ms(s.p99, 1)]),
  ];
  return [
    `Load: ${r.connections} connections, ${r.durationSeconds} s, local server on ${r.database} (scan rate limit off)`,
    `  ${r.requests} requests, ${r.requestsPerSecond.mean.toFixed(0)} req/s (p50 ${r.requestsPerSecond.p50}, min ${r.requestsPerSecond.min} per second)`,
    `  latency p50 ${r.latencyMs.p50} ms, p90 ${r.latencyMs.p90} ms, p99 ${r.latencyMs.p99} ms, max ${r.latencyMs.max} ms`,
    `  errors ${r.errors}, timeouts ${r.timeouts}, non-2xx ${r.non2xx}; status codes ${JSON.stringify(r.statusCodes)}`,
    table(rows)
      .split('\n')
      .map((line) => `  ${line}`)
      .join('\n'),
  ].join('\n');
}

interface MixEntry {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers: Record<string, string>;
}

/**
 * One round of what a signed-in web client does: mostly reads (the catalog, the repositories, combinations,
 * attack paths, settings, overrides), and a scan of each example repository (3 of 12 requests).
 */
function requestMix(repos: Record<string, string>, authorization: string): MixEntry[] {
  const headers = { authorization };
  const json = { authorization, 'content-type': 'application/json' };
  const [triage, release, hardened] = [repos['issue-triage-bot'], repos['release-pipeline'], repos['hardened-service']];
  if (triage === undefined || release === undefined || hardened === undefined) throw new Error(`the example repositories are missing: ${Object.keys(repos).join(', ')}`);
  const get = (name: string, path: string): MixEntry => ({ name, method: 'GET', path, headers });
  const scan = (repo: string): MixEntry => ({ name: 'POST /api/scan', method: 'POST', path: '/api/scan', body: JSON.stringify({ repo_id: repo }), headers: json });
  return [
    get('GET /api/rules', '/api/rules'),
    get('GET /api/repositories/{id}/combos', `/api/repositories/${triage}/combos`),
    scan(triage),
    get('GET /api/attack-paths', '/api/attack-paths'),
    get('GET /api/rule-settings', '/api/rule-settings'),
    scan(release),
    get('GET /api/repos', '/api/repos'),
    get('GET /api/repositories/{id}/rule-overrides', `/api/repositories/${release}/rule-overrides`),
    scan(hardened),
    get('GET /api/repositories/{id}/combos', `/api/repositories/${release}/combos`),
    get('GET /api/attack-paths', '/api/attack-paths'),
    get('GET /api/rules', '/api/rules'),
  ];
}

/** Links the local installation, lists the repositories and scans each once, so combinations exist. */
async function prepare(base: string, authorization: string): Promise<Record<string, string>> {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${base}${path}`, { method, headers: { authorization, 'content-type': 'application/json' }, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<Record<string, unknown>>;
  };
  await call('GET', '/api/github/callback?installation_id=1');
  const listed = (await call('GET', '/api/repos')) as { repositories: { id: string; full_name: string }[] };
  const repos = Object.fromEntries(listed.repositories.map((r) => [r.full_name.replace(/^examples\//, ''), r.id]));
  for (const id of Object.values(repos)) await call('POST', '/api/scan', { repo_id: id });
  return repos;
}

/** Waits for the server's banner and takes the development user's token from the lines it prints. */
function readyToken(server: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`the server did not start within 60 s:\n${out}`)), 60_000);
    server.once('exit', (code) => reject(new Error(`the server exited (${code}):\n${out}`)));
    server.stdout?.on('data', (chunk: Buffer) => {
      if (out.length < 100_000) out += chunk.toString('utf8');
      const token = /Authorization: Bearer ([\w-]+\.[\w-]+\.[\w-]+)/.exec(out)?.[1];
      if (token !== undefined) {
        clearTimeout(timer);
        // From here on its stdout is the request log: read and dropped, as a platform's log drain would.
        server.stdout?.removeAllListeners('data');
        server.stdout?.resume();
        resolve(token);
      }
    });
  });
}

async function stop(server: ChildProcess): Promise<void> {
  if (server.exitCode !== null) return;
  const exited = new Promise((resolve) => server.once('exit', resolve));
  server.kill('SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  if (server.exitCode === null) server.kill('SIGKILL');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address !== null ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}
