/**
 * Scans the shared corpus repeatedly, for profiling:
 *   node --import tsx --cpu-prof --cpu-prof-dir=bench/results bench/profile-engine.ts
 * then `npx tsx bench/top-functions.ts bench/results/<file>.cpuprofile` lists where the time goes.
 */
import { scanRepository } from '../lib/engine/scan.js';
import { loadCorpus } from './corpus.js';

const corpus = loadCorpus();
const rounds = Number(process.argv[2] ?? 5);
const start = performance.now();
for (let i = 0; i < rounds; i++) for (const repo of corpus) scanRepository(repo.files);
console.log(`${rounds} rounds in ${(performance.now() - start).toFixed(0)} ms`);
