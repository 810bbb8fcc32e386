import { PRIVILEGED_TRIGGERS, type Job, type Step, type Workflow } from '../model/workflow.js';
import type { RepositoryModel } from '../model/repository.js';
import { isFullSha } from '../model/uses.js';
import { localCallers } from './callers.js';
import { occasionsOf, type Occasion, type RefKind } from './run-model/conditions.js';
import { get, getText, isFalsyText, keyText, scalarText, type YNode } from '../yaml/model.js';
import { actionMajorVersion } from './step-version.js';
import { selfHosted } from './runners.js';
import { normalizeWorkspacePath, scriptCommands, within } from './run-model/execution.js';
import { commandArgs, commandName } from '../shell.js';
import { goreleaserCleanDirectory, publishingStep } from './publishing.js';
import { findExpressions } from '../expressions/extract.js';
import { forwardedInput, inputAtCaller } from './action-inputs.js';

/** Events whose runs write the default (or base) branch's cache scope while an outsider decides what runs. */
export const DEFAULT_SCOPE_EVENTS: ReadonlySet<string> = new Set([...[...PRIVILEGED_TRIGGERS].filter((t) => !t.startsWith('pull_request_review')), 'repository_dispatch']);

/**
 * Events whose runs, started by nobody's manual choice of ref, run on the default branch (or, for
 * `pull_request_target`, the base branch) and so save to its cache scope, which every branch, tag and release
 * run restores from.
 */
const DEFAULT_BRANCH_EVENTS: ReadonlySet<string> = new Set([
  ...DEFAULT_SCOPE_EVENTS,
  'schedule',
  'status',
  'check_run',
  'check_suite',
  'delete',
  'page_build',
  'label',
  'milestone',
  'gollum',
  'public',
  'member',
  'project',
  'project_card',
  'project_column',
  'branch_protection_rule',
]);

/**
 * True when a run on `event` (at a ref of kind `ref`) can save cache entries in the default branch's scope in
 * the normal course, so that a release or tag run, or any branch's, restores them. Caches are scoped by ref: a
 * `pull_request*` run saves to the pull request's merge ref, seen only by that pull request's runs; a push of a
 * tag, a `release`, `create` or `merge_group` run to its own ref; a push to a branch counts (the default branch's
 * name is not known here, and a branch a release is cut from is read by its own release runs).
 * `workflow_dispatch` does not: which branch it runs on is a maintainer's choice at each start, not the normal course.
 */
export function savesToDefaultScope(event: string, ref: RefKind): boolean {
  if (event === 'push') return ref !== 'tag';
  return DEFAULT_BRANCH_EVENTS.has(event);
}

/**
 * An input whose `${{ }}` value switches caching by the run (`cache: ${{ !startsWith(github.ref, 'refs/tags/') && 'npm' || '' }}`):
 * caching is on where the value is truthy (`on: true`, an opt-in input) or falsy (`on: false`, an opt-out one).
 * The run model evaluates it per occasion (`valueRunSet`), so the polarity of any condition is read, not guessed.
 */
export interface CacheSwitch {
  node: YNode;
  on: boolean;
}

/** How a step uses the GitHub Actions cache. */
export interface CacheUse {
  step: Step;
  /** The `uses:` to report, or the `run:` script. */
  node: YNode;
  /** `actions/cache restores and saves a cache`, `actions/setup-node with \`cache: npm\``, `actions/setup-go caches by default (v4 and later)` ... */
  how: string;
  /** For `actions/cache` and its halves: the `key` input, when present. */
  key: YNode | undefined;
  /** Whether it reads entries back into the run (false: `actions/cache/save`, setup-uv `restore-cache: false`). */
  restores: boolean;
  /** Whether it writes entries (false: `actions/cache/restore`, setup-uv `save-cache: false`, `cache-read-only: true`). */
  saves: boolean;
  /** Inputs that switch caching by the run; caching is on where every one of them says so. */
  switches: readonly CacheSwitch[];
  /**
   * True when it restores only entries its own workflow run saved: an `actions/cache` (or `actions/cache/restore`)
   * whose `key:` and every `restore-keys:` line carry `\${{ github.run_id }}` (`ownRunOnly`).
   */
  ownRunOnly: boolean;
  /**
   * Which entries it reads and writes, to tell two steps' caches apart: the action (the halves of
   * `actions/cache` are one action) and what names the entries (the key up to its first `${{`, the `cache:`
   * package manager).
   */
  family: string;
}

interface Inputs {
  text(name: string): string | null;
  node(name: string): YNode | undefined;
}

/** What a rule of the table says of a step: how it caches, and the switches that turn it off on some runs; null: it does not cache. */
type Verdict = { how: string; switches?: CacheSwitch[] } | null;
type Rule = (step: Step, input: Inputs) => Verdict;

const isExpression = (value: string) => value.includes('${{');
/** A value that is true as written (an opt-out input set so turns caching off). */
const truthy = (value: string | null) => value !== null && !isExpression(value) && /^(true|yes|1|on)$/i.test(value.trim());
/** A value that is false as written (an opt-in input set so leaves caching off). */
const falsy = (value: string | null) => value !== null && isFalsyText(value);

/** An input that enables caching when set to anything but empty/false. */
const optIn =
  (name: string): Rule =>
  (_, input) => {
    const value = input.text(name);
    if (value === null || falsy(value)) return null;
    return { how: `with \`${name}: ${value.trim()}\``, switches: isExpression(value) ? [{ node: input.node(name) as YNode, on: true }] : [] };
  };
