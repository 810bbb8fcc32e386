/**
 * The engine as it ships: bundled with esbuild under the CLI's own settings (scripts/build-cli.ts), into a
 * temporary directory, and imported from there. Benchmarks time this, not the TypeScript sources under tsx,
 * whose transform adds a `__name` call to every function and class (about a sixth of a small file's scan).
 * The bundle is written as `.mjs`: tsx's loader transforms the `.js` files it imports outside `node_modules`
 * (the same `__name` calls: 1.26x the engine's CPU time against 1.00x for the same bundle under plain Node 20),
 * and leaves `.mjs` files alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { scanRepository } from '../lib/engine/scan.js';
import { NODE_BUNDLE } from '../scripts/node-bundle.js';

const root = fileURLToPath(new URL('../', import.meta.url));

export async function loadBundledEngine(): Promise<{ scanRepository: typeof scanRepository }> {
  const dir = mkdtempSync(join(tmpdir(), 'chainbreaker-bench-'));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { engine: 'lib/engine/scan.ts' },
      outdir: dir,
      ...NODE_BUNDLE,
      minify: true,
      outExtension: { '.js': '.mjs' },
      logLevel: 'warning',
    });
    return (await import(pathToFileURL(join(dir, 'engine.mjs')).href)) as { scanRepository: typeof scanRepository };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
