// Instruction counts per file, in one process under callgrind (docs/performance.md, "Instruction counts"):
//   npx tsx bench/callgrind-bundle.ts /tmp/engine.mjs
//   valgrind --tool=callgrind --dump-before='node::credentials::GetEGid*' --callgrind-out-file=<dir>/cg.%p \
//     node --single-threaded --predictable bench/callgrind-files.mjs /tmp/engine.mjs <list.txt> W N
//   node bench/callgrind-files.mjs --read <list.txt> N <dir>/cg.<pid>.*
// `<list.txt>` names corpus workflows one a line as the engine bench prints them (`owner/name/.github/workflows/x.yml`).
// Every file is scanned alone W times to warm up, then each file in turn N times; before each file's N scans the
// process calls `process.getegid()`, at which callgrind writes a dump. With `--read`, prints each file's
// instructions per scan (its dump's total / N: one warm pass of that file, start-up excluded).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { resolve } from 'node:path';

const root = fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));
const names = (list) => readFileSync(list, 'utf8').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));

if (process.argv[2] === '--read') {
  const [list, reps, ...dumps] = process.argv.slice(3);
  const files = names(list);
  // Dumps are numbered in order: .1 is the start-up and warm-up, .(k+2) file k's scans.
  const total = (dump) => Number(/^(?:summary|totals): (\d+)/m.exec(readFileSync(dump, 'utf8'))?.[1] ?? NaN);
  const byPart = dumps.map((d) => [Number(/\.(\d+)$/.exec(d)?.[1] ?? 0), d]).sort((a, b) => a[0] - b[0]);
  const inclusive = (dump, fn) => {
    const out = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', dump], { encoding: 'utf8', maxBuffer: 1 << 28, stdio: ['ignore', 'pipe', 'ignore'] });
    const line = out.split('\n').find((l) => l.includes(fn));
    return line === undefined ? 0 : Number(line.trim().split(' ')[0].replaceAll(',', ''));
  };
  const m = (n) => (n / Number(reps) / 1e6).toFixed(2).padStart(8);
  console.log('   total  TurboFan        GC      rest  (M instructions per scan)');
  const sums = [0, 0, 0, 0];
  files.forEach((name, k) => {
    const dump = byPart.find(([n]) => n === k + 2)?.[1];
    if (dump === undefined) return console.log(`?  ${name}`);
    const all = total(dump);
    const turbofan = inclusive(dump, 'Runtime_CompileOptimized(');
    const gc = inclusive(dump, 'Heap::CollectGarbage(');
    const row = [all, turbofan, gc, all - turbofan - gc];
    row.forEach((x, i) => { sums[i] += x; });
    console.log(`${row.map(m).join('  ')}  ${name}`);
  });
  console.log(`${sums.map(m).join('  ')}  (sum)`);
  process.exit(0);
}
const [bundle, list, warm = '3', reps = '5'] = process.argv.slice(2);
if (bundle === undefined || list === undefined) {
  console.error('usage: node bench/callgrind-files.mjs <engine bundle .mjs> <list.txt> [warm] [reps]');
  process.exit(2);
}
const files = names(list).map((name) => {
  const [owner, repo, ...rest] = name.split('/');
  return { path: rest.join('/'), text: readFileSync(`${root}${owner}__${repo}/${rest.join('/')}`, 'utf8') };
});
const { scanRepository } = await import(pathToFileURL(resolve(bundle)).href);
for (let r = 0; r < Number(warm); r++) for (const f of files) scanRepository([f]);
for (const f of files) {
  process.getegid();
  for (let r = 0; r < Number(reps); r++) scanRepository([f]);
}
process.getegid();
console.log(`${files.length} files, ${warm} + ${reps} passes each`);