/** A boolean input that enables caching, on by default. */
const onByDefault =
  (name: string): Rule =>
  (step, input) => {
    const value = input.text(name);
    if (value === null) return { how: 'caches by default' };
    return optIn(name)(step, input);
  };
/** A boolean input that disables caching. */
const optOut =
  (name: string): Rule =>
  (_, input) => {
    const value = input.text(name);
    if (truthy(value)) return null;
    return { how: 'caches by default', switches: value !== null && isExpression(value) ? [{ node: input.node(name) as YNode, on: false }] : [] };
  };

/**
 * What astral-sh/setup-uv does when `enable-cache` is not set (or set to `auto`), by its major version. Data, with
 * its source: the action's `action.yml` (the `enable-cache` default) and its `src/utils/inputs.ts`
 * (`getEnableCache`), and the release notes named.
 * - before v5: default `"false"`: no cache unless the workflow asks for it (`off`);
 * - v5 to v9 (v5, December 2024, pull request #193 "Default to enable-cache: true on GitHub hosted runners"): default
 *   `"auto"`, on only where `RUNNER_ENVIRONMENT` is `github-hosted`, never on a self-hosted runner (`hosted`);
 * - v10 and later (August 2026, issue #984 "Disable automatic caching for sensitive events"): `auto` also stays off
 *   on `pull_request_target`, `workflow_run` and `release` runs and on tag pushes (`hosted-not-sensitive`).
 * A version the engine cannot read (null) is taken as the newest.
 */
function setupUvAutoCache(major: number | null): 'off' | 'hosted' | 'hosted-not-sensitive' {
  if (major === null || major >= 10) return 'hosted-not-sensitive';
  return major >= 5 ? 'hosted' : 'off';
}

/** Events on which setup-uv v10 and later turn the default `enable-cache: auto` off (tag pushes aside). */
const SETUP_UV_UNCACHED_EVENTS: ReadonlySet<string | null> = new Set(['pull_request_target', 'workflow_run', 'release']);

/** An occasion (run model) on which setup-uv v10 and later keep `enable-cache: auto` off: a sensitive event or a tag push. */
function uncachedOccasion(occasion: Occasion): boolean {
  return SETUP_UV_UNCACHED_EVENTS.has(occasion.event) || (occasion.event === 'push' && occasion.ref === 'tag');
}

/**
 * astral-sh/setup-uv's `enable-cache` (`setupUvAutoCache`). An explicit `true` always caches, and an explicit
 * `false` never does. A version the engine cannot read (a SHA without a comment, a branch) is taken as the
 * newest; a runner the workflow cannot show is self-hosted is taken as GitHub-hosted.
 */
const setupUv: Rule = (step, input) => {
  const value = input.text('enable-cache');
  if (value !== null && value.trim().toLowerCase() !== 'auto') return optIn('enable-cache')(step, input);
  const major = actionMajorVersion(step);
  const auto = setupUvAutoCache(major);
  if (auto === 'off') return null;
  const job = step.job;
  // `auto` reads RUNNER_ENVIRONMENT: a self-hosted runner (the `self-hosted` label, another cloud's machine) never caches.
  if (job !== null && selfHosted(job)?.certain === true) return null;
  // Off on every occasion the workflow runs on (a workflow without triggers, or called, has an unknown one).
  if (auto === 'hosted-not-sensitive' && major !== null && job !== null && occasionsOf(job.workflow).every(uncachedOccasion)) return null;
  return { how: value === null ? 'caches by default (v5 and later, on GitHub-hosted runners)' : 'with `enable-cache: auto` (caches on GitHub-hosted runners)' };
};

/**
 * actions/setup-node: `cache:` names the package manager whose cache it restores and saves. From v5,
 * `package-manager-cache` (default true) caches automatically only when the repository's package.json names
 * npm as its package manager (`packageManager` or `devEngines.packageManager`), which the workflow does not
 * show: only an explicit `cache:`, or `package-manager-cache: true` asked for in the workflow, counts.
 */
const setupNode: Rule = (step, input) => {
  if (input.text('cache') !== null) return optIn('cache')(step, input);
  const auto = input.text('package-manager-cache');
  const major = actionMajorVersion(step);
  if (auto === null || falsy(auto) || (major !== null && major < 5)) return null;
  return {
    how: `with \`package-manager-cache: ${auto.trim()}\` (caches when package.json names npm as its package manager)`,
    switches: isExpression(auto) ? [{ node: input.node('package-manager-cache') as YNode, on: true }] : [],
  };
};

