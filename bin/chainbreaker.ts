#!/usr/bin/env node
/**
 * The `chainbreaker` command: the entry of the bundle `npm run build` writes to dist/ (bin/cli.ts holds the
 * CLI itself). `--version` is answered here, before anything else loads, so it starts in a few tens of
 * milliseconds; every other command loads the CLI chunk. In development, `npm run cli -- ...` runs this
 * file through tsx.
 *
 * `scan` and `baseline` run in a worker thread with a bounded young generation: left to itself, V8 grows
 * the nursery of the main thread to its maximum while a large scan allocates, which was most of the peak
 * memory of a scan over many repositories (see docs/performance.md). Reading standard input
 * (`-`) stays on the main thread. The worker sends what it writes and its exit code to the main thread as
 * messages on one port, so they arrive in order and the report is written once, by the main thread.
 * Over several repositories (`--jobs`, default the cores up to 4), that thread reads them and a pool of worker
 * threads, this entry in a third role, scans them (bin/scan-pool.ts); the parts are merged in order (bin/cli.ts).
 *
 * The bundle's compiled code is cached on disk in the user's cache directory, never in the scanned repository:
 * the CLI's body (bin/cli.ts and what it loads) is one classic script, dist/cli.cjs, run through `vm.Script`
 * with its V8 code cache on every Node (lib/cli/code-cache.ts); this entry's own chunks use Node's compile
 * cache (Node 22.1+, `module.enableCompileCache`, lib/cli/compile-cache.ts).
 */
// Replaced with the package version by the build (scripts/build-cli.ts); undefined under tsx.
declare const __CHAINBREAKER_VERSION__: string | undefined;

import type { CliIO } from './cli.js';
import type { ReportOptions, RepositoryReport, RepositoryInput } from '../lib/engine/report.js';
import type { PoolReply, PoolRequest, PoolWorkerData } from './scan-pool.js';
import type { WorkerMessage } from './worker-run.js';

const argv = process.argv.slice(2);
const bundled = typeof __CHAINBREAKER_VERSION__ === 'string';

