import type { Step } from '../model/workflow.js';
import { getText, keyText, type YNode } from '../yaml/model.js';
import { actionMajorVersion } from './step-version.js';

/** How a step restores a cache. */
export interface CacheUse {
  step: Step;
  /** The `uses:` to report, or the input that turns caching on. */
  node: YNode;
  /** `actions/cache`, `actions/setup-node with cache: npm`, `actions/setup-go (caches by default)` ... */
  how: string;
  /** For `actions/cache`: the `key` input, when present. */
  key: YNode | undefined;
  /** False when the step restores but never saves (`actions/cache/restore`, setup-uv `save-cache: false`). */
  saves?: boolean;
}

type Rule = (step: Step, input: (name: string) => string | null) => string | null;

/**
 * `${{ !startsWith(github.ref, 'refs/tags/') }}`-style values: caching switched by whether the run is a
 * release. The polarity decides: `'release'` when the value is true on releases (`startsWith(github.ref,
 * 'refs/tags/')`, `github.ref_type == 'tag'`), `'not-release'` when it is true everywhere else (`!startsWith`,
 * `!=`), null when it is no such switch or the engine cannot tell.
 */
export function releaseSwitch(value: string | null): 'release' | 'not-release' | null {
  if (value === null || !value.includes('${{')) return null;
  const text = value.replace(/\s+/g, ' ');
  const subject = String.raw`(?:startsWith|contains)\s*\(\s*github\.ref\b[^)]*(?:refs/tags|tags/)[^)]*\)`;
  const compared = String.raw`(?:github\.ref_type\s*[!=]=\s*'tag'|github\.event_name\s*[!=]=\s*'release')`;
  const negated = new RegExp(String.raw`!\s*${subject}|github\.ref_type\s*!=\s*'tag'|github\.event_name\s*!=\s*'release'`, 'i').test(text);
  const positive = new RegExp(String.raw`(?:^|[^!\s]|[^!]\s)${subject}|github\.ref_type\s*==\s*'tag'|github\.event_name\s*==\s*'release'`, 'i').test(text);
  if (!new RegExp(`${subject}|${compared}`, 'i').test(text)) return null;
  if (negated === positive) return null;
  return positive ? 'release' : 'not-release';
}
/** True for a value that is true on a release run (so an opt-out input turns caching off there). */
const truthy = (value: string | null) => value !== null && (/^(true|yes|1|on)$/i.test(value.trim()) || releaseSwitch(value) === 'release');
/** True for a value that is false on a release run (so an opt-in input leaves caching off there). */
const falsy = (value: string | null) => value !== null && (/^(false|no|0|off|)$/i.test(value.trim()) || releaseSwitch(value) === 'not-release');
/** An input that enables caching when set to anything but empty/false. */
const optIn = (name: string): Rule => (_, input) => (input(name) !== null && !falsy(input(name)) ? `with \`${name}: ${input(name)}\`` : null);
/** A boolean input that enables caching, on by default. */
const onByDefault = (name: string): Rule => (_, input) => (falsy(input(name)) ? null : input(name) === null ? 'caches by default' : `with \`${name}: ${input(name)}\``);
/** A boolean input that disables caching. */
const optOut = (name: string): Rule => (_, input) => (truthy(input(name)) ? null : 'caches by default');

/** Events on which setup-uv v10 and later turn the default `enable-cache: auto` off. */
const SETUP_UV_UNCACHED_EVENTS = new Set(['pull_request_target', 'workflow_run', 'release']);

/**
 * astral-sh/setup-uv's `enable-cache`. Defaults, from the action's `action.yml` and release notes: `"false"`
 * up to v4; `"auto"` from v5 (December 2024), which caches on GitHub-hosted runners; from v10.0.0 (August
 * 2026, "Disable automatic caching for sensitive events", setup-uv issue #984) `auto` leaves the cache off
 * on `pull_request_target`, `workflow_run` and `release` runs. An explicit `true` always caches. A version
 * the engine cannot read (a SHA without a comment) is taken as caching, as before.
 */
const setupUv: Rule = (step, input) => {
  // `restore-cache: false`: entries are saved, never read back into this run (see `cacheWrite`).
  if (falsy(input('restore-cache'))) return null;
  return setupUvCaching(step, input);
};

/** Whether setup-uv caches at all (`enable-cache` and its version-dependent default), as `how`, or null. */
const setupUvCaching: Rule = (step, input) => {
  const value = input('enable-cache');
  if (value !== null && value.trim().toLowerCase() !== 'auto') return falsy(value) ? null : `with \`enable-cache: ${value}\``;
  const major = actionMajorVersion(step);
  if (major !== null && major < 5) return null;
  const triggers = step.job?.workflow.triggers ?? [];
  if (major !== null && major >= 10 && triggers.length > 0 && triggers.every((t) => SETUP_UV_UNCACHED_EVENTS.has(t.name))) return null;
  return value === null ? 'caches by default (v5 and later, on GitHub-hosted runners)' : 'with `enable-cache: auto` (caches on GitHub-hosted runners)';
};

/**
 * Actions that restore a cache, and when. Sources: each action's `action.yml`; zizmor's list of cache-aware
 * actions. `actions/setup-node` v5 caches without `cache:` only when package.json names npm as its package
 * manager, which a workflow does not show, so only an explicit `cache:` counts.
 */
