/**
 * Links from a finding to the code and settings on GitHub. Only an `https:` repository URL is linked (the
 * local code host's `file:` URLs are not); paths are encoded segment by segment, so a hostile file name cannot
 * leave the repository's URL.
 */

export const SETTINGS_FILE = '<repository settings>';

function base(htmlUrl: string): string | null {
  try {
    const url = new URL(htmlUrl);
    return url.protocol === 'https:' ? url.href.replace(/\/+$/, '') : null;
  } catch {
    return null;
  }
}

/** `<html_url>/blob/<sha>/<path>#L<line>`; the default branch (`HEAD`) when the scan has no commit. */
export function codeUrl(htmlUrl: string, commitSha: string | undefined, file: string, line: number): string | null {
  const root = base(htmlUrl);
  if (root === null || file === SETTINGS_FILE || file === '') return null;
  const ref = commitSha !== undefined && /^[0-9a-f]{40}$/.test(commitSha) ? commitSha : 'HEAD';
  const path = file.split('/').filter((s) => s !== '' && s !== '.' && s !== '..').map(encodeURIComponent).join('/');
  return `${root}/blob/${ref}/${path}${line > 0 ? `#L${line}` : ''}`;
}

/** `<html_url>/commit/<sha>`: the commit a scan read or a check ran on; null without an `https:` URL or a full SHA. */
export function commitUrl(htmlUrl: string, sha: string | undefined): string | null {
  const root = base(htmlUrl);
  return root === null || sha === undefined || !/^[0-9a-f]{40}$/.test(sha) ? null : `${root}/commit/${sha}`;
}

/** The settings page a settings finding is about, from the GitHub API path of its fix (else the settings root). */
export function settingsUrl(htmlUrl: string, apiPath: string | undefined): string | null {
  const root = base(htmlUrl);
  if (root === null) return null;
  const path = apiPath ?? '';
  const page = /\/actions\/(permissions|runners)/.test(path)
    ? 'actions'
    : /\/environments/.test(path)
      ? 'environments'
      : /\/(branches|rulesets|rules)/.test(path)
        ? 'branches'
        : /\/hooks/.test(path)
          ? 'hooks'
          : /\/keys/.test(path)
            ? 'keys'
            : /\/actions\/secrets/.test(path)
              ? 'secrets/actions'
              : /\/(vulnerability-alerts|automated-security-fixes)/.test(path) || /security_and_analysis/.test(path)
                ? 'security_analysis'
                : '';
  return `${root}/settings${page === '' ? '' : `/${page}`}`;
}

export interface ApiCall {
  method: string;
  path: string;
  body?: Record<string, unknown>;
}

const shellQuote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`;

/** The fix as the `gh api` command to run (the repository filled in), body on standard input. */
export function ghApiCommand(call: ApiCall, fullName: string): string {
  const [owner = '{owner}', repo = '{repo}'] = fullName.split('/');
  const path = call.path.replace('{owner}', owner).replace('{repo}', repo);
  const command = `gh api --method ${call.method.replace(/[^A-Z]/g, '')} ${shellQuote(path)}`;
  return call.body === undefined ? command : `echo ${shellQuote(JSON.stringify(call.body))} | ${command} --input -`;
}
