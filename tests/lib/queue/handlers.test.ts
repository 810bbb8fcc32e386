import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { jobHandlers, useJobHandlers } from '../../../lib/queue/handlers.js';
import type { JobContext, MonitorJob } from '../../../lib/queue/types.js';
import { openTestDatabase, type TestDatabase } from '../../support/db.js';

const job: MonitorJob = { kind: 'recheck', installationId: 987_654_321, repoId: 2 };
let t: TestDatabase;
const ctx = () => ({ db: t.db, jobId: 'j', attempt: 1, maxAttempts: 5, signal: new AbortController().signal, deadline: Date.now() + 30_000 }) satisfies JobContext;

beforeAll(async () => {
  t = await openTestDatabase();
});
afterAll(async () => {
  await t.close();
});

describe('job handler registry', () => {
  afterEach(() => useJobHandlers(null));

  it("runs the monitor's handlers by default: a job about an installation no one linked is done, touching nothing", async () => {
    const calls: string[] = [];
    const db = { call: <T>(fn: string, args: Readonly<Record<string, unknown>>) => (calls.push(fn), t.db.call<T>(fn, args)), close: () => Promise.resolve() };
    await expect(jobHandlers().run(job, { ...ctx(), db })).resolves.toBeUndefined();
    // It asked whom the job serves (no one), and did nothing else.
    expect(calls).toEqual(['monitor_repository_users']);
  });

  it('runs jobs with the registered handlers, and the default again after a reset', async () => {
    const seen: MonitorJob[] = [];
    useJobHandlers({ run: async (j) => void seen.push(j) });
    await jobHandlers().run(job, ctx());
    expect(seen).toEqual([job]);
    useJobHandlers(null);
    await expect(jobHandlers().run(job, ctx())).resolves.toBeUndefined();
    expect(seen).toEqual([job]);
  });
});
