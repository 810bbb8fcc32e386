/**
 * `npm run bench [-- --only engine|github|attack-paths|cli|online|cold-start|queue|load|web]`: runs the benchmarks, prints a table per section and writes
 * bench/results/bench-<date>.json (not committed). Numbers are only comparable within one run.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { CORPUS_MISSING, corpusAvailable } from './corpus.js';
import { benchEngine, formatEngine } from './engine.js';

const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : undefined;
const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0]?.model ?? 'unknown', memoryGb: Math.round(totalmem() / 1024 ** 3) };
const results: Record<string, unknown> = { date: new Date().toISOString(), machine };

console.log(`Node ${machine.node}, ${machine.cpus} x ${machine.cpu}, ${machine.memoryGb} GB\n`);
if ((only === undefined || only === 'engine') && !corpusAvailable()) {
  console.log(`Engine: skipped (${CORPUS_MISSING})\n`);
} else if (only === undefined || only === 'engine') {
  const engine = await benchEngine();
  results.engine = engine;
  console.log(`${formatEngine(engine)}\n`);
}
// Issue 8's service sections, each loaded only when it runs (`--only github|attack-paths|cold-start`).
const sections: [string, () => Promise<string>][] = [
  ['github', async () => { const m = await import('./github.js'); const r = await m.benchGitHub(); results.github = r; return m.formatGitHub(r); }],
  ['attack-paths', async () => { const m = await import('./attack-paths.js'); const r = await m.benchAttackPaths(); results.attackPaths = r; return m.formatAttackPaths(r); }],
  ['cli', async () => { const m = await import('./cli.js'); const r = m.benchCli(); results.cli = r; return m.formatCli(r); }],
  ['online', async () => { const m = await import('./online.js'); const r = await m.benchOnline(); results.online = r; return m.formatOnline(r); }],
  ['cold-start', async () => { const m = await import('./cold-start.js'); const r = await m.benchColdStart(); results.coldStart = r; return m.formatColdStart(r); }],
  ['queue', async () => { const m = await import('./queue.js'); const r = await m.benchQueue(); results.queue = r; return m.formatQueue(r); }],
  // Issue 27's web client at scale: a browser, a server and the scale fixture, so only when asked for.
  ...(only === 'web' ? ([['web', async () => { const m = await import('./web.js'); const r = await m.benchWeb(); results.web = r; return m.formatWeb(r); }]] as [string, () => Promise<string>][]) : []),
];
for (const [name, run] of sections) {
  if (only !== undefined && only !== name) continue;
  // The machine is shared: the load when a section starts tells how much its numbers can be trusted.
  const load = loadavg()[0] ?? 0;
  results[`${name}LoadAverage`] = load;
  console.log(`${await run()}\n(load average when the section started: ${load.toFixed(1)} on ${machine.cpus} CPUs)\n`);
}
// Issue 7's load benchmark: 30 s against the local server, on both CPUs, so only when asked for.
if (only === 'load') {
  const m = await import('./load.js');
  const load = loadavg()[0] ?? 0;
  const r = await m.benchLoad();
  results.load = { ...r, loadAverage: load };
  console.log(`${m.formatLoad(r)}\n(load average when the section started: ${load.toFixed(1)} on ${machine.cpus} CPUs)\n`);
}

const dir = fileURLToPath(new URL('./results/', import.meta.url));
await mkdir(dir, { recursive: true });
const file = `${dir}bench-${new Date().toISOString().replace(/[:.]/g, '-')}.json`;
await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`results: bench/results/${file.slice(dir.length)}`);