/** docker/setup-buildx-action keeps a downloaded buildx (`version:` set) in the Actions cache, on by default (`cache-binary`). */
const setupBuildx: Rule = (step, input) => {
  const version = input.text('version');
  if (version === null || version.trim() === '') return null;
  const verdict = onByDefault('cache-binary')(step, input);
  return verdict === null ? null : { ...verdict, how: `with \`version: ${version.trim()}\` (keeps the downloaded buildx binary in the Actions cache: \`cache-binary\` ${input.text('cache-binary') === null ? 'defaults to true' : `is \`${input.text('cache-binary')?.trim() ?? ''}\``})` };
};

const GHA_CACHE = /type=gha\b/;

interface CacheAction {
  /** Whether (and how) the step caches at all. */
  caches: Rule;
  /** Whether it reads entries back (default true). */
  restores?: (input: Inputs) => boolean;
  /** Whether it writes entries (default true). */
  saves?: (input: Inputs) => boolean;
  /** The input naming what it caches, for the family (`cache: npm`). */
  kind?: string;
}

/**
 * Actions that use the Actions cache, and when. Sources: each action's `action.yml`; zizmor's list of
 * cache-aware actions.
 */
const CACHE_ACTIONS: Record<string, CacheAction> = {
  // `lookup-only` checks for an entry without downloading it; the post step still saves on a miss.
  'actions/cache': { caches: () => ({ how: 'restores and saves a cache' }), restores: (i) => !truthy(i.text('lookup-only')) },
  'actions/cache/restore': { caches: () => ({ how: 'restores a cache' }), restores: (i) => !truthy(i.text('lookup-only')), saves: () => false },
  'actions/cache/save': { caches: () => ({ how: 'saves a cache' }), restores: () => false },
  'actions/setup-node': { caches: setupNode, kind: 'cache' },
  'actions/setup-python': { caches: optIn('cache'), kind: 'cache' },
  'actions/setup-java': { caches: optIn('cache'), kind: 'cache' },
  'actions/setup-dotnet': { caches: optIn('cache') },
  // pnpm/setup (the successor of pnpm/action-setup that also installs a runtime). Verified in its `action.yml`
  // (`cache`: "Whether to cache the pnpm store directory", default 'false'), its README ("Cache the pnpm store":
  // `cache: true`, "Default: `false`") and its source (src/index.ts: the main step restores the store from
  // `pnpm-cache-<os>-<arch>-<lockfile hash>`, with that prefix as restore key, when `cache` is true; the post step
  // saves it on a miss): off unless the workflow sets `cache: true`, then it restores and saves.
  'pnpm/setup': { caches: optIn('cache') },
  // Caching is on by default since v4. A commit pin with no version comment names no version: v3 and earlier
  // (still common in pins made before 2023) cache nothing, so the default is claimed only for a version the file
  // states (a tag, a branch such as `main`, or the pin's comment).
  'actions/setup-go': {
    caches: (step, input) => {
      if (input.text('cache') !== null) return optIn('cache')(step, input);
      const major = actionMajorVersion(step);
      if (major === null && step.usesRef?.kind === 'repository' && isFullSha(step.usesRef.ref)) return null;
      return major !== null && major < 4 ? null : { how: 'caches by default (v4 and later)' };
    },
  },
  'astral-sh/setup-uv': { caches: setupUv, restores: (i) => !falsy(i.text('restore-cache')), saves: (i) => !falsy(i.text('save-cache')) },
  'graalvm/setup-graalvm': { caches: optIn('cache'), kind: 'cache' },
  'ruby/setup-ruby': { caches: optIn('bundler-cache') },
  'pyo3/maturin-action': { caches: optIn('sccache') },
  'swatinem/rust-cache': { caches: () => ({ how: 'restores and saves a cache' }), restores: (i) => !truthy(i.text('lookup-only')), saves: (i) => !falsy(i.text('save-if')) },
  'actions-rust-lang/setup-rust-toolchain': { caches: onByDefault('cache') },
  'mozilla-actions/sccache-action': { caches: () => ({ how: 'caches compiler output' }) },
  'gradle/actions/setup-gradle': { caches: optOut('cache-disabled'), saves: (i) => !truthy(i.text('cache-read-only')) },
  'gradle/gradle-build-action': { caches: optOut('cache-disabled'), saves: (i) => !truthy(i.text('cache-read-only')) },
  'mlugg/setup-zig': { caches: onByDefault('use-cache') },
  'oven-sh/setup-bun': { caches: optOut('no-cache') },
  'determinatesystems/magic-nix-cache-action': { caches: onByDefault('use-gha-cache') },
  'nix-community/cache-nix-action': { caches: () => ({ how: 'caches the Nix store' }) },
  // `cache` (default true) reads and writes, `cache_save: false` only reads (jdx/mise-action's action.yml: "if false,
  // action will not write to cache").
  'jdx/mise-action': { caches: onByDefault('cache'), saves: (i) => !falsy(i.text('cache_save')) },
  'ramsey/composer-install': { caches: optOut('ignore-cache') },
  'awalsh128/cache-apt-pkgs-action': { caches: () => ({ how: 'caches apt packages' }) },
  'docker/setup-buildx-action': { caches: setupBuildx },
  // BuildKit layers from the Actions cache (`cache-from`) become part of the image; `cache-to` writes them.
  'docker/build-push-action': {
    caches: (_, i) => (GHA_CACHE.test(`${i.text('cache-from') ?? ''} ${i.text('cache-to') ?? ''}`) ? { how: GHA_CACHE.test(i.text('cache-from') ?? '') ? 'with `cache-from: type=gha`' : 'with `cache-to: type=gha`' } : null),
    restores: (i) => GHA_CACHE.test(i.text('cache-from') ?? ''),
    saves: (i) => GHA_CACHE.test(i.text('cache-to') ?? ''),
  },
  'docker/bake-action': {
    caches: (_, i) => (GHA_CACHE.test(`${i.text('set') ?? ''} ${i.text('cache-from') ?? ''} ${i.text('cache-to') ?? ''}`) ? { how: 'with a `type=gha` cache' } : null),
    restores: (i) => /cache-from=type=gha|type=gha/.test(`${i.text('cache-from') ?? ''} ${(i.text('set') ?? '').replace(/\S*cache-to\S*/g, '')}`),
    saves: (i) => /cache-to\S*type=gha/.test(i.text('set') ?? '') || GHA_CACHE.test(i.text('cache-to') ?? ''),
  },
};

const GHA_CACHE_TO = /--cache-to[=\s]+["']?type=gha\b/;
const GHA_CACHE_FROM = /--cache-from[=\s]+["']?type=gha\b/;

/**
 * How a step uses the Actions cache (restores, saves, or both), or null. Steps of local composite actions are
 * read the same way; callers place them at the step that calls the action.
 */
export function cacheStep(step: Step): CacheUse | null {
  if (step.run !== undefined && typeof step.run.value === 'string' && step.run.value.includes('type=gha')) {
    const text = step.run.value;
    const saves = GHA_CACHE_TO.test(text);
    const restores = GHA_CACHE_FROM.test(text);
    if (!saves && !restores) return null;
    return { step, node: step.run, how: `\`docker buildx ${saves ? '--cache-to' : '--cache-from'} type=gha\``, key: undefined, restores, saves, switches: [], ownRunOnly: false, family: 'buildkit' };
  }
  const ref = step.usesRef;
  if (ref?.kind !== 'repository' || step.uses === undefined) return null;
  const name = ref.path === '' ? ref.slug : `${ref.slug}/${ref.path.toLowerCase()}`;
  const action = CACHE_ACTIONS[name];
  if (action === undefined) return null;
  const input: Inputs = { text: (key) => getText(step.with, key), node: (key) => get(step.with, key) };
  const verdict = action.caches(step, input);
  if (verdict === null) return null;
  const key = step.with?.pairs.find((p) => keyText(p.key) === 'key')?.value;
  const restores = action.restores?.(input) ?? true;
  const saves = action.saves?.(input) ?? true;
  if (!restores && !saves) return null;
  // An action that can restore, told not to (setup-uv `restore-cache: false`): it still writes entries.
  const only = !restores && action.restores !== undefined && name !== 'actions/cache/save' ? ' (saves only)' : '';
  return {
    step,
    node: step.uses,
    how: `${name} ${verdict.how}${only}`,
    key,
    restores,
    saves,
    switches: verdict.switches ?? [],
    ownRunOnly: name.startsWith('actions/cache') && ownRunOnly(input),
    family: familyOf(ref.slug, action, input, step),
  };
}

