/**
 * Runs a scan's engine and fixes in a worker thread (lib/services/engine-worker.ts) that is terminated when
 * the scan's time is up: the engine's own deadline is cooperative (it is read between files), so a rule or a
 * regular expression stuck inside one file, or a fix verification, would otherwise hold the request and every
 * other request of the process. The main thread only waits, so it keeps answering (`GET /api/health`).
 *
 * At most `MAX_WORKERS` engine threads exist; a scan waits for one (the engine is CPU-bound: more threads than
 * cores would only make every scan late). The budget of a step starts when its worker starts it, not while it
 * waits or loads the engine. Idle workers (at most `MAX_IDLE`, unreferenced so they never keep the process
 * alive) serve the next scans with a warm engine; a worker that ran out of time is terminated, never reused.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { ApiFix, FixLimits } from '../engine/fixes/apply.js';
import type { ScanResult } from '../engine/scan.js';
import type { Finding } from '../engine/types.js';
import type { EngineJob, FromEngine, ToEngine } from './engine-worker.js';

/** Engine threads of the process, busy or idle. */
export const MAX_WORKERS = Math.max(1, Math.min(4, availableParallelism()));
/** Idle engine threads kept for the next scans. */
const MAX_IDLE = 2;
/** How long a worker may take to load the engine before its step starts (our code, not the input's). */
const LOAD_TIMEOUT_MS = 30_000;

const idle: Worker[] = [];
let live = 0;
const waiting: (() => void)[] = [];

/**
 * The worker's entry: the compiled module beside this one when deployed, the TypeScript source under tsx (the
 * dev server, the tests). Both are literal `new URL(..., import.meta.url)` references, and `traceEngineWorker`
 * imports the entry, so the function's file tracer includes it (and its imports) in the deployed function.
 */
function defaultEntry(): URL {
  return import.meta.url.endsWith('.ts') ? new URL('./engine-worker.ts', import.meta.url) : new URL('./engine-worker.js', import.meta.url);
}
let entryOverride: URL | undefined;

/** Never called by the service: it names the worker's module for the file tracer (and a test checks it). */
export const traceEngineWorker = () => import('./engine-worker.js');

/** Tests: run another worker entry (one that never answers, say); `undefined` restores the engine's. */
export function useEngineWorker(entry: URL | undefined): void {
  entryOverride = entry;
  for (const worker of idle.splice(0)) retire(worker);
}

/**
 * A TypeScript entry (the dev server, the tests) runs behind a small bootstrap that registers tsx's loader in
 * the worker itself: loader flags given to a worker (`--import tsx`, or the ones the tsx CLI started the process
 * with) are not applied to worker threads on Node 20, and Node's own type stripping (22.6+) does not map the
 * sources' `.js` imports to `.ts` files. The compiled entry of a deployment starts as it is.
 */
function workerFor(entry: URL): Worker {
  if (!entry.pathname.endsWith('.ts')) return new Worker(entry);
  const tsxApi = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const bootstrap = `import { register } from ${JSON.stringify(tsxApi)};\nregister();\nawait import(${JSON.stringify(entry.href)});\n`;
  return new Worker(bootstrap, { eval: true });
}

function spawn(): Worker {
  const entry = entryOverride ?? defaultEntry();
  live++;
  const worker = workerFor(entry);
  // An idle worker that stops (it should not) leaves the pool.
  worker.on('exit', () => {
    const at = idle.indexOf(worker);
    if (at >= 0) {
      idle.splice(at, 1);
      live--;
      waiting.shift()?.();
    }
  });
  return worker;
}

function retire(worker: Worker): void {
  live--;
  void worker.terminate();
  waiting.shift()?.();
}

/** Starts an engine thread ahead of need (it loads the engine while the scan's round trips run). */
export function prewarmEngine(): void {
  if (idle.length > 0 || live >= MAX_WORKERS) return;
  const worker = spawn();
  worker.unref();
  idle.push(worker);
}

