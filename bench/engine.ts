/**
 * Engine benchmark: scanning the whole shared corpus against `yaml.parseDocument` of the same files, in
 * the same process and run (rounds alternate so machine noise hits both sides alike).
 */
import { parseDocument } from 'yaml';
import { scanRepository } from '../lib/engine/scan.js';
import { loadCorpus } from './corpus.js';
import { ms, summarize, table } from './stats.js';

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
}

function time(fn: () => void): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

export function benchEngine(rounds = 5): EngineBenchResult {
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
    `ratio scan / parse: ${r.ratio.toFixed(2)} (budget <= 1.5)`,
    `largest file: ${r.largest.path} (${(r.largest.bytes / 1024).toFixed(0)} KiB): scan ${ms(r.largest.scanMs, 2)}, parse ${ms(r.largest.parseMs, 2)}`,
    `peak RSS: ${r.peakRssMb.toFixed(0)} MiB`,
  ].join('\n');
}
