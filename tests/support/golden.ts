import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scanRepository } from '../../lib/engine/scan.js';
import type { Finding, RepositoryFile } from '../../lib/engine/types.js';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';

/**
 * Golden fixtures (after actionlint's `testdata/ok` and `testdata/err`). A case is either `<name>.yml`, a
 * workflow scanned as `.github/workflows/<name>.yml`, or a directory `<name>/`, a repository root read
 * the way the CLI reads a checkout (workflows, Dependabot config, local actions). An `err` case has its
 * expected findings beside it in `<name>.out`.
 */
export const GOLDEN_DIR = fileURLToPath(new URL('../fixtures/golden/', import.meta.url));

export interface GoldenCase {
  name: string;
  files: RepositoryFile[];
  /** Where the expected output lives (err cases). */
  outPath: string;
}

export async function goldenCases(kind: 'ok' | 'err'): Promise<GoldenCase[]> {
  const dir = join(GOLDEN_DIR, kind);
  const entries = (await readdir(dir, { withFileTypes: true })).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const cases: GoldenCase[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      cases.push({ name: entry.name, files: await collectRepositoryFiles(join(dir, entry.name)), outPath: join(dir, `${entry.name}.out`) });
    } else if (/\.ya?ml$/.test(entry.name)) {
      const name = entry.name.replace(/\.ya?ml$/, '');
      const text = await readFile(join(dir, entry.name), 'utf8');
      cases.push({ name, files: [{ path: `.github/workflows/${entry.name}`, text }], outPath: join(dir, `${name}.out`) });
    }
  }
  return cases;
}

/** One line per finding, `file:line:col: SEVERITY description [rule-id]`, every rule on. */
export function goldenOutput(files: readonly RepositoryFile[]): string {
  return scanRepository(files).findings.map(goldenLine).join('');
}

function goldenLine(f: Finding): string {
  return `${f.file}:${f.line}:${f.column}: ${f.severity} ${f.description} [${f.rule_id}]\n`;
}
