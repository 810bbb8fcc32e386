/**
 * Two revisions' engines side by side, file by file, in one process: each checkout's engine bundled as the CLI
 * ships it (its own bench/engine-bundle.ts), every corpus workflow scanned alone, best of 3 back-to-back scans,
 * two passes of each engine in turn. Prints the median per file of each, the median of the per-file ratios (b / a)
 * and the sums. Which engine is loaded first matters (run it both ways round and quote both):
 *   npx tsx bench/ab-files.ts <checkout a> <checkout b> [out.json]
 * Needs the shared corpus beside the project (../shared/corpus/real); without it, says so and exits.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CORPUS_MISSING, corpusAvailable, loadCorpus } from './corpus.js';
import type { scanRepository as ScanRepository } from '../lib/engine/scan.js';

const [a, b, out] = process.argv.slice(2);
if (a === undefined || b === undefined) {
  console.error('usage: npx tsx bench/ab-files.ts <checkout a> <checkout b> [out.json]');
  process.exit(2);
}
if (!corpusAvailable()) {
  console.log(`ab-files: ${CORPUS_MISSING}; nothing to do`);
  process.exit(0);
}
const engines: (typeof ScanRepository)[] = [];
for (const checkout of [a, b]) {
  const bundler = resolve(checkout, 'bench/engine-bundle.ts');
  if (!existsSync(bundler)) {
    console.error(`ab-files: ${checkout} has no bench/engine-bundle.ts: give the root of a checkout of this project`);
    process.exit(2);
  }
  const { loadBundledEngine } = (await import(pathToFileURL(bundler).href)) as { loadBundledEngine: () => Promise<{ scanRepository: typeof ScanRepository }> };
  engines.push((await loadBundledEngine()).scanRepository);
}
const files = loadCorpus().flatMap((r) => r.files.map((f) => ({ repo: r.name, ...f }))).filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f.path));
const best = engines.map(() => files.map(() => Infinity));
for (const scan of engines) for (const f of files) scan([f]);
for (let pass = 0; pass < 2; pass++) {
  for (const [k, scan] of engines.entries()) {
    for (const [i, f] of files.entries()) {
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        scan([f]);
        best[k]![i] = Math.min(best[k]![i]!, performance.now() - start);
      }
    }
  }
}
const rows = files.map((f, i) => ({ file: `${f.repo}/${f.path}`, a: best[0]![i]!, b: best[1]![i]! }));
if (out !== undefined) writeFileSync(out, JSON.stringify(rows));
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
const sum = (xs: number[]) => xs.reduce((s, x) => s + x, 0);
console.log(`${files.length} workflows, each alone: median per file a ${median(rows.map((r) => r.a)).toFixed(3)} ms, b ${median(rows.map((r) => r.b)).toFixed(3)} ms; median of b / a ${median(rows.map((r) => r.b / r.a)).toFixed(2)}; sums a ${sum(rows.map((r) => r.a)).toFixed(0)} ms, b ${sum(rows.map((r) => r.b)).toFixed(0)} ms`);
