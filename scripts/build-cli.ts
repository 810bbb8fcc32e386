/**
 * `npm run build`: bundles the command-line scanner with esbuild into dist/ (ESM, Node 20+), so the
 * published package has no runtime dependency and no TypeScript at run time:
 * - dist/chainbreaker.js, the entry (answers --version without loading the rest), plus its chunks;
 * - dist/cli.cjs, the CLI's body (bin/cli.ts and all it loads) as one classic script, which the entry runs through
 *   `vm.Script` with a V8 code cache (lib/cli/code-cache.ts: ES modules cannot take one on Node 20);
 * - dist/action.js, the GitHub Action's entry (action.yml);
 * - dist/rules/<id>.md, the rule docs `chainbreaker rules <id>` prints.
 * `prepare` and `prepack` run it, so a checkout after `npm ci` and every packed tarball have a fresh build.
 */
import { mkdir, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { linkSourcePaths } from '../lib/cli/doc-links.js';
import { repositoryUrl } from '../lib/cli/repository-url.js';
import { NODE_BUNDLE } from './node-bundle.js';

const root = fileURLToPath(new URL('../', import.meta.url));
const dist = `${root}dist/`;
const pkg = JSON.parse(await readFile(`${root}package.json`, 'utf8')) as { version: string; repository?: unknown };

await rm(dist, { recursive: true, force: true });
const define = { __CHAINBREAKER_VERSION__: JSON.stringify(pkg.version), __CHAINBREAKER_REPOSITORY__: JSON.stringify(repositoryUrl(pkg.repository)) };
await build({
  absWorkingDir: root,
  entryPoints: { chainbreaker: 'bin/chainbreaker.ts', action: 'bin/action.ts' },
  outdir: 'dist',
  ...NODE_BUNDLE,
  splitting: true,
  minify: true,
  legalComments: 'linked',
  chunkNames: 'chunk-[hash]',
  define,
  logLevel: 'warning',
});
// The CLI's body as one CommonJS script, for `vm.Script` (lib/cli/code-cache.ts passes `require`, `module` and
// `__cbImportMetaUrl`, its own file URL); `import()` of the lazily loaded modules becomes a call, since a
// `vm.Script` cannot import. Its functions run in strict mode, as the ES module bundle's do (the loader's wrapper).
await build({
  absWorkingDir: root,
  entryPoints: ['bin/cli.ts'],
  outfile: 'dist/cli.cjs',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  supported: { 'dynamic-import': false },
  minify: true,
  legalComments: 'linked',
  define: { ...define, 'import.meta.url': '__cbImportMetaUrl' },
  logLevel: 'warning',
});
await mkdir(`${dist}rules`, { recursive: true });
const docs = (await readdir(`${root}lib/engine/rules`)).filter((name) => name.endsWith('.md'));
// Paths of the repository's files become links to them at the release tag: the package does not ship them.
const repository = repositoryUrl(pkg.repository);
await Promise.all(
  docs.map(async (name) => writeFile(`${dist}rules/${name}`, linkSourcePaths(await readFile(`${root}lib/engine/rules/${name}`, 'utf8'), repository, pkg.version))),
);
console.log(`dist/: the CLI bundle (version ${pkg.version}) and ${docs.length} rule docs`);
