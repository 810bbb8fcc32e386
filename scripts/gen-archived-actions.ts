/**
 * Regenerates the `archived-action` snapshot (lib/engine/data/archived-actions.ts): asks GitHub's GraphQL
 * API (`isArchived`, 25 repositories per query, names as variables) about the existing entries plus the
 * action repositories of the shared corpus (../shared/corpus/real, when it is beside the project) or of a
 * list (`--list FILE`: one `owner/repo` per line, `#` comments), and rewrites the file: entries still
 * archived keep their replacement and source, entries GitHub says are no longer archived are dropped, newly
 * found archived repositories are added (no replacement; fill it in by hand from the archive notice).
 *
 *   GITHUB_TOKEN=... npm run gen:archived [-- --list FILE] [--dry-run]
 *
 * Without a token, without network, or on any unanswered query it prints one line and writes nothing.
 */
import { existsSync } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { collectRepositoryFiles } from '../lib/codehost/checkout.js';
import { ARCHIVED_ACTIONS, type ArchivedAction } from '../lib/engine/data/archived-actions.js';
import { fetchReader, type GitHubReader } from '../lib/online/client.js';
import { BATCH_REPOSITORIES, buildQuery, parseAnswer, type RepositoryNeeds } from '../lib/online/graphql.js';
import { collectReferences } from '../lib/online/refs.js';

/** Repositories asked per run at most (200 queries). */
export const MAX_REPOSITORIES = 5_000;
const NAME = /^[a-z0-9_.-]{1,100}\/[a-z0-9_.-]{1,100}$/;

