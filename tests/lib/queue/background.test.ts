import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackgroundDrain } from '../../../lib/queue/background.js';
import { useJobHandlers } from '../../../lib/queue/handlers.js';
import { enqueue } from '../../../lib/queue/queue.js';
import type { MonitorJob } from '../../../lib/queue/types.js';
import { userWithRepositories } from '../../support/db-fixtures.js';
import { openIsolatedDatabase, type TestDatabase } from '../../support/db.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openIsolatedDatabase();
});
afterAll(async () => {
  useJobHandlers(null);
  await t.close();
});

describe("npm run dev's background drain", () => {
  it('runs a queued job without being asked, and stops when told', async () => {
    const { installationId, repositories } = await userWithRepositories(t.db, await t.createUser(), 1);
    const job: MonitorJob = { kind: 'push-scan', installationId, repoId: repositories[0]!.github_id, sha: 'b'.repeat(40), deliveryId: randomUUID() };
    let resolveRan: (job: MonitorJob) => void = () => undefined;
    const ran = new Promise<MonitorJob>((resolve) => (resolveRan = resolve));
    useJobHandlers({ run: async (j) => resolveRan(j) });
    await enqueue(t.db, [job]);
    const drainer = startBackgroundDrain(t.db, { intervalMs: 50 });
    try {
      expect(await ran).toEqual(job);
    } finally {
      await drainer.stop();
    }
    const [row] = await t.query<{ state: string }>('select state from public.monitor_jobs where installation_id = $1', [installationId]);
    expect(row?.state).toBe('done');
  });
});
