/**
 * Who owns the code a step calls: the repository itself (`local`), its own owner (`first-party`), GitHub, which
 * runs the platform (`platform`), or someone else (`third-party`). Decided here, once, for actions, reusable
 * workflows and container images, and read by every rule that asks (unpinned-action, unpinned-image,
 * secrets-inherit ...) and, through the `owner:` facts, by the attack paths.
 *
 * The repository's identity comes from the caller when it knows it (`ScanOptions.repository`: the service's
 * `full_name`, `--github`, a checkout's `origin` remote), and from the workflows themselves: an owner or
 * `owner/name` they compare `github.repository` or `github.repository_owner` against is theirs (a fork keeps
 * its upstream's conditions, whose code it runs anyway), the `owner/name` a file links itself, its run or its
 * action folder under or a step writes to with the job's own token (`declaredNames`: what a copy without `.git`
 * still says), an action repository's call of its own root action by its public name (`selfCalledNames`, read
 * only when nothing else names the repository), and a registry
 * namespace they push images to is one they hold credentials for. Names compare without case, as GitHub's do.
 *
 * What each answer means for an attacker who takes over the code's publisher (a compromised upstream):
 * - `local`: the code changes only through a commit to this repository (any ref of it);
 * - `first-party`: whoever can move the ref already maintains this repository (the same user or organisation);
 * - `platform`: GitHub's own actions (`actions/*`, `github/*`, `dependabot/*`) and images (`ghcr.io/actions/...`): GitHub runs
 *   the runner and holds the job's token anyway;
 * - `third-party`: another account, whose takeover reaches this repository's jobs.
 */
import type { RepositoryModel } from '../../model/repository.js';
import { ScanCache } from '../../model/scan-cache.js';
import type { UsesRef } from '../../model/uses.js';
import type { Step } from '../../model/workflow.js';
import { localCallers } from '../callers.js';
import { matrixValues } from '../matrix-values.js';
import { get, getText, scalarText, type YNode } from '../../yaml/model.js';
import { logicalLines } from '../../shell.js';
import { hasAny, scriptOf, wordMask } from '../file-scripts.js';
import { fileScalars } from '../file-scalars.js';
import { outputLines } from '../script-outputs.js';
import { flatMap } from '../../model/arrays.js';

export type Ownership = 'local' | 'first-party' | 'platform' | 'third-party';

/**
 * Owners whose actions GitHub itself publishes: `actions` and `github` (the organisations of "actions created by
 * GitHub", https://docs.github.com/en/repositories/managing-your-repositorys-settings-and-features/enabling-features-for-your-repository/managing-github-actions-settings-for-a-repository),
 * and `dependabot`, the organisation of Dependabot, which GitHub acquired in 2019 and runs as part of the platform;
 * GitHub's own documentation has workflows use its `dependabot/fetch-metadata`
 * (https://docs.github.com/en/code-security/dependabot/working-with-dependabot/automating-dependabot-with-github-actions).
 */
export const PLATFORM_OWNERS: ReadonlySet<string> = new Set(['actions', 'github', 'dependabot']);

/** What the scan knows of the scanned repository's identity, all lower-cased. */
export interface RepositoryIdentity {
  /** `owner/name` as the caller gave it, or null. */
  fullName: string | null;
  /** The caller's owner, or null. */
  owner: string | null;
  /** Every `owner/name` that is this repository: the caller's and those the workflows compare `github.repository` with. */
  names: ReadonlySet<string>;
  /** Every owner that is this repository's own: the caller's and those the workflows name. */
  owners: ReadonlySet<string>;
  /** Images the workflows build or push, as `registry/namespace/name` (tag and digest removed; Docker Hub as `docker.io`). */
  images: ReadonlySet<string>;
  /**
   * `registry/namespace` of every image the workflows and local actions push: a namespace they hold credentials
   * for (a former organisation name, a second registry account), never Docker Hub's `library`.
   */
  namespaces: ReadonlySet<string>;
  /**
   * Names (last path segment) of images the workflows build or push under a registry or namespace they compute
   * (`${{ env.REGISTRY }}/${{ matrix.image }}:latest`, the matrix values included).
   */
  builtNames: ReadonlySet<string>;
}

const IDENTITIES = new ScanCache<RepositoryModel, Map<string, RepositoryIdentity>>();

/** The lower-cased owner of `owner/name`, or null when the name is absent or not of that form. */
export function ownerOfName(fullName: string | null | undefined): string | null {
  if (fullName === undefined || fullName === null) return null;
  const match = /^([A-Za-z0-9-]+)\/[A-Za-z0-9._-]+$/.exec(fullName.trim());
  return match === null ? null : match[1]!.toLowerCase();
}

/** The identity of the scanned repository, read once per scan. `known`: its `owner/name` when the caller knows it. */
export function repositoryIdentity(repository: RepositoryModel, known: string | null = null): RepositoryIdentity {
  let byKnown = IDENTITIES.get(repository);
  if (byKnown === undefined) {
    byKnown = new Map();
    IDENTITIES.set(repository, byKnown);
  }
  const key = known ?? '';
  let identity = byKnown.get(key);
  if (identity === undefined) {
    identity = readIdentity(repository, known);
    byKnown.set(key, identity);
  }
  return identity;
}

/** `github.repository == 'o/n'`, `github.repository_owner == 'o'`, either way round. */
const NAMED = /github\.repository(?:_owner)?\s*==\s*'([\w.-]+(?:\/[\w.-]+)?)'|'([\w.-]+(?:\/[\w.-]+)?)'\s*==\s*github\.repository(?:_owner)?\b/g;

const BUILDERS = wordMask('docker', 'podman', 'buildah');
const GH = wordMask('gh');
/**
 * The commands that name the images a workflow builds or pushes (`docker build -t`, `docker tag A B`, `docker
 * push`, `docker manifest push`, `docker buildx imagetools create -t`), read per logical line (a command
 * continued with `\` is one line).
 */
const BUILD_COMMAND = /\b(?:docker|podman|buildah)\s+(?:buildx\s+)?(build|push|tag|image\s+push|manifest\s+push|imagetools\s+create|bud)\b([^\n|;&]*)/g;

const NAMES = new ScanCache<RepositoryModel, Map<string, RepositoryNames>>();

