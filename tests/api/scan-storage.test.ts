// What stored scans may hold (issue 29): a repository keeps its last SCAN_HISTORY scans, a scan identical to
// the repository's latest (same files and findings) is not stored again, a user's stored findings stay under
// SCAN_STORAGE_QUOTA (oldest history first, then 507), and the expensive reads are rate-limited per user.

import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GET as ATTACK_PATHS } from '../../api/attack-paths.js';
import { GET as COMBOS } from '../../api/repositories/[repo_id]/combos.js';
import { POST as SCAN } from '../../api/scan.js';
import { GET as STORED_SCAN } from '../../api/scans/[scan_id].js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { ScriptedCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest, errorOf } from '../support/http.js';

let t: TestDatabase;
let host: ScriptedCodeHost;
const saved = { storage: { ...env().scanStorage }, reads: { ...env().readsRateLimit } };

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
beforeEach(() => {
  host = new ScriptedCodeHost();
  useCodeHost(host);
});
afterEach(() => {
  Object.assign(env().scanStorage, saved.storage);
  Object.assign(env().readsRateLimit, saved.reads);
});
afterAll(async () => t.close());

/** A workflow with `n` findings of its own kind (unpinned actions) and a marker that changes the files. */
function snapshotOf(marker: string, unpinned = 1) {
  const steps = Array.from({ length: unpinned }, (_, i) => `      - uses: some-org/action-${i}@v1`).join('\n');
  const text = `# ${marker}\non: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    timeout-minutes: 5\n    steps:\n${steps}\n`;
  return { files: [{ path: '.github/workflows/ci.yml', text }], settings: {}, defaultBranch: 'main', requests: 0 };
}

async function user(repositories = 1) {
  const userId = await t.createUser();
  const { repositories: repos } = await userWithRepositories(t.db, userId, repositories);
  return { userId, authorization: await bearer(userId), repos: repos.map((r) => r.id) };
}

const scan = async (authorization: string, repo_id: string) => SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id } }));
const storedScan = async (authorization: string, id: string) => STORED_SCAN(await apiRequest('GET', `/api/scans/${id}`, { authorization }));

async function storedOf(userId: string): Promise<{ scans: number; findings: number }> {
  const [row] = await t.query<{ scans: number; findings: number }>(
    'select (select count(*)::int from public.scans where user_id = $1) as scans, (select count(*)::int from public.findings where user_id = $1) as findings',
    [userId],
  );
  return row!;
}

describe('stored scans are bounded', () => {
  it('keeps the last SCAN_HISTORY scans of a repository; an older one reads 404', async () => {
    env().scanStorage.history = 3;
    const u = await user();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      host.snapshot = snapshotOf(`change ${i}`);
      const response = await scan(u.authorization, u.repos[0]!);
      expect(response.status).toBe(200);
      ids.push(((await response.json()) as { scan_id: string }).scan_id);
    }
    expect(new Set(ids).size).toBe(5);
    expect((await storedOf(u.userId)).scans).toBe(3);
    expect((await storedScan(u.authorization, ids[0]!)).status).toBe(404);
    expect((await storedScan(u.authorization, ids[1]!)).status).toBe(404);
    expect((await storedScan(u.authorization, ids[4]!)).status).toBe(200);
  });

  it('stores a scan identical to the latest (same files, same findings) once, and a changed one anew', async () => {
    const u = await user();
    host.snapshot = snapshotOf('same', 3);
    const first = (await (await scan(u.authorization, u.repos[0]!)).json()) as { scan_id: string; findings: unknown[] };
    const stored = (await (await storedScan(u.authorization, first.scan_id)).json()) as { created_at: string };
    const again = (await (await scan(u.authorization, u.repos[0]!)).json()) as { scan_id: string; findings: unknown[] };
    expect(again.scan_id).toBe(first.scan_id);
    expect(again.findings).toEqual(first.findings);
    const later = (await (await storedScan(u.authorization, first.scan_id)).json()) as { created_at: string };
    expect(Date.parse(later.created_at)).toBeGreaterThanOrEqual(Date.parse(stored.created_at));
    expect(await storedOf(u.userId)).toEqual({ scans: 1, findings: first.findings.length });
    host.snapshot = snapshotOf('changed', 3);
    const changed = (await (await scan(u.authorization, u.repos[0]!)).json()) as { scan_id: string };
    expect(changed.scan_id).not.toBe(first.scan_id);
    expect((await storedOf(u.userId)).scans).toBe(2);
  });

  it('keeps a user under SCAN_STORAGE_QUOTA findings: the oldest history goes first, then a scan that does not fit is 507 and not stored', async () => {
    const u = await user(2);
    host.snapshot = snapshotOf('a', 4);
    const first = (await (await scan(u.authorization, u.repos[0]!)).json()) as { findings: unknown[] };
    const perScan = first.findings.length;
    expect(perScan).toBeGreaterThan(0);
    host.snapshot = snapshotOf('b', 4);
    expect((await scan(u.authorization, u.repos[0]!)).status).toBe(200);
    expect((await storedOf(u.userId)).scans).toBe(2);
    // Room for the two latest scans (one per repository) but not for history.
    env().scanStorage.quota = perScan * 2;
    host.snapshot = snapshotOf('c', 4);
    expect((await scan(u.authorization, u.repos[1]!)).status).toBe(200);
    expect(await storedOf(u.userId)).toEqual({ scans: 2, findings: perScan * 2 });
    // A third repository's worth does not fit beside the two latest scans: refused, nothing changed.
    host.snapshot = snapshotOf('d', 5);
    const refused = await scan(u.authorization, u.repos[1]!);
    expect(refused.status).toBe(507);
    const error = await errorOf(refused);
    expect(error.code).toBe('insufficient_storage');
    expect(error.message).toContain(`the quota is ${perScan * 2}`);
    expect(await storedOf(u.userId)).toEqual({ scans: 2, findings: perScan * 2 });
  });
});

describe('expensive reads are rate-limited per user (READS_RATE_LIMIT)', () => {
  it('counts attack paths, combinations and stored scans in one budget, then 429 with Retry-After; other users are unaffected', async () => {
    env().readsRateLimit.max = 3;
    const u = await user();
    host.snapshot = snapshotOf('reads');
    const { scan_id } = (await (await scan(u.authorization, u.repos[0]!)).json()) as { scan_id: string };
    expect((await ATTACK_PATHS(await apiRequest('GET', '/api/attack-paths', { authorization: u.authorization }))).status).toBe(200);
    expect((await COMBOS(await apiRequest('GET', `/api/repositories/${u.repos[0]}/combos`, { authorization: u.authorization }))).status).toBe(200);
    expect((await storedScan(u.authorization, scan_id)).status).toBe(200);
    for (const response of [
      await ATTACK_PATHS(await apiRequest('GET', '/api/attack-paths', { authorization: u.authorization })),
      await COMBOS(await apiRequest('GET', `/api/repositories/${u.repos[0]}/combos`, { authorization: u.authorization })),
      await storedScan(u.authorization, scan_id),
    ]) {
      expect(response.status).toBe(429);
      expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
      expect((await errorOf(response)).code).toBe('rate_limited');
    }
    const other = await user();
    expect((await ATTACK_PATHS(await apiRequest('GET', '/api/attack-paths', { authorization: other.authorization }))).status).toBe(200);
  });
});
