/**
 * `npm run bench [-- --only engine]`: runs the benchmarks, prints a table per section and writes
 * bench/results/bench-<date>.json (not committed). Numbers are only comparable within one run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { benchEngine, formatEngine } from './engine.js';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 1024 ** 3) };
const results: Record<string, unknown> = { date: new Date().toISOString(), machine };

console.log(`Node ${machine.node}, ${machine.cpus} x ${machine.cpu}, ${machine.memoryGb} GB\n`);
if (only === undefined || only === 'engine') {
  const engine = benchEngine();
  results.engine = engine;
  console.log(`${formatEngine(engine)}\n`);
}

const dir = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(dir, { recursive: true });
const file = `${dir}bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`results: bench/results/${file.slice(dir.length)}`);