/** The `owner/name`s and owners the repository goes by (`RepositoryIdentity.names`, `owners`). */
export interface RepositoryNames {
  names: ReadonlySet<string>;
  owners: ReadonlySet<string>;
}

/**
 * The names of `RepositoryIdentity` alone, read once per scan: the caller's, those the workflows compare
 * `github.repository` against, the declared ones and, when nothing else names it, the self-called ones. Read
 * apart from the images because RepositoryModel `ownAction` (the repository's own actions called by its
 * published name, and so their callers) asks for them, and the images read the callers' inputs.
 */
export function repositoryNames(repository: RepositoryModel, known: string | null = null): RepositoryNames {
  let byKnown = NAMES.get(repository);
  if (byKnown === undefined) {
    byKnown = new Map();
    NAMES.set(repository, byKnown);
  }
  const key = known ?? '';
  let found = byKnown.get(key);
  if (found === undefined) {
    found = readNames(repository, known);
    byKnown.set(key, found);
  }
  return found;
}

function readNames(repository: RepositoryModel, known: string | null): RepositoryNames {
  const owner = ownerOfName(known);
  const fullName = owner === null ? null : (known as string).trim().toLowerCase();
  const names = new Set<string>(fullName === null ? [] : [fullName]);
  const owners = new Set<string>(owner === null ? [] : [owner]);
  for (const workflow of repository.workflows) {
    const text = workflow.file.text;
    if (text.includes('github.repository')) {
      for (const m of text.matchAll(NAMED)) {
        const value = (m[1] ?? m[2] ?? '').toLowerCase();
        const slash = value.indexOf('/');
        if (slash === -1) owners.add(value);
        else {
          names.add(value);
          owners.add(value.slice(0, slash));
        }
      }
    }
  }
  for (const name of declaredNames(repository)) {
    names.add(name);
    owners.add(name.slice(0, name.indexOf('/')));
  }
  // The weakest evidence, read only when nothing else names the repository.
  if (names.size === 0) {
    for (const name of selfCalledNames(repository)) {
      names.add(name);
      owners.add(name.slice(0, name.indexOf('/')));
    }
  }
  return { names, owners };
}

function readIdentity(repository: RepositoryModel, known: string | null): RepositoryIdentity {
  const owner = ownerOfName(known);
  const fullName = owner === null ? null : (known as string).trim().toLowerCase();
  const { names, owners } = repositoryNames(repository, known);
  return new Identity(repository, fullName, owner, names, owners);
}

/**
 * A `RepositoryIdentity` whose images are read when first asked for: most scans have no image to judge (no
 * container, no `docker://`). A class, not an object literal with getters: V8 defines a literal's accessors one by
 * one at run time on every evaluation, which cost more than the rest of a small workflow's identity.
 */
class Identity implements RepositoryIdentity {
  readonly #repository: RepositoryModel;
  #images: RepositoryImages | null = null;

  constructor(
    repository: RepositoryModel,
    readonly fullName: string | null,
    readonly owner: string | null,
    readonly names: ReadonlySet<string>,
    readonly owners: ReadonlySet<string>,
  ) {
    this.#repository = repository;
  }

