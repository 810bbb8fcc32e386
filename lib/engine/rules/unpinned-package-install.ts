import { commandWords, hasAny, scriptOf, wordMask, type WordMask } from '../analysis/file-scripts.js';
import { publishesForReal, publishingSteps } from '../analysis/publishing.js';
import { defineWorkflowRule } from '../rule.js';
import { words } from '../shell.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

/** The argument vector of a command, wrappers (`sudo`, `env X=1`, `time`, `python -m`) removed. */
function argv(command: string): string[] {
  // An expression is one unknown word, whatever spaces it holds.
  const list = words(command.replace(/\$\{\{[^}]*\}\}/g, '$EXPR'));
  let i = 0;
  while (i < list.length) {
    const word = list[i] ?? '';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || ['sudo', 'env', 'time', 'exec', 'command'].includes(word)) i++;
    else if (word.startsWith('-') && i > 0) i++;
    else break;
  }
  const rest = list.slice(i);
  const program = rest[0] ?? '';
  // `./uv pip install x`, `target/release/cargo install x`: the project's own build under test, not the installer.
  if (/^(\.{1,2}\/|[\w$.-]+\/)/.test(program) && !/^(\/|~)/.test(program)) return [];
  const name = program.replace(/^.*[\\/]/, '').replace(/\.exe$/i, '');
  // `python -m pip install`, `python3.12 -m pip`, `py -m pip`
  if (/^(python[\d.]*|py)$/.test(name) && rest[1] === '-m' && rest[2] !== undefined) return [rest[2], ...rest.slice(3)];
  return [name, ...rest.slice(1)];
}

/** Unknown values (`$PKG`, `${{ matrix.pkg }}`) are not judged. */
function isDynamic(word: string): boolean {
  return word.includes('$') || word.includes('`');
}

function isPath(word: string): boolean {
  return /^[./~]/.test(word) || word.includes('/') || word.includes('\\') || /\.(whl|tar\.gz|tgz|zip|gem|crate)$/i.test(word);
}

interface Install {
  tool: string;
  packages: string[];
}

/** Options of each installer that take a value, so the next word is not a package. */
const PIP_VALUE = /^(-[rceitfCb]|--(requirement|constraint|editable|index-url|extra-index-url|find-links|target|prefix|root|python|platform|python-version|implementation|abi|only-binary|no-binary|trusted-host|cache-dir|progress-bar|upgrade-strategy|config-settings|group|python-platform|index|index-strategy|src|report|log|proxy|retries|timeout|exists-action|build-constraint|override|with|from))$/;
const NPM_VALUE = /^(--(registry|prefix|cache|userconfig|tag|workspace|loglevel|omit|include|install-strategy|os|cpu|libc|filter|dir|cwd|config)|-[wFC])$/;
const CARGO_VALUE = /^(--(version|vers|git|branch|tag|rev|path|root|index|registry|features|target|target-dir|profile|config|jobs|bin|example|color)|-[FjZ])$/;
const GEM_VALUE = /^(-[vsiIpn]|--(version|source|install-dir|bindir|platform|http-proxy|config-file|norc|env-shebang|document|build-root|target-rbconfig))$/;

/** The words after `skip` that are not options or option values. */
function positional(list: string[], skip: number, valueOption: RegExp): string[] {
  const result: string[] = [];
  for (let i = skip; i < list.length; i++) {
    const word = list[i] ?? '';
    if (word === '--') continue;
    if (word.startsWith('-')) {
      if (valueOption.test(word)) i++;
      continue;
    }
    result.push(word);
  }
  return result;
}

/** Installers that only upgrade themselves or their own build backend. */
const PIP_SELF = new Set(['pip', 'setuptools', 'wheel']);

