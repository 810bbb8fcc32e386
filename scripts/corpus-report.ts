/**
 * Scans every repository of the shared corpus (`../shared/corpus/real`, next to the project; not shipped
 * with it) and prints what fires: per rule and severity, the findings per repository (median, p90, max)
 * and how many repositories fail the CLI's default `--fail-on high`.
 *
 *   npm run corpus:report [-- --rule <id>] [-- --corpus <dir>] [-- --compare <summary.json>]
 *
 * Writes bench/results/corpus-findings.tsv (every finding, for false-positive review) and
 * corpus-summary.json (the numbers printed here; pass an older one to `--compare` to see what changed).
 * Without the corpus it says so in one line and exits with status 2, as the other corpus scripts do.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { collectRepositoryFiles } from '../lib/codehost/checkout.js';
import { scanRepository } from '../lib/engine/scan.js';
import { RULES } from '../lib/engine/rules/index.js';
import { SEVERITIES, type Severity } from '../lib/engine/types.js';

const { values } = parseArgs({ options: { rule: { type: 'string' }, corpus: { type: 'string' }, compare: { type: 'string' } } });
const corpus = values.corpus !== undefined ? resolve(values.corpus) : fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));
const out = fileURLToPath(new URL('../bench/results/', import.meta.url));
const ruleFilter = values.rule;

if (!existsSync(corpus)) {
  // One line, as the other corpus scripts say it: the corpus sits beside the project and is not part of the package.
  console.error(`corpus:report needs the shared corpus at ${values.corpus ?? '../shared/corpus/real'} (beside the project; it is not part of the package); pass --corpus <dir> to scan another one`);
  process.exit(2);
}

export interface CorpusSummary {
  repositories: number;
  files: number;
  findings: number;
  by_severity: Record<Severity, number>;
  per_repository: { median: number; p90: number; max: number };
  failing_high: number;
  /** rule id -> severity -> count (only non-zero counts). */
  by_rule: Record<string, Partial<Record<Severity, number>>>;
}

const repos = (await readdir(corpus, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const byRule = new Map<string, Partial<Record<Severity, number>>>(RULES.map((r) => [r.meta.id, {}]));
const bySeverity: Record<Severity, number> = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
const perRepo: number[] = [];
let failingHigh = 0;
const lines: string[] = [];
let files = 0;
for (const repo of repos) {
  const repoFiles = await collectRepositoryFiles(join(corpus, repo));
  files += repoFiles.length;
  // The corpus names each repository's directory `owner__name`: scanned under that name, as a checkout with its
  // origin remote or the service is, so the repository's own actions and images count as its own.
  const repository = repo.replace('__', '/');
  const result = scanRepository(repoFiles, ruleFilter === undefined ? { repository } : { repository, isEnabled: (id) => id === ruleFilter });
  perRepo.push(result.findings.length);
  if (result.findings.some((f) => f.severity === 'HIGH')) failingHigh++;
  for (const f of result.findings) {
    const row = byRule.get(f.rule_id) ?? {};
    row[f.severity] = (row[f.severity] ?? 0) + 1;
    byRule.set(f.rule_id, row);
    bySeverity[f.severity]++;
    lines.push(`${repo}/${f.file}:${f.line}:${f.column}\t${f.severity}\t${f.rule_id}\t${f.description}`);
  }
}

perRepo.sort((a, b) => a - b);
const quantile = (p: number) => perRepo[Math.min(perRepo.length - 1, Math.floor(p * perRepo.length))] ?? 0;
const total = (row: Partial<Record<Severity, number>>) => SEVERITIES.reduce((n, s) => n + (row[s] ?? 0), 0);
const rules = [...byRule]
  .filter(([id, row]) => (ruleFilter === undefined || id === ruleFilter) && total(row) > 0)
  .sort((a, b) => total(b[1]) - total(a[1]) || a[0].localeCompare(b[0]));
const summary: CorpusSummary = {
  repositories: repos.length,
  files,
  findings: lines.length,
  by_severity: bySeverity,
  per_repository: { median: quantile(0.5), p90: quantile(0.9), max: perRepo.at(-1) ?? 0 },
  failing_high: failingHigh,
  by_rule: Object.fromEntries(rules),
};

await mkdir(out, { recursive: true });
const name = ruleFilter === undefined ? 'corpus' : `corpus-${ruleFilter}`;
await writeFile(join(out, `${name}-findings.tsv`), `${lines.join('\n')}\n`);
await writeFile(join(out, `${name}-summary.json`), `${JSON.stringify(summary, null, 2)}\n`);

const before = values.compare === undefined ? null : (JSON.parse(await readFile(values.compare, 'utf8')) as CorpusSummary);
const delta = (now: number, then: number | undefined) => (before === null ? '' : ` (${now - (then ?? 0) >= 0 ? '+' : ''}${now - (then ?? 0)})`);

console.log(`${summary.repositories} repositories, ${files} files, ${summary.findings} findings${delta(summary.findings, before?.findings)}`);
console.log(`by severity: ${SEVERITIES.map((s) => `${s} ${bySeverity[s]}${delta(bySeverity[s], before?.by_severity[s])}`).join(', ')}`);
console.log(
  `per repository: median ${summary.per_repository.median}${delta(summary.per_repository.median, before?.per_repository.median)}, p90 ${summary.per_repository.p90}${delta(summary.per_repository.p90, before?.per_repository.p90)}, max ${summary.per_repository.max}`,
);
console.log(`repositories failing --fail-on high: ${failingHigh} of ${repos.length}${delta(failingHigh, before?.failing_high)}`);
console.log('');
console.log(`${'rule'.padEnd(38)}${SEVERITIES.map((s) => s.padStart(8)).join('')}   total`);
const ids = new Set([...rules.map(([id]) => id), ...Object.keys(before?.by_rule ?? {})]);
for (const id of [...ids].sort((a, b) => total(byRule.get(b) ?? {}) - total(byRule.get(a) ?? {}) || a.localeCompare(b))) {
  if (ruleFilter !== undefined && id !== ruleFilter) continue;
  const row = byRule.get(id) ?? {};
  const then = before?.by_rule[id] ?? {};
  const cells = SEVERITIES.map((s) => {
    const n = row[s] ?? 0;
    const d = before === null || n === (then[s] ?? 0) ? '' : `${n - (then[s] ?? 0) > 0 ? '+' : ''}${n - (then[s] ?? 0)}`;
    return `${n === 0 && d === '' ? '.' : String(n)}${d === '' ? '' : `(${d})`}`.padStart(8);
  });
  console.log(`${id.padEnd(38)}${cells.join('')}${String(total(row)).padStart(8)}`);
}
console.log(`\ndetails: bench/results/${name}-findings.tsv, summary: bench/results/${name}-summary.json`);
