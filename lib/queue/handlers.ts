// Where the monitor's job handlers plug into the queue. Until they land, every job fails with "no handler"
// (and is retried, then moved to the dead letter), so nothing is lost and nothing pretends to have run.
import type { JobHandlers } from './types.js';

export class NoHandler extends Error {
  override readonly name = 'NoHandler';
}

/** The handlers a drain runs jobs with: the monitor (lib/services/monitor) puts its own here, by import. */
const defaultHandlers: JobHandlers = {
  run(job) {
    return Promise.reject(new NoHandler(`No handler is registered for ${job.kind} jobs.`));
  },
};

let current: JobHandlers = defaultHandlers;

/** The handlers drains use now. */
export function jobHandlers(): JobHandlers {
  return current;
}

/** Uses these handlers from now on (the monitor's at start-up; a test's fake); null restores the default. */
export function useJobHandlers(next: JobHandlers | null): void {
  current = next ?? defaultHandlers;
}
