#!/usr/bin/env node
// The `chainbreaker` command. It runs the TypeScript CLI (bin/cli.ts) directly: tsx, a runtime
// dependency, compiles it on the fly, so there is no build step to remember. Works on Node 20+.
import { register } from 'tsx/esm/api';

register();
// `chainbreaker rules | head` closes the pipe early: stop quietly instead of crashing.
process.stdout.on('error', (error) => {
  if (error.code !== 'EPIPE') throw error;
  process.exit(process.exitCode ?? 0);
});
const { main } = await import('./cli.ts');
process.exitCode = await main({
  argv: process.argv.slice(2),
  stdout: process.stdout,
  stderr: process.stderr,
  env: process.env,
  cwd: process.cwd(),
});
