#!/usr/bin/env node
/**
 * The `chainbreaker` command: the entry of the bundle `npm run build` writes to dist/ (bin/cli.ts holds the
 * CLI itself). `--version` is answered here, before anything else loads, so it starts in a few tens of
 * milliseconds; every other command loads the CLI chunk. In development, `npm run cli -- ...` runs this
 * file through tsx.
 *
 * `scan` and `baseline` run in a worker thread with a bounded young generation: left to itself, V8 grows
 * the nursery of the main thread to its maximum while a large scan allocates, which was most of the peak
 * memory of a scan over many repositories (see the README's performance numbers). Reading standard input
 * (`-`) stays on the main thread.
 */
// Replaced with the package version by the build (scripts/build-cli.ts); undefined under tsx.
declare const __CHAINBREAKER_VERSION__: string | undefined;

/** The young generation of the scanning thread, in MB (V8's default for the main thread is several times this). */
const YOUNG_GENERATION_MB = 24;

const argv = process.argv.slice(2);
const bundled = typeof __CHAINBREAKER_VERSION__ === 'string';

if (bundled && argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${__CHAINBREAKER_VERSION__}\n`);
} else {
  // Loaded here, not at the top: `--version` loads nothing.
  const { isMainThread, parentPort, Worker, workerData } = await import('node:worker_threads');
  if (!isMainThread) {
    // The scanning thread: standard output is relayed by the main thread, which knows whether it is a terminal.
    const { tty } = workerData as { tty: boolean };
    const { main } = await import('./cli.js');
    const stdout = { write: (text: string) => process.stdout.write(text), isTTY: tty };
    parentPort?.postMessage(await main({ argv, stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() }));
  } else {
    // `chainbreaker rules | head` closes the pipe early: stop quietly instead of crashing.
    process.stdout.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE') throw error;
      process.exit(process.exitCode ?? 0);
    });
    if (bundled && (argv[0] === 'scan' || argv[0] === 'baseline') && !argv.includes('-')) {
      const worker = new Worker(new URL(import.meta.url), { argv, workerData: { tty: process.stdout.isTTY === true }, resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB } });
      worker.on('message', (code: number) => {
        process.exitCode = code;
      });
      worker.on('error', (error: Error & { code?: string }) => {
        const what = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'the scan ran out of memory (scan fewer repositories at once, or lower --max-bytes)' : error.message;
        process.stderr.write(`chainbreaker: ${what}\n`);
        process.exitCode = 3;
      });
    } else {
      const { main } = await import('./cli.js');
      process.exitCode = await main({ argv, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
    }
  }
}