export const DATA_FILE = fileURLToPath(new URL('../lib/engine/data/archived-actions.ts', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../shared/corpus/real/', import.meta.url));

/** A one-line failure: the file is left as it is. */
export class GenerateError extends Error {}

export interface GenerateResult {
  entries: ArchivedAction[];
  added: string[];
  dropped: string[];
  /** Repositories GitHub does not know (a listed one is kept: nothing says it was unarchived). */
  unknown: string[];
  asked: number;
  queries: number;
}

/** `owner/repo` names of a list file: lower case, validated, comments and blank lines skipped. */
export function parseList(text: string): string[] {
  const names: string[] = [];
  for (const raw of text.split('\n')) {
    const line = raw.replace(/#.*/, '').trim().toLowerCase();
    if (line === '') continue;
    if (!NAME.test(line)) throw new GenerateError(`not an owner/repo name in the list: ${JSON.stringify(line.slice(0, 80))}`);
    names.push(line);
  }
  return names;
}

/** The action repositories the corpus's workflow and action files use. */
export async function corpusRepositories(dir: string): Promise<string[]> {
  const names = new Set<string>();
  for (const entry of (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory())) {
    for (const reference of collectReferences(await collectRepositoryFiles(join(dir, entry.name)))) names.add(`${reference.owner}/${reference.repo}`);
  }
  return [...names];
}

/**
 * Asks GitHub whether each repository (the existing entries first) is archived and returns the new entries:
 * the existing ones GitHub did not say are unarchived (in their order), then the newly archived ones, sorted.
 */
export async function generate(candidates: readonly string[], reader: GitHubReader, existing: readonly ArchivedAction[] = ARCHIVED_ACTIONS): Promise<GenerateResult> {
  const graphql = reader.graphql;
  if (graphql === undefined) throw new GenerateError('this reader has no GraphQL');
  const slugs = [...new Set([...existing.map((e) => e.slug), ...candidates.map((c) => c.toLowerCase())])].filter((s) => NAME.test(s));
  if (slugs.length > MAX_REPOSITORIES) throw new GenerateError(`${slugs.length} repositories: more than ${MAX_REPOSITORIES}; pass a shorter --list`);
  const archived = new Map<string, boolean>();
  const unknown: string[] = [];
  let queries = 0;
  for (let i = 0; i < slugs.length; i += BATCH_REPOSITORIES) {
    const chunk = slugs.slice(i, i + BATCH_REPOSITORIES);
    const batch: RepositoryNeeds[] = chunk.map((s) => {
      const [owner = '', repo = ''] = s.split('/');
      return { owner, repo, archived: true };
    });
    const { query, variables } = buildQuery(batch);
    let answer;
    try {
      answer = await graphql(query, variables);
    } catch (error) {
      throw new GenerateError(`GitHub could not be reached (${error instanceof Error ? error.message : String(error)})`);
    }
    queries++;
    if (answer.status !== 200) throw new GenerateError(`GitHub answered ${answer.status} to a GraphQL query${answer.status === 401 ? ' (is GITHUB_TOKEN valid?)' : ''}`);
    const body = answer.body as { data?: unknown; errors?: { message?: unknown }[] } | null;
    if (body?.data === null || body?.data === undefined) {
      const message = Array.isArray(body?.errors) && typeof body.errors[0]?.message === 'string' ? body.errors[0].message.slice(0, 200).replace(/\s+/g, ' ') : 'no data';
      throw new GenerateError(`GitHub answered the GraphQL query with an error (${message})`);
    }
    parseAnswer(batch, answer.body).forEach((result, k) => {
      const s = chunk[k];
      if (s === undefined) return;
      if (result.missing === true) unknown.push(s);
      else if (result.archived !== undefined) archived.set(s, result.archived.archived);
    });
    const unanswered = chunk.filter((s) => !archived.has(s) && !unknown.includes(s));
    if (unanswered.length > 0) throw new GenerateError(`GitHub did not answer for ${unanswered.length} repositories (first: ${unanswered[0] ?? ''}); nothing written`);
  }
  const kept = existing.filter((e) => archived.get(e.slug) !== false);
  const dropped = existing.filter((e) => archived.get(e.slug) === false).map((e) => e.slug);
  const listed = new Set(existing.map((e) => e.slug));
  const added = [...archived].filter(([s, a]) => a && !listed.has(s)).map(([s]) => s).sort();
  const entries = [...kept, ...added.map((s) => ({ slug: s, replacement: null, source: `https://github.com/${s}` }))];
  return { entries, added, dropped, unknown, asked: slugs.length, queries };
}

function quote(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** The data file's text for these entries, generated on `date` (YYYY-MM-DD). */
export function render(entries: readonly ArchivedAction[], date: string): string {
  const lines = entries.map((e) => `  { slug: ${quote(e.slug)}, replacement: ${e.replacement === null ? 'null' : quote(e.replacement)}, source: ${quote(e.source)} },`);
  return `/**
 * Offline snapshot of action repositories that their owners archived (read-only: no fixes, security
 * ones included), with the maintained replacement where the archive notice names one. Each entry's
 * source is the repository page, which shows the archive banner and notice.
 *
 * Generated by \`npm run gen:archived\` (scripts/gen-archived-actions.ts) on ${date}: GitHub's \`isArchived\`
 * for the existing entries and the action repositories of the shared corpus (or a given list). Entries no
 * longer archived were dropped; replacements are written by hand and kept across runs. With \`--online\`
 * the repositories this file lacks are asked live (lib/online/archived.ts).
 */
export interface ArchivedAction {
  /** \`owner/repo\`, lower case. */
  slug: string;
  replacement: string | null;
  source: string;
}

export const ARCHIVED_ACTIONS_SNAPSHOT_DATE = ${quote(date)};

export const ARCHIVED_ACTIONS: readonly ArchivedAction[] = [
${lines.join('\n')}
];

export function archivedAction(slug: string): ArchivedAction | undefined {
  return ARCHIVED_ACTIONS.find((a) => a.slug === slug);
}
`;
}

/** The command: returns the exit code; every message is one line. */
export async function main(argv: readonly string[], env: Readonly<Record<string, string | undefined>>, options: { dataFile?: string; corpus?: string; log?: (line: string) => void; now?: Date } = {}): Promise<number> {
  const log = options.log ?? ((line: string) => console.log(line));
  const token = env.GITHUB_TOKEN?.trim() ?? '';
  if (token === '') {
    log('gen:archived needs GITHUB_TOKEN (any token can read public repositories); nothing written.');
    return 1;
  }
  try {
    const listIndex = argv.indexOf('--list');
    let candidates: string[];
    let note = '';
    if (listIndex !== -1) {
      const path = argv[listIndex + 1];
      if (path === undefined) throw new GenerateError('--list needs a file');
      candidates = parseList(await readFile(path, 'utf8').catch(() => Promise.reject(new GenerateError(`cannot read the list ${path}`))));
    } else {
      const corpus = options.corpus ?? CORPUS;
      candidates = existsSync(corpus) ? await corpusRepositories(corpus) : [];
      if (candidates.length === 0) note = ' (no shared corpus and no --list: the existing entries only)';
    }
    const result = await generate(candidates, fetchReader({ token, ...(env.GITHUB_API_URL === undefined ? {} : { baseUrl: env.GITHUB_API_URL }) }));
    const date = (options.now ?? new Date()).toISOString().slice(0, 10);
    const summary = `${result.asked} repositories asked${note} in ${result.queries} queries: ${result.entries.length} archived (${result.added.length} added${result.added.length > 0 ? `: ${result.added.slice(0, 5).join(', ')}${result.added.length > 5 ? ' ...' : ''}` : ''}; ${result.dropped.length} no longer archived${result.dropped.length > 0 ? `: ${result.dropped.join(', ')}` : ''}; ${result.unknown.length} unknown to GitHub).`;
    if (argv.includes('--dry-run')) {
      log(`${summary} Dry run: nothing written.`);
      return 0;
    }
    await writeFile(options.dataFile ?? DATA_FILE, render(result.entries, date));
    log(`${summary} Written.`);
    return 0;
  } catch (error) {
    if (error instanceof GenerateError) {
      log(`gen:archived: ${error.message}; nothing written.`);
      return 1;
    }
    throw error;
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  process.exitCode = await main(process.argv.slice(2), process.env);
}
