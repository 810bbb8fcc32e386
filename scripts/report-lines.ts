/**
 * How long the default text report is: runs `chainbreaker scan <repository>` on every repository of the
 * shared corpus (`../shared/corpus/real`, beside the project; not part of it) as a CI log shows it (not a
 * terminal: 80 columns, no colour) and prints the report's lines per repository (median, p90, max), the
 * longest line, and the repositories with the longest reports.
 *
 *   npx tsx scripts/report-lines.ts [--corpus <dir>] [--json]
 *
 * The CLI runs in this process (`main` of bin/cli.ts, the code `node bin/chainbreaker.js scan <dir>` runs),
 * once per repository, so the whole corpus takes about a minute instead of a process start per repository.
 * Without the corpus it says so in one line and exits with status 0: there is nothing to measure.
 */
import { existsSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { main } from '../bin/cli.js';

const { values } = parseArgs({ options: { corpus: { type: 'string' }, json: { type: 'boolean' } } });
const corpus = values.corpus !== undefined ? resolve(values.corpus) : fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));
if (!existsSync(corpus)) {
  console.log(`report-lines needs the shared corpus at ${values.corpus ?? '../shared/corpus/real'} (beside the project; it is not part of the package); pass --corpus <dir> to measure another one. Nothing measured.`);
  process.exit(0);
}

const repos = (await readdir(corpus, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name).sort();
const rows: { repo: string; lines: number; longest: number; exit: number }[] = [];
for (const repo of repos) {
  let out = '';
  const exit = await main({
    argv: ['scan', join(corpus, repo)],
    stdout: { write: (text: string) => (out += text), isTTY: false },
    stderr: { write: () => true },
    env: {},
    cwd: corpus,
  });
  const lines = out.split('\n');
  if (lines.at(-1) === '') lines.pop();
  rows.push({ repo, lines: lines.length, longest: Math.max(0, ...lines.map((l) => l.length)), exit });
}

const sorted = rows.map((r) => r.lines).sort((a, b) => a - b);
const quantile = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? 0;
const summary = {
  repositories: rows.length,
  lines: { median: quantile(0.5), p90: quantile(0.9), max: sorted.at(-1) ?? 0 },
  at_most_50_lines: rows.filter((r) => r.lines <= 50).length,
  longest_line: Math.max(0, ...rows.map((r) => r.longest)),
  exit_codes: Object.fromEntries([0, 1, 2, 3].map((code) => [code, rows.filter((r) => r.exit === code).length])),
};
if (values.json === true) {
  console.log(JSON.stringify({ ...summary, per_repository: rows }, null, 2));
} else {
  console.log(`${summary.repositories} repositories: report lines median ${summary.lines.median}, p90 ${summary.lines.p90}, max ${summary.lines.max}; ${summary.at_most_50_lines} fit in 50 lines`);
  console.log(`longest line ${summary.longest_line} characters; exit codes ${JSON.stringify(summary.exit_codes)}`);
  for (const r of [...rows].sort((a, b) => b.lines - a.lines).slice(0, 5)) console.log(`  ${String(r.lines).padStart(5)}  ${r.repo}`);
}
