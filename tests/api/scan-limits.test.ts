// POST /api/scan is bounded (issue 13): a repository over the service's limits (SCAN_MAX_* , defaults in
// lib/env.ts) is scanned up to them, the answer and the stored scan carry one INFO scan-limit-reached
// finding, and counts agree with the findings stored.

import { randomInt } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import type { Finding } from '../../lib/engine/types.js';
import { env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest } from '../support/http.js';

let t: TestDatabase;
const host = new ScriptedCodeHost();

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(host);
});
afterAll(async () => t.close());

describe('POST /api/scan limits', () => {
  it('scans a repository with more workflow files than the limit up to it, and says so', async () => {
    const { maxFiles, maxFindings } = env().scanLimits;
    const userId = await t.createUser();
    const installationId = randomInt(1, 2 ** 40);
    await linkInstallation(t.db, userId, { installationId, accountLogin: 'me', accountType: 'User' });
    const [repo] = await syncRepositories(t.db, userId, [
      { github_id: randomInt(1, 2 ** 47), installation_id: installationId, full_name: 'me/huge', private: false, html_url: 'https://github.com/me/huge', default_branch: 'main' },
    ]);
    const workflow = 'on: push\njobs:\n  b:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n';
    host.snapshot = {
      files: Array.from({ length: maxFiles + 25 }, (_, i) => ({ path: `.github/workflows/w${String(i).padStart(4, '0')}.yml`, text: workflow })),
      settings: {},
      defaultBranch: 'main',
      requests: 0,
    };
    const response = await SCAN(await apiRequest('POST', '/api/scan', { authorization: await bearer(userId), body: { repo_id: repo!.id } }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as { scan_id: string; counts: Record<string, number>; findings: Finding[] };
    const limit = body.findings.filter((f) => f.rule_id === 'scan-limit-reached');
    expect(limit).toHaveLength(1);
    expect(limit[0]?.description).toContain(`at most ${maxFiles} files are scanned: 25 files not scanned`);
    expect(body.findings.length).toBeLessThanOrEqual(maxFindings);
    expect(Object.values(body.counts).reduce((a, b) => a + b, 0)).toBe(body.findings.length);
    const [stored] = await t.query<{ n: number }>('select count(*)::int as n from public.findings where scan_id = $1', [body.scan_id]);
    expect(stored?.n).toBe(body.findings.length);
  });
});