if (bundled && argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${__CHAINBREAKER_VERSION__}\n`);
} else {
  // Loaded here, not at the top: `--version` loads nothing.
  const [{ isMainThread, parentPort, workerData }, nodeModule, { compileCacheDirectory }] = await Promise.all([
    import('node:worker_threads'),
    import('node:module'),
    import('../lib/cli/compile-cache.js'),
  ]);
  // Compiling the CLI chunk is a good part of a small scan's start; Node 20 has no compile cache (the
  // check keeps it running there), NODE_DISABLE_COMPILE_CACHE=1 turns it off, and a cache that cannot be
  // written is only slower, never an error. Only for the bundle: under tsx the sources change all the time.
  const directory = bundled ? compileCacheDirectory(process.env) : null;
  if (directory !== null && typeof nodeModule.enableCompileCache === 'function') nodeModule.enableCompileCache(directory);
  const data = workerData as { tty: boolean } | PoolWorkerData | null;
  if (!isMainThread && data !== null && 'pool' in data) {
    // A thread of the scanning thread's pool (bin/scan-pool.ts): scans each repository it is sent and sends back its
    // part of the report. Its first thread writes the pool's code cache when the pool closes.
    const cli = await loadCli('scan-pool');
    const { options } = data.pool;
    const isEnabled = cli.enabledRules(options);
    const post = (reply: PoolReply) => parentPort?.postMessage(reply);
    parentPort?.on('message', (request: PoolRequest) => {
      if ('scan' in request) {
        try {
          post({ done: request.scan, part: cli.scanForReport(request.repository, options, isEnabled) });
        } catch (error) {
          post({ failed: request.scan, message: error instanceof Error ? error.message : String(error) });
        }
      } else {
        if (request.close.save) cli.save();
        process.exit(0);
      }
    });
    post({ ready: true });
  } else if (!isMainThread) {
    // The scanning thread: standard output is written by the main thread, which knows whether it is a terminal.
    const { tty } = data as { tty: boolean };
    const post = (message: WorkerMessage) => parentPort?.postMessage(message);
    const [cli, { startScanPool }] = await Promise.all([loadCli(argv[0] === 'scan' || argv[0] === 'baseline' ? 'scan' : 'cli'), import('./scan-pool.js')]);
    const stdout = { write: (text: string) => post({ stdout: text }), isTTY: tty };
    const stderr = { write: (text: string) => post({ stderr: text }) };
    // Each repository's scan and each checkout's fixes announce their budget: the main thread terminates this
    // thread when one runs past it (bin/worker-run.ts).
    const watch = (budgetMs: number | null) => post({ watch: budgetMs });
    // Several repositories are scanned on a pool of threads (--jobs), which watches their budgets itself. The
    // threads start under the scan's compiler tuning, which stays as it is until they have ended: V8's flags are the
    // process's, and a regular expression compiled before `--regexp-tier-up` changes crashes V8 when it runs after
    // (the threads crashed when the flags were put back to V8's defaults for them to start). So they start without
    // Node's own code cache (made under V8's defaults: some 30 ms of one core each), and their CLI code cache is made
    // and read under the tuning.
    // While the pool runs, V8 optimizes less (lib/cli/compiler-tuning.ts, POOL_V8_FLAGS), set before its threads
    // start and put back once they have ended.
    let pooled = false;
    const scanPool: CliIO['scanPool'] = (settings) => {
      pooled = true;
      cli.tunePool();
      const pool = startScanPool(new URL(import.meta.url), settings);
      const ending = (end: () => Promise<void>) => async () => {
        await end();
        cli.restorePool();
      };
      return { scan: pool.scan, close: ending(pool.close), terminate: ending(pool.terminate) };
    };
    const code = await cli.main({ argv, stdout, stderr, env: process.env, cwd: process.cwd(), watch, ...(bundled ? { scanPool } : {}) });
    // A code cache is written once and then kept: one written here after the pool scanned would hold none of the
    // engine, which every later scan of a single repository would then compile anew. The pool's threads write theirs.
    // V8's defaults are put back either way, for whatever runs next in this process (the Action's next scan).
    if (pooled) cli.restore();
    else cli.save();
    post({ exit: code });
  } else {
    const scanning = bundled && (argv[0] === 'scan' || argv[0] === 'baseline') && !argv.includes('-');
    let stdoutClosed = false;
    // `chainbreaker rules | head` closes the pipe early: stop quietly instead of crashing. A scan goes on
    // to its end (its report is the last thing it writes), so its exit code is still the findings'.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      if (!scanning) process.exit(process.exitCode ?? 0);
      stdoutClosed = true;
    });
    if (scanning) {
      const { runInWorker } = await import('./worker-run.js');
      process.exitCode = await runInWorker(new URL(import.meta.url), argv, { stdout: process.stdout, stderr: process.stderr, stdoutClosed: () => stdoutClosed });
    } else {
      const cli = await loadCli(argv[0] === 'scan' || argv[0] === 'baseline' ? 'scan' : 'cli');
      process.exitCode = await cli.main({ argv, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
      cli.save();
    }
  }
}

/** What bin/cli.ts exports to this entry. */
interface CliExports {
  main: (io: CliIO) => Promise<number>;
  scanForReport: (repository: Omit<RepositoryInput, 'display'>, options: ReportOptions, isEnabled: (ruleId: string) => boolean) => RepositoryReport;
  enabledRules: (options: Pick<ReportOptions, 'ruleset' | 'disabled'>) => (ruleId: string) => boolean;
}

/**
 * The CLI's body: in the bundle, dist/cli.cjs through its code cache (written after the command ran, when there
 * was none or V8 refused it: `save`), one cache for scans, one for the threads of a scan's pool and one for the
 * other commands, whose functions differ; under tsx, the sources. The scanning thread sets the scan's compiler
 * tuning (and the pool's, `tunePool`, around a pool); a pool's threads run under it, and neither set nor reset
 * V8's flags.
 */
async function loadCli(kind: 'scan' | 'scan-pool' | 'cli'): Promise<CliExports & { save: () => void; restore: () => void; tunePool: () => void; restorePool: () => void }> {
  // Tested here, not through `bundled`, so that the build drops this branch and the sources' ES modules with it.
  if (typeof __CHAINBREAKER_VERSION__ !== 'string') {
    const { main, scanForReport, enabledRules } = await import('./cli.js');
    const none = () => undefined;
    return { main, scanForReport, enabledRules, save: none, restore: none, tunePool: none, restorePool: none };
  }
  const [{ loadClassicScript }, { fileURLToPath }, tuning] = await Promise.all([
    import('../lib/cli/code-cache.js'),
    import('node:url'),
    kind === 'scan' ? import('../lib/cli/compiler-tuning.js') : null,
  ]);
  const loaded = loadClassicScript<CliExports>(fileURLToPath(new URL('./cli.cjs', import.meta.url)), { env: process.env, kind });
  // A scan is one pass over its files: the optimizing compiler is told to do less (lib/cli/compiler-tuning.ts),
  // from here on, once Node's built-in modules and the code cache are loaded (V8 refuses caches made with other
  // flags), and back to V8's defaults before the code cache is written, so that it matches the next load.
  tuning?.tuneCompilerForScan();
  return {
    ...loaded.exports,
    tunePool: () => tuning?.tuneCompilerForPool(),
    restorePool: () => tuning?.restoreCompilerAfterPool(),
    restore: () => tuning?.restoreCompilerDefaults(),
    save: () => {
      tuning?.restoreCompilerDefaults();
      loaded.save();
    },
  };
}
