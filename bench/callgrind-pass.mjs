// Instruction counts of the engine, steady under load (docs/performance.md, "Instruction counts"):
//   npx tsx bench/callgrind-bundle.ts /tmp/engine.mjs
//   valgrind --tool=callgrind node --single-threaded --predictable bench/callgrind-pass.mjs /tmp/engine.mjs <list> W N
// and the same with N = 0: one warm pass is (Ir(W+N) - Ir(W)) / N, without start-up. `<list>` is `slow` (five small
// workflows with long scripts), `sample200` (every 9th workflow of the corpus MANIFEST, the first 200) or `tiny` (one
// job, two steps: what every scan pays whatever its size; try W = 2000, N = 3000). Each file is scanned alone, W times
// to warm up, then N times. Needs the shared corpus beside the project (../shared/corpus/real); without it, says so
// and exits (`tiny` needs nothing).
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const [bundle, list, warm = '3', reps = '10'] = process.argv.slice(2);
const root = fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));
if (bundle === undefined || !['slow', 'sample200', 'tiny'].includes(list ?? '')) {
  console.error('usage: node bench/callgrind-pass.mjs <engine bundle .mjs> slow|sample200|tiny [warm] [reps]');
  process.exit(2);
}
const TINY = 'name: ci\non: push\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n      - run: npm test\n';
if (list !== 'tiny' && !existsSync(`${root}MANIFEST.tsv`)) {
  console.log('callgrind-pass: this needs the shared corpus at ../shared/corpus/real (beside the project); nothing to do');
  process.exit(0);
}
const SLOW = [
  'actions__cache/.github/workflows/issue-opened-workflow.yml',
  'google-gemini__gemini-cli/.github/workflows/gemini-cli-bot-brain.yml',
  'jaegertracing__jaeger/.github/workflows/ci-summary-report-publish.yml',
  'actions__runner/.github/workflows/node-upgrade.yml',
  'huggingface__diffusers/.github/workflows/claude_review.yml',
];
const workflows = list === 'tiny' ? [] : readFileSync(`${root}MANIFEST.tsv`, 'utf8').split('\n').slice(1)
  .map((line) => line.split('\t'))
  .filter(([repo, path]) => repo && path?.startsWith('.github/workflows/'))
  .map(([repo, path]) => `${repo.replace('/', '__')}/${path}`);
const names = list === 'slow' ? SLOW : workflows.filter((_, i) => (i + 1) % 9 === 0).slice(0, 200);
const files = list === 'tiny' ? [{ path: '.github/workflows/ci.yml', text: TINY }] : names.map((name) => ({ path: name.slice(name.indexOf('/') + 1), text: readFileSync(root + name, 'utf8') }));
const { scanRepository } = await import(pathToFileURL(resolve(bundle)).href);
for (let r = 0; r < Number(warm); r++) for (const f of files) scanRepository([f]);
for (let r = 0; r < Number(reps); r++) for (const f of files) scanRepository([f]);
console.log(`${files.length} files, ${warm} + ${reps} passes`);
