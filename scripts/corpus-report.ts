/**
 * Scans every repository of the shared corpus and writes what fires, per rule, for false-positive
 * review: `npm run corpus:report [-- --rule <id>]`. Output goes to bench/results/ (not committed).
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectRepositoryFiles } from '../lib/codehost/checkout.js';
import { scanRepository } from '../lib/engine/scan.js';
import { RULES } from '../lib/engine/rules/index.js';

const corpus = fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));
const out = fileURLToPath(new URL('../bench/results/', import.meta.url));
const ruleFilter = process.argv.includes('--rule') ? process.argv[process.argv.indexOf('--rule') + 1] : undefined;

if (!existsSync(corpus)) {
  console.error('corpus:report needs the shared corpus at ../shared/corpus/real (beside the project); it is not part of the package');
  process.exit(2);
}
const repos = (await readdir(corpus, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const counts = new Map<string, number>(RULES.map((r) => [r.meta.id, 0]));
const lines: string[] = [];
let files = 0;
for (const repo of repos) {
  const repoFiles = await collectRepositoryFiles(join(corpus, repo));
  files += repoFiles.length;
  const result = scanRepository(repoFiles, ruleFilter === undefined ? {} : { isEnabled: (id) => id === ruleFilter });
  for (const f of result.findings) {
    counts.set(f.rule_id, (counts.get(f.rule_id) ?? 0) + 1);
    lines.push(`${repo}/${f.file}:${f.line}:${f.column}\t${f.severity}\t${f.rule_id}\t${f.description}`);
  }
}
await mkdir(out, { recursive: true });
const name = ruleFilter === undefined ? 'corpus-findings' : `corpus-findings-${ruleFilter}`;
await writeFile(join(out, `${name}.tsv`), `${lines.join('\n')}\n`);
const table = [...counts].filter(([id]) => ruleFilter === undefined || id === ruleFilter).sort((a, b) => b[1] - a[1]);
await writeFile(join(out, `${name}-counts.json`), `${JSON.stringify(Object.fromEntries(table), null, 2)}\n`);
console.log(`${repos.length} repositories, ${files} files, ${lines.length} findings`);
for (const [id, count] of table) console.log(`${String(count).padStart(6)}  ${id}`);
console.log(`details: bench/results/${name}.tsv`);
