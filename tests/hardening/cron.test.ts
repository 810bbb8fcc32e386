// Vercel's cron endpoints through the router: only `Authorization: Bearer <CRON_SECRET>` runs anything; every
// other header, a user's token included, is 401 before the database is reached; without a configured
// secret they refuse everything. With the secret, the drain runs queued jobs and the re-check enqueues (on a
// database of its own: the drain takes every installation's jobs, other files' too on a shared server).
import { randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { useDatabase } from '../../lib/db/connection.js';
import { recordScan } from '../../lib/db/operations.js';
import { useJobHandlers } from '../../lib/queue/handlers.js';
import { enqueue, jobKey } from '../../lib/queue/queue.js';
import type { MonitorJob } from '../../lib/queue/types.js';
import { useCronSecret } from '../../lib/services/cron.js';
import { bearer } from '../support/auth.js';
import { countsOf, finding, userWithRepositories } from '../support/db-fixtures.js';
import { openIsolatedDatabase, type TestDatabase } from '../support/db.js';
import { countingDatabase, expectErrorBody, send } from './support.js';

const SECRET = 'cron-secret-for-the-hardening-tests-0123456789';
const ROUTES = ['/api/cron/drain', '/api/cron/recheck'];
let t: TestDatabase;

beforeAll(async () => {
  t = await openIsolatedDatabase();
  useDatabase(t.db);
});
afterEach(() => {
  useCronSecret(undefined);
  useJobHandlers(null);
});
afterAll(async () => t.close());

describe('GET /api/cron/* under attack', () => {
  it('answers 401 to anything but the exact bearer secret, reaching no database function', async () => {
    useCronSecret(SECRET);
    const user = await t.createUser();
    const headers: (string | undefined)[] = [
      undefined,
      '',
      'Bearer',
      'Bearer ',
      SECRET,
      `bearer ${SECRET}`,
      `Bearer  ${SECRET}`,
      `Bearer ${SECRET}x`,
      `Bearer ${SECRET.slice(0, -1)}`,
      `Basic ${Buffer.from(`x:${SECRET}`).toString('base64')}`,
      await bearer(user),
    ];
    const db = countingDatabase(t.db);
    useDatabase(db);
    try {
      for (const path of ROUTES) {
        for (const authorization of headers) {
          const response = await send('GET', path, authorization === undefined ? {} : { authorization });
          expect(response.status, `${path} with ${JSON.stringify(authorization?.slice(0, 12))}`).toBe(401);
          await expectErrorBody(response, 'unauthorized');
        }
      }
    } finally {
      useDatabase(t.db);
    }
    expect(db.calls).toEqual([]);
  });

  it('refuses everything, the right-looking header too, when no CRON_SECRET is configured', async () => {
    useCronSecret(null);
    for (const path of ROUTES) {
      for (const authorization of ['Bearer ', 'Bearer null', 'Bearer undefined']) {
        expect((await send('GET', path, { authorization })).status).toBe(401);
      }
    }
  });

  it('answers 405 to other methods', async () => {
    useCronSecret(SECRET);
    for (const path of ROUTES) expect((await send('POST', path, { authorization: `Bearer ${SECRET}` })).status).toBe(405);
  });

  it('with the secret, the drain runs queued jobs and the re-check enqueues a job per recently scanned repository', async () => {
    useCronSecret(SECRET);
    const userId = await t.createUser();
    const { installationId, repositories } = await userWithRepositories(t.db, userId, 2);
    const findings = [finding()];
    await recordScan(t.db, userId, { repositoryId: repositories[0]!.id, ruleset: 'all', counts: countsOf(findings), findings });
    const ran: MonitorJob[] = [];
    useJobHandlers({ run: async (job) => void ran.push(job) });
    const push: MonitorJob = { kind: 'push-scan', installationId, repoId: repositories[1]!.github_id, sha: 'a'.repeat(40), deliveryId: randomUUID() };
    await enqueue(t.db, [push]);

    expect((await send('GET', '/api/cron/recheck', { authorization: `Bearer ${SECRET}` })).status).toBe(204);
    const recheck: MonitorJob = { kind: 'recheck', installationId, repoId: repositories[0]!.github_id };
    const queued = await t.query<{ job_key: string }>('select job_key from public.monitor_jobs where installation_id = $1 order by job_key', [installationId]);
    expect(queued.map((q) => q.job_key)).toEqual([jobKey(push), jobKey(recheck)].sort());

    expect((await send('GET', '/api/cron/drain', { authorization: `Bearer ${SECRET}` })).status).toBe(204);
    expect(ran).toEqual(expect.arrayContaining([push, recheck]));
    expect(ran).toHaveLength(2);
  });
});
