/**
 * What every Node.js bundle of the project is built with (the CLI, the benchmarks' engine and baselines, the
 * endpoints' cold-start bundles): ESM for Node 20+, with a `require` of its own for the CommonJS dependencies
 * bundled into it, which call `require()` for Node's built-ins.
 */
import type { BuildOptions } from 'esbuild';

export const NODE_BUNDLE = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  banner: { js: "import { createRequire as __cbRequire } from 'node:module'; const require = __cbRequire(import.meta.url);" },
} as const satisfies BuildOptions;
