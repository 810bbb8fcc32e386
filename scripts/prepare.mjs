// `prepare`: builds the CLI bundle (scripts/build-cli.ts) after `npm ci` in a checkout, and when npm installs the
// package from its Git repository (`npm install --global <repository URL>`). Plain JavaScript, so that it runs
// before anything is installed.
//
// npm is meant to install a Git dependency's devDependencies before its `prepare`, but a global install from a
// Git URL installs none (npm/cli#8440, open): then the build tools are missing here, and this installs the
// locked devDependencies into this directory first (no install scripts run), as a checkout's `npm ci` would.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsx = join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs');
const haveTools = existsSync(tsx) && existsSync(join(root, 'node_modules', 'esbuild', 'package.json'));

function run(command, args, env = process.env) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.error !== undefined) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

if (!haveTools) {
  console.error('chainbreaker: installing the build tools (a Git install runs prepare without them)');
  // The global install's settings would send this install to the global prefix instead of this directory.
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_config_(global|prefix|location)$/i.test(key)));
  const npm = process.env.npm_execpath;
  const [command, prefix] = npm !== undefined && npm.endsWith('.js') ? [process.execPath, [npm]] : ['npm', []];
  run(command, [...prefix, 'install', '--no-save', '--include=dev', '--ignore-scripts', '--no-audit', '--no-fund', '--global=false', '--location=project'], env);
}
run(process.execPath, [tsx, join(root, 'scripts', 'build-cli.ts')]);
