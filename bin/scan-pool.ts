/**
 * The pool of scanning threads of `scan` and `baseline` over several repositories (`--jobs`): the thread that runs
 * the CLI reads the repositories one after the other and hands each to the next free worker of the pool, which
 * scans it (`scanForReport`) and sends back its part of the report; the CLI merges the parts in the order of the
 * repositories (bin/cli.ts, `readScan`), so the report is the one a single thread writes.
 *
 * Each worker is the bundle's entry in its pool role (bin/chainbreaker.ts), with the CLI's body from its code cache
 * and the same bounded young generation as the scanning thread. A worker is sent work once it has loaded. The pool
 * is its workers' watchdog, as bin/worker-run.ts is the scanning thread's: a repository still scanning
 * `GRACE_MS` past --max-engine-ms stops the whole pool, and so does a worker that throws, runs out of memory or
 * exits: every repository not yet merged fails with the one message the command prints (exit code 3).
 */
import { Worker } from 'node:worker_threads';
import type { ReportOptions, RepositoryInput, RepositoryReport } from '../lib/engine/report.js';
import type { ScanPool } from './cli.js';
import { GRACE_MS, YOUNG_GENERATION_MB, stoppedMessage, workerFailure } from './worker-run.js';

/** What a pool worker is started with (its `workerData`). */
export interface PoolWorkerData {
  pool: { options: ReportOptions };
}

/** What the pool sends a worker: a repository to scan, or the end (`save`: write the code cache, if it has to). */
export type PoolRequest = { scan: number; repository: Omit<RepositoryInput, 'display'> } | { close: { save: boolean } };

/** What a worker sends the pool: it has loaded, a repository's part, or the message of an error scanning it. */
export type PoolReply = { ready: true } | { done: number; part: RepositoryReport } | { failed: number; message: string };

export interface PoolSettings {
  size: number;
  /** The options of every scan: plain data (no clock, no functions), sent to each worker once. */
  options: ReportOptions;
  /** A repository's budget (--max-engine-ms), counted from the moment it is sent to a worker. */
  budgetMs?: number;
}

interface Task {
  id: number;
  repository: Omit<RepositoryInput, 'display'>;
  resolve: (part: RepositoryReport) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | undefined;
  exited: Promise<void>;
}

/** Starts `size` workers running `entry`; `ready` settles once every worker has loaded (or the pool failed). */
export function startScanPool(entry: URL, settings: PoolSettings): ScanPool & { ready: Promise<void> } {
  const queue: Task[] = [];
  let failure: Error | null = null;
  let closing = false;
  let nextId = 0;
  let loaded = 0;
  let markReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (markReady = resolve));

  const fail = (error: Error) => {
    if (failure !== null) return;
    failure = error;
    for (const slot of slots) {
      clearTimeout(slot.timer);
      slot.task?.reject(error);
      slot.task = null;
      void slot.worker.terminate();
    }
    for (const task of queue.splice(0)) task.reject(error);
    markReady();
  };

  const dispatch = () => {
    for (const slot of slots) {
      if (failure !== null || queue.length === 0) return;
      if (!slot.ready || slot.task !== null) continue;
      const task = queue.shift() as Task;
      slot.task = task;
      slot.worker.postMessage({ scan: task.id, repository: task.repository } satisfies PoolRequest);
      const budget = settings.budgetMs;
      if (budget !== undefined) slot.timer = setTimeout(() => fail(new Error(stoppedMessage(budget))), budget + GRACE_MS);
    }
  };

  const spawn = (): Slot => {
    const data: PoolWorkerData = { pool: { options: settings.options } };
    const worker = new Worker(entry, { workerData: data, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    const slot: Slot = { worker, ready: false, task: null, timer: undefined, exited: new Promise((resolve) => worker.once('exit', () => resolve())) };
    worker.on('message', (reply: PoolReply) => {
      if ('ready' in reply) {
        slot.ready = true;
        if (++loaded === slots.length) markReady();
      } else if ('done' in reply) {
        clearTimeout(slot.timer);
        const task = slot.task;
        slot.task = null;
        if (task?.id === reply.done) task.resolve(reply.part);
      } else fail(new Error(reply.message));
      dispatch();
    });
    worker.on('error', (error: Error & { code?: string }) => fail(new Error(workerFailure(error))));
    worker.on('exit', (code) => {
      if (!closing || slot.task !== null) fail(new Error(`a scanning thread stopped unexpectedly (exit code ${code})`));
    });
    return slot;
  };

  const slots: Slot[] = [];
  for (let i = 0; i < settings.size; i++) slots.push(spawn());

  return {
    ready,
    scan(repository) {
      if (failure !== null) return Promise.reject(failure);
      return new Promise<RepositoryReport>((resolve, reject) => {
        queue.push({ id: nextId++, repository, resolve, reject });
        dispatch();
      });
    },
    async close() {
      closing = true;
      if (failure === null) for (const [i, slot] of slots.entries()) slot.worker.postMessage({ close: { save: i === 0 } } satisfies PoolRequest);
      await Promise.all(slots.map((slot) => slot.exited));
    },
    async terminate() {
      closing = true;
      for (const slot of slots) clearTimeout(slot.timer);
      await Promise.all(slots.map(async (slot) => slot.worker.terminate()));
    },
  };
}
