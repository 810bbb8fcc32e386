/**
 * Where a download comes from, for the rules that ask who can change what a step downloads
 * (download-without-checksum, personal-access-token): the repository's own or its owner's content, GitHub's,
 * a vendor's official installer, a fixed version in a per-version archive, or a location someone else can
 * change at will (no version, `latest`, a branch, plain HTTP, a host the scan cannot read).
 *
 * Variables in the URL are read from the script's own assignments before the command (`VERSION=v1.8.0`,
 * `$SrcUrl = "https://…"` in PowerShell) and from the step's, job's and workflow's `env:` (PowerShell's
 * `$env:X` and `${env:X}` too, `${{ env.tool-version }}` and `${{ env['tool-version'] }}`; a composite action's
 * `${{ inputs.x }}` by its default); a URL that can take
 * several values is judged by the most changeable of them. A variable left unresolved that names an
 * architecture or a platform (`$ARCH`, `${env:RUSTUP_ARCH}`, `$(uname -m)`, `${{ runner.os }}`, a matrix
 * value that is one) is not a version, and the address is judged by the rest of it. A script that serves the
 * file a query parameter names (`download.php?file=/pub/tool/4.24/tool-4.24.tar.gz`, `?url=https://…`) is read
 * by that path as well as its own.
 */
import { namedInstaller, vendorEntry } from '../data/installers.js';
import { matrixFieldValues, matrixValues } from './matrix-values.js';
import type { Step } from '../model/workflow.js';
import { get, getText, scalarText } from '../yaml/model.js';
import { urlOwnership, type RepositoryIdentity } from './run-model/ownership.js';

export type DownloadOrigin =
  /** The repository's own content or its owner's (`local` or `first-party` in ownership.ts terms). */
  | { kind: 'own'; text: string }
  /** GitHub's own (`actions/runner` releases). */
  | { kind: 'platform'; text: string }
  /**
   * A vendor's official installer or distribution on the vendor's own host (data/installers.ts): an entry of
   * its table (`named` false), or an installer whose file names the tool on a host (or GitHub repository)
   * named after it (`named` true: `rustup-init.exe` from `win.rustup.rs`); `where`: that host or repository in words.
   */
  | { kind: 'vendor'; tool: string; host: string; named: boolean; where: string }
  /**
   * A fixed version in a per-version archive over HTTPS: `…/archive/1.28.2/…`, `…/releases/download/v1.2.3/…`.
   * `publisher`: the tool's own publisher serves it (the file is named after the GitHub repository whose
   * releases hold it, or after the host's registered name: `Kitware/CMake`'s `cmake-4.2.3-….zip`,
   * `nodejs.org`'s `node-v20.11.0-….tar.xz`), so the one who can swap it is the one whose code the job runs anyway.
   */
  | { kind: 'versioned'; version: string; where: string; publisher: boolean }
  /**
   * Anything else; `host`: who controls it, in words (`\`dl.example.com\``, "repository `o/n` on GitHub"), null
   * when the scan cannot read it; `plain`: fetched over plain HTTP (or FTP); `why`: what the address says of its
   * version: nothing (`none`), a moving name (`moving`: `latest`, a branch), a version only in the file name
   * (`file`), or a variable the scan cannot resolve to a fixed value (`unread`, its name in `variable`).
   * `platform`: a variable of the address that names an architecture or a platform, not a version.
   */
  | { kind: 'mutable'; host: string | null; plain: boolean; why?: 'none' | 'moving' | 'file' | 'unread'; variable?: string; moving?: string; platform?: string };

/**
 * A path directory that names a fixed version: `1.28.2`, `v20.11.0`, `jq-1.8.1`, `v2.53.0.windows.2`,
 * `cli-v0.9.1`, `tauri-cli-v2.2.0`, `release-plz-v0.3.30` (a release tag of one package of a monorepo: up to four
 * words before it; at least a major and a minor number; `17` or a date alone is not one).
 */
const VERSION = /^(?:[a-z][a-z0-9.]*[-_]){0,4}v?\d+(?:\.\d+){1,3}(?:[-+._][0-9a-z]+)*$/i;
/** Directories that name a moving target, whatever else the path says. */
const MOVING = /^(?:latest|nightly|canary|snapshots?|edge|main|master|head|trunk|current|stable|dev|develop)$/i;
/** At most this many values of one URL are judged (its variables may each have a few). */
const MAX_VALUES = 8;
const MAX_DEPTH = 3;

