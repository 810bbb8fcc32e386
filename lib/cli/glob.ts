/**
 * Path globs of the config's `ignore` list, matched against paths relative to the repository root:
 * `*` matches within one path segment, `**` any number of segments, `?` one character; a pattern without
 * a slash matches the file name in any directory (as in .gitignore).
 */
export function globMatcher(patterns: readonly string[]): (path: string) => boolean {
  const regexes = patterns.map(globToRegExp);
  return (path) => regexes.some((r) => r.test(path));
}

function globToRegExp(pattern: string): RegExp {
  const anchored = pattern.replace(/^\.\//, '').replace(/^\//, '');
  const source = anchored.includes('/') ? anchored : `**/${anchored}`;
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i] ?? '';
    if (c === '*' && source[i + 1] === '*') {
      // `**/` matches zero or more directories; a trailing `**` anything.
      if (source[i + 2] === '/') {
        out += '(?:[^/]*/)*';
        i += 2;
      } else {
        out += '.*';
        i += 1;
      }
    } else if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else out += c.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  // A directory pattern also covers what is under it.
  return new RegExp(`^${out}(?:/.*)?$`);
}