/** An engine thread for one scan, once one is free. */
export async function acquireEngine(): Promise<EngineSession> {
  for (;;) {
    const worker = idle.pop();
    if (worker !== undefined) return new EngineSession(worker);
    if (live < MAX_WORKERS) return new EngineSession(spawn());
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
}

/** Why a step gave no answer: its time ran out (the worker was terminated). */
export const TIMED_OUT = Symbol('timed out');

/** One scan's use of an engine worker: `scan`, then `fix`, then `release` (always). */
export class EngineSession {
  #worker: Worker;
  #settle: ((answer: FromEngine | Error) => void) | null = null;
  #dead = false;
  #released = false;

  constructor(worker: Worker) {
    this.#worker = worker;
    worker.ref();
    worker.on('message', this.#onMessage);
    worker.on('error', this.#onError);
    worker.on('exit', this.#onExit);
  }

  #onMessage = (answer: FromEngine) => this.#settle?.(answer);
  #onError = (error: Error) => {
    this.#dead = true;
    this.#settle?.(error);
  };
  #onExit = () => {
    this.#dead = true;
    this.#settle?.(new Error('the engine thread stopped'));
  };

  /**
   * Sends one request and waits for its answer. The step's clock starts when the worker says it started
   * (`started`); `budgetMs` + `graceMs` after that, the worker is terminated and the answer is `TIMED_OUT`.
   */
  #ask(message: ToEngine, budgetMs: number, graceMs: number): Promise<{ answer: FromEngine | typeof TIMED_OUT; ms: number }> {
    if (this.#dead) return Promise.reject(new Error('the engine thread stopped'));
    return new Promise((resolve, reject) => {
      let started = Date.now();
      const stop = () => {
        this.#dead = true;
        this.#settle = null;
        void this.#worker.terminate();
        resolve({ answer: TIMED_OUT, ms: Date.now() - started });
      };
      let timer = setTimeout(stop, LOAD_TIMEOUT_MS + budgetMs + graceMs);
      this.#settle = (answer) => {
        if (!(answer instanceof Error) && answer.kind === 'started') {
          started = Date.now();
          clearTimeout(timer);
          timer = setTimeout(stop, Math.max(0, budgetMs) + graceMs);
          return;
        }
        clearTimeout(timer);
        this.#settle = null;
        if (answer instanceof Error) reject(answer);
        else if (answer.kind === 'failed') reject(new Error(answer.message));
        else resolve({ answer, ms: Date.now() - started });
      };
      this.#worker.postMessage(message);
    });
  }

  /** The engine's result and the time it took, or `TIMED_OUT` when it was not done `graceMs` past its budget. */
  async scan(job: EngineJob, graceMs: number): Promise<{ result: ScanResult | typeof TIMED_OUT; ms: number }> {
    const { answer, ms } = await this.#ask({ kind: 'scan', job }, job.maxEngineMs, graceMs);
    if (answer === TIMED_OUT) return { result: answer, ms };
    if (answer.kind !== 'scanned') throw new Error(`unexpected answer ${answer.kind}`);
    return { result: answer.result, ms };
  }

  /** The findings' fixes within `budgetMs` (cooperative), or `TIMED_OUT` when not done `graceMs` past it. */
  async fix(findings: Finding[], limits: Omit<FixLimits, 'now' | 'deadline'>, budgetMs: number, graceMs: number): Promise<{ fixes: (ApiFix | null)[]; limited: string | null } | typeof TIMED_OUT> {
    const { answer } = await this.#ask({ kind: 'fix', findings, limits, budgetMs }, budgetMs, graceMs);
    if (answer === TIMED_OUT) return answer;
    if (answer.kind !== 'fixed') throw new Error(`unexpected answer ${answer.kind}`);
    return { fixes: answer.fixes, limited: answer.limited };
  }

  /** Gives the worker back for a later scan (or terminates it when it timed out, failed, or enough are idle). */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    const worker = this.#worker;
    worker.off('message', this.#onMessage);
    worker.off('error', this.#onError);
    worker.off('exit', this.#onExit);
    if (this.#dead) {
      live--;
      waiting.shift()?.();
      return;
    }
    if (this.#settle !== null || idle.length >= MAX_IDLE) {
      retire(worker);
      return;
    }
    worker.unref();
    idle.push(worker);
    waiting.shift()?.();
  }
}