/** Which origin gives the attacker most: the one a URL that can take several values is judged by. */
const RANK: Record<DownloadOrigin['kind'], number> = { mutable: 0, versioned: 1, vendor: 2, platform: 3, own: 4 };

/** A file of a GitHub repository at a full commit SHA: `raw.githubusercontent.com/<o>/<r>/<sha>/<path>`, `github.com/<o>/<r>/raw/<sha>/<path>`. */
const PINNED_RAW = /^https:\/\/(?:raw\.githubusercontent\.com\/([\w.-]+)\/([\w.-]+)|(?:www\.)?github\.com\/([\w.-]+)\/([\w.-]+)\/raw)\/([0-9a-f]{40})\/([^\s?#'"]+)$/i;

/** The repository, commit and path of a URL that names a file at a full commit SHA (GitHub serves it unchanged), or null. */
export function commitPinnedFile(url: string | null): { repository: string; sha: string; path: string } | null {
  const match = url === null ? null : PINNED_RAW.exec(url.trim());
  if (match === null) return null;
  return { repository: `${match[1] ?? match[3]}/${match[2] ?? match[4]}`, sha: match[5] ?? '', path: match[6] ?? '' };
}

/**
 * The origin of a download by `step`'s script (`script`: its text; `offset`: where the command starts;
 * `saved`: the file name it saves to, when it names one).
 */
export function downloadOrigin(step: Step, script: string, offset: number, url: string | null, identity: RepositoryIdentity, saved: string | null = null): DownloadOrigin {
  if (url === null) return { kind: 'mutable', host: null, plain: false };
  let worst: DownloadOrigin | null = null;
  const platform = (variable: string) => platformVariable(step, variable);
  for (const value of expand(step, script, offset, whole(url, script, offset), 0)) {
    const origin = originOf(value, identity, platform, saved);
    if (worst === null || RANK[origin.kind] < RANK[worst.kind]) worst = origin;
    if (worst.kind === 'mutable') break;
  }
  return worst ?? { kind: 'mutable', host: null, plain: false };
}

/** A file URL's commit: raw.githubusercontent.com/<o>/<r>/<commit>/<path> or github.com/<o>/<r>/raw/<commit>/<path> (`${{ github.repository }}` one word). */
const REPOSITORY_FILE = /^https:\/\/(?:raw\.githubusercontent\.com\/(?:\$\{\{github\.repository\}\}|[\w.-]+\/[\w.-]+)|(?:www\.)?github\.com\/(?:\$\{\{github\.repository\}\}|[\w.-]+\/[\w.-]+)\/raw)\/([^/\s]+)\/[^\s?#]+$/i;
/** A commit that names the run's own (`${{ github.sha }}`, `$GITHUB_SHA`) or a fixed one (a full SHA). */
const FIXED_COMMIT = /^(?:[0-9a-f]{40}|\$\{\{github\.sha\}\}|\$\{GITHUB_SHA\}|\$GITHUB_SHA)$/i;

/**
 * Where a URL is served from when every value it can take is a file of this repository (or its owner's) at a fixed
 * commit: the run's own (`${{ github.sha }}`, `$GITHUB_SHA`) or a full SHA, on raw.githubusercontent.com or
 * `github.com/<o>/<r>/raw/`; its variables resolved as for a download (`REPO: ${{ github.repository }}` in an `env:`).
 * That content is what the commit holds, the repository's own code, which nobody can swap. Null otherwise.
 */
export function ownFileAtCommit(step: Step, script: string, offset: number, url: string | null, identity: RepositoryIdentity): string | null {
  if (url === null) return null;
  let found: string | null = null;
  for (const value of expand(step, script, offset, whole(url, script, offset), 0)) {
    const text = value.trim().replace(/^["']|["']$/g, '').replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, '${{$1}}');
    const owner = urlOwnership(text, identity);
    if (owner === null || (owner.ownership !== 'local' && owner.ownership !== 'first-party')) return null;
    const commit = REPOSITORY_FILE.exec(text)?.[1];
    if (commit === undefined || !FIXED_COMMIT.test(commit)) return null;
    found ??= owner.text;
  }
  return found;
}

/**
 * The vendor's official installer a piped script is (pipe-to-shell), its variables resolved as for a
 * download: every value the URL can take must be one, else null.
 */
export function officialInstallerAt(step: Step, script: string, offset: number, url: string | null): Extract<DownloadOrigin, { kind: 'vendor' }> | null {
  if (url === null) return null;
  let found: Extract<DownloadOrigin, { kind: 'vendor' }> | null = null;
  for (const value of expand(step, script, offset, whole(url, script, offset), 0)) {
    const vendor = vendorOf(value.trim().replace(/^["']|["']$/g, ''), null);
    if (vendor === null) return null;
    found ??= vendor;
  }
  return found;
}

/** The vendor installer `url` is (the table's, else one named after its host), or null. */
function vendorOf(url: string, saved: string | null): Extract<DownloadOrigin, { kind: 'vendor' }> | null {
  const entry = vendorEntry(url);
  if (entry !== null) return { kind: 'vendor', ...entry, named: false };
  const named = namedInstaller(url, saved);
  return named === null ? null : { kind: 'vendor', ...named, named: true };
}

/** Names of variables that hold an architecture or a platform (`ARCH`, `RUSTUP_ARCH`, `OS`, `runner.os`, `matrix.target`), by their words. */
const PLATFORM_WORDS = new Set(['arch', 'architecture', 'os', 'platform', 'goos', 'goarch', 'cpu', 'machine', 'triple', 'target', 'ext']);
/** Words of a value that name an architecture or an operating system (`x86_64`, `aarch64-apple-darwin`, `windows-latest`). */
const PLATFORM_VALUE_WORDS = new Set(['x86', 'x64', 'amd64', 'arm64', 'aarch64', 'i386', 'i686', '386', 'arm', 'armv6', 'armv6l', 'armv7', 'armv7l', 'armhf', 'ppc64le', 's390x', 'riscv64', 'loong64', 'universal', 'linux', 'windows', 'win', 'win32', 'win64', 'darwin', 'macos', 'osx', 'mac', 'apple', 'freebsd', 'ubuntu', 'musl', 'gnu', 'msvc']);
/** Commands whose output is the machine's architecture or system (`$(uname -m)`, `$(dpkg --print-architecture)`). */
const PLATFORM_COMMAND = /^\$\(\s*(?:uname(?:\s+-[a-z]+)*|arch|dpkg\s+--print-architecture|go\s+env\s+GO(?:OS|ARCH)|rpm\s+--eval\s+['"]?%\{?_arch\}?['"]?)\s*\)$/i;

/** The words of a name: `RUSTUP_ARCH` -> rustup, arch; `targetOs` -> target, os; `runner.arch` -> runner, arch. */
function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((w) => w !== '');
}

/** Whether a value names an architecture or a platform, not a version. */
function platformValue(value: string): boolean {
  return value.length <= 60 && !/^v?\d+(?:\.\d+)+/.test(value) && value.toLowerCase().split(/[-_.\s]+/).some((w) => PLATFORM_VALUE_WORDS.has(w));
}

/**
 * Whether a variable left unresolved in a URL names an architecture or a platform rather than a version:
 * `${{ runner.arch }}`, `${{ runner.os }}`, a `${{ matrix.x }}` whose values are all architectures or systems
 * (by its name when the matrix is computed), `$(uname -m)`, or a shell, PowerShell or `env` variable whose name
 * says so (`$ARCH`, `${OS}`, `${env:RUSTUP_ARCH}`, `$env:TARGET_PLATFORM`). An expression with fallbacks
 * (`${{ matrix.rustup_arch || 'x86_64' }}`, `${{ inputs.arch || 'amd64' }}`) is one when every operand is.
 */
function platformVariable(step: Step, variable: string): boolean {
  if (PLATFORM_COMMAND.test(variable)) return true;
  const inner = /^\$\{\{\s*([^{}]{1,200}?)\s*\}\}$/.exec(variable)?.[1];
  if (inner !== undefined) {
    // `a || 'b' || c`: every value it can take (each operand's) must be one.
    const operands = inner.split('||').map((o) => o.trim());
    return operands.length <= 8 && operands.every((operand) => platformOperand(step, operand));
  }
  const name = /^\$(?:\{env:|env:|\{)?([A-Za-z_]\w*)\}?$/.exec(variable)?.[1];
  return name !== undefined && nameWords(name).some((w) => PLATFORM_WORDS.has(w));
}

/**
 * Whether one operand of an expression names an architecture or a platform: a string literal that is one
 * (`'x86_64'`), `runner.arch`, `runner.os`, a matrix key whose values all are (by its name when the matrix is
 * computed), or a context value (`env.X`, `inputs.x`) whose name says so. Anything else (a call, `&&`) is not.
 */
function platformOperand(step: Step, operand: string): boolean {
  const literal = /^'((?:[^']|'')*)'$/.exec(operand)?.[1];
  if (literal !== undefined) return platformValue(literal.replace(/''/g, "'"));
  if (!/^[\w.-]+$/.test(operand)) return false;
  const path = operand.toLowerCase();
  if (path === 'runner.arch' || path === 'runner.os') return true;
  if (path.startsWith('matrix.')) {
    const values = matrixValues(step.job, operand.slice('matrix.'.length));
    if (values !== null && values.length > 0) return values.every(platformValue);
  }
  const last = operand.split('.').at(-1) ?? '';
  return nameWords(last).some((w) => PLATFORM_WORDS.has(w));
}

/**
 * The URL with its `${{ }}` expressions whole: the shell's words split `https://github.com/${{ github.repository }}/…`
 * at the expression's spaces, which the runner replaces before the shell reads the line.
 */
function whole(url: string, script: string, offset: number): string {
  const open = url.lastIndexOf('${{');
  if (open === -1 || url.indexOf('}}', open) !== -1) return url;
  const end = script.indexOf('\n', offset);
  const line = script.slice(offset, end === -1 ? script.length : end).replace(/\$\{\{\s*([^}]*?)\s*\}\}/g, '${{$1}}');
  const start = line.indexOf(url.slice(0, open));
  // An expression is one piece, its quotes too (`${{env['tool-version']}}`).
  return start === -1 ? url : (/^(?:\$\{\{[^}\n]{0,200}\}\}|[^\s'"])+/.exec(line.slice(start))?.[0] ?? url);
}

/** Variables in a path: `${{ … }}`, PowerShell's `${env:X}` and `$env:X`, `$(…)`, `${X}`, `$X`. */
const PATH_VARIABLE = /\$\{\{[^}]*\}\}|\$\{env:[A-Za-z_]\w*\}|\$env:[A-Za-z_]\w*|\$\([^()]*\)|\$\{?[A-Za-z_]\w*\}?/g;

function originOf(url: string, identity: RepositoryIdentity, platform: (variable: string) => boolean, saved: string | null): DownloadOrigin {
  const owner = urlOwnership(url, identity);
  if (owner !== null && (owner.ownership === 'local' || owner.ownership === 'first-party')) return { kind: 'own', text: owner.text };
  if (owner?.ownership === 'platform') return { kind: 'platform', text: owner.text };
  // A command substitution or an expression stays one piece of the path (`tool-$(uname -m).tar.gz`,
  // `${{ runner.arch }}/tool.zip`): its spaces are kept apart.
  const joined = url.trim().replace(/\$\([^()\n]{0,80}\)|\$\{\{[^}\n]{0,120}\}\}/g, (m) => m.replace(/\s/g, '\uE000'));
  const match = /^(https?|ftp):\/\/(?:[^/@\s]*@)?([^/:?#\s]+)[^/?#\s]*(\/[^?#\s]*)?(\?[^#\s]*)?/i.exec(joined);
  if (match === null) return { kind: 'mutable', host: null, plain: false };
  const host = (match[2] ?? '').toLowerCase();
  // A host the scan cannot read (`$HOST`, `${{ … }}`) is no one's in particular.
  if (!/^[a-z0-9.-]+$/.test(host)) return { kind: 'mutable', host: null, plain: false };
  const who = owner?.text ?? `\`${host}\``;
  if ((match[1] ?? '').toLowerCase() !== 'https') return { kind: 'mutable', host: who, plain: true };
  // The vendor's host serves whatever a variable of the path names: an expression (`${{ matrix.arch || 'x86_64' }}`,
  // its spaces and quotes) is one opaque piece of the path, not a reason to miss the host.
  const vendor = vendorOf(joined.replace(/\$\{\{[^}\n]{0,120}\}\}/g, '\uE001'), saved);
  const segments = (match[3] ?? '').split('/').slice(1);
  // A fixed version of the publisher's own file on a vendor's distribution host says more than the host does
  // (`nodejs.org/dist/v20.11.0/node-v20.11.0-….tar.xz`): read as a versioned file below.
  const pinned = vendor !== null && !vendor.named && segments.slice(0, -1).some((d) => VERSION.test(d)) && !segments.slice(0, -1).some((d) => MOVING.test(d)) && ownPublisher(host, segments, segments.at(-1) ?? '');
  if (vendor !== null && !pinned) return vendor;
  // A script that serves the file a query parameter names (`download.php?file=/pub/tool/4.24/tool-4.24.tar.gz`):
  // that path is read as the address's own, and its last segment is the file downloaded.
  const carried = carriedPath(match[4] ?? '');
  const directories = [...segments.slice(0, -1), ...carried.slice(0, -1)];
  const file = carried.at(-1) ?? segments.at(-1) ?? '';
  const moving = directories.find((d) => MOVING.test(d));
  const version = moving === undefined ? directories.find((d) => VERSION.test(d)) : undefined;
  // No fixed version, but the tool's own publisher serving its file from its own host
  // (`downloads.rclone.org/rclone-current-linux-amd64.zip`, `dl.minio.io/server/minio/release/linux-amd64/minio`):
  // its official distribution, whatever version the address names; whoever can swap it publishes the tool the job
  // runs anyway. The host's registered name must be the tool's (`ffmpeg.example.com` is example.com's).
  const tool = (/^[A-Za-z][A-Za-z0-9]*?(?=[-_.]|\d+\.|$)/.exec(file)?.[0] ?? '').toLowerCase();
  const registered = host.split('.').at(-2) ?? '';
  if (version === undefined && carried.length === 0 && tool.length >= 3 && registered === tool && !GENERIC_LABELS.has(registered)) {
    return { kind: 'vendor', tool, host, named: false, where: `the publisher's own host \`${host}\`` };
  }
  if (moving !== undefined) return { kind: 'mutable', host: who, plain: false, why: 'moving', moving };
  if (version === undefined) {
    // A variable left in the path (its value set at run time, by a step's output or a caller) is not "no version",
    // unless it names an architecture or a platform: then the rest of the address says what version it names.
    const variables = [...[...segments, ...carried].join('/').matchAll(PATH_VARIABLE)].map((m) => m[0].replace(/\uE000/g, ' ')).slice(0, 16);
    const variable = variables.find((v) => !platform(v));
    if (variable !== undefined) return { kind: 'mutable', host: who, plain: false, why: 'unread', variable };
    const arch = variables[0];
    return { kind: 'mutable', host: who, plain: false, why: /\d+\.\d+/.test(file.replace(PATH_VARIABLE, '')) ? 'file' : 'none', ...(arch === undefined ? {} : { platform: arch }) };
  }
  return {
    kind: 'versioned',
    version,
    where: owner === null ? `\`${host}\`'s per-version archive` : `the releases of ${owner.text}`,
    publisher: ownPublisher(host, segments, file),
  };
}

/** Query parameters whose name says their value is the file to serve (`?file=`, `?path=`, `?url=`). */
const PATH_PARAMETER = /^(?:file|files|filename|filepath|path|url|uri|src|source|dl|download|f|p)$/i;

/**
 * The segments of the path a query parameter carries (`?file=/eclipse/drops4/R-4.24/eclipse-SDK-4.24.tar.gz`,
 * `?url=https://host/dist/v1.2.3/tool.tgz`), percent-decoded; empty when none does. A value carries a path
 * when it is an absolute URL (its path is taken), starts with `/`, or holds a `/` under a parameter named for
 * a file or a path. Other parameters (`?version=latest`, `?X-Amz-Credential=…/s3/aws4_request`) say nothing
 * of the path. The first parameter that carries one is read.
 */
function carriedPath(query: string): string[] {
  for (const pair of query.slice(1).split('&').slice(0, 16)) {
    const equals = pair.indexOf('=');
    if (equals <= 0) continue;
    let value = pair.slice(equals + 1);
    try {
      value = decodeURIComponent(value);
    } catch {
      // A malformed escape: the value as written.
    }
    const url = /^(?:https?|ftp):\/\/[^/?#]*(\/[^?#]*)?/i.exec(value);
    const path = url !== null ? (url[1] ?? '') : value.startsWith('/') || (value.includes('/') && PATH_PARAMETER.test(pair.slice(0, equals))) ? value : null;
    if (path === null) continue;
    const segments = path.split('/').filter((s) => s !== '').slice(0, 32);
    if (segments.length > 0) return segments;
  }
  return [];
}

/** Labels of a host that name no one in particular (the service, not the vendor). */
const GENERIC_LABELS = new Set(['www', 'dl', 'download', 'downloads', 'release', 'releases', 'get', 'static', 'cdn', 'files', 'file', 'mirror', 'mirrors', 'dist', 'pkg', 'pkgs', 'packages', 'artifacts', 'objects', 'storage', 'blob', 'core', 's3', 'amazonaws', 'cloudfront', 'azureedge', 'windows', 'googleapis', 'sourceforge', 'github', 'githubusercontent', 'gitlab', 'bitbucket', 'org', 'com', 'net', 'io', 'dev', 'co']);

/**
 * Whether a versioned file is served by the tool's own publisher: its name's leading word (`cmake` of
 * `cmake-4.2.3-windows-arm64.zip`, `node` of `node-v20.11.0-linux-x64.tar.xz`) is, or contains, or is contained
 * in (three characters or more) the name of the GitHub repository whose releases hold it, or a label of the
 * host's name (`nodejs.org`). A mirror, a CDN or a repository that repackages someone else's tool
 * (`some-user/prebuilt/…/protoc-25.1.zip`) is not.
 */
function ownPublisher(host: string, path: string[], file: string): boolean {
  const tool = (/^[A-Za-z][A-Za-z0-9]*?(?=[-_.]|\d+\.|$)/.exec(file)?.[0] ?? '').toLowerCase();
  if (tool.length < 2) return false;
  const same = (name: string) => {
    const plain = name.toLowerCase().replace(/[^a-z0-9]/g, '');
    if (plain === tool) return true;
    const [short, long] = plain.length < tool.length ? [plain, tool] : [tool, plain];
    return short.length >= 3 && long.includes(short);
  };
  if (host === 'github.com' || host === 'www.github.com') return path[2] === 'releases' && path[1] !== undefined && same(path[1]);
  const labels = host.split('.').slice(0, -1).filter((l) => !GENERIC_LABELS.has(l));
  return labels.some(same);
}

/**
 * `$NAME`, `${NAME}`, `$env:NAME`, `${env:NAME}`, `${{ env.NAME }}`, `${{ inputs.name }}` in a URL; a context's
 * name may hold hyphens (`${{ env.tool-version }}`) and be indexed (`${{ env['tool-version'] }}`), as GitHub allows.
 */
const VARIABLE = /\$\{\{\s*(env|inputs|github\.event\.inputs)(?:\.([\w-]+)|\[\s*'([\w-]+)'\s*\])\s*\}\}|\$\{?env:([A-Za-z_]\w*)\}?|\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g;

/** The values `text` can take, its variables replaced by every value found for them (a variable with none is left as it is). */
/** `${{ matrix.<key> }}` or `${{ matrix.<key>.<field> }}` in a URL. */
const MATRIX_EXPRESSION = /\$\{\{\s*matrix\.([\w-]+)(?:\.([\w-]+))?\s*\}\}/g;

function expand(step: Step, script: string, offset: number, text: string, depth: number): string[] {
  let values = [text];
  if (depth >= MAX_DEPTH || !text.includes('$')) return values;
  // A matrix value (`${{ matrix.libtorrent.boost_minor_version }}`) takes each of its legs' literal values; two such
  // in one URL are combined as if independent, a superset of the legs' own, so every value stays judged.
  if (text.includes('matrix.')) {
    for (const match of [...text.matchAll(MATRIX_EXPRESSION)]) {
      const found = match[2] === undefined ? matrixValues(step.job, match[1] ?? '') : matrixFieldValues(step.job, match[1] ?? '', match[2]);
      if (found === null || found.length === 0) continue;
      const next: string[] = [];
      for (const value of values) for (const replacement of new Set(found)) next.push(value.replace(match[0], replacement));
      if (next.length > MAX_VALUES) return [text];
      values = next;
    }
  }
  for (const match of [...text.matchAll(VARIABLE)]) {
    const whole = match[0];
    const found =
      match[1] === 'inputs' || match[1] === 'github.event.inputs'
        ? inputDefault(step, match[2] ?? match[3] ?? '')
        : variableValues(step, script, offset, match[2] ?? match[3] ?? match[4] ?? match[5] ?? match[6] ?? '', match[1] === 'env');
    if (found.length === 0) continue;
    const next: string[] = [];
    for (const value of values) for (const replacement of found) for (const expanded of expand(step, script, offset, replacement, depth + 1)) next.push(value.replace(whole, expanded));
    values = next.slice(0, MAX_VALUES);
  }
  return values;
}

/** The literal values a variable is given before `offset`: the script's assignments, else the `env:` the step sees. */
function variableValues(step: Step, script: string, offset: number, name: string, envOnly: boolean): string[] {
  if (name === '') return [];
  const values: string[] = [];
  if (!envOnly) {
    const before = script.slice(0, offset);
    // `NAME=value`, `export NAME=value`, PowerShell `$NAME = "value"` and `$env:NAME = "value"`: the value as written, quotes removed.
    const assignment = new RegExp(`(?:^|[\\s;&(])(?:export\\s+|local\\s+|readonly\\s+|declare\\s+(?:-\\w+\\s+)?)?(?:\\$env:|\\$)?${name}\\s*=\\s*("[^"\\n]*"|'[^'\\n]*'|[^\\s;&|)]*)`, 'gm');
    for (const m of before.matchAll(assignment)) {
      const value = (m[1] ?? '').replace(/^["']|["']$/g, '');
      if (value !== '' && !/[`]|\$\(/.test(value)) values.push(value);
    }
    // `NAME=$(gh api repos/o/r/releases/tags/v1.2.3 --jq '... .browser_download_url')`: an asset of that release,
    // read as the release download address GitHub serves it from (`latest` names a moving release).
    const release = new RegExp(`(?:^|[\\s;&(])(?:export\\s+|local\\s+)?${name}=["']?\\$\\(\\s*gh\\s+api\\s+(?:-[^\\s]+\\s+)*/?repos/([\\w.-]{1,100})/([\\w.-]{1,100})/releases/(?:tags/([^\\s"'/)]{1,100})|(latest))[\\s"')]`, 'gm');
    for (const m of before.matchAll(release)) values.push(`https://github.com/${m[1]}/${m[2]}/releases/download/${m[3] ?? m[4]}/${m[2]}`);
    if (values.length > 0) return [...new Set(values)].slice(0, MAX_VALUES);
  }
  for (const env of [step.env, step.job?.env, step.job?.workflow.env]) {
    const value = getText(env, name);
    if (value !== null && value.trim() !== '') return [value.trim()];
  }
  return [];
}

/**
 * An input's default (`${{ inputs.version }}`, `${{ github.event.inputs.version }}`): a composite action's, or
 * a workflow's `workflow_dispatch` / `workflow_call` input's. A caller or the one who dispatches may give
 * another version; the default is the one the repository pins. An empty default names none.
 */
function inputDefault(step: Step, name: string): string[] {
  const owner = step.owner;
  let value: string | null = null;
  if (owner.kind === 'action') {
    const input = owner.inputs.find((i) => i.name === name);
    value = input?.default === undefined ? null : scalarText(input.default);
  } else {
    for (const trigger of owner.triggers) {
      if (trigger.name !== 'workflow_dispatch' && trigger.name !== 'workflow_call') continue;
      const found = getText(get(get(trigger.config, 'inputs'), name), 'default');
      if (found !== null && found.trim() !== '') value = found;
    }
  }
  return value === null || value.trim() === '' ? [] : [value.trim()];
}
