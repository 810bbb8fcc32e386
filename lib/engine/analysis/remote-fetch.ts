import { commandName, logicalLines, words } from '../shell.js';

/** Programs that fetch a URL: the shell's and PowerShell's (with its aliases). */
const DOWNLOADERS = new Set(['curl', 'wget', 'iwr', 'irm', 'invoke-webrequest', 'invoke-restmethod']);

export interface Fetch {
  /** The program, lower case: `curl`, `wget`, `iwr` ... */
  program: string;
  /** The words of the command, quotes removed. */
  words: readonly string[];
  /** The first URL-like argument (`https://…`, `${{ … }}`, `$URL`), or null. */
  url: string | null;
}

/** The fetch a command performs, or null when it is not a download command. */
export function fetchOf(command: string): Fetch | null {
  // `(iwr https://…).Content` and `(New-Object Net.WebClient).DownloadString(…)` are PowerShell fetches too.
  const text = command.replace(/^\(\s*/, '');
  const name = commandName(text)?.toLowerCase() ?? '';
  if (!DOWNLOADERS.has(name)) {
    if (/\.Download(?:String|File|Data)\s*\(/i.test(command)) return { program: 'webclient', words: words(text), url: urlIn(command) };
    return null;
  }
  const list = words(text);
  const url = urlArgument(list) ?? urlIn(text);
  return { program: name, words: list, url: url === null ? null : wholeExpressions(url, text) };
}

/**
 * The shell reader splits an unquoted `https://${{ vars.HOST }}/install.sh` at the spaces of its expression, which
 * GitHub fills in before the shell ever sees them: a URL cut inside `${{ }}` is read again from the text, whole.
 */
function wholeExpressions(url: string, text: string): string {
  if (url.lastIndexOf('${{') <= url.lastIndexOf('}}')) return url;
  const at = text.indexOf(url);
  if (at === -1) return url;
  return /^(?:\$\{\{[^}]*\}\}|[^\s'"()`])+/.exec(text.slice(at))?.[0] ?? url;
}

/** Options of curl, wget and PowerShell that take a value, so the next word is not the URL. */
const VALUE_OPTIONS = /^(-[oOHdeuATXbcEKFmrwyY]|--(output|output-document|header|data[\w-]*|user|user-agent|referer|upload-file|request|cookie|cookie-jar|config|max-time|retry[\w-]*|connect-timeout|form|write-out|directory-prefix|tries|timeout|wait)|-(OutFile|Uri|Headers|Method|Body|UserAgent|TimeoutSec))$/i;

function urlArgument(list: readonly string[]): string | null {
  const explicit = list.find((w) => /^(https?|ftp):\/\//i.test(w));
  if (explicit !== undefined) return explicit;
  for (let i = 1; i < list.length; i++) {
    const word = list[i] ?? '';
    const previous = list[i - 1] ?? '';
    if (previous.toLowerCase() === '-uri') return word;
    if (word.startsWith('-') || VALUE_OPTIONS.test(previous)) continue;
    if (word.includes('${{') || word.startsWith('$') || /^[\w.-]+\.[a-z]{2,}\//i.test(word)) return word;
  }
  return null;
}

function urlIn(text: string): string | null {
  return /(?:https?|ftp):\/\/[^\s'"()]+/i.exec(text)?.[0] ?? null;
}

/** True for URLs of the runner itself (a service container, a local registry): nothing is fetched from outside. */
export function isLocalUrl(url: string | null): boolean {
  return url !== null && /^(?:https?:\/\/)?(?:localhost|127\.\d+\.\d+\.\d+|0\.0\.0\.0|\[::1\])(?:[:/]|$)/i.test(url);
}

/** Whether a command text mentions a fetch anywhere (inside `$(…)`, `<(…)`, PowerShell parentheses). */
export function mentionsFetch(text: string): boolean {
  return /(?:^|[\s(`'"|;&])(?:curl|wget|iwr|irm|invoke-webrequest|invoke-restmethod)(?=[\s'"`)]|$)|\.Download(?:String|Data)\s*\(/i.test(text);
}

/** The REST API's address of a workflow run artifact's archive: the `archive_download_url` a listing answers with, or `/actions/artifacts/<id>/zip`. */
const ARTIFACT_ARCHIVE = /\barchive_download_url\b|\/actions\/artifacts\/[^\s/'"]+\/zip\b/;

/**
 * True when a fetch command gets a workflow run artifact's archive from GitHub's API: its text names such an address
 * (`curl -o a.zip "$(gh api ... --jq '.archive_download_url')"`, `.../actions/artifacts/$ID/zip`), or it reads a
 * variable that a line of the script assigns from one (`URL=$(gh api ".../runs/$ID/artifacts" --jq
 * '.artifacts[0].archive_download_url')`, then `curl -o a.zip "$URL"`). What it holds is another run's output: an
 * artifact download (artifacts.ts), not a tool whose checksum could be committed.
 */
export function fetchesArtifactArchive(command: string, script: string): boolean {
  if (!script.includes('archive_download_url') && !script.includes('/actions/artifacts/')) return false;
  if (ARTIFACT_ARCHIVE.test(command)) return true;
  const names = new Set([...command.matchAll(/\$\{?([A-Za-z_]\w*)\}?/g)].map((m) => m[1] ?? ''));
  if (names.size === 0) return false;
  return logicalLines(script).some((line) => {
    const assigned = /^\s*(?:(?:export|local|readonly)\s+)?([A-Za-z_]\w*)=/.exec(line.text)?.[1];
    return assigned !== undefined && names.has(assigned) && ARTIFACT_ARCHIVE.test(line.text);
  });
}
