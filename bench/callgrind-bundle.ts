/**
 * `npx tsx bench/callgrind-bundle.ts <out.mjs> [--no-minify]`: writes the engine bundle as `bench/engine-bundle.ts`
 * builds it (esbuild, the CLI's settings, minified) to a file, for `bench/callgrind-pass.mjs` to import under valgrind.
 * `--no-minify` keeps the functions' names, for a profile whose JIT frames are mapped (`--perf-basic-prof`).
 */
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { NODE_BUNDLE } from '../scripts/node-bundle.js';

const [out, flag] = process.argv.slice(2);
if (out === undefined || !out.endsWith('.mjs')) {
  process.stderr.write('usage: npx tsx bench/callgrind-bundle.ts <out.mjs>\n');
  process.exit(2);
}
await build({
  absWorkingDir: fileURLToPath(new URL('../', import.meta.url)),
  entryPoints: [resolve(fileURLToPath(new URL('../', import.meta.url)), 'lib/engine/scan.ts')],
  outfile: resolve(out),
  ...NODE_BUNDLE,
  minify: flag !== '--no-minify',
  logLevel: 'warning',
});
