import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { isMap, parseDocument } from 'yaml';
import { scanRepository } from '../../../lib/engine/scan.js';
import type { RepositoryFile } from '../../../lib/engine/types.js';
import { skipReason } from '../../support/skips.js';

const corpus = fileURLToPath(new URL('../../../../shared/corpus/real/', import.meta.url));
const manifest = `${corpus}MANIFEST.tsv`;
const available = existsSync(manifest);

/** The corpus's files grouped by repository (`<owner>__<repo>/<path>` in the manifest). */
function repositories(): Map<string, RepositoryFile[]> {
  const repos = new Map<string, RepositoryFile[]>();
  for (const line of readFileSync(manifest, 'utf8').split('\n').slice(1)) {
    const [repo, path] = line.split('\t');
    if (repo === undefined || path === undefined || repo === '') continue;
    const files = repos.get(repo) ?? [];
    files.push({ path, text: readFileSync(`${corpus}${repo.replace('/', '__')}/${path}`, 'utf8') });
    repos.set(repo, files);
  }
  return repos;
}

describe.skipIf(!available)(`the shared corpus (../shared/corpus/real)${skipReason(available ? null : 'needs the shared corpus (../shared/corpus/real) beside the project')}`, () => {
  it('scans every file of every repository without an exception, with consistent counts', () => {
    let files = 0;
    for (const [repo, repoFiles] of repositories()) {
      files += repoFiles.length;
      const result = scanRepository(repoFiles);
      const total = result.counts.HIGH + result.counts.MEDIUM + result.counts.LOW + result.counts.INFO;
      expect(total, repo).toBe(result.findings.length);
      expect(result.records.map((r) => r.finding), repo).toEqual(result.findings);
    }
    expect(files).toBe(2256);
  }, 120_000);

  it('reports invalid-workflow on no file that is a valid YAML mapping', () => {
    const wrongly: string[] = [];
    for (const [repo, repoFiles] of repositories()) {
      const invalid = new Set(
        scanRepository(repoFiles, { isEnabled: (id) => id === 'invalid-workflow' }).findings.map((f) => f.file),
      );
      for (const file of repoFiles) {
        const doc = parseDocument(file.text);
        if (doc.errors.length === 0 && isMap(doc.contents) && invalid.has(file.path)) wrongly.push(`${repo}/${file.path}`);
      }
    }
    expect(wrongly).toEqual([]);
  }, 120_000);
});