const CACHE_ACTIONS: Record<string, Rule> = {
  'actions/cache': (_, input) => (truthy(input('lookup-only')) ? null : 'restores and saves a cache'),
  'actions/cache/restore': (_, input) => (truthy(input('lookup-only')) ? null : 'restores a cache'),
  'actions/setup-node': optIn('cache'),
  'actions/setup-python': optIn('cache'),
  'actions/setup-java': optIn('cache'),
  'actions/setup-dotnet': (_, input) => (truthy(input('cache')) ? 'with `cache: true`' : null),
  // Caching is on by default since v4.
  'actions/setup-go': (step, input) => {
    if (falsy(input('cache'))) return null;
    if (input('cache') !== null) return `with \`cache: ${input('cache')}\``;
    const major = actionMajorVersion(step);
    return major !== null && major < 4 ? null : 'caches by default (v4 and later)';
  },
  'astral-sh/setup-uv': setupUv,
  'graalvm/setup-graalvm': optIn('cache'),
  'ruby/setup-ruby': (_, input) => (truthy(input('bundler-cache')) ? 'with `bundler-cache: true`' : null),
  'pyo3/maturin-action': (_, input) => (truthy(input('sccache')) ? 'with `sccache: true`' : null),
  'swatinem/rust-cache': (_, input) => (truthy(input('lookup-only')) ? null : 'restores and saves a cache'),
  'actions-rust-lang/setup-rust-toolchain': onByDefault('cache'),
  'mozilla-actions/sccache-action': () => 'caches compiler output',
  'gradle/actions/setup-gradle': optOut('cache-disabled'),
  'gradle/gradle-build-action': optOut('cache-disabled'),
  'mlugg/setup-zig': onByDefault('use-cache'),
  'oven-sh/setup-bun': optOut('no-cache'),
  'determinatesystems/magic-nix-cache-action': onByDefault('use-gha-cache'),
  'nix-community/cache-nix-action': () => 'caches the Nix store',
  'jdx/mise-action': onByDefault('cache'),
  'ramsey/composer-install': optOut('ignore-cache'),
  'awalsh128/cache-apt-pkgs-action': () => 'caches apt packages',
  // BuildKit layers from the Actions cache become part of the pushed image.
  'docker/build-push-action': (_, input) => (/type=gha/.test(input('cache-from') ?? '') ? 'with `cache-from: type=gha`' : null),
  'docker/bake-action': (_, input) => (/type=gha/.test(`${input('set') ?? ''} ${input('cache-from') ?? ''}`) ? 'with a `type=gha` cache' : null),
};

/** How a step restores a cache, or null. */
export function cacheUse(step: Step): CacheUse | null {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || step.uses === undefined) return null;
  const slug = ref.slug;
  const name = ref.path === '' ? slug : `${slug}/${ref.path.toLowerCase()}`;
  const rule = CACHE_ACTIONS[name];
  if (rule === undefined) return null;
  const input = (key: string) => getText(step.with, key);
  const how = rule(step, input);
  if (how === null) return null;
  const key = step.with?.pairs.find((p) => keyText(p.key) === 'key')?.value;
  const saves = SAVES[name]?.(input) ?? true;
  return { step, node: step.uses, how: `${name} ${how}`, key, ...(saves ? {} : { saves }) };
}

/** Whether a cache action saves what it cached, for those that can restore without saving. */
const SAVES: Record<string, (input: (name: string) => string | null) => boolean> = {
  'actions/cache/restore': () => false,
  'astral-sh/setup-uv': (input) => !falsy(input('save-cache')),
  'gradle/actions/setup-gradle': (input) => !truthy(input('cache-read-only')),
  'gradle/gradle-build-action': (input) => !truthy(input('cache-read-only')),
  'swatinem/rust-cache': (input) => !falsy(input('save-if')),
};

const GHA_CACHE_TO = /--cache-to[=\s]+["']?type=gha\b/;

/**
 * A step that writes the Actions cache without restoring one the engine knows of: BuildKit exporting layers
 * with `type=gha` (`docker buildx build --cache-to type=gha`, `cache-to: type=gha` of the Docker actions).
 */
export function cacheWrite(step: Step): CacheUse | null {
  if (step.run !== undefined && typeof step.run.value === 'string' && GHA_CACHE_TO.test(step.run.value)) {
    return { step, node: step.run, how: '`docker buildx --cache-to type=gha`', key: undefined };
  }
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || step.uses === undefined) return null;
  const slug = ref.slug;
  // setup-uv with `restore-cache: false` reads nothing back but still saves the cache (unless `save-cache: false`).
  if (slug === 'astral-sh/setup-uv' && ref.path === '') {
    const input = (key: string) => getText(step.with, key);
    const how = falsy(input('restore-cache')) && !falsy(input('save-cache')) ? setupUvCaching(step, input) : null;
    if (how !== null) return { step, node: step.uses, how: `astral-sh/setup-uv ${how} and \`restore-cache: false\` (saves only)`, key: undefined };
  }
  if ((slug === 'docker/build-push-action' || slug === 'docker/bake-action') && /type=gha/.test(`${getText(step.with, 'cache-to') ?? ''} ${getText(step.with, 'set') ?? ''}`)) {
    return { step, node: step.uses, how: `${slug} with \`cache-to: type=gha\``, key: undefined };
  }
  return null;
}
