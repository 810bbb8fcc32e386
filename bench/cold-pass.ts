/**
 * The engine's CPU time per pass over the shared corpus in one fresh process, the first pass cold (as the CLI
 * scans: once, with nothing compiled yet), the next ones warm (as `npm run bench -- --only engine` measures):
 *   npx tsx bench/cold-pass.ts [passes]
 * The engine is the CLI's bundle (bench/engine-bundle.ts); CPU time is user + system of this process.
 */
import { loadBundledEngine } from './engine-bundle.js';
import { CORPUS_MISSING, corpusAvailable, loadCorpus } from './corpus.js';

if (!corpusAvailable()) {
  console.log(`skipped: ${CORPUS_MISSING}`);
} else {
  const corpus = loadCorpus();
  const cpuMs = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1000;
  };
  const { scanRepository } = await loadBundledEngine();
  console.log(`Node ${process.version}`);
  const passes = Number(process.argv[2] ?? 3);
  for (let pass = 0; pass < passes; pass++) {
    const start = cpuMs();
    for (const repo of corpus) scanRepository(repo.files);
    console.log(`pass ${pass + 1} (${corpus.length} repositories): ${(cpuMs() - start).toFixed(0)} ms of CPU`);
  }
}