/**
 * What a cache switch of a repository's own composite action's step is at `caller`, the workflow step that calls
 * that action, when the step hands an input on as it is (`enable-cache: ${{ inputs.enable-cache }}`): the value
 * the caller gives that input in its `with:` (`node`, to read over the caller's runs when it is an expression), else
 * the input's declared `default:` (`text`), else empty (GitHub evaluates an input that is neither given nor declared
 * with a default to ''). Undefined when the switch is not such a value, or the step is not one of the action the
 * caller calls (a composite inside a composite: its caller's values are not followed).
 */
export function switchAtCaller(s: CacheSwitch, step: Step, caller: Step, repository: RepositoryModel): { text: string } | { node: YNode } | undefined {
  if (step === caller || step.owner.kind !== 'action' || s.node.kind !== 'scalar' || typeof s.node.value !== 'string') return undefined;
  const name = forwardedInput(s.node.value);
  if (name === undefined || repository.ownAction(caller) !== step.owner) return undefined;
  const given = caller.with?.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value;
  if (given !== undefined) {
    if (given.kind !== 'scalar') return undefined;
    return typeof given.value === 'string' && given.value.includes('${{') ? { node: given } : { text: scalarText(given) ?? '' };
  }
  const declared = step.owner.inputs.find((i) => i.name.toLowerCase() === name)?.default;
  return { text: declared === undefined ? '' : (scalarText(declared) ?? '') };
}

