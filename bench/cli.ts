/**
 * The command-line scanner's benchmarks (`npm run bench -- --only cli`):
 * - suppressions: matching a 1 MB hostile comment line above a thousand findings (issue 13, budget 50 ms);
 * - start-up: `chainbreaker --version` of the built bundle (dist/), repeated whole processes, wall time and
 *   peak memory (issue 15, budget 80 ms and 60 MB);
 * - the shared corpus as whole processes: the CLI scanning every repository against the floor, a process that
 *   reads the same files from a plain list and parses each with yaml alone (budget 1.0x), with the checkout
 *   reader's own cost on a line of its own; wall time, the spread of the runs, the load average, peak memory
 *   (budget 300 MB). The scan runs twice per round: with the default --jobs (a pool of threads, one per core up
 *   to 4) and with --jobs 1 (one scanning thread), which shows what the pool buys in wall time and costs in CPU.
 * Needs `npm run build` first (and the corpus for the last); skipped with a note if not.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, devNull, loadavg } from 'node:os';
import { buildSync } from 'esbuild';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { classifyPath } from '../lib/engine/paths.js';
import { fileURLToPath } from 'node:url';
import { SuppressionIndex } from '../lib/engine/suppress.js';
import { SourceFile } from '../lib/engine/yaml/source.js';
import { CORPUS_DIR, CORPUS_MISSING, corpusAvailable } from './corpus.js';
import { ms, summarize, table } from './stats.js';
import { NODE_BUNDLE } from '../scripts/node-bundle.js';

export interface CliBench {
  suppressions: { lineBytes: number; findings: number; matchMs: ReturnType<typeof summarize> };
  startup: { runs: number; wallMs: ReturnType<typeof summarize>; nodeMs: ReturnType<typeof summarize>; peakRssMb: number; nodePeakRssMb: number } | { skipped: string };
  corpus: WholeProcess | { skipped: string };
}

/**
 * The corpus as whole processes: the CLI scanning every repository, against the floor (a process that reads the
 * same files from a plain list and parses each with yaml: the least any scanner must do), and a process that
 * walks the repositories with the CLI's checkout reader and parses what it reads (the floor plus the reader's
 * own cost: real paths, containment checks, bounded reads).
 */
interface WholeProcess {
  repositories: number;
  files: number;
  runs: number;
  /** The scan with the default --jobs (`jobs` threads). */
  scanMs: number;
  /** The threads of the default --jobs on this machine: min(cores, 4). */
  jobs: number;
  /** The scan with --jobs 1: one scanning thread, as before the pool. */
  scanJobs1Ms: number;
  /** The floor: read a list of files, parse each with yaml. */
  parseMs: number;
  /** The checkout reader walking the repositories, then yaml on what it read. */
  readerMs: number;
  ratio: number;
  /** scanJobs1Ms / parseMs. */
  ratioJobs1: number;
  /** Every run's wall time, for the spread. */
  scanRuns: number[];
  scanJobs1Runs: number[];
  parseRuns: number[];
  readerRuns: number[];
  /** The 1-minute load average when the runs started and ended. */
  load: [number, number];
  /** CPU seconds (user + system, every thread) of the best run of each: steadier than wall time on a busy machine. */
  scanCpuMs: number;
  scanJobs1CpuMs: number;
  parseCpuMs: number;
  scanPeakRssMb: number;
  scanJobs1PeakRssMb: number;
  parsePeakRssMb: number;
}

/** Wall time (ms), CPU time (ms) and peak resident set (MB) of one process; the last two from GNU time when present. */
function measure(args: string[], cwd: string): { ms: number; cpuMs: number; rssMb: number } {
  const time = existsSync('/usr/bin/time');
  const start = performance.now();
  const result = time
    ? spawnSync('/usr/bin/time', ['-f', '%M %U %S', process.execPath, ...args], { cwd, encoding: 'utf8', maxBuffer: 1 << 28 })
    : spawnSync(process.execPath, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 28 });
  const ms = performance.now() - start;
  if (result.status !== 0) throw new Error(`${args.join(' ')} exited ${result.status}: ${result.stderr.slice(-500)}`);
  const [kb = 0, user = 0, system = 0] = time ? (result.stderr.trim().split('\n').at(-1) ?? '').split(' ').map(Number) : [];
  return { ms, cpuMs: (user + system) * 1000, rssMb: kb / 1024 };
}

