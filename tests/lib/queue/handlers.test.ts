import { afterEach, describe, expect, it } from 'vitest';
import { jobHandlers, NoHandler, useJobHandlers } from '../../../lib/queue/handlers.js';
import type { JobContext, MonitorJob } from '../../../lib/queue/types.js';

const job: MonitorJob = { kind: 'recheck', installationId: 1, repoId: 2 };
const ctx = { attempt: 1 } as JobContext;

describe('job handler registry', () => {
  afterEach(() => useJobHandlers(null));

  it('fails every job with NoHandler until handlers are registered', async () => {
    await expect(jobHandlers().run(job, ctx)).rejects.toBeInstanceOf(NoHandler);
  });

  it('runs jobs with the registered handlers, and the default again after a reset', async () => {
    const seen: MonitorJob[] = [];
    useJobHandlers({ run: async (j) => void seen.push(j) });
    await jobHandlers().run(job, ctx);
    expect(seen).toEqual([job]);
    useJobHandlers(null);
    await expect(jobHandlers().run(job, ctx)).rejects.toThrow(/recheck/);
  });
});
