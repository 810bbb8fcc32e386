#!/usr/bin/env node
/**
 * The `chainbreaker` command: the entry of the bundle `npm run build` writes to dist/ (bin/cli.ts holds the
 * CLI itself). `--version` is answered here, before anything else loads, so it starts in a few tens of
 * milliseconds; every other command loads the CLI chunk. In development, `npm run cli -- ...` runs this
 * file through tsx.
 */

// Replaced with the package version by the build (scripts/build-cli.ts); undefined under tsx.
declare const __CHAINBREAKER_VERSION__: string | undefined;

const argv = process.argv.slice(2);
if (typeof __CHAINBREAKER_VERSION__ === 'string' && argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  process.stdout.write(`${__CHAINBREAKER_VERSION__}\n`);
} else {
  // `chainbreaker rules | head` closes the pipe early: stop quietly instead of crashing.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
    process.exit(process.exitCode ?? 0);
  });
  const { main } = await import('./cli.js');
  process.exitCode = await main({ argv, stdout: process.stdout, stderr: process.stderr, stdin: process.stdin, env: process.env, cwd: process.cwd() });
}
