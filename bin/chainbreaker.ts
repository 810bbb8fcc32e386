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
 *
 * The bundle's compiled code is cached on disk in the user's cache directory, never in the scanned repository:
 * the CLI's body (bin/cli.ts and what it loads) is one classic script, dist/cli.cjs, run through `vm.Script`
 * with its V8 code cache on every Node (lib/cli/code-cache.ts); this entry's own chunks use Node's compile
 * cache (Node 22.1+, `module.enableCompileCache`, lib/cli/compile-cache.ts).
 */
// Replaced with the package version by the build (scripts/build-cli.ts); undefined under tsx.
declare const __CHAINBREAKER_VERSION__: string | undefined;

import type { CliIO } from './cli.js';
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
  if (!isMainThread) {
    // The scanning thread: standard output is written by the main thread, which knows whether it is a terminal.
    const { tty } = workerData as { tty: boolean };
    const post = (message: WorkerMessage) => parentPort?.postMessage(message);
    const cli = await loadCli();
    const stdout = { write: (text: string) => post({ stdout: text }), isTTY: tty };
    const stderr = { write: (text: string) => post({ stderr: text }) };
    // Each repository's scan and each checkout's fixes announce their budget: the main thread terminates this
    // thread when one runs past it (bin/worker-run.ts).
    const watch = (budgetMs: number | null) => post({ watch: budgetMs });
    const code = await cli.main({ argv, stdout, stderr, env: process.env, cwd: process.cwd(), watch });
    cli.save();
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
      const cli = await loadCli();
      process.exitCode = await cli.main({ argv, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
      cli.save();
    }
  }
}

/**
 * The CLI's body: in the bundle, dist/cli.cjs through its code cache (written after the command ran, when there
 * was none or V8 refused it: `save`), one cache for scans and one for the other commands, whose functions differ;
 * under tsx, the sources.
 */
async function loadCli(): Promise<{ main: (io: CliIO) => Promise<number>; save: () => void }> {
  // Tested here, not through `bundled`, so that the build drops this branch and the sources' ES modules with it.
  if (typeof __CHAINBREAKER_VERSION__ !== 'string') {
    const { main } = await import('./cli.js');
    return { main, save: () => undefined };
  }
  const scan = argv[0] === 'scan' || argv[0] === 'baseline';
  const [{ loadClassicScript }, { fileURLToPath }, tuning] = await Promise.all([
    import('../lib/cli/code-cache.js'),
    import('node:url'),
    scan ? import('../lib/cli/compiler-tuning.js') : null,
  ]);
  const loaded = loadClassicScript<{ main: (io: CliIO) => Promise<number> }>(fileURLToPath(new URL('./cli.cjs', import.meta.url)), { env: process.env, kind: scan ? 'scan' : 'cli' });
  // A scan is one pass over its files: the optimizing compiler is told to do less (lib/cli/compiler-tuning.ts),
  // from here on, once Node's built-in modules and the code cache are loaded (V8 refuses caches made with other
  // flags), and back to V8's defaults before the code cache is written, so that it matches the next load.
  tuning?.tuneCompilerForScan();
  return {
    main: loaded.exports.main,
    save: () => {
      tuning?.restoreCompilerDefaults();
      loaded.save();
    },
  };
}
