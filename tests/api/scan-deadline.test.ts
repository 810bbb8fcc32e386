// POST /api/scan is bounded in time whatever runs inside the engine (issue 29): the engine and the fixes run in
// a worker thread terminated at the scan's budget (lib/services/engine-runner.ts). A worker that never answers
// (tests/support/spin-engine-worker.ts, standing for a rule stuck in a regular expression or a fix) is stopped,
// the answer is the limited scan the contract defines, the process keeps answering other requests meanwhile,
// and the fixes of a very large workflow finish within the budget or say they were left out.

import { randomInt } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { GET as HEALTH } from '../../api/health.js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import type { Finding } from '../../lib/engine/types.js';
import { env } from '../../lib/env.js';
import { useEngineWorker } from '../../lib/services/engine-runner.js';
import { HARD_STOP_GRACE_MS } from '../../lib/services/scan.js';
import { bearer } from '../support/auth.js';
import { ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest } from '../support/http.js';

let t: TestDatabase;
const host = new ScriptedCodeHost();
const SPIN = new URL('../support/spin-engine-worker.ts', import.meta.url);
/** The engine budget of these tests (SCAN_MAX_ENGINE_MS). */
const BUDGET_MS = 3_000;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(host);
  env().scanLimits.maxEngineMs = BUDGET_MS;
});
afterAll(async () => t.close());
afterEach(() => useEngineWorker(undefined));

const WORKFLOW = 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n';

async function repository(name: string, files: { path: string; text: string }[]) {
  const userId = await t.createUser();
  const installationId = randomInt(1, 2 ** 40);
  await linkInstallation(t.db, userId, { installationId, accountLogin: 'me', accountType: 'User' });
  const [repo] = await syncRepositories(t.db, userId, [
    { github_id: randomInt(1, 2 ** 47), installation_id: installationId, full_name: `me/${name}`, private: false, html_url: `https://github.com/me/${name}`, default_branch: 'main' },
  ]);
  host.snapshot = { files, settings: {}, defaultBranch: 'main', requests: 0 };
  return { authorization: await bearer(userId), repoId: repo!.id };
}

type Body = { counts: Record<string, number>; findings: (Finding & { fix?: unknown })[]; fixes_limited?: string };

async function scan(authorization: string, repoId: string): Promise<{ status: number; body: Body; ms: number }> {
  const started = Date.now();
  const response = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repoId } }));
  return { status: response.status, body: (await response.json()) as Body, ms: Date.now() - started };
}

describe('POST /api/scan: the engine thread is stopped at the budget', () => {
  it('answers a scan whose engine never returns with the out-of-time limit finding, and GET /api/health answers meanwhile', async () => {
    useEngineWorker(SPIN);
    const { authorization, repoId } = await repository('spin', [{ path: '.github/workflows/ci.yml', text: WORKFLOW }]);
    let done = false;
    const pending = scan(authorization, repoId).finally(() => {
      done = true;
    });
    // While the engine thread spins, the process answers another request at once: each health check takes a
    // small fraction of the budget, and the scan is still running when it answers.
    const healthMs: number[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((resolve) => setTimeout(resolve, BUDGET_MS / 6));
      const started = Date.now();
      const response = await HEALTH(await apiRequest('GET', '/api/health'));
      healthMs.push(Date.now() - started);
      expect(response.status).toBe(200);
    }
    expect(done).toBe(false);
    expect(Math.max(...healthMs)).toBeLessThan(BUDGET_MS / 4);

    const { status, body, ms } = await pending;
    expect(status).toBe(200);
    const limit = body.findings.filter((f) => f.rule_id === 'scan-limit-reached');
    expect(limit).toHaveLength(1);
    expect(limit[0]?.description).toContain('the engine ran out of time: 1 file not scanned (.github/workflows/ci.yml)');
    expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(body.findings.length);
    expect(body.fixes_limited).toContain('time ran out');
    // Stopped at the budget (plus the grace and the request's own work), not whenever the engine would end.
    expect(ms).toBeLessThan(BUDGET_MS + HARD_STOP_GRACE_MS + 10_000);
  });

  it('stops fixes that never return and answers the scan without them, saying so', async () => {
    useEngineWorker(SPIN);
    const { authorization, repoId } = await repository('spin-fix', [{ path: '.github/workflows/ci.yml', text: WORKFLOW }]);
    const { status, body, ms } = await scan(authorization, repoId);
    expect(status).toBe(200);
    expect(body.fixes_limited).toContain('time ran out');
    expect(ms).toBeLessThan(BUDGET_MS + HARD_STOP_GRACE_MS + 10_000);
  });

  it('fixes a 1,500-job workflow within the budget or says which fixes it left out', async () => {
    const jobs = Array.from({ length: 1_500 }, (_, i) => `  job${i}:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: echo "\${{ github.event.issue.title }}"\n`).join('');
    const text = `on: issues\npermissions: {}\njobs:\n${jobs}`;
    expect(text.length).toBeGreaterThan(150_000);
    const { authorization, repoId } = await repository('huge', [{ path: '.github/workflows/huge.yml', text }]);
    const { status, body, ms } = await scan(authorization, repoId);
    expect(status).toBe(200);
    expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(body.findings.length);
    const fixable = body.findings.filter((f) => f.rule_id === 'script-injection');
    // Either every injection got its fix, or the answer says which bound left fixes out.
    if (fixable.some((f) => f.fix === undefined)) expect(body.fixes_limited).toMatch(/bound was met|time ran out/);
    expect(ms).toBeLessThan(2 * (BUDGET_MS + HARD_STOP_GRACE_MS) + 10_000);
  });
});
