/**
 * The engine as it ships: bundled with esbuild under the CLI's own settings (scripts/build-cli.ts), into a
 * temporary directory, and imported from there. Benchmarks time this, not the TypeScript sources under tsx,
 * whose transform adds a `__name` call to every function and class (about a sixth of a small file's scan).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import type { scanRepository } from '../lib/engine/scan.js';

const root = fileURLToPath(new URL('../', import.meta.url));

export async function loadBundledEngine(): Promise<{ scanRepository: typeof scanRepository }> {
  const dir = mkdtempSync(join(tmpdir(), 'chainbreaker-bench-'));
  try {
    await build({
      absWorkingDir: root,
      entryPoints: { engine: 'lib/engine/scan.ts' },
      outdir: dir,
      bundle: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      minify: true,
      banner: { js: "import { createRequire as __cbRequire } from 'node:module'; const require = __cbRequire(import.meta.url);" },
      logLevel: 'warning',
    });
    return (await import(pathToFileURL(join(dir, 'engine.js')).href)) as { scanRepository: typeof scanRepository };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
