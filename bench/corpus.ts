import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RepositoryFile } from '../lib/engine/types.js';

export const CORPUS_DIR = fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));

export interface CorpusRepository {
  name: string;
  files: RepositoryFile[];
}

/** What the corpus scripts say, in one line, when the corpus is not beside the project. */
export const CORPUS_MISSING = 'this needs the shared corpus at ../shared/corpus/real (beside the project); it is not part of the package';

/** True when the shared corpus is there to read. */
export function corpusAvailable(): boolean {
  return existsSync(`${CORPUS_DIR}MANIFEST.tsv`);
}

/** The shared corpus, grouped by repository, read in place. */
export function loadCorpus(): CorpusRepository[] {
  const manifest = `${CORPUS_DIR}MANIFEST.tsv`;
  if (!existsSync(manifest)) throw new Error(CORPUS_MISSING);
  const repos = new Map<string, RepositoryFile[]>();
  for (const line of readFileSync(manifest, 'utf8').split('\n').slice(1)) {
    const [repo, path] = line.split('\t');
    if (repo === undefined || path === undefined || repo === '') continue;
    const files = repos.get(repo) ?? [];
    files.push({ path, text: readFileSync(`${CORPUS_DIR}${repo.replace('/', '__')}/${path}`, 'utf8') });
    repos.set(repo, files);
  }
  return [...repos].map(([name, files]) => ({ name, files }));
}