/** `inputs.NAME` or `inputs['NAME']` in an expression. */
const INPUT_READ = /\binputs(?:\.([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g;

/**
 * The `if:` of a step of a repository's own composite action as GitHub evaluates it at `caller`, the workflow step
 * that calls the action: each `inputs.NAME` it reads replaced by what the caller gives that input in its `with:` (a
 * value as written becomes a string, as every input of an action is; one whole `${{ }}` becomes that expression), else
 * by the input's declared `default:`, else by ''. So `if: inputs.disable-cache != 'true'` under `with: { disable-cache:
 * "true" }` never runs there. Undefined when the condition reads no input, the step is not one of the action the
 * caller calls, or a value is text around an expression (then the condition is read as written: unknown).
 */
export function conditionAtCaller(step: Step, caller: Step, repository: RepositoryModel): YNode | undefined {
  const condition = step.if;
  if (condition?.kind !== 'scalar' || typeof condition.value !== 'string' || !condition.value.includes('inputs')) return undefined;
  if (step === caller || step.owner.kind !== 'action' || repository.ownAction(caller) !== step.owner) return undefined;
  const owner = step.owner;
  let unknown = false;
  const replaced = condition.value.replace(INPUT_READ, (whole, dotted: string | undefined, indexed: string | undefined) => {
    const name = (dotted ?? indexed ?? '').toLowerCase();
    const value = inputAtCaller(caller, owner, name);
    if (value === undefined) return "''";
    if (value.kind !== 'scalar') {
      unknown = true;
      return whole;
    }
    const text = scalarText(value) ?? '';
    if (!text.includes('${{')) return `'${text.replace(/'/g, "''")}'`;
    const spans = findExpressions(text.trim());
    const only = spans[0];
    if (spans.length === 1 && only !== undefined && only.start === 0 && only.end === text.trim().length) return `format('{0}', (${only.source}))`;
    unknown = true;
    return whole;
  });
  if (unknown || replaced === condition.value) return undefined;
  return { kind: 'scalar', start: condition.start, end: condition.end, value: replaced, style: condition.style };
}

/** Whether a switch set to `text` as written leaves caching on (`optIn`: anything but false or empty; `optOut`: anything but true). */
export function switchCaches(s: CacheSwitch, text: string): boolean {
  return s.on ? !isFalsyText(text) : !truthy(text);
}

/** `\${{ github.run_id }}` as written: the expression alone, not one that may fall back to another value. */
const RUN_ID = /\$\{\{\s*github\.run_id\s*\}\}/;

/**
 * True when an `actions/cache` restore can read back only entries of its own workflow run. actions/cache restores
 * the entry whose key is `key:` exactly, else the newest whose key starts with one of the `restore-keys:` lines.
 * `github.run_id` is the run's own number, shared by its jobs, re-run attempts and the reusable workflows it calls,
 * and no other run's: a later run's key never equals an earlier run's, and a restore key that carries it matches
 * only keys that start with it. Nobody can write an entry under it before the run starts (the id is assigned when
 * it starts, out of every run on GitHub). A restore key without it (`build-`) matches every run's entries, so one
 * such line is enough to restore another run's. `github.run_number` does not count: it is unique per run of one
 * workflow but predictable (the next number is the last one plus one, which the API shows), so code that holds
 * the cache token can save an entry under a future run's number.
 */
function ownRunOnly(input: Inputs): boolean {
  const key = input.text('key');
  if (key === null || !RUN_ID.test(key)) return false;
  const lines = (input.text('restore-keys') ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.every((line) => RUN_ID.test(line));
}

/**
 * True when a restore can read entries that a job of `writer` saved: always, unless the restore reads only its
 * own run's (`ownRunOnly`); then only when `writer` can run in the same workflow run as the restoring
 * workflow (the same workflow, or one calls the other, or a workflow calls both, as reusable workflows).
 */
export function restoresFrom(restore: CacheUse, restoring: Workflow | undefined, writer: Workflow): boolean {
  if (!restore.ownRunOnly || restoring === undefined) return true;
  return sameRun(restoring, writer);
}

function sameRun(a: Workflow, b: Workflow): boolean {
  if (a === b) return true;
  const callersOfA = localCallers(a).map((j) => j.workflow);
  const callersOfB = localCallers(b).map((j) => j.workflow);
  return callersOfA.includes(b) || callersOfB.includes(a) || callersOfA.some((w) => callersOfB.includes(w));
}

/**
 * The workspace paths an `actions/cache` or `actions/cache/restore` step restores (its `path:` lines, workspace-
 * relative, a trailing `/**` or `/*` taken off: the directory it fills), or null: another caching action (which
 * names its own paths), a path outside the workspace or not literal (`~/.npm`, `${{ ... }}`, a glob inside it).
 * Exclusions (`!dist/keep`) restore nothing and are left out.
 */
export function restoredWorkspacePaths(use: CacheUse): string[] | null {
  const ref = use.step.usesRef;
  if (ref?.kind !== 'repository' || ref.slug !== 'actions/cache' || (ref.path !== '' && ref.path.toLowerCase() !== 'restore')) return null;
  const lines = (getText(use.step.with, 'path') ?? '').split('\n').map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('!'));
  if (lines.length === 0) return null;
  const paths: string[] = [];
  for (const line of lines) {
    const path = normalizeWorkspacePath(line.replace(/(?:\/\*\*?)+\/?$/, ''));
    if (path === null || path === '') return null;
    paths.push(path);
  }
  return paths;
}

/** A step's text names a `dist` directory (`dist/`, `./dist`, `build/dist`): it may read what a restore put there. */
const NAMES_DIST = /(?:^|[^\w.-])dist(?![\w.-])/;

/**
 * True when everything a restore by a step of `job` puts in the workspace is deleted before any step can read
 * it: every path it restores (`restoredWorkspacePaths`) is under the `dist` directory a goreleaser release step
 * deletes before it builds (`--clean`, `--rm-dist`: publishing.ts `goreleaserCleanDirectory`), and no step
 * between them names `dist` or runs a local action (which could read it unseen). When that goreleaser step has
 * an `if:` (a run may skip it), no later step may name `dist` either. The entries restored cannot change what
 * the release builds or ships.
 */
export function restoreClearedBeforeUse(job: Job, step: Step, use: CacheUse): boolean {
  if (use.step !== step || step.job !== job) return false;
  const paths = restoredWorkspacePaths(use);
  if (paths === null) return false;
  const text = job.workflow.file.text;
  const names = (s: Step) => NAMES_DIST.test(text.slice(s.node.start, s.node.end));
  const later = job.steps.filter((s) => s.index > step.index);
  for (const [i, s] of later.entries()) {
    const publishing = publishingStep(s);
    const cleared = publishing === null ? null : goreleaserCleanDirectory(publishing);
    if (cleared !== null && paths.every((p) => within(p, cleared))) {
      return s.if === undefined || !later.slice(i + 1).some(names);
    }
    if (names(s) || s.usesRef?.kind === 'local') return false;
  }
  return false;
}

/** A step that restores a cache (reads entries back into its run), or null. */
export function cacheUse(step: Step): CacheUse | null {
  const use = cacheStep(step);
  return use !== null && use.restores ? use : null;
}

function familyOf(slug: string, action: CacheAction, input: Inputs, step: Step): string {
  const base = slug.startsWith('actions/cache') ? 'actions/cache' : slug;
  // Swatinem/rust-cache keys its entries by the job's id unless `shared-key` replaces it (or `add-job-id-key: false`
  // drops it): another job restores them only under the same id (its README, "key" and "shared-key"), after the
  // `prefix-key` (default `v0-rust`).
  if (base === 'swatinem/rust-cache') {
    const prefix = (input.text('prefix-key') ?? 'v0-rust').trim();
    const shared = input.text('shared-key');
    if (shared !== null && shared.trim() !== '') return `${base}:${prefix}:shared:${keyShape(shared)}`;
    if (falsy(input.text('add-job-id-key'))) return `${base}:${prefix}`;
    const job = step.job?.id;
    return job === undefined ? base : `${base}:${prefix}:job:${job.toLowerCase()}`;
  }
  if (base === 'actions/cache') {
    const key = input.text('key') ?? '';
    const cut = key.indexOf('${{');
    return `${base}:${(cut === -1 ? key : key.slice(0, cut)).trim()}`;
  }
  if (action.kind !== undefined) return `${base}:${(input.text(action.kind) ?? '').trim().toLowerCase()}`;
  return base;
}

/**
 * True when two steps' caches can share entries: the same action and package manager, or, for
 * `actions/cache`, keys whose fixed beginnings one extends the other (a restore key is a prefix).
 */
export function sameFamily(a: CacheUse, b: CacheUse): boolean {
  if (a.family === b.family) return true;
  const [x, y] = [a.family, b.family];
  if (!x.startsWith('actions/cache:') || !y.startsWith('actions/cache:')) return false;
  const [p, q] = [x.slice(14), y.slice(14)];
  return p !== '' && q !== '' && (p.startsWith(q) || q.startsWith(p));
}

/** A key or restore key as written with each `${{ }}` as one placeholder (`\uE000`), trimmed: its shape. */
function keyShape(text: string): string {
  return text.replace(/\$\{\{[\s\S]*?\}\}/g, '\uE000').trim();
}

/** The literal `path:` lines of an `actions/cache` step, sorted; null when a line is computed (`${{ }}`) or there are none. */
function literalPaths(use: CacheUse): string[] | null {
  const text = getText(use.step.with, 'path');
  if (text === null || text.includes('${{')) return null;
  const lines = text.split('\n').map((l) => l.trim()).filter((l) => l !== '');
  return lines.length === 0 ? null : [...new Set(lines)].sort();
}

const isActionsCache = (use: CacheUse) => use.family.startsWith('actions/cache:');

/**
 * Caching actions whose keys name the runner's system (and architecture), so that an entry saved on one system is
 * never restored on another. From each action's source: actions/setup-node `node-cache-<RUNNER_OS>-<arch>-<package
 * manager>-<hash>`, actions/setup-python `setup-python-<RUNNER_OS>-<arch>-...`, actions/setup-java and
 * graalvm/setup-graalvm `setup-java-<RUNNER_OS>-<arch>-...`, actions/setup-go `setup-go-<platform>-<arch>-...`,
 * actions/setup-dotnet `dotnet-cache-<RUNNER_OS>-<hash>`, pnpm/setup `pnpm-cache-<os>-<arch>-...`,
 * astral-sh/setup-uv `setup-uv-<version>-<arch>-<platform>-...`, ruby/setup-ruby `setup-ruby-bundler-cache-v6-
 * <platform>-...`, Swatinem/rust-cache (and actions-rust-lang/setup-rust-toolchain, which runs it) the runner's
 * system and the compiler's host triple, gradle's setup actions `RUNNER_OS` in the job's key. Besides, every one
 * of them saves through the `@actions/cache` toolkit without `enableCrossOsArchive`, which files an entry saved on
 * Windows under a version no other system restores. Keyed by the family's action (`familyOf`). Other caching actions (BuildKit's `type=gha`, sccache, the
 * Nix caches ...) are not known to: a restore may take their entries from any system.
 */
const SYSTEM_KEYED_ACTIONS: ReadonlySet<string> = new Set([
  'actions/setup-node',
  'actions/setup-python',
  'actions/setup-java',
  'actions/setup-go',
  'actions/setup-dotnet',
  'graalvm/setup-graalvm',
  'pnpm/setup',
  'astral-sh/setup-uv',
  'ruby/setup-ruby',
  'swatinem/rust-cache',
  'actions-rust-lang/setup-rust-toolchain',
  // The family of gradle/actions/setup-gradle is the repository's (`familyOf`).
  'gradle/actions',
  'gradle/gradle-build-action',
]);

/** A `${{ }}` that reads `runner.os` or `runner.arch`: a key holding one differs between systems. */
const RUNNER_SYSTEM = /\$\{\{[^}]*\brunner\s*\.\s*(?:os|arch)\b[\s\S]*?\}\}/i;

/** The `${{ }}` expressions of a key, in order. */
function keyExpressions(text: string): string[] {
  return text.match(/\$\{\{[\s\S]*?\}\}/g) ?? [];
}

/**
 * `enableCrossOsArchive` of an `actions/cache` step (inputs are read case-insensitively): true when set to true, or
 * to a `${{ }}` value the engine does not evaluate (it may be true); false when absent or false.
 */
function crossOsArchive(use: CacheUse): boolean {
  const pair = use.step.with?.pairs.find((p) => keyText(p.key).toLowerCase() === 'enablecrossosarchive');
  const text = pair === undefined ? null : scalarText(pair.value);
  return text !== null && (isExpression(text) || /^true$/i.test(text.trim()));
}

/**
 * The systems (`runner.os`: `Linux`, `Windows`, `macOS`, or null where not known) of the legs a restore and a
 * save run on (the run model's `systems`).
 */
export interface CacheSystems {
  restore: readonly (string | null)[];
  save: readonly (string | null)[];
}

/**
 * True when a restore on one of `systems.restore` can take an entry saved on one of `systems.save`: on the same
 * system; on two systems when the key does not name the system (`sameSystem` false) and neither is Windows, or
 * both steps set `enableCrossOsArchive` (`crossOs`). A system not known may be any.
 */
function systemsMeet(systems: CacheSystems, sameSystem: boolean, crossOs: boolean): boolean {
  return systems.restore.some((r) => systems.save.some((s) => r === null || s === null || r === s || (!sameSystem && (crossOs || (r !== 'Windows' && s !== 'Windows')))));
}

/**
 * True when a restore can take an entry that `save` writes in the normal course of its job. For a `setup-*`
 * action or another caching action: the same action and package manager (`cache: npm` on both sides computes
 * the same key shape). For two `actions/cache` steps: keys of the same shape (the same text around their
 * `${{ }}`), or a saved key that starts with one of the restore's `restore-keys:` lines (a restore takes the
 * newest entry under such a prefix when its exact key misses); never when they name different literal paths
 * (the cache service files each entry under a version computed from its paths).
 * With `systems` (the run model's `runner.os` of the legs each step runs on), also only when the two can run on
 * systems whose entries meet: the same system for an action whose key names it (`SYSTEM_KEYED_ACTIONS`) and for
 * `actions/cache` keys that read `runner.os` or `runner.arch` in the part compared; otherwise any two systems but
 * Windows and another, unless both `actions/cache` steps set `enableCrossOsArchive: true` (the cache service files
 * a Windows entry under a version of its own otherwise). A system not known may be any: the answer stays as
 * without `systems`.
 * False says the job holding `save` does not write this restore's entries by itself; code running in it can
 * still write one under any key and version with the runner's cache token (the Cacheract technique).
 */
export function restoreReadsSave(restore: CacheUse, save: CacheUse, systems?: CacheSystems): boolean {
  if (!save.saves || !restore.restores) return false;
  const meet = (sameSystem: boolean, crossOs = false) => systems === undefined || systemsMeet(systems, sameSystem, crossOs);
  if (!isActionsCache(restore) || !isActionsCache(save)) {
    // Another action's entries: on the same system when its key names it, else not known to differ between systems.
    const keyed = SYSTEM_KEYED_ACTIONS.has(restore.family.split(':')[0] as string);
    return restore.family === save.family && meet(keyed, !keyed) && toolVersionsMeet(restore, save);
  }
  const [a, b] = [literalPaths(restore), literalPaths(save)];
  if (a !== null && b !== null && a.join('\n') !== b.join('\n')) return false;
  const cross = crossOsArchive(restore) && crossOsArchive(save);
  const savedText = getText(save.step.with, 'key') ?? '';
  const restoreText = getText(restore.step.with, 'key') ?? '';
  const saved = keyShape(savedText);
  const key = keyShape(restoreText);
  const named = (expressions: readonly string[]) => expressions.some((e) => RUNNER_SYSTEM.test(e));
  // A key that is one `${{ }}` alone names nothing to compare: only the same step (a composite action both call) counts.
  if (saved === key && saved.replace(/\uE000/g, '') === '') return saved !== '' && save.step === restore.step && meet(named(keyExpressions(savedText)), cross);
  if (saved === key && meet(named([...keyExpressions(savedText), ...keyExpressions(restoreText)]), cross)) return true;
  // Under a restore key: the saved key's expressions within the prefix are compared with the line's.
  return restoreKeyLines(restore).some((line) => {
    const prefix = keyShape(line);
    if (!saved.startsWith(prefix)) return false;
    const count = prefix.split('\uE000').length - 1;
    return meet(named([...keyExpressions(line), ...keyExpressions(savedText).slice(0, count)]), cross);
  });
}

/**
 * Caching actions whose exact key (they give no restore keys) holds the version of the tool the step installs, from
 * each action's source: actions/setup-go `setup-go-<platform>-<arch>-<linux version>go-<go version>-<hash>` (the
 * version `go version` reports once installed), actions/setup-python `setup-python-<RUNNER_OS>-<arch>-<image>-python-
 * <python version>-<package manager>-<hash>` (the installed version). With the input that picks the version.
 */
const VERSION_KEYED: ReadonlyMap<string, string> = new Map([
  ['actions/setup-go', 'go-version'],
  ['actions/setup-python', 'python-version'],
]);

/** The `major.minor` a version input names (`1.21`, `'1.21.x'`, `3.12`), or null when not one literal version. */
function literalMinor(use: CacheUse, input: string): string | null {
  const text = getText(use.step.with, input)?.trim() ?? null;
  if (text === null || text.includes('${{') || text.includes('\n')) return null;
  const found = /^v?(\d+)\.(\d+)(?:\.(?:\d+|x|\*))?$/i.exec(text.replace(/^['"]|['"]$/g, ''));
  return found === null ? null : `${Number(found[1])}.${Number(found[2])}`;
}

/**
 * False when a restore and a save of an action whose key holds the tool's version (`VERSION_KEYED`) both name literal
 * versions of different `major.minor`: Go 1.21 and Go 1.23 never share an entry. True when either version is not
 * known (a file, a matrix value, the runner's default, `stable`).
 */
function toolVersionsMeet(restore: CacheUse, save: CacheUse): boolean {
  const input = VERSION_KEYED.get(restore.family.split(':')[0] as string);
  if (input === undefined) return true;
  const [a, b] = [literalMinor(restore, input), literalMinor(save, input)];
  return a === null || b === null || a === b;
}

/**
 * The `restore-keys:` lines of an `actions/cache` restore that name a prefix: each with some literal text (a
 * line that is one `${{ }}` alone may be anything). Empty for other actions.
 */
export function restoreKeyLines(restore: CacheUse): string[] {
  if (!isActionsCache(restore)) return [];
  const lines = (getText(restore.step.with, 'restore-keys') ?? '').split('\n').map((l) => l.trim());
  return [...new Set(lines.filter((l) => keyShape(l).replace(/\uE000/g, '') !== ''))];
}

/** `~/.npm`, `$HOME/.npm`, `${{ env.HOME }}/.npm` (or its `_cacache` store): npm's own cache directory on the runner. */
const NPM_CACHE_PATH = /^(?:~|\$HOME|\$\{HOME\}|\$\{\{\s*env\.HOME\s*\}\})\/\.npm(?:\/_cacache)?\/?$/;

/**
 * True when everything a cache step restores is npm's own cache directory (`~/.npm`): actions/setup-node with
 * `cache: npm` (it caches `npm config get cache`), or an `actions/cache` whose every literal `path:` line is that
 * directory. Its `_cacache` store is content-addressed: npm reads a package archive back by the integrity hash it
 * was asked for and fails with EINTEGRITY when the bytes do not match it.
 */
export function restoresNpmCacheOnly(use: CacheUse): boolean {
  if (use.family === 'actions/setup-node:npm') return true;
  if (!isActionsCache(use)) return false;
  const paths = literalPaths(use);
  return paths !== null && paths.every((p) => NPM_CACHE_PATH.test(p));
}

/** npm subcommands that install exactly the lockfile (and fail when package.json disagrees with it). */
const NPM_LOCKFILE_INSTALLS: ReadonlySet<string> = new Set(['ci', 'clean-install', 'cit', 'install-ci-test', 'install-clean', 'ic']);
/**
 * npm subcommands that fetch nothing from the registry, or only the package's own metadata to publish or label
 * it: they take nothing from the cache into the run.
 */
const NPM_NO_FETCH: ReadonlySet<string> = new Set([
  'run', 'run-script', 'rum', 'urn', 'test', 't', 'tst', 'start', 'stop', 'restart', 'publish', 'pack', 'version', 'config', 'c', 'set', 'get',
  'whoami', 'view', 'v', 'info', 'show', 'ls', 'list', 'll', 'la', 'audit', 'dist-tag', 'dist-tags', 'deprecate', 'login', 'logout', 'adduser',
  'token', 'owner', 'access', 'help', 'prefix', 'root', 'bin', 'pkg', 'query', 'explain', 'why', 'sbom', 'ping', 'doctor', 'search', 'outdated',
  'unpublish', 'team', 'org', 'profile', 'fund', 'hook', 'star', 'unstar', 'stars', 'prune', 'shrinkwrap', '--version', '-v',
]);

/** `npm ci` (and its aliases): the first word after `npm` that is no option. */
function npmSubcommand(command: string): string | null {
  return commandArgs(command, 'npm')[0]?.toLowerCase() ?? null;
}

/**
 * When the npm cache a restore brings back (`restoresNpmCacheOnly`) can reach what `job` builds only through
 * npm's checks: a later step of the job (`after`: the job's steps as they run, composite actions' steps
 * included, from the restoring step on) installs with `npm ci`, which takes every package archive from the
 * lockfile by its integrity hash, and no step runs an npm command that fetches outside the lockfile (`npx`, `npm
 * exec`, `npm install`, `npm update`, `npm init`: a registry lookup the cache can answer, or a package `npx`
 * installed into `~/.npm/_npx` earlier). A package script (`npm run build`) is the project's own code, which the
 * scan does not read. The calling step and the command, or null.
 */
export function npmLockfileOnly(after: readonly { step: Step; caller: Step }[]): { step: Step; command: string } | null {
  let found: { step: Step; command: string } | null = null;
  for (const { step, caller } of after) {
    const run = step.run;
    if (run === undefined) continue;
    if (typeof run.value !== 'string') return null;
    for (const command of scriptCommands(run.value, null)) {
      const program = commandName(command.text)?.toLowerCase();
      if (program === 'npx' || program === 'pnpx') return null;
      if (program !== 'npm') continue;
      const sub = npmSubcommand(command.text);
      if (sub !== null && NPM_LOCKFILE_INSTALLS.has(sub)) {
        found ??= { step: caller, command: command.text.trim().slice(0, 60) };
        continue;
      }
      if (sub === null || !NPM_NO_FETCH.has(sub)) return null;
    }
  }
  return found;
}