  get images(): ReadonlySet<string> {
    return (this.#images ??= readImages(this.#repository)).images;
  }

  get namespaces(): ReadonlySet<string> {
    return (this.#images ??= readImages(this.#repository)).namespaces;
  }

  get builtNames(): ReadonlySet<string> {
    return (this.#images ??= readImages(this.#repository)).builtNames;
  }
}

/** The images of `RepositoryIdentity`: those the workflows build or push, their namespaces, and the names built under computed ones. */
interface RepositoryImages {
  images: ReadonlySet<string>;
  namespaces: ReadonlySet<string>;
  builtNames: ReadonlySet<string>;
}

function readImages(repository: RepositoryModel): RepositoryImages {
  const images = new Set<string>();
  const namespaces = new Set<string>();
  const builtNames = new Set<string>();
  const add = (step: Step, word: string, pushes: boolean, script?: { text: string; offset: number }) => {
    for (const value of resolveWord(repository, step, word, script)) addImage(step, value, pushes, images, namespaces, builtNames);
  };
  // Every step of the repository's workflows and of its local (composite) actions.
  const steps = [...flatMap(repository.workflows, (w) => flatMap(w.jobs, (j) => j.steps)), ...flatMap(repository.actions, (a) => a.steps)];
  for (const step of steps) {
    const slug = step.usesRef?.kind === 'repository' ? step.usesRef.slug : null;
    if (slug === 'docker/build-push-action' || slug === 'docker/bake-action') {
      // `push: ${{ github.event_name != 'pull_request' }}` pushes on some runs: only a literal false never does.
      const push = getText(step.with, 'push');
      const pushes = push !== null && !/^\s*false\s*$/i.test(push);
      for (const word of imageWords(getText(step.with, 'tags') ?? '')) add(step, word, pushes);
    } else if (slug === 'docker/metadata-action') {
      // The images it computes tags for are the ones the job publishes (`images: ghcr.io/org/app`, `name=org/app,enable=...`).
      for (const line of (getText(step.with, 'images') ?? '').split('\n')) add(step, (line.split(',')[0] ?? '').trim(), true);
    }
    // Only string scripts can hold a build command; most name no container tool at all.
    const script = scriptOf(step);
    if (script === null || !hasAny(script.words, BUILDERS)) continue;
    for (const line of logicalLines(script.text)) {
      if (!/\b(?:docker|podman|buildah)\b/.test(line.text)) continue;
      for (const m of line.text.matchAll(BUILD_COMMAND)) {
        const verb = (m[1] ?? '').replace(/\s+/g, ' ');
        // An expression (`${{ inputs.image }}`) stays one word, as the runner fills it in before the shell reads the line.
        const args = (m[2] ?? '').replace(/\$\{\{[^}]*\}\}/g, (e) => e.replace(/\s+/g, '')).split(/\s+/).filter((w) => w !== '');
        // `--push`, `--output type=registry`, `-o type=image,push=true` and `imagetools create` all push.
        const pushes = verb.endsWith('push') || verb === 'imagetools create' || args.some((a) => a === '--push' || /(?:^|[=,])(?:type=registry|push=true)\b/.test(a));
        for (const image of commandImages(verb, args)) add(step, image, pushes, { text: script.text, offset: line.offset + (m.index ?? 0) });
      }
    }
  }
  return { images, namespaces, builtNames };
}

/**
 * The `owner/name` (lower-cased) the repository's own files declare as theirs, when nothing else names it (a
 * copy without `.git`, a downloaded archive): never the folder's name, only facts of how GitHub works.
 * - A self-link: a string value of a workflow or action file (not a comment) that links to the file itself on
 *   GitHub's web view (`https://github.com/<owner>/<name>/blob/<ref>/<the file's own path>`, `tree`, `edit`
 *   and `raw` alike, `<ref>` one segment) names the repository it lives in. A link to another path is not read: a workflow copied
 *   from another repository links its source's files, and common files (`CONTRIBUTING.md`) exist in both.
 * - A write with the job's own token: a workflow step whose `gh` is given `${{ github.token }}` (or
 *   `secrets.GITHUB_TOKEN`) and writes to a literal `--repo <owner>/<name>` (`gh release create`, `gh pr comment`,
 *   `gh workflow run` ...) or to `gh api repos/<owner>/<name>/...` with a writing method: that token is scoped
 *   to the repository whose workflow runs, so the step only works on that repository. A reusable workflow
 *   (`workflow_call`) runs with its caller's token and a composite action with its user's: neither is read.
 * A copy or fork of the repository keeps both, like the `github.repository` conditions: the upstream's code is
 * the code it runs. Several names are all kept, as the conditions' owners are.
 */
function declaredNames(repository: RepositoryModel): Set<string> {
  const found = new Set<string>();
  for (const model of [...repository.workflows, ...repository.actions]) {
    if (!model.file.text.includes('github.com/')) continue;
    // A model whose ranges nest (no alias: `fileScalars`, built once per file for the rules anyway) has no node
    // twice, so the walk needs no record of the nodes it has seen.
    // `github.run_id` and `github.sha` are the running repository's in a workflow it runs itself, not in a
    // reusable workflow (its caller's) or an action (its user's).
    const ownRun = model.kind === 'workflow' && !model.triggers.some((t) => t.name === 'workflow_call');
    addSelfLinks(model.root, model.file.path, ownRun, found, fileScalars(model).tree ? null : new Set());
  }
  for (const workflow of repository.workflows) {
    if (workflow.triggers.some((t) => t.name === 'workflow_call')) continue;
    for (const job of workflow.jobs) for (const step of job.steps) for (const name of tokenWriteNames(step)) found.add(name);
  }
  return found;
}

/** Words of a repository's name that say nothing about which action it is. */
const GENERIC_WORDS: ReadonlySet<string> = new Set(['action', 'actions', 'gh', 'github', 'the', 'for']);
const nameWords = (text: string): string[] => text.toLowerCase().split(/[^a-z0-9]+/).filter((w) => w !== '');

/**
 * An action repository calling its own action by its public name (`acme/setup-widget@main` in the repository of
 * `acme/setup-widget`, to test the published version): the `owner/name` of a `uses:` (no sub-path) when
 * - the repository has an action at its root (`action.yml`: it is an action repository; only its root action
 *   is callable as `owner/name@ref` without a path),
 * - every word of the called repository's name (`setup`, `widget`; generic words such as `action` and
 *   `github` left out, at least one left) is a word of that root action's `name:` ("Setup Widget"),
 * - every input the step passes (`with:`) is an input the root action declares, and
 * - the root action does not call that action itself (a wrapper is named after what it wraps).
 * Read only when nothing else names the repository: an action called under another account's name that is
 * named like this repository's own and takes only its inputs is a fork or a copy of it.
 */
function selfCalledNames(repository: RepositoryModel): string[] {
  const root = repository.actions.find((a) => a.directory === '');
  if (root === undefined || root.name === null) return [];
  const title = new Set(nameWords(root.name));
  const inputs = new Set(root.inputs.map((i) => i.name.toLowerCase()));
  const wrapped = new Set(flatMap(root.steps, (s) => (s.usesRef?.kind === 'repository' ? [s.usesRef.slug] : [])));
  const found = new Set<string>();
  const steps = [...flatMap(repository.workflows, (w) => flatMap(w.jobs, (j) => j.steps)), ...flatMap(repository.actions, (a) => a.steps)];
  for (const step of steps) {
    const ref = step.usesRef;
    if (ref?.kind !== 'repository' || ref.path !== '' || wrapped.has(ref.slug) || PLATFORM_OWNERS.has(ref.owner.toLowerCase())) continue;
    const words = nameWords(ref.repo).filter((w) => !GENERIC_WORDS.has(w));
    if (words.length === 0 || !words.every((w) => title.has(w))) continue;
    const given = step.with === undefined ? [] : step.with.pairs.map((p) => scalarText(p.key)?.toLowerCase() ?? '');
    if (given.every((key) => inputs.has(key))) found.add(ref.slug);
  }
  return [...found];
}

/**
 * The self-link names of the string values under `root`, in the order `stringScalars` lists them (document order,
 * a node an alias shares read once), without listing every value: only those holding `github.com/` are read.
 */
function addSelfLinks(root: YNode, path: string, ownRun: boolean, found: Set<string>, seen: Set<YNode> | null): void {
  const stack: YNode[] = [root];
  while (stack.length > 0) {
    const current = stack.pop()!;
    if (current.kind === 'scalar') {
      if (typeof current.value === 'string' && current.value.includes('github.com/')) for (const name of selfLinkNames(path, current.value, ownRun)) found.add(name);
      continue;
    }
    if (seen !== null) {
      if (seen.has(current)) continue;
      seen.add(current);
    }
    if (current.kind === 'map') for (let i = current.pairs.length - 1; i >= 0; i--) stack.push(current.pairs[i]!.value);
    else for (let i = current.items.length - 1; i >= 0; i--) stack.push(current.items[i]!);
  }
}

/** A link to a file or folder on GitHub's web view; the third group is `<ref>/<path>`. */
const FILE_LINK = /https?:\/\/(?:www\.)?github\.com\/([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)\/(?:blob|tree|edit|raw)\/([^\s"'`<>()[\]{}#?]+)/gi;
/**
 * A link to this run or its commit on GitHub: `github.com/<owner>/<name>/actions/runs/` followed by
 * `${{ github.run_id }}` / `$GITHUB_RUN_ID`, or `/commit/` followed by `${{ github.sha }}` / `$GITHUB_SHA`.
 */
const RUN_LINK = /https?:\/\/(?:www\.)?github\.com\/([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)\/(?:actions\/runs\/(?:\$\{\{\s*github\.run_id\s*\}\}|\$\{?GITHUB_RUN_ID\b)|commit\/(?:\$\{\{\s*github\.sha\s*\}\}|\$\{?GITHUB_SHA\b))/gi;
/** What every `RUN_LINK` holds (as it matches: without case). */
const RUN_PATH = /\/(?:actions\/runs|commit)\//i;
/** The folder of an action file that is not at the repository's root (`tools/lint` of `tools/lint/action.yml`). */
const ACTION_FOLDER = /^(.+)\/action\.ya?ml$/;
/** At most this many links are read per file. */
const MAX_LINKS = 200;

/**
 * The `owner/name` of every link in `text`, a string value of the file at `path`, that points at that file
 * itself, at the folder of an action that is not at the root (its `tree` view: the action's own page), or, with
 * `ownRun` (a workflow the repository runs itself), at the run or its commit (`actions/runs/${{ github.run_id }}`,
 * `commit/${{ github.sha }}`: a run's id and commit are the repository's whose workflow runs, so a link that
 * works names it). Comments are not read, neither YAML's (the parser drops them) nor a script's or a text's
 * lines that start with `#`: that is where a copied or generated file says where it comes from ("copied from
 * <link>", "edit <link> instead"); a link the file's own values post (a pull request's body naming the workflow
 * that made it) is the running file's.
 */
export function selfLinkNames(path: string, text: string, ownRun = false): string[] {
  if (!text.includes('github.com/') || path === '') return [];
  const suffixes = [`/${path}`];
  const folder = ACTION_FOLDER.exec(path);
  if (folder !== null && !folder[1]!.startsWith('.github/workflows')) suffixes.push(`/${folder[1] ?? ''}`);
  // A link that names the file holds its path as written, and a run's or commit's link `/actions/runs/` or
  // `/commit/`: most values with a link hold neither, and are not split into lines.
  if (!suffixes.some((suffix) => text.includes(suffix)) && !(ownRun && RUN_PATH.test(text))) return [];
  const found: string[] = [];
  let read = 0;
  const values = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n');
  for (const m of values.matchAll(FILE_LINK)) {
    if (++read > MAX_LINKS) break;
    // Sentence punctuation and a trailing `/` after a link are not part of it.
    const rest = (m[3] ?? '').replace(/[.,;:!]+$/, '').replace(/\/+$/, '');
    // The ref is one segment (`main`, a tag, a commit): a ref with `/` cannot be told from a folder, and a
    // generated file's source is often the same path under a folder of a template repository.
    const own = suffixes.some((suffix) => rest.length > suffix.length && rest.endsWith(suffix) && !rest.slice(0, -suffix.length).includes('/'));
    if (own) found.push(`${m[1] ?? ''}/${m[2] ?? ''}`.toLowerCase());
  }
  if (ownRun) {
    for (const m of values.matchAll(RUN_LINK)) {
      if (++read > MAX_LINKS) break;
      found.push(`${m[1] ?? ''}/${m[2] ?? ''}`.toLowerCase());
    }
  }
  return found;
}

/** A value that is the job's own token and nothing else: `${{ github.token }}` or `${{ secrets.GITHUB_TOKEN }}`. */
export const ONLY_JOB_TOKEN = /^\s*\$\{\{\s*(?:github\.token|secrets\.GITHUB_TOKEN)\s*\}\}\s*$/i;
/** `gh` subcommands that change a repository (a release, a pull request, an issue, a label, a workflow run, a cache). */
const GH_WRITE =
  /\bgh\s+(?:(?:release|pr|issue|label)\s+(?:create|upload|edit|delete|delete-asset|comment|merge|close|reopen|review|ready|lock|unlock|pin|unpin|transfer)|workflow\s+(?:run|enable|disable)|run\s+(?:cancel|rerun|delete)|cache\s+delete)\b/;
const REPO_FLAG = /(?:^|\s)(?:--repo|-R)(?:=|\s+)["']?([A-Za-z0-9-]+\/[A-Za-z0-9._-]+?)["']?(?=\s|$)/;
const GH_API = /\bgh\s+api\b/;
const API_PATH = /(?:^|[\s"'])\/?repos\/([A-Za-z0-9-]+)\/([A-Za-z0-9._-]+)\//;
const API_METHOD = /(?:^|\s)(?:-X|--method)(?:=|\s*)["']?([A-Za-z]+)/;
/** `gh api` sends a POST when given fields and no method. */
const API_FIELDS = /(?:^|\s)(?:-f|-F|--field|--raw-field|--input)(?:=|\s)/;
/** The script sets the token or the host `gh` uses itself: the step's `env:` does not say which token it is. */
const TOKEN_SET = /\b(?:GH_TOKEN|GITHUB_TOKEN|GH_HOST|GH_ENTERPRISE_TOKEN)=|\bgh\s+auth\s+login\b/;

/** The `owner/name` a workflow step writes to with `gh` and the job's own token. */
export function tokenWriteNames(step: Step): string[] {
  const script = scriptOf(step);
  if (script === null || !hasAny(script.words, GH) || TOKEN_SET.test(script.text)) return [];
  // `gh` reads GH_TOKEN before GITHUB_TOKEN; the innermost `env:` wins.
  const token = envValues(step, 'GH_TOKEN')[0] ?? envValues(step, 'GITHUB_TOKEN')[0];
  if (token === undefined || !ONLY_JOB_TOKEN.test(token) || envValues(step, 'GH_HOST').length > 0) return [];
  const found: string[] = [];
  for (const line of logicalLines(script.text)) {
    if (!line.text.includes('gh')) continue;
    // One command at a time, so a flag is read with the command it belongs to.
    for (const command of line.text.split(/&&|\|\||[;|]/)) {
      if (GH_WRITE.test(command)) {
        const repo = REPO_FLAG.exec(command);
        if (repo !== null) found.push((repo[1] ?? '').toLowerCase());
      } else if (GH_API.test(command)) {
        const path = API_PATH.exec(command);
        if (path === null) continue;
        const method = API_METHOD.exec(command);
        const writes = method === null ? API_FIELDS.test(command) : /^(?:POST|PUT|PATCH|DELETE)$/i.test(method[1] ?? '');
        if (writes) found.push(`${path[1] ?? ''}/${path[2] ?? ''}`.toLowerCase());
      }
    }
  }
  return found;
}

/** At most this many values for one image word once its expressions and variables are replaced. */
const MAX_VALUES = 16;
/** `${{ inputs.x }}`, `${{ env.X }}`, `${{ matrix.x }}`: the expressions an image word's values are read from. */
const WORD_EXPRESSION = /\$\{\{\s*(inputs|env|matrix)\.([\w-]+)\s*\}\}/g;
/** `$NAME` and `${NAME}` in a script. */
const SHELL_VARIABLE = /\$\{([A-Za-z_]\w*)\}|\$([A-Za-z_]\w*)/g;

/**
 * The values an image word can take, its expressions and variables replaced where they are constant: a
 * reusable workflow's or composite action's `${{ inputs.x }}` by what its local callers pass (and the default
 * when a caller passes nothing), `${{ env.X }}` and a script's `$X` by the literal `env:` the step sees (or an
 * assignment earlier in the script), `${{ matrix.x }}` by the job's matrix. A part the scan cannot read stays as
 * written, so `addImage` keeps only the name. `${{ github.repository_owner }}` is left to `parseImage`.
 */
export function resolveWord(repository: RepositoryModel, step: Step, word: string, script?: { text: string; offset: number }): string[] {
  let values = [word.replace(/["']/g, '').trim()];
  for (let depth = 0; depth < 3; depth++) {
    let changed = false;
    const next: string[] = [];
    for (const value of values) {
      const replaced = replaceAll(value, (text) => {
        const found: [string, string[]][] = [];
        for (const m of text.matchAll(WORD_EXPRESSION)) found.push([m[0], expressionValues(repository, step, m[1] as string, m[2] as string)]);
        for (const m of text.matchAll(STEP_OUTPUT)) found.push([m[0], stepOutputValues(step, m[1] as string, m[2] as string)]);
        if (script !== undefined) for (const m of text.matchAll(SHELL_VARIABLE)) found.push([m[0], shellValues(step, script, m[1] ?? m[2] ?? '')]);
        return found;
      });
      if (replaced.length !== 1 || replaced[0] !== value) changed = true;
      next.push(...replaced);
    }
    // A value can hold several images (an input given `a/x:1,b/y:1`).
    values = [...new Set(flatMap(next, imageWords))].filter((v) => v !== '').slice(0, MAX_VALUES);
    if (!changed) break;
  }
  return values;
}

/** Every string `text` becomes when each placeholder `find` reports is replaced by each of its values (none: kept). */
function replaceAll(text: string, find: (text: string) => [string, string[]][]): string[] {
  let results = [text];
  for (const [placeholder, replacements] of find(text)) {
    const usable = replacements.filter((r) => r.trim() !== '');
    if (usable.length === 0) continue;
    const next: string[] = [];
    for (const result of results) for (const r of usable) next.push(result.split(placeholder).join(r.trim()));
    results = next.slice(0, MAX_VALUES);
  }
  return results;
}

function expressionValues(repository: RepositoryModel, step: Step, context: string, name: string): string[] {
  if (context === 'matrix') return matrixValues(step.job, name) ?? [];
  if (context === 'env') return envValues(step, name);
  return inputValues(repository, step, name);
}

/** `${{ steps.<id>.outputs.<name> }}` in a word: an earlier step's output, which its script writes. */
const STEP_OUTPUT = /\$\{\{\s*steps\.([\w-]+)\.outputs\.([\w-]+)\s*\}\}/g;

/**
 * What an earlier step of the same job writes to its output `name` (`echo "name=$REGISTRY" >> "$GITHUB_OUTPUT"`, also
 * after `exec >> $GITHUB_OUTPUT`), each value with the script's literal variables filled in as they stand at that line
 * (`REGISTRY="registry.example.com/team/app"` before it); a value that still holds a variable is not returned.
 */
function stepOutputValues(step: Step, id: string, name: string): string[] {
  const producer = step.job?.steps.find((s) => s.id === id && s.index < step.index);
  const script = producer === undefined ? null : scriptOf(producer);
  if (producer === undefined || script === null) return [];
  const values: string[] = [];
  const written = new RegExp(`(?:^|[\\s"'])${name.replace(/[^\w-]/g, '')}=("[^"\\n]*"|'[^'\\n]*'|[^\\s;&|)]*)`, 'i');
  for (const line of outputLines(script.text, name) ?? []) {
    const raw = (written.exec(line.text)?.[1] ?? '').replace(/^["']|["']$/g, '');
    if (raw === '') continue;
    for (const value of replaceAll(raw, (text) => [...text.matchAll(SHELL_VARIABLE)].map((v) => [v[0], shellValues(producer, { text: script.text, offset: line.offset }, v[1] ?? v[2] ?? '')] as [string, string[]]))) {
      if (!/\$(?!\{\{)/.test(value)) values.push(value);
    }
    if (values.length >= MAX_VALUES) break;
  }
  return values.slice(0, MAX_VALUES);
}

/** The literal value of `name` in the `env:` a step sees (the step's, its job's, its workflow's). */
function envValues(step: Step, name: string): string[] {
  for (const env of [step.env, step.job?.env, step.job?.workflow.env]) {
    const value = getText(env, name);
    if (value !== null) return [value];
  }
  return [];
}

/** A script variable's literal values: assignments before `offset` (`NAME=value`, `export NAME=value`), else the `env:`. */
function shellValues(step: Step, script: { text: string; offset: number }, name: string): string[] {
  if (name === '') return [];
  const assignment = new RegExp(`(?:^|[\\s;&(])(?:export\\s+|local\\s+|readonly\\s+|declare\\s+(?:-\\w+\\s+)?)?${name}=("[^"\\n]*"|'[^'\\n]*'|[^\\s;&|)]*)`, 'gm');
  const values: string[] = [];
  for (const m of script.text.slice(0, script.offset).matchAll(assignment)) {
    const value = (m[1] ?? '').replace(/^["']|["']$/g, '');
    // Only literals (and `${{ … }}` the runner fills in): a command substitution or another variable is not read.
    if (value !== '' && !/[`]|\$\(|\$(?!\{\{)/.test(value)) values.push(value);
  }
  return values.length > 0 ? values : envValues(step, name);
}

/**
 * What a reusable workflow's or composite action's `${{ inputs.x }}` is given by the repository's own calls:
 * each local caller's literal `with:` value, and the input's default when a caller passes none or no local
 * caller is known. A workflow that is not reusable (a dispatch's inputs) has no constant values.
 */
function inputValues(repository: RepositoryModel, step: Step, name: string): string[] {
  const owner = step.owner;
  let given: (string | null)[];
  let fallback: string | null;
  if (owner.kind === 'action') {
    given = repository.callersOf(owner).map((caller) => getText(caller.with, name));
    const input = owner.inputs.find((i) => i.name === name);
    fallback = scalarText(input?.default);
  } else {
    const call = owner.triggers.find((t) => t.name === 'workflow_call');
    if (call === undefined) return [];
    given = localCallers(owner).map((caller) => getText(caller.with, name));
    fallback = getText(get(get(call.config, 'inputs'), name), 'default');
  }
  const values = given.filter((v): v is string => v !== null);
  if ((given.length === 0 || values.length < given.length) && fallback !== null) values.push(fallback);
  // A caller's own expression (`${{ inputs.image }}` of an outer workflow) is not followed.
  return values.filter((v) => !v.includes('${{'));
}

/** The words of a list of images, an expression (`${{ env.REGISTRY }}`) staying one word. */
function imageWords(text: string): string[] {
  return text.replace(/\$\{\{[^}]*\}\}/g, (m) => m.replace(/\s+/g, '')).split(/[\s,]+/);
}

/** The images a build command names as its output: `-t`/`--tag` values, the target of `tag`, what `push` pushes. */
function commandImages(verb: string, args: readonly string[]): string[] {
  if (verb === 'tag') {
    const positional = args.filter((a) => !a.startsWith('-'));
    return positional.length >= 2 ? [positional[1] as string] : [];
  }
  if (verb.endsWith('push')) return args.filter((a) => !a.startsWith('-')).slice(0, 1);
  const found: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === '-t' || arg === '--tag') found.push(args[i + 1] ?? '');
    else if (arg.startsWith('--tag=')) found.push(arg.slice('--tag='.length));
    else if (/^-t\S/.test(arg)) found.push(arg.slice(2));
  }
  return found;
}

function addImage(step: Step, word: string, pushes: boolean, images: Set<string>, namespaces: Set<string>, builtNames: Set<string>): void {
  // `name=org/app` in `docker/metadata-action`'s `images:`; no image reference holds `=` otherwise.
  const cleaned = word.replace(/["']/g, '').trim().replace(/^name=/, '');
  if (cleaned === '' || cleaned.startsWith('-') || cleaned.includes('=')) return;
  // A tag computed when the job runs (`app:${{ steps.meta.outputs.tag }}`, `app:${TAG}`) names the same image.
  const slash = cleaned.lastIndexOf('/');
  const colon = cleaned.indexOf(':', slash + 1);
  const untagged = colon !== -1 && /\$/.test(cleaned.slice(colon)) && !/\$/.test(cleaned.slice(0, colon)) ? cleaned.slice(0, colon) : cleaned;
  const parsed = parseImage(untagged);
  if (parsed === null) {
    // A computed registry or namespace: keep the name, literal or from the job's matrix.
    const last = cleaned.slice(cleaned.lastIndexOf('/') + 1).replace(/:[^:}]*$/, '');
    const matrix = /^\$\{\{\s*matrix\.([\w-]+)\s*\}\}$/.exec(last);
    const values = matrix !== null ? (matrixValues(step.job, matrix[1] as string) ?? []) : last.includes('${{') ? [] : [last];
    for (const value of values) if (/^[\w.-]+$/.test(value)) builtNames.add(value.toLowerCase());
    return;
  }
  if (parsed.name === '' || parsed.name.startsWith('${{')) return;
  images.add(`${parsed.registry}/${parsed.path}`);
  // Pushing to a namespace needs its credentials: other images there are the repository's owner's too.
  if (pushes && parsed.namespace !== null && !parsed.namespace.startsWith('${{') && !(parsed.registry === 'docker.io' && parsed.namespace === 'library')) {
    namespaces.add(`${parsed.registry}/${parsed.namespace}`);
  }
}

export interface ParsedImage {
  /** Lower-cased registry host (`docker.io` for Docker Hub). */
  registry: string;
  /** Lower-cased repository path without the registry (`library/node`, `org/app`, `org/team/app`). */
  path: string;
  /** The first path segment (`library` for an official Docker Hub image), or null when the path has one segment. */
  namespace: string | null;
  /** The last path segment. */
  name: string;
}

/**
 * `[registry[:port]/]path[:tag][@digest]`, or null when the reference holds an expression other than
 * `github.repository` / `github.repository_owner` (those become the placeholder owner `${{owner}}`).
 */
export function parseImage(reference: string): ParsedImage | null {
  let image = reference.trim().replace(/^docker:\/\//, '');
  image = image.replace(/\$\{\{\s*github\.repository_owner\s*\}\}/g, '${{owner}}').replace(/\$\{\{\s*github\.repository\s*\}\}/g, '${{owner}}/${{name}}');
  if (/\$\{\{(?!owner\}\}|name\}\})/.test(image)) return null;
  image = image.replace(/@.*$/, '');
  const parts = image.split('/');
  const last = parts.length - 1;
  parts[last] = (parts[last] ?? '').replace(/:[^:]*$/, '');
  const first = parts[0] ?? '';
  const hasRegistry = parts.length > 1 && (first.includes('.') || first.includes(':') || first === 'localhost');
  let registry = hasRegistry ? first.toLowerCase() : 'docker.io';
  if (registry === 'index.docker.io' || registry === 'registry-1.docker.io' || registry === 'registry.hub.docker.com') registry = 'docker.io';
  const path = parts.slice(hasRegistry ? 1 : 0);
  if (registry === 'docker.io' && path.length === 1) path.unshift('library');
  const lowered = path.map((p) => (p.startsWith('${{') ? p : p.toLowerCase()));
  return {
    registry,
    path: lowered.join('/'),
    namespace: lowered.length > 1 ? (lowered[0] as string) : null,
    name: lowered[lowered.length - 1] ?? '',
  };
}

/**
 * Registries whose namespaces are GitHub accounts (ghcr.io), or commonly the same account name (Docker Hub,
 * Quay): an image the workflows pull from the owner's namespace there is one the owner publishes. Registry
 * names are case-insensitive (`parseImage` lowers them), as GitHub account names are.
 */
const OWNER_REGISTRIES: ReadonlySet<string> = new Set(['ghcr.io', 'docker.io', 'quay.io']);

/**
 * The repository owner's namespace an image is published under (`acme` for `quay.io/acme/app:1`,
 * `ghcr.io/${{ github.repository_owner }}/app`, `Acme/app` on Docker Hub), or null: the owner's own image.
 */
export function ownerNamespace(reference: string, identity: RepositoryIdentity): string | null {
  const image = parseImage(reference);
  if (image === null || image.namespace === null) return null;
  if (image.namespace === '${{owner}}') return identity.owner ?? '${{ github.repository_owner }}';
  return OWNER_REGISTRIES.has(image.registry) && identity.owners.has(image.namespace) ? image.namespace : null;
}

/**
 * The namespace (`docker.io/acme-old`) the repository's own workflows push images to that an image is published
 * under, when that, not the image itself being built or pushed, is what makes it the owner's; null otherwise.
 */
export function pushedNamespace(reference: string, identity: RepositoryIdentity): string | null {
  const image = parseImage(reference);
  if (image === null || image.namespace === null || identity.images.has(`${image.registry}/${image.path}`)) return null;
  const namespace = `${image.registry}/${image.namespace}`;
  return identity.namespaces.has(namespace) ? namespace : null;
}

/** Who owns a container image (a job or service container, a `docker://` step, a docker action's image). */
export function imageOwnership(reference: string, identity: RepositoryIdentity): Ownership {
  const image = parseImage(reference);
  if (image === null) return 'third-party';
  if (image.namespace === '${{owner}}') return 'first-party';
  if (image.registry === 'ghcr.io' && image.namespace !== null && PLATFORM_OWNERS.has(image.namespace)) return 'platform';
  const full = `${image.registry}/${image.path}`;
  if (identity.images.has(full)) return 'first-party';
  if (image.namespace !== null && identity.namespaces.has(`${image.registry}/${image.namespace}`)) return 'first-party';
  if (ownerNamespace(reference, identity) !== null) return 'first-party';
  // A name the workflows build under a computed registry: theirs, unless it is an official image's name.
  if (identity.builtNames.has(image.name) && !(image.registry === 'docker.io' && image.namespace === 'library')) return 'first-party';
  return 'third-party';
}

/**
 * Who owns the code a `uses:` runs: `./path` and `$/path` (and `owner/name/path@ref` of this very repository)
 * are local; an action or reusable workflow of the repository's own owner is first-party; GitHub's own
 * actions are the platform's; anything else, including a `docker://` image's publisher, is decided by
 * `imageOwnership` or is third-party.
 */
export function usesOwnership(ref: UsesRef, identity: RepositoryIdentity, repository?: RepositoryModel): Ownership {
  if (ref.kind === 'local') return 'local';
  if (ref.kind === 'docker') return imageOwnership(ref.image, identity);
  if (ref.kind !== 'repository') return 'third-party';
  if (identity.names.has(ref.slug)) return 'local';
  // Without the repository's name, `owner/repo/<path>@ref` naming one of its own local actions or workflows is
  // the repository referencing itself (a test of its own action, its own reusable workflow).
  if (identity.fullName === null && repository !== undefined && ref.path !== '' && isOwnPath(repository, ref.path)) return 'local';
  const owner = ref.owner.toLowerCase();
  if (identity.owners.has(owner)) return 'first-party';
  if (PLATFORM_OWNERS.has(owner)) return 'platform';
  return 'third-party';
}

/**
 * The repository owner (of the identity's `owners`) whose name an action's owner extends by one word joined with `-`
 * (`aws-actions`, `mongodb-labs`, `google-github-actions` for `google`), or null. Three characters at least,
 * so that short names (`go`, `js`) do not match every `go-…` organisation.
 */
export function siblingOwner(owner: string, owners: ReadonlySet<string>): string | null {
  const name = owner.toLowerCase();
  for (const own of owners) {
    if (own.length < 3 || own === name) continue;
    if (name.startsWith(`${own}-`) || name.endsWith(`-${own}`)) return own;
  }
  return null;
}

/**
 * True when an action's owner is a user the repository's CODEOWNERS names (`RepositoryModel.codeOwners`): GitHub
 * honours a code owner only with write access to the repository, so that account can already change its code.
 */
export function namedCodeOwner(owner: string, repository: RepositoryModel): boolean {
  return repository.codeOwners.size > 0 && repository.codeOwners.has(owner.toLowerCase());
}

function isOwnPath(repository: RepositoryModel, refPath: string): boolean {
  const path = refPath.replace(/\/+$/, '');
  return repository.actions.some((a) => a.directory === path) || repository.workflows.some((w) => w.file.path === path);
}

/** Where a URL points, for `urlOwnership`: the account whose content it is and how that was read. */
export interface UrlOwner {
  ownership: Ownership;
  /** In words, for descriptions: "the repository owner's repository `acme/tools` on GitHub", "the repository owner's own domain `acme.dev`". */
  text: string;
}

/** `${{ github.repository }}` / `$GITHUB_REPOSITORY` and the owner's, which the runner sets to this repository's. */
const SELF_NAME = /^(?:\$\{\{github\.repository\}\}|\$\{?GITHUB_REPOSITORY\}?)$/;
const SELF_OWNER = /^(?:\$\{\{github\.repository_owner\}\}|\$\{?GITHUB_REPOSITORY_OWNER\}?)$/;
/** `${{ github.server_url }}` / `$GITHUB_SERVER_URL`: github.com on GitHub's own service. */
const SERVER_URL = /^(?:\$\{\{github\.server_url\}\}|\$\{?GITHUB_SERVER_URL\}?)\//i;

/**
 * Whose content a URL serves, when its address says so; null when it does not (another host, a host the
 * scan cannot read such as `$URL`):
 * - GitHub's hosting of an account's repositories: `github.com/<owner>/<repo>/…` (release assets, archives,
 *   raw files), `raw.githubusercontent.com/<owner>/<repo>/…`, `codeload.github.com/<owner>/<repo>/…`,
 *   `api.github.com/repos/<owner>/<repo>/…`, and `<owner>.github.io` (their Pages). `${{ github.repository }}`
 *   and `$GITHUB_REPOSITORY` in the owner's place are this repository; the owner is read as for actions:
 *   this repository (`local`), its owner (`first-party`), GitHub (`platform`, `actions/runner` releases), or
 *   a third party.
 * - The owner's own domain: a host whose registered name (its last two labels) is the owner's name, spelled
 *   with or without its dots and hyphens (`static.rust-lang.org` for `rust-lang`, `dl.deno.land` for
 *   `denoland`, `gradio.app` for `gradio-app`): first-party. Only owners the scan knows (the scanned
 *   repository's, and those its workflows compare `github.repository_owner` against) count, and only names of
 *   at least four characters, so a short account name does not claim a common domain. So is a domain named as the
 *   repository is when its owner's name starts with that name (`databend.com` for `databendlabs/databend`).
 */
export function urlOwnership(url: string | null, identity: RepositoryIdentity): UrlOwner | null {
  if (url === null) return null;
  // `${{ github.repository }}` as one word, whatever its spacing.
  let text = url
    .trim()
    .replace(/^["']|["']$/g, '')
    .replace(/\$\{\{\s*([\w.]+)\s*\}\}/g, '${{$1}}');
  if (SERVER_URL.test(text)) text = `https://github.com/${text.slice(text.indexOf('/') + 1)}`;
  const match = /^(?:https?:\/\/)?([^/?#\s]+)(\/[^?#\s]*)?/i.exec(text);
  if (match === null) return null;
  const host = (match[1] ?? '').replace(/^[^@]*@/, '').replace(/:\d+$/, '').toLowerCase();
  const segments = (match[2] ?? '').split('/').filter((s) => s !== '');
  let owner: string | undefined;
  let name: string | undefined;
  if (host === 'github.com' || host === 'www.github.com' || host === 'raw.githubusercontent.com' || host === 'codeload.github.com') [owner, name] = segments;
  else if (host === 'api.github.com' && segments[0] === 'repos') [, owner, name] = segments;
  else if (host.endsWith('.github.io') && host.split('.').length === 3) owner = host.slice(0, -'.github.io'.length);
  if (owner !== undefined) {
    if (SELF_NAME.test(owner)) return { ownership: 'local', text: 'this repository on GitHub' };
    if (SELF_OWNER.test(owner)) return { ownership: 'first-party', text: "the repository owner's GitHub account" };
    const lowered = owner.toLowerCase();
    const repo = name === undefined ? null : `${lowered}/${name.toLowerCase().replace(/\.git$/, '')}`;
    const shown = repo === null ? `\`${owner}\`'s GitHub Pages` : `repository \`${owner}/${name ?? ''}\` on GitHub`;
    if (repo !== null && identity.names.has(repo)) return { ownership: 'local', text: `this repository (\`${owner}/${name ?? ''}\` on GitHub)` };
    if (identity.owners.has(lowered)) return { ownership: 'first-party', text: `the repository owner's ${shown}` };
    if (PLATFORM_OWNERS.has(lowered)) return { ownership: 'platform', text: `GitHub's own ${shown}` };
    // An organisation named after the owner (`rustdesk-org` for `rustdesk`), as for actions (`siblingOwner`).
    const sibling = siblingOwner(lowered, identity.owners);
    if (sibling !== null) return { ownership: 'first-party', text: `${shown}, whose owner \`${owner}\` is, by its name, an organisation of this repository's owner \`${sibling}\`` };
    return { ownership: 'third-party', text: shown };
  }
  if (!/^[a-z0-9.-]+$/.test(host)) return null;
  const labels = host.split('.');
  if (labels.length < 2) return null;
  const registered = labels.slice(-2);
  const spelled = (value: string) => value.replace(/[^a-z0-9]/g, '');
  for (const candidate of identity.owners) {
    const plain = spelled(candidate);
    if (plain.length < 4) continue;
    if (registered[0] === candidate || spelled(registered[0] ?? '') === plain || spelled(registered.join('')) === plain) {
      return { ownership: 'first-party', text: `the repository owner's own domain \`${registered.join('.')}\`` };
    }
  }
  // An owner named after the domain's name by one more word joined with `-` (`ghostty-org` for `ghostty.dev`), as an
  // organisation named after the owner is the owner's for actions (`siblingOwner`); four characters at least.
  const word = registered[0] ?? '';
  if (word.length >= 4) {
    for (const owner of identity.owners) {
      if (owner.startsWith(`${word}-`) || owner.endsWith(`-${word}`)) return { ownership: 'first-party', text: `the domain \`${registered.join('.')}\`, named as this repository's owner \`${owner}\` is` };
    }
    // The project's own domain: named as the repository is, whose owner's name starts with it (`databend.com` for
    // `databendlabs/databend`); the repository's name alone is not enough (`acme/docker` does not own `docker.com`).
    for (const full of identity.names) {
      const [owner = '', repo = ''] = full.split('/');
      if (spelled(repo) === spelled(word) && spelled(owner).startsWith(spelled(word))) return { ownership: 'first-party', text: `the project's own domain \`${registered.join('.')}\` (named as the repository \`${full}\`)` };
    }
  }
  // The same, spelled across its top-level domain (`tur.so` for `tursodatabase/turso`), as an owner's own domain is.
  const joined = spelled(registered.join(''));
  if (joined.length >= 4) {
    for (const full of identity.names) {
      const [owner = '', repo = ''] = full.split('/');
      if (spelled(repo) === joined && spelled(owner).startsWith(joined)) return { ownership: 'first-party', text: `the project's own domain \`${registered.join('.')}\` (named as the repository \`${full}\`)` };
    }
  }
  return null;
}

/**
 * The fact a finding about code of this ownership carries: `owner:first-party` (the repository's own code,
 * local or its owner's), `owner:platform` (GitHub's), `owner:third-party`.
 */
export function ownerFact(ownership: Ownership): string {
  return ownership === 'local' || ownership === 'first-party' ? 'owner:first-party' : `owner:${ownership}`;
}