function benchCorpusProcess(): CliBench['corpus'] {
  const bundle = fileURLToPath(new URL('../dist/chainbreaker.js', import.meta.url));
  if (!existsSync(bundle)) return { skipped: 'dist/chainbreaker.js is missing: run `npm run build` first' };
  if (!corpusAvailable()) return { skipped: CORPUS_MISSING };
  const root = fileURLToPath(new URL('../', import.meta.url));
  const repositories = readdirSync(CORPUS_DIR, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
  const paths = repositories.map((name) => join(CORPUS_DIR, name));
  // The files the CLI reads (workflows, actions, Dependabot configuration), as a plain list for the floor.
  const files = paths.flatMap((repo) => filesOf(repo, repo));
  const listFile = join(tmpdir(), `chainbreaker-bench-files-${process.pid}.txt`);
  writeFileSync(listFile, files.join('\n'));
  // The floor reads the list and parses each file with yaml; the reader process walks the repositories with the
  // CLI's checkout reader first. Both are bundled like the CLI (esbuild), so every process starts the same way.
  const floor = `import { readFileSync } from 'node:fs';
import { parseDocument } from 'yaml';
for (const path of readFileSync(process.argv[2], 'utf8').split('\\n')) parseDocument(readFileSync(path, 'utf8'));`;
  const reader = `import { parseDocument } from 'yaml';
import { collectRepositoryFiles } from './lib/codehost/checkout.ts';
for (const path of process.argv.slice(2)) for (const f of await collectRepositoryFiles(path)) parseDocument(f.text);`;
  const floorFile = join(tmpdir(), `chainbreaker-bench-floor-${process.pid}.mjs`);
  const readerFile = join(tmpdir(), `chainbreaker-bench-reader-${process.pid}.mjs`);
  buildSync({ stdin: { contents: floor, resolveDir: root, loader: 'ts' }, ...NODE_BUNDLE, outfile: floorFile, logLevel: 'warning' });
  buildSync({ stdin: { contents: reader, resolveDir: root, loader: 'ts' }, ...NODE_BUNDLE, outfile: readerFile, logLevel: 'warning' });
  const scan: { ms: number; cpuMs: number; rssMb: number }[] = [];
  const scanJobs1: { ms: number; cpuMs: number; rssMb: number }[] = [];
  const parse: { ms: number; cpuMs: number; rssMb: number }[] = [];
  const read: { ms: number; cpuMs: number; rssMb: number }[] = [];
  const runs = 5;
  const loadBefore = loadavg()[0] ?? 0;
  for (let i = 0; i < runs; i++) {
    parse.push(measure([floorFile, listFile], root));
    read.push(measure([readerFile, ...paths], root));
    // The two scans in turn, each first every other round, so that neither always follows the same process.
    const pooled = () => scan.push(measure([bundle, 'scan', ...paths, '--format', 'json', '--fail-on', 'none', '--output', devNull], root));
    const single = () => scanJobs1.push(measure([bundle, 'scan', ...paths, '--format', 'json', '--fail-on', 'none', '--output', devNull, '--jobs', '1'], root));
    if (i % 2 === 0) {
      pooled();
      single();
    } else {
      single();
      pooled();
    }
  }
  const loadAfter = loadavg()[0] ?? 0;
  for (const file of [listFile, floorFile, readerFile]) rmSync(file, { force: true });
  const best = (xs: { ms: number }[]) => Math.min(...xs.map((x) => x.ms));
  const cpu = (xs: { ms: number; cpuMs: number }[]) => xs.find((x) => x.ms === best(xs))?.cpuMs ?? 0;
  const peak = (xs: { rssMb: number }[]) => Math.max(...xs.map((x) => x.rssMb));
  return {
    repositories: paths.length,
    files: files.length,
    runs,
    scanMs: best(scan),
    jobs: Math.min(availableParallelism(), 4, paths.length),
    scanJobs1Ms: best(scanJobs1),
    parseMs: best(parse),
    readerMs: best(read),
    ratio: best(scan) / best(parse),
    ratioJobs1: best(scanJobs1) / best(parse),
    scanRuns: scan.map((x) => x.ms),
    scanJobs1Runs: scanJobs1.map((x) => x.ms),
    parseRuns: parse.map((x) => x.ms),
    readerRuns: read.map((x) => x.ms),
    load: [loadBefore, loadAfter],
    scanCpuMs: cpu(scan),
    scanJobs1CpuMs: cpu(scanJobs1),
    parseCpuMs: cpu(parse),
    scanPeakRssMb: peak(scan),
    scanJobs1PeakRssMb: peak(scanJobs1),
    parsePeakRssMb: peak(parse),
  };
}

/** The files of a repository directory the CLI reads, by the same classification (`classifyPath`). */
function filesOf(dir: string, root: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== '.git' && entry.name !== 'node_modules') found.push(...filesOf(path, root));
    } else if (entry.isFile() && classifyPath(relative(root, path).split('\\').join('/')) !== null) found.push(path);
  }
  return found.sort();
}

