// `npm run dev`'s stand-in for Vercel's crons: in the server's process, a drain every few seconds (one at a
// time) and the day's re-check enqueue once per day. Production has no long-lived process: api/cron/*.
import type { Database } from '../db/port.js';
import { log } from '../http/log.js';
import { dayOf, drain, enqueueDailyRechecks } from './queue.js';

export interface BackgroundDrain {
  stop(): Promise<void>;
}

export function startBackgroundDrain(db: Database, options: { intervalMs?: number; maxJobs?: number } = {}): BackgroundDrain {
  const intervalMs = options.intervalMs ?? 5_000;
  let lastRecheckDay: string | null = null;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const tick = async () => {
    try {
      const today = dayOf(new Date());
      if (lastRecheckDay !== today) {
        await enqueueDailyRechecks(db);
        lastRecheckDay = today;
      }
      await drain({ db, maxJobs: options.maxJobs ?? 50, budgetMs: 25_000, prune: true });
    } catch (error) {
      log({ level: 'error', msg: 'queue job failed', error: error instanceof Error ? error.name : typeof error });
    }
  };
  const timer = setInterval(() => {
    if (stopped) return;
    running = running.then(tick);
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running;
    },
  };
}
