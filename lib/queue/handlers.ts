// Where the monitor's job handlers plug into the queue: by default, what lib/services/monitor does for each
// job kind (push-scan, pr-check, recheck). That module (the scan service, the engine's thread, the code host)
// is imported on a drain's first job, not when the queue loads: a webhook delivery that enqueues only, or a
// drain with nothing to run, does not pay for it.
import type { JobHandlers } from './types.js';

/** The monitor's handlers, loaded on first use (a failed import is tried again by the next job). */
let monitor: Promise<JobHandlers> | undefined;
const monitorHandlers = (): Promise<JobHandlers> => {
  monitor ??= import('../services/monitor/index.js').then(
    (m) => m.monitorHandlers(),
    (error: unknown) => {
      monitor = undefined;
      throw error;
    },
  );
  return monitor;
};

const defaultHandlers: JobHandlers = {
  async run(job, ctx) {
    await (await monitorHandlers()).run(job, ctx);
  },
};

let current: JobHandlers = defaultHandlers;

/** The handlers drains use now. */
export function jobHandlers(): JobHandlers {
  return current;
}

/** Uses these handlers from now on (a test's fake); null restores the monitor's. */
export function useJobHandlers(next: JobHandlers | null): void {
  current = next ?? defaultHandlers;
}
