import { CodeHostError } from '../port.js';

/**
 * One operation's deadline: a signal that aborts every request still running when it passes (fetch then
 * fails with an AbortError, which the retry plugin does not retry), and `race` for what a signal cannot
 * reach (the installation token request inside the auth strategy, back-off sleeps of the plugins).
 */
export class Deadline {
  readonly signal: AbortSignal;
  readonly at: number;
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;
  private readonly timers: Array<ReturnType<typeof setTimeout>> = [];
  private readonly expired: Promise<never>;

  constructor(at: number, now: number = Date.now()) {
    this.at = at;
    this.signal = this.controller.signal;
    this.timer = setTimeout(() => this.controller.abort(), Math.max(0, at - now));
    this.expired = new Promise<never>((_, reject) => {
      const fail = () => reject(new CodeHostError('timeout', 'GitHub did not answer before the deadline'));
      if (this.signal.aborted) fail();
      else this.signal.addEventListener('abort', fail, { once: true });
    });
    // Nobody may be racing when the deadline passes.
    this.expired.catch(() => {});
  }

  /**
   * A signal that aborts `ms` before the deadline (or with it): for reads whose failure costs only
   * themselves, so that a slow one is given up while the operation can still complete.
   */
  early(ms: number, now: number = Date.now()): AbortSignal {
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(), Math.max(0, this.at - ms - now));
    this.timers.push(timer);
    if (this.signal.aborted) controller.abort();
    else this.signal.addEventListener('abort', () => controller.abort(), { once: true });
    return controller.signal;
  }

  /** `promise`, or a CodeHostError 'timeout' once the deadline passes. */
  race<T>(promise: Promise<T>): Promise<T> {
    return Promise.race([promise, this.expired]);
  }

  /** Stops the timer (the operation is over). */
  clear(): void {
    clearTimeout(this.timer);
    for (const timer of this.timers) clearTimeout(timer);
  }
}

/** Runs `work` under a deadline at `at` (epoch ms), clearing its timer afterwards. */
export async function withDeadline<T>(at: number, work: (deadline: Deadline) => Promise<T>): Promise<T> {
  const deadline = new Deadline(at);
  try {
    return await deadline.race(work(deadline));
  } finally {
    deadline.clear();
  }
}
