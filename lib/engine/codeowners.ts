/**
 * The accounts a repository's CODEOWNERS file names as owners of its code. GitHub honours an owner only when it
 * has write access to the repository ("The people you choose as code owners must have write permissions for the
 * repository", https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/customizing-your-repository/about-code-owners),
 * so a user named there is one of the people who can already change this repository's code: an action of theirs
 * (`JC5/firefly-iii-dev@main` in firefly-iii) moves only when someone who maintains this repository moves it.
 *
 * Read from the first file GitHub would use (`.github/`, the root, `docs/`); the file is the repository's own
 * text, so it is bounded: the first `MAX_BYTES` characters and `MAX_OWNERS` distinct users. Teams
 * (`@org/team`) and e-mail addresses are not accounts an action can belong to and are skipped.
 */
import { CODEOWNERS_PATHS } from './paths.js';
import type { RepositoryFile } from './types.js';

const MAX_BYTES = 64 * 1024;
const MAX_OWNERS = 200;
/** A GitHub login after `@`: letters, digits and single hyphens, at most 39 characters. */
const USER = /^@([A-Za-z0-9](?:[A-Za-z0-9-]{0,37}[A-Za-z0-9])?)$/;

/** The lower-cased logins of the users the repository's CODEOWNERS names (empty without one). */
export function codeOwners(files: readonly RepositoryFile[]): Set<string> {
  const owners = new Set<string>();
  for (const path of CODEOWNERS_PATHS) {
    const file = files.find((f) => f.path === path && f.unreadable === undefined && f.skipped === undefined);
    if (file === undefined) continue;
    for (const raw of file.text.slice(0, MAX_BYTES).split('\n')) {
      const line = raw.replace(/(^|\s)#.*$/, '').trim();
      if (line === '') continue;
      // The first word is the pattern; the owners follow it.
      for (const word of line.split(/\s+/).slice(1)) {
        const match = USER.exec(word);
        if (match === null) continue;
        owners.add((match[1] as string).toLowerCase());
        if (owners.size >= MAX_OWNERS) return owners;
      }
    }
    return owners;
  }
  return owners;
}
