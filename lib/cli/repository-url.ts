/**
 * `https://github.com/owner/repo` from package.json's `repository` field (a string such as `owner/repo`,
 * `github:owner/repo` or a git URL, or `{ type, url }`), or '' when it names no GitHub repository. The CLI's
 * documentation links (the rule docs at a release tag) are derived from it, so they follow the package.
 */
export function repositoryUrl(repository: unknown): string {
  const raw =
    typeof repository === 'string'
      ? repository.trim()
      : typeof repository === 'object' && repository !== null && 'url' in repository && typeof repository.url === 'string'
        ? repository.url.trim()
        : '';
  const shorthand = /^(?:github:)?([A-Za-z0-9-]+\/[A-Za-z0-9._-]+?)(?:\.git)?$/.exec(raw);
  if (shorthand?.[1] !== undefined) return `https://github.com/${shorthand[1]}`;
  const url = /^(?:git\+)?(?:https?:\/\/|ssh:\/\/git@|git:\/\/|git@)github\.com[/:]([A-Za-z0-9-]+\/[A-Za-z0-9._-]+?)(?:\.git)?\/?$/.exec(raw);
  return url?.[1] === undefined ? '' : `https://github.com/${url[1]}`;
}
