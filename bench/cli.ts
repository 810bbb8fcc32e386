/**
 * The command-line scanner's benchmarks (`npm run bench -- --only cli`):
 * - suppressions: matching a 1 MB hostile comment line above a thousand findings (issue 13, budget 50 ms);
 * - start-up: `chainbreaker --version` of the built bundle (dist/), repeated whole processes, wall time and
 *   peak memory (issue 15, budget 80 ms and 60 MB). Needs `npm run build` first; skipped with a note if not.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SuppressionIndex } from '../lib/engine/suppress.js';
import { SourceFile } from '../lib/engine/yaml/source.js';
import { ms, summarize, table } from './stats.js';

export interface CliBench {
  suppressions: { lineBytes: number; findings: number; matchMs: ReturnType<typeof summarize> };
  startup: { runs: number; wallMs: ReturnType<typeof summarize>; peakRssMb: number } | { skipped: string };
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
  const samples: number[] = [];
  let peak = 0;
  for (let run = 0; run < 30; run++) {
    const start = performance.now();
    // /usr/bin/time -f %M reports the child's peak resident set (KB) where GNU time exists.
    const result = spawnSync(process.execPath, [bundle, '--version'], { encoding: 'utf8' });
    samples.push(performance.now() - start);
    if (result.status !== 0) throw new Error(`chainbreaker --version exited ${result.status}: ${result.stderr}`);
  }
  if (existsSync('/usr/bin/time')) {
    for (let run = 0; run < 5; run++) {
      const result = spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, bundle, '--version'], { encoding: 'utf8' });
      peak = Math.max(peak, Number(result.stderr.trim().split('\n').at(-1)) / 1024);
    }
  }
  return { runs: samples.length, wallMs: summarize(samples.slice(3)), peakRssMb: peak };
}

export function benchCli(): CliBench {
  return { suppressions: benchSuppressions(), startup: benchStartup() };
}

export function formatCli(r: CliBench): string {
  const s = r.suppressions;
  const rows = [
    ['measure', 'p50', 'p95', 'max', 'budget'],
    [`suppressions: ${(s.lineBytes / 1024 / 1024).toFixed(1)} MB comment line, ${s.findings} findings`, ms(s.matchMs.p50), ms(s.matchMs.p95), ms(s.matchMs.max), '50 ms'],
  ];
  if ('skipped' in r.startup) return `CLI\n${table(rows)}\nstart-up: skipped (${r.startup.skipped})`;
  const w = r.startup.wallMs;
  rows.push([`start-up: chainbreaker --version (${w.n} runs after 3 warm-ups)`, ms(w.p50, 1), ms(w.p95, 1), ms(w.max, 1), '80 ms']);
  return `CLI\n${table(rows)}\nstart-up peak memory: ${r.startup.peakRssMb > 0 ? `${r.startup.peakRssMb.toFixed(1)} MB` : 'not measured (no /usr/bin/time)'} (budget 60 MB)`;
}