function benchSuppressions(): CliBench['suppressions'] {
  const hostile = `# ${'#   chainbreaker  '.repeat(Math.ceil((1024 * 1024) / 18))}`;
  const steps = Array.from({ length: 1000 }, (_, i) => `      - run: echo ${i}`).join('\n');
  // One flat string, built before the clock starts (a concatenation is flattened on first search).
  const text = JSON.parse(JSON.stringify(`${hostile}\n${steps}\n`)) as string;
  const samples: number[] = [];
  for (let run = 0; run < 20; run++) {
    const file = new SourceFile('.github/workflows/ci.yml', text);
    const start = performance.now();
    const index = new SuppressionIndex(file);
    for (let line = 2; line < 1002; line++) index.match(line, 'missing-timeout');
    samples.push(performance.now() - start);
  }
  return { lineBytes: hostile.length, findings: 1000, matchMs: summarize(samples) };
}

function benchStartup(): CliBench['startup'] {
  const bundle = fileURLToPath(new URL('../dist/chainbreaker.js', import.meta.url));
  if (!existsSync(bundle)) return { skipped: 'dist/chainbreaker.js is missing: run `npm run build` first' };
  // Interleaved with a bare `node -e 0`, so the table shows what the CLI adds to Node's own start on this machine.
  const samples: number[] = [];
  const node: number[] = [];
  let peak = 0;
  let nodePeak = 0;
  for (let run = 0; run < 30; run++) {
    let start = performance.now();
    const result = spawnSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' });
    samples.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`chainbreaker --version exited ${result.status}: ${result.stderr}`);
    start = performance.now();
    spawnSync(process.execPath, ['-e', '0']);
    node.push(performance.now() - start);
  }
  if (existsSync('/usr/bin/time')) {
    // GNU time's %M: the child's peak resident set, in KB.
    for (let run = 0; run < 5; run++) {
      peak = Math.max(peak, measure([bundle, '--version'], process.cwd()).rssMb);
      nodePeak = Math.max(nodePeak, measure(['-e', '0'], process.cwd()).rssMb);
    }
  }
  return { runs: samples.length, wallMs: summarize(samples.slice(3)), nodeMs: summarize(node.slice(3)), peakRssMb: peak, nodePeakRssMb: nodePeak };
}

export function benchCli(): CliBench {
  return { suppressions: benchSuppressions(), startup: benchStartup(), corpus: benchCorpusProcess() };
}

function signed(value: number): string {
  return `${value >= 0 ? '+' : '-'}${Math.abs(value).toFixed(1)}`;
}

