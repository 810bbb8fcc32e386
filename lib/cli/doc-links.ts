/**
 * The rule docs are written in the repository, where `lib/engine/data/installers.ts` is a file the reader
 * has. A user of the package has only the docs (dist/rules/), so the build turns each such path into a link
 * to that file in the repository at the release's tag, which exists for the version the user runs.
 */
const SOURCE_PATH = /`((?:lib|bin|scripts|api|web|supabase)\/(?:[\w./-]+\.(?:ts|tsx|md|sql|json)|[\w./-]*\/))`/g;

export function linkSourcePaths(markdown: string, repository: string, version: string): string {
  if (repository === '') return markdown;
  // A file is shown (`blob`), a directory listed (`tree`).
  return markdown.replace(SOURCE_PATH, (_match, path: string) => `[\`${path}\`](${repository}/${path.endsWith('/') ? 'tree' : 'blob'}/v${version}/${path})`);
}
