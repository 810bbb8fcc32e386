/**
 * Runs the CLI (bin/chainbreaker.ts in its worker mode) in a worker thread and relays what it writes. The
 * worker announces each piece of bounded work (`watch`: a repository's scan, a checkout's fixes) with its
 * budget; if the piece is still running `GRACE_MS` past it, the worker is terminated and the command fails
 * with exit code 3, so `--max-engine-ms` stops a rule, a regular expression or a fix that would never end,
 * not only the work the engine checks its deadline between.
 */
import { Worker } from 'node:worker_threads';

/** What the scanning thread sends the main thread: output, a budget announcement, then its exit code. */
export type WorkerMessage = { stdout: string } | { stderr: string } | { watch: number | null } | { exit: number };

/** How far past an announced budget the worker may run before it is terminated. */
export const GRACE_MS = 2_000;

/** The young generation of a scanning thread, in MB (V8's default for the main thread is several times this). */
export const YOUNG_GENERATION_MB = 24;

/** What the command says when a piece of work ran past its budget and was stopped (then exit code 3). */
export function stoppedMessage(budgetMs: number): string {
  return `stopped: the scan ran ${budgetMs + GRACE_MS} ms, past its time limit of ${budgetMs} ms (--max-engine-ms); nothing was reported`;
}

/** What the command says when a scanning thread failed (`error` of a Worker): out of memory, or the error's message. */
export function workerFailure(error: Error & { code?: string }): string {
  return error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the scan ran out of memory (scan fewer repositories at once, or lower --max-bytes)' : error.message;
}

export interface Output {
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  /** Standard output was closed by its reader: drop further output. */
  stdoutClosed?: () => boolean;
}

/** Runs `entry` (the CLI's entry file) with `argv` in a worker; resolves with its exit code. */
export function runInWorker(entry: URL, argv: readonly string[], output: Output): Promise<number> {
  return new Promise((resolve) => {
    let code = 0;
    let timer: NodeJS.Timeout | undefined;
    let stopped = false;
    const worker = new Worker(entry, { argv: [...argv], workerData: { tty: output.stdout.isTTY === true }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
    worker.on('message', (message: WorkerMessage) => {
      if ('stdout' in message) {
        if (output.stdoutClosed?.() !== true) output.stdout.write(message.stdout);
      } else if ('stderr' in message) output.stderr.write(message.stderr);
      else if ('watch' in message) {
        clearTimeout(timer);
        timer = undefined;
        const budget = message.watch;
        if (budget === null) return;
        timer = setTimeout(() => {
          stopped = true;
          output.stderr.write(`chainbreaker: ${stoppedMessage(budget)}\n`);
          code = 3;
          void worker.terminate();
        }, budget + GRACE_MS);
      } else code = message.exit;
    });
    worker.on('error', (error: Error & { code?: string }) => {
      output.stderr.write(`chainbreaker: ${workerFailure(error)}\n`);
      code = 3;
    });
    worker.on('exit', () => {
      clearTimeout(timer);
      resolve(stopped ? 3 : code);
    });
  });
}