export function formatCli(r: CliBench): string {
  const s = r.suppressions;
  const rows = [
    ['measure', 'p50', 'p95', 'max', 'budget'],
    [`suppressions: ${(s.lineBytes / 1024 / 1024).toFixed(1)} MB comment line, ${s.findings} findings`, ms(s.matchMs.p50), ms(s.matchMs.p95), ms(s.matchMs.max), '50 ms'],
  ];
  const notes: string[] = [];
  if ('skipped' in r.startup) notes.push(`start-up: skipped (${r.startup.skipped})`);
  else {
    const w = r.startup.wallMs;
    const n = r.startup.nodeMs;
    rows.push([`start-up: chainbreaker --version (${w.n} runs after 3 warm-ups)`, ms(w.p50, 1), ms(w.p95, 1), ms(w.max, 1), '80 ms']);
    rows.push(['start-up: node -e 0 (interleaved, for reference)', ms(n.p50, 1), ms(n.p95, 1), ms(n.max, 1), '']);
    notes.push(
      `start-up peak memory: ${r.startup.peakRssMb > 0 ? `${r.startup.peakRssMb.toFixed(1)} MB (node -e 0: ${r.startup.nodePeakRssMb.toFixed(1)} MB)` : 'not measured (no /usr/bin/time)'} (budget 60 MB)`,
      `start-up over bare node: ${signed(w.p50 - n.p50)} ms at the median${r.startup.peakRssMb > 0 ? `, ${signed(r.startup.peakRssMb - r.startup.nodePeakRssMb)} MB peak memory` : ''}`,
    );
  }
  if ('skipped' in r.corpus) notes.push(`corpus as whole processes: skipped (${r.corpus.skipped})`);
  else {
    const c = r.corpus;
    const spread = (xs: number[]) => `${ms(Math.min(...xs), 0)}-${ms(Math.max(...xs), 0)}`;
    notes.push(
      `corpus as whole processes (${c.repositories} repositories, ${c.files} files, best of ${c.runs}; load average ${c.load[0].toFixed(1)} -> ${c.load[1].toFixed(1)}): chainbreaker scan (default --jobs: ${c.jobs} threads) ${ms(c.scanMs, 0)} (runs ${spread(c.scanRuns)}), the floor (a list of files read and parsed with yaml) ${ms(c.parseMs, 0)} (runs ${spread(c.parseRuns)}), ratio ${c.ratio.toFixed(2)} (budget <= 1.0)`,
      `corpus: chainbreaker scan --jobs 1 (one scanning thread) ${ms(c.scanJobs1Ms, 0)} (runs ${spread(c.scanJobs1Runs)}), ratio ${c.ratioJobs1.toFixed(2)}; the default --jobs ${signed(c.scanMs - c.scanJobs1Ms)} ms of wall time`,
      `corpus: the checkout reader's own cost: walking the repositories with it, then parsing, ${ms(c.readerMs, 0)} (runs ${spread(c.readerRuns)}), ${signed(c.readerMs - c.parseMs)} ms over the floor`,
      `corpus CPU time of those runs (user + system, all threads): chainbreaker scan ${ms(c.scanCpuMs, 0)}, --jobs 1 ${ms(c.scanJobs1CpuMs, 0)}, yaml parse ${ms(c.parseCpuMs, 0)}, ratio ${c.parseCpuMs > 0 ? (c.scanCpuMs / c.parseCpuMs).toFixed(2) : 'n/a'} (--jobs 1: ${c.parseCpuMs > 0 ? (c.scanJobs1CpuMs / c.parseCpuMs).toFixed(2) : 'n/a'})`,
      `corpus peak memory: chainbreaker scan ${c.scanPeakRssMb.toFixed(0)} MB (budget 300 MB), --jobs 1 ${c.scanJobs1PeakRssMb.toFixed(0)} MB, yaml parse ${c.parsePeakRssMb.toFixed(0)} MB`,
    );
  }
  return `CLI\n${table(rows)}\n${notes.join('\n')}`;
}