function pipInstall(list: string[], start: number, tool: string): Install | null {
  if (list.some((w) => /^(--require-hashes|--no-index|-c|--constraint|--dry-run|--build-constraint)$/.test(w) || w.startsWith('--constraint='))) return null;
  const packages = positional(list, start, PIP_VALUE).filter((p) => {
    if (isDynamic(p) || isPath(p) || /(===?|@)/.test(p)) return false;
    const name = p.replace(/[[<>=!~;].*$/, '').toLowerCase();
    return !PIP_SELF.has(name) && name !== '';
  });
  return packages.length === 0 ? null : { tool, packages };
}

function npmPackageUnpinned(spec: string): boolean {
  // `@scope/name` is a package; other slashes are paths, tarballs or `owner/repo` GitHub shorthands.
  const local = spec.startsWith('@') ? /^@[^/]+\/.*\//.test(spec) || /\.(tgz|tar\.gz)$/.test(spec) : isPath(spec);
  if (isDynamic(spec) || local || /^(git\+|https?:|file:|github:)/.test(spec)) return false;
  const at = spec.indexOf('@', 1);
  if (at === -1) return spec.replace(/^@/, '').toLowerCase() !== 'npm';
  const name = spec.slice(0, at);
  const version = spec.slice(at + 1).toLowerCase();
  if (name === 'npm' || name === 'corepack') return false;
  return isNpmRange(version);
}

/** A version spec that matches more than one release: dist-tags, `*`, `x` ranges, `^1`, `~1.2`, `>=1`, `1.x`, `1 || 2`. */
export function isNpmRange(version: string): boolean {
  const v = version.trim().toLowerCase();
  if (['', 'latest', 'next', '*', 'x', 'canary', 'beta', 'alpha', 'rc'].includes(v)) return true;
  if (/^[~^<>=]/.test(v) || /\s|\|\|/.test(v)) return true;
  // `1`, `1.2`, `1.x`, `1.2.*`: a partial version is a range over its missing parts.
  return /^v?\d+(\.(\d+|x|\*))?(\.(x|\*))?$/.test(v) && !/^v?\d+\.\d+\.\d+$/.test(v);
}

/** The unpinned packages a command installs, with the installer's name. */
export function unpinnedInstall(command: string): Install | null {
  const list = argv(command);
  const [tool, sub, third] = list;
  switch (tool) {
    case 'pip':
    case 'pip3':
      return sub === 'install' ? pipInstall(list, 2, `${tool} install`) : null;
    case 'uv':
      if (sub === 'pip' && third === 'install') return pipInstall(list, 3, 'uv pip install');
      if (sub === 'tool' && (third === 'install' || third === 'run')) return toolRun(list, 3, `uv tool ${third}`);
      return null;
    case 'pipx':
      return sub === 'install' || sub === 'run' ? toolRun(list, 2, `pipx ${sub}`) : null;
    case 'uvx':
      return toolRun(list, 1, 'uvx', true);
    case 'npm':
    case 'pnpm':
    case 'bun': {
      // `npm i pkg` / `pnpm add pkg@^1` / `bun add pkg`: installs what the registry serves now (and, in a
      // project, rewrites the lockfile); `npm install` alone installs the lockfile and is fine.
      const installs = tool === 'npm' ? ['i', 'install', 'add', 'in', 'isntall'] : ['add', 'i', 'install'];
      if (sub === undefined || !installs.includes(sub)) return null;
      const global = list.some((w) => /^-[a-zA-Z]*g[a-zA-Z]*$/.test(w) || w === '--global' || w === '--location=global');
      const packages = positional(list, 2, NPM_VALUE).filter(npmPackageUnpinned);
      return packages.length === 0 ? null : { tool: `${tool} ${sub}${global ? ' -g' : ''}`, packages };
    }
    case 'yarn':
      if (sub === 'global' && third === 'add') return npmOnly(positional(list, 3, NPM_VALUE), 'yarn global add');
      if (sub === 'add' || sub === 'dlx') return npmOnly(positional(list, 2, NPM_VALUE).slice(0, sub === 'dlx' ? 1 : undefined), `yarn ${sub}`);
      return null;
    case 'npx':
    case 'pnpx': {
      // Without `--yes` or `--package` npx usually runs a dependency the project installed from its lockfile.
      const packageFlag = list.findIndex((w) => w === '-p' || w === '--package');
      if (packageFlag !== -1) return npmOnly([list[packageFlag + 1] ?? ''], 'npx --package');
      if (!list.some((w) => w === '-y' || w === '--yes')) return null;
      return npmOnly(positional(list, 1, /^$/).slice(0, 1), 'npx --yes');
    }
    case 'go':
      if (sub !== 'install') return null;
      return only(
        positional(list, 2, /^-(o|C|ldflags|gcflags|tags|mod|modfile|pkgdir|p|toolexec)$/).filter((p) =>
          /@(latest|master|main|head|tip)$/i.test(p),
        ),
        'go install',
      );
    case 'cargo': {
      if (sub !== 'install' || list.some((w) => /^(--locked|--path|--version|--vers|--rev|--tag)$/.test(w) || /^--(version|vers|path|rev|tag)=/.test(w))) return null;
      return only(positional(list, 2, CARGO_VALUE).filter((p) => !isDynamic(p) && !p.includes('@')), 'cargo install');
    }
    case 'gem': {
      if (sub !== 'install' && sub !== 'i') return null;
      // `-v 2.5.0` pins; `-v '~> 2.5'` or `-v '>= 0'` is a range.
      const flag = list.findIndex((w) => /^(-v|--version)$/.test(w) || w.startsWith('--version='));
      const version = flag === -1 ? null : (list[flag]?.startsWith('--version=') === true ? list[flag]?.slice('--version='.length) : list[flag + 1]) ?? '';
      if (version !== null && !/[~<>]/.test(version)) return null;
      return only(positional(list, 2, GEM_VALUE).filter((p) => !isDynamic(p) && !isPath(p) && !p.includes(':')), `gem ${sub}`);
    }
    default:
      return null;
  }
}

/**
 * `npm install -g npm@latest` (`npm i -g npm`, a range of npm): the npm CLI upgrading itself to whatever its
 * registry serves now, as `npm install -g` spelt it; null otherwise. Not reported as an ordinary install (an
 * installer's self-upgrade is routine), only where the job then publishes with it.
 */
export function npmSelfUpgrade(command: string): string | null {
  const list = argv(command);
  const [tool, sub] = list;
  if (tool !== 'npm' || sub === undefined || !['i', 'install', 'add', 'in', 'isntall'].includes(sub)) return null;
  const global = list.some((w) => /^-[a-zA-Z]*g[a-zA-Z]*$/.test(w) || w === '--global' || w === '--location=global');
  if (!global) return null;
  const spec = positional(list, 2, NPM_VALUE).find((p) => p === 'npm' || p.startsWith('npm@'));
  if (spec === undefined) return null;
  return spec === 'npm' || isNpmRange(spec.slice('npm@'.length)) ? spec : null;
}

function only(packages: string[], tool: string): Install | null {
  return packages.length === 0 ? null : { tool, packages };
}

function npmOnly(packages: string[], tool: string): Install | null {
  return only(packages.filter((p) => p !== '' && npmPackageUnpinned(p)), tool);
}

/** `uvx tool`, `uv tool install tool`, `pipx run tool`: the first positional is the package (or `--from`). */
function toolRun(list: string[], start: number, tool: string, firstOnly = false): Install | null {
  const from = list.findIndex((w) => w === '--from');
  const spec = from !== -1 ? list[from + 1] : positional(list, start, PIP_VALUE)[0];
  if (spec === undefined || isDynamic(spec) || isPath(spec) || /(===?|@)/.test(spec)) return null;
  // `uvx python` runs an interpreter uv manages, not a package.
  if (firstOnly && /^(python[\d.]*|pypy[\d.]*)$/.test(spec)) return null;
  return { tool, packages: [spec] };
}

/** The words of the script's pre-filter below (file-scripts.ts): the regular expressions run only where these are. */
const VERBS = wordMask('install', 'i', 'add', 'dlx', 'npx', 'pnpx', 'uvx', 'pipx', 'run');
const INSTALLERS = wordMask('pip', 'pip3', 'uv', 'uvx', 'pipx', 'npm', 'pnpm', 'bun', 'yarn', 'npx', 'pnpx', 'go', 'cargo', 'gem');

/** Installers `unpinnedInstall` reads without a verb, those that need one of `INSTALL_VERBS`, and `uv`/`pipx`. */
const VERBLESS = wordMask('uvx', 'npx', 'pnpx');
const WITH_VERB = wordMask('pip', 'pip3', 'go', 'cargo', 'gem', 'npm', 'pnpm', 'bun', 'yarn');
const INSTALL_VERBS = wordMask('install', 'i', 'add', 'in', 'isntall', 'dlx');
const TOOL_RUNNERS = wordMask('uv', 'pipx');
const TOOL_VERBS = wordMask('install', 'run');

/**
 * False when `unpinnedInstall` cannot find an install in a command whose shell words are `words`: its tool and
 * subcommand are words of the command (`scriptWords` reads them with quotes and backslashes dropped, as `words` does).
 */
function mayInstall(words: WordMask): boolean {
  return hasAny(words, VERBLESS) || (hasAny(words, WITH_VERB) && hasAny(words, INSTALL_VERBS)) || (hasAny(words, TOOL_RUNNERS) && hasAny(words, TOOL_VERBS));
}

export default defineWorkflowRule({
  meta: {
    id: 'unpinned-package-install',
    category: 'CICD-SEC-3',
    title: 'Ad-hoc package installed without a version or lockfile',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A `run:` script installs a package from a registry with no exact version and no lockfile (`npm i pkg`, `npm add pkg@^1`, `yarn add pkg`, `npm i -g pkg`, `npx --yes pkg`, `pip install pkg`, `uvx pkg`, `go install …@latest`, `cargo install` without `--locked` or a version, `gem install`/`gem i` without an exact `-v`; ranges such as `^1`, `~1.2`, `1.x`, `>=5` count as unpinned), so each run takes whatever was published last.',
    recommendation:
      'Pin an exact version (`pkg@1.2.3`, `pkg==1.2.3`, `--version 1.2.3`, `cargo install --locked`), or install from a lockfile or hash-checked requirements file (`npm ci`, `pip install --require-hashes -r requirements.txt`).',
  },
  create: (context) => ({
    step(step) {
      const script = scriptOf(step);
      if (script === null || !hasAny(script.words, VERBS) || !hasAny(script.words, INSTALLERS)) return;
      if (!/\b(install|i|add|dlx|npx|pnpx|uvx|pipx|run)\b/.test(script.text) || !/\b(pip3?|uv|uvx|pipx|npm|pnpm|bun|yarn|npx|pnpx|go|cargo|gem)\b/.test(script.text)) return;
      const run = script.run;
      const publisher = step.job === null ? undefined : publishingSteps(step.job).find(publishesForReal);
      for (const pipeline of script.pipelines) {
        for (const command of pipeline.commands) {
          // Most commands of such scripts (`npm run build`, `go test ./...`) install nothing: skip their argument reading.
          if (!mayInstall(commandWords(command.text))) continue;
          const install = unpinnedInstall(command.text);
          if (install === null) {
            // The npm CLI upgraded to its latest release in a job that publishes: that release does the publish.
            const self = publisher === undefined ? null : npmSelfUpgrade(command.text);
            if (self !== null && publisher !== undefined) {
              const line = step.owner.file.position(publisher.step.node.start).line;
              context.report({
                node: run,
                offset: valueOffsetToSource(step.owner.file, run, command.offset),
                message: `\`${command.text.trim().slice(0, 80)}\` upgrades the npm CLI (\`${self}\`) to whatever release npm's registry serves when the job runs, in a job that publishes (${publisher.evidence}, line ${line}): that release runs the publish with the job's registry token or OIDC, so the publish job runs whatever npm's latest is. LOW: only npm's own publisher (or whoever takes over its release) can change it.`,
              });
            }
            continue;
          }
          const shown = install.packages.slice(0, 4).map((p) => `\`${p}\``).join(', ') + (install.packages.length > 4 ? ` and ${install.packages.length - 4} more` : '');
          context.report({
            node: run,
            offset: valueOffsetToSource(step.owner.file, run, command.offset),
            message: `\`${install.tool}\` installs ${shown} without a pinned version, so the job runs whatever version was published last.`,
          });
        }
      }
    },
  }),
});
