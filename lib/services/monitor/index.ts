import type { CodeHost } from '../../codehost/port.js';
import type { JobHandlers } from './jobs.js';
import { runPullRequestCheck } from './pr-check.js';
import { runPushScan } from './push-scan.js';
import { runRecheck } from './recheck.js';

export { runPullRequestCheck, externalId, type PullRequestCheckJob, type PullRequestCheckOutcome } from './pr-check.js';
export { runPushScan, type PushScanJob, type PushScanOutcome } from './push-scan.js';
export { runRecheck, type RecheckJob, type RecheckOutcome } from './recheck.js';

/**
 * What each monitor job does, for the queue (lib/queue). `host` replaces the process's code host (tests);
 * by default each job uses `codeHost()`, the GitHub App.
 */
export function monitorHandlers(host?: CodeHost): JobHandlers {
  return {
    async run(job, ctx) {
      switch (job.kind) {
        case 'push-scan':
          await runPushScan(job, ctx, host);
          return;
        case 'pr-check':
          await runPullRequestCheck(job, ctx, host);
          return;
        case 'recheck':
          await runRecheck(job, ctx, host);
          return;
      }
    },
  };
}
