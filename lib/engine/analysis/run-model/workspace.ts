/**
 * What a job's workspace holds, step by step: every checkout (with the repository and ref it brings, its
 * `path:`, whether it leaves credentials in `.git/config`), every download of another run's artifacts, and every
 * `git clone` / `gh repo clone` of a repository a script names, each with the directory it lands in and who
 * controls its content. With `codeOf`, an execution (execution.ts) is traced to the checkout, download or clone
 * that holds the code it runs: `cd vendor/lib && make` after `git clone <url> vendor/lib` runs the cloned code.
 */
import { downloadContent, foreignDownloads, isolatedExtractions, type ForeignDownload } from '../artifacts.js';
import { pinsApprovedCode, pullRequestCheckouts, type UntrustedCheckout } from '../pr-head.js';
import type { RepositoryModel } from '../../model/repository.js';
import type { Job, Step } from '../../model/workflow.js';
import { getText, keyText } from '../../yaml/model.js';
import { normalizeWorkspacePath, resolvePath, scriptCommands, within, workingDirectory, type Execution } from './execution.js';
import { words } from '../../shell.js';
import { valueOffsetToSource } from '../../yaml/offsets.js';
import { hasAny, scriptOf, wordMask } from '../file-scripts.js';
import type { RepositoryIdentity } from './ownership.js';
import { isCheckoutAction } from '../../model/uses.js';

/** Who decides what a workspace entry holds. */
export type Content =
  /** A pull request's (or a run's a pull request started) code or files: whoever opened it. */
  | 'outsider'
  /** The base repository's own code (a branch, tag or SHA of it). */
  | 'base'
  /** Another repository's code, or a ref the workflow cannot show. */
  | 'other';

/** A `git clone` or `gh repo clone` of a repository a script names literally (`scriptClones`). */
export interface Clone {
  /** The URL or `owner/name` as written. */
  url: string;
  /** `owner/name` (lower case) of the cloned repository, when the URL shows it. */
  repository: string | null;
  /** The script checks out a commit hash of it (full or abbreviated) after the clone: the code is fixed. Else its default branch, a branch or a tag. */
  pinned: boolean;
}

export interface WorkspaceEntry {
  step: Step;
  /**
   * `clone`: a `git clone <url> [dir]` (or `gh repo clone`) in a script, of a repository the URL names literally:
   * its directory holds that repository's code (its default branch, or the branch or tag `-b` names), not the
   * workspace's checkout, so a build run there (`cd dir && pip install .`) runs the cloned repository's code.
   */
  kind: 'checkout' | 'download' | 'clone';
  /** Directory in the workspace (`''`: the workspace itself); null when it cannot be placed. */
  dir: string | null;
  content: Content;
  /** `actions/checkout with \`ref: ${{ github.event.pull_request.head.sha }}\``, `gh run download` ... */
  how: string;
  /** For checkouts of pull request code: the analysis' view of it (evidence, trigger, gates). */
  checkout?: UntrustedCheckout & { hiddenBy?: 'trusted-author' | 'approved-commit' };
  /** For downloads of another run's artifacts. */
  download?: ForeignDownload;
  /** For clones in scripts. */
  clone?: Clone;
  /** File offset of the command in a script, for script checkouts and downloads. */
  offset?: number;
  /** A checkout that leaves the token in `.git/config` (actions/checkout's default). */
  persistsCredentials: boolean;
  /**
   * On a fork's `pull_request` run (read-only token, no secrets), the entry holds the fork's code: a checkout
   * of the event's own ref (`actions/checkout` without `ref:`, or with `github.ref`, `github.sha`, the pull
   * request's head, or a value the workflow computes), and any checkout of pull request code. A fixed ref
   * (`main`, `v1.2`, the base branch or default branch) or another repository is not the fork's.
   */
  forkCode: boolean;
}

/**
 * False when no entry of the job's workspace (`workspaceEntries`) can hold pull request code (content
 * `outsider`): the job has no pull request checkout (pr-head.ts) and no download of another run's artifacts,
 * the only sources of such entries. Answered without working out the rest of the workspace.
 */
export function mayHoldOutsiderCode(job: Job, repository: RepositoryModel): boolean {
  return pullRequestCheckouts(job, repository).length > 0 || foreignDownloads(job).length > 0;
}

/** `identity`: who the repository is, asked for only when a script clones a repository it names (most jobs clone none). */
export function workspaceEntries(job: Job, repository: RepositoryModel, identity: () => RepositoryIdentity | null = () => null): WorkspaceEntry[] {
  const entries: WorkspaceEntry[] = [];
  const untrusted = pullRequestCheckouts(job, repository);
  const workflow = job.workflow;
  const downloads = foreignDownloads(job);
  // By step, once: a job of thousands of steps must not search every checkout and download for each step.
  const checkoutsOf = groupByStep(untrusted);
  const downloadsOf = groupByStep(downloads);
  const extractionsOf = groupByStep(downloads.flatMap((download) => isolatedExtractions(download).map((x) => ({ ...x, download }))));
  for (const step of job.steps) {
    const mine = checkoutsOf.get(step) ?? [];
    if (isCheckoutAction(step.usesRef)) {
      const dir = normalizeWorkspacePath(getText(step.with, 'path') ?? '');
      const persist = checkoutPersists(step);
      const pr = mine.find((c) => c.offset === undefined);
      if (pr !== undefined) {
        entries.push({ step, kind: 'checkout', dir, content: 'outsider', how: pr.how, checkout: pr, persistsCredentials: persist, forkCode: true });
      } else {
        const repositoryInput = getText(step.with, 'repository');
        const own = repositoryInput === null || /^\s*\$\{\{\s*github\.repository\s*\}\}\s*$/.test(repositoryInput);
        entries.push({ step, kind: 'checkout', dir, content: own ? 'base' : 'other', how: step.usesRef?.kind === 'repository' ? `${step.usesRef.owner}/${step.usesRef.repo}` : 'actions/checkout', persistsCredentials: persist, forkCode: checksOutEventCode(repositoryInput, getText(step.with, 'ref')) });
      }
    }
    for (const c of mine) {
      if (c.path !== undefined) {
        // A checkout inside the local composite action the step runs: its `path:` (relative to the workspace).
        entries.push({ step, kind: 'checkout', dir: normalizeWorkspacePath(c.path ?? ''), content: 'outsider', how: c.how, checkout: c, persistsCredentials: true, forkCode: true });
        continue;
      }
      if (step.run === undefined) continue;
      entries.push({ step, kind: 'checkout', dir: scriptCheckoutDirectory(step, c.how), content: 'outsider', how: c.how, checkout: c, offset: c.offset, persistsCredentials: false, forkCode: true });
    }
    // Clones of repositories the script names: one a pull request checkout above (same command) already covers is left to it.
    if (step.run !== undefined) {
      for (const c of scriptClones(step)) {
        if (entries.some((e) => e.step === step && e.offset === c.offset)) continue;
        const own = c.clone.repository !== null && (identity()?.names.has(c.clone.repository) ?? false);
        entries.push({ step, kind: 'clone', dir: c.dir, content: own ? 'base' : 'other', how: c.how, clone: c.clone, offset: c.offset, persistsCredentials: false, forkCode: false });
      }
    }
    // A download kept outside the workspace whose archive a script extracts into it: the files land there.
    for (const x of extractionsOf.get(step) ?? []) {
      const cwd = workingDirectory(step);
      const dir = x.target === null ? cwd : cwd === null ? null : normalizeWorkspacePath(cwd === '' ? x.target : `${cwd}/${x.target}`);
      entries.push({
        step,
        kind: 'download',
        dir,
        content: downloadContent(x.download, workflow, repository),
        how: `${x.download.how}, extracted into the workspace by ${x.evidence}`,
        download: x.download,
        offset: valueOffsetToSource(workflow.file, step.run as NonNullable<Step['run']>, x.offset),
        persistsCredentials: false,
        forkCode: false,
      });
    }
    for (const d of downloadsOf.get(step) ?? []) {
      if (d.isolated) continue;
      const dir = d.destination === null ? '' : normalizeWorkspacePath(d.destination);
      entries.push({
        step,
        kind: 'download',
        dir,
        // The triggering run of a workflow_run that follows pull request runs, or a run a privileged trigger lets
        // the job pick (by branch, pull request or computed id): a fork's; one picked among push runs: the base's.
        content: downloadContent(d, workflow, repository),
        how: d.how,
        download: d,
        ...(d.scriptOffset !== undefined && step.run !== undefined ? { offset: valueOffsetToSource(workflow.file, step.run, d.scriptOffset) } : {}),
        persistsCredentials: false,
        forkCode: false,
      });
    }
  }
  return entries;
}

function groupByStep<T extends { step: unknown }>(items: readonly T[]): Map<unknown, T[]> {
  const groups = new Map<unknown, T[]>();
  for (const item of items) {
    const list = groups.get(item.step);
    if (list === undefined) groups.set(item.step, [item]);
    else list.push(item);
  }
  return groups;
}

/** A ref that names the base repository's own history, whatever the event: a literal, the base or default branch. */
const BASE_REF = /\bbase_ref\b|\.base\.(ref|sha)\b|default_branch\b|\bgithub\.event\.(before|after)\b/;
/** A repository input that names the pull request's head repository (the fork). */
const HEAD_REPOSITORY = /head\.repo\.full_name|head_repository\.full_name/;

/**
 * True when an `actions/checkout` (its `repository:` and `ref:` inputs) brings the event's own code on a
 * `pull_request` run: the merge or head commit of the pull request, whoever opened it.
 */
export function checksOutEventCode(repositoryInput: string | null, ref: string | null): boolean {
  if (repositoryInput !== null && !/^\s*\$\{\{\s*github\.repository\s*\}\}\s*$/.test(repositoryInput)) return HEAD_REPOSITORY.test(repositoryInput);
  if (ref === null || ref.trim() === '') return true;
  if (!ref.includes('${{')) return false;
  return !BASE_REF.test(ref);
}

/** `ref:` values that name the commit the event carries, not a ref that moves when the author pushes. */
const EVENT_COMMIT = /^\s*(?:\$\{\{\s*(?:github\.sha|github\.event\.pull_request\.head\.sha)\s*\}\})?\s*$/;

/**
 * True when a checkout of the event's code (`forkCode`) takes the commit the event names, not a ref resolved when
 * the step runs: `actions/checkout` without `ref:` (the event's `github.sha`: on `pull_request`, the merge commit
 * made when the event fired), or with `github.sha` or `github.event.pull_request.head.sha`; a pull request checkout
 * pinned to the event's head SHA. What a maintainer's label approved is then what runs, but for a commit pushed
 * just before it.
 */
export function checksOutEventCommit(entry: WorkspaceEntry): boolean {
  if (entry.kind !== 'checkout' || !entry.forkCode) return false;
  if (entry.checkout !== undefined) return pinsApprovedCode(entry.checkout);
  if (!isCheckoutAction(entry.step.usesRef)) return false;
  return EVENT_COMMIT.test(getText(entry.step.with, 'ref') ?? '');
}

/**
 * True when a step is an `actions/checkout` that leaves its token in the workspace's `.git/config`, where every
 * later step of the job finds it (`persist-credentials` not `false`, the action's default).
 */
export function checkoutPersists(step: Step): boolean {
  if (!isCheckoutAction(step.usesRef)) return false;
  return (getText(step.with, 'persist-credentials') ?? '').trim().toLowerCase() !== 'false';
}

/** Where a script's checkout lands: `git clone <url> <dir>` in its directory, anything else in the step's directory. */
function scriptCheckoutDirectory(step: Step, how: string): string | null {
  const cwd = workingDirectory(step);
  const text = how.replace(/^`|`$/g, '');
  const list = words(text);
  const clone = list.indexOf('clone');
  if (clone === -1) return cwd;
  const args = list.slice(clone + 1).filter((w) => !w.startsWith('-'));
  const target = args[1];
  if (target === undefined) {
    const name = /([^/]+?)(\.git)?$/.exec(args[0] ?? '')?.[1];
    return name === undefined || name.includes('$') ? null : cwd === null ? null : cwd === '' ? name : `${cwd}/${name}`;
  }
  if (cwd === null) return null;
  return normalizeWorkspacePath(cwd === '' ? target : `${cwd}/${target}`);
}

const GIT_OR_GH = wordMask('git', 'gh');
/** `git clone` options that take the next word as their value. */
const CLONE_VALUE_OPTIONS = new Set([
  '-b', '--branch', '-o', '--origin', '-u', '--upload-pack', '--depth', '--reference', '--reference-if-able', '--separate-git-dir',
  '-c', '--config', '--filter', '-j', '--jobs', '--template', '--shallow-since', '--shallow-exclude', '--server-option', '--bundle-uri', '--ref-format',
]);
/** `git` options before the subcommand that take the next word as their value. */
const GIT_VALUE_OPTIONS = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace', '--exec-path', '--config-env']);
/** A repository URL the script names: `https://host/owner/name(.git)`, `git@host:owner/name`, `ssh://...`, or `owner/name` for `gh`. */
const REPOSITORY_URL = /^(?:(?:https?|git|ssh):\/\/(?:[^@/\s]+@)?[\w.-]+(?::\d+)?\/|[\w.-]+@[\w.-]+:)([\w.-]+(?:\/[\w.-]+)*?)\/([\w.-]+?)(?:\.git)?\/?$/;
const GH_REPOSITORY = /^([\w.-]+)\/([\w.-]+?)(?:\.git)?$/;
/**
 * A commit hash, full or abbreviated (`git checkout 6c3f168b3`): 7 to 40 hex digits, not only decimal digits (a
 * version or date such as `20240101` is more likely a tag's name than a hash).
 */
const COMMIT_HASH = /^(?=[0-9]*[a-f])[0-9a-f]{7,40}$/i;

/** What a script clones: the directory it lands in, the repository, and the command (offsets in the file). */
interface ScriptClone {
  offset: number;
  dir: string | null;
  how: string;
  clone: Clone;
}

/**
 * The `git clone <url> [dir]` and `gh repo clone <owner/name> [dir]` commands of a step's script whose repository
 * is written literally (no `$`, no `${{ }}`), each with the directory it lands in (the script's directory at that
 * point, after any `cd`, joined with the target or the repository's name) and whether a later command in its
 * directory checks out a commit hash, full or abbreviated (`git checkout <sha>`, `git checkout 6c3f168b3`, `git reset
 * --hard <sha>`). A later command naming a pull request ref
 * (`pull/`), or a fetch or pull of a ref the script computes (`$REF`), may bring other code into the directory:
 * such a clone is not read, and a build there stays traced to what held the directory before.
 */
function scriptClones(step: Step): ScriptClone[] {
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return [];
  const mask = scriptOf(step)?.words;
  if (mask !== undefined && !hasAny(mask, GIT_OR_GH)) return [];
  const script = run.value;
  if (!script.includes('clone')) return [];
  const found: (ScriptClone & { unknown: boolean })[] = [];
  for (const command of scriptCommands(script, workingDirectory(step))) {
    const cwd = command.cwd;
    const list = words(command.text);
    const gh = list.findIndex((w, i) => (w === 'gh' || w.endsWith('/gh')) && list[i + 1] === 'repo' && list[i + 2] === 'clone');
    if (gh !== -1) {
      const args = list.slice(gh + 3);
      const end = args.indexOf('--');
      const positional = (end === -1 ? args : args.slice(0, end)).filter((w, i, all) => !w.startsWith('-') && !['-u', '--upstream-remote-name'].includes(all[i - 1] ?? ''));
      const clone = cloneOf(positional[0], positional[1], cwd);
      if (clone !== null) found.push({ ...clone, offset: valueOffsetToSource(step.owner.file, run, command.offset), how: `\`${command.text.length > 80 ? `${command.text.slice(0, 77)}...` : command.text}\``, unknown: false });
      continue;
    }
    const git = list.findIndex((w) => w === 'git' || w.endsWith('/git'));
    if (git === -1) continue;
    // Global options before the subcommand (`git -C dir clone ...`).
    let i = git + 1;
    let base = cwd;
    while (i < list.length && (list[i] ?? '').startsWith('-')) {
      const option = list[i] ?? '';
      if (option === '-C') base = resolvePath(base, list[i + 1] ?? '$');
      i += GIT_VALUE_OPTIONS.has(option) ? 2 : 1;
    }
    const sub = list[i];
    const rest = list.slice(i + 1);
    if (sub === 'clone') {
      const positional: string[] = [];
      for (let j = 0; j < rest.length; j++) {
        const word = rest[j] ?? '';
        if (word === '--') {
          positional.push(...rest.slice(j + 1));
          break;
        }
        if (word.startsWith('-')) {
          if (CLONE_VALUE_OPTIONS.has(word)) j++;
          continue;
        }
        positional.push(word);
      }
      const clone = cloneOf(positional[0], positional[1], base, false);
      if (clone !== null) found.push({ ...clone, offset: valueOffsetToSource(step.owner.file, run, command.offset), how: `\`${command.text.length > 80 ? `${command.text.slice(0, 77)}...` : command.text}\``, unknown: false });
      continue;
    }
    if (found.length === 0 || (sub !== 'checkout' && sub !== 'switch' && sub !== 'reset' && sub !== 'fetch' && sub !== 'pull')) continue;
    // What a later command does to the clones before it (in the directory it names, or any when unknown).
    const targets = found.filter((c) => c.dir === null || base === null || within(base, c.dir));
    const refs = rest.filter((w) => !w.startsWith('-'));
    for (const target of targets) {
      // A fetch or pull can bring any ref the remote has, pull request heads included; a checkout only what is there.
      if (refs.some((w) => /(^|[/:])pull\//.test(w)) || ((sub === 'fetch' || sub === 'pull') && refs.some((w) => w.includes('$')))) target.unknown = true;
      else if ((sub === 'checkout' || sub === 'reset' || sub === 'switch') && refs.some((w) => COMMIT_HASH.test(w))) target.clone.pinned = true;
    }
  }
  return found.filter((c) => !c.unknown).map(({ unknown: _unknown, ...c }) => c);
}

/** The clone of `url` into `target` (or the repository's name) from directory `cwd`; null when the URL is not literal. */
function cloneOf(url: string | undefined, target: string | undefined, cwd: string | null, gh = true): Omit<ScriptClone, 'offset' | 'how'> | null {
  if (url === undefined || url.includes('$')) return null;
  const match = REPOSITORY_URL.exec(url) ?? (gh ? GH_REPOSITORY.exec(url) : null);
  if (match === null) return null;
  const owner = match[1] ?? '';
  const name = match[2] ?? '';
  const repository = owner.includes('/') ? null : `${owner}/${name}`.toLowerCase();
  const dir = target === undefined ? resolvePath(cwd, name) : target.includes('$') ? null : resolvePath(cwd, target);
  return { dir, clone: { url, repository, pinned: false } };
}

/**
 * How hostile an entry's content is, for entries that hold a directory on different job runs: an outsider's
 * (a pull request checkout only trusted authors reach is a collaborator's code, not an outsider's), another
 * repository's, the base repository's.
 */
function hostility(entry: WorkspaceEntry): number {
  if (entry.content === 'outsider') return entry.checkout?.hiddenBy === 'trusted-author' ? 1 : 2;
  return entry.content === 'other' ? 1 : 0;
}

/**
 * The workspace entry that holds the code an execution runs: the latest entry before it (an earlier step, or an
 * earlier command of the same script) whose directory contains the execution's path, the deepest directory
 * winning. Registry packages run nothing from the workspace (null). An execution or entry whose place is not
 * known matches only entries (or executions) whose place is not known either. With `sameRun` (two steps can run
 * in the same job run), an entry whose step never runs with the execution's holds nothing for it, and a later
 * entry replaces an earlier one only when the two can run in one job run: of two checkouts into one directory
 * whose conditions exclude each other (one for forks' pull requests, one for same-repository ones), each holds
 * the directory on its own runs, and the execution is traced to the more hostile content (the outsider's).
 */
export function codeOf(execution: Execution, entries: readonly WorkspaceEntry[], caller: Step = execution.step, sameRun?: (a: Step, b: Step) => boolean): WorkspaceEntry | null {
  if (execution.kind === 'registry') return null;
  const step = caller;
  const own = execution.step === caller;
  let best: WorkspaceEntry | null = null;
  let bestDepth = -1;
  for (const entry of entries) {
    const before = entry.step.index < step.index || (own && entry.step === step && entry.offset !== undefined && execution.offset !== undefined && step.run !== undefined && entry.offset < valueOffsetToSource(step.owner.file, step.run, execution.offset));
    // A checkout inside the composite action a step runs comes before the action's later steps.
    const insideAction = !own && entry.step === step && entry.checkout?.path !== undefined;
    if ((!before && !insideAction) || entry.step.job !== step.job) continue;
    let depth: number;
    if (entry.dir === null || execution.path === null) {
      if (entry.dir !== null || execution.path !== null) continue;
      depth = 0;
    } else {
      if (!within(execution.path, entry.dir)) continue;
      depth = entry.dir === '' ? 0 : entry.dir.split('/').length;
    }
    if (sameRun !== undefined && entry.step !== step && !sameRun(entry.step, step)) continue;
    // Later entries replace earlier ones at the same depth (a second checkout into the same directory), unless
    // the two never run in one job run and the earlier one's content is the more hostile.
    const exclusive = best !== null && depth === bestDepth && sameRun !== undefined && best.step !== entry.step && !sameRun(best.step, entry.step);
    if (exclusive && best !== null && hostility(best) > hostility(entry)) continue;
    if (depth >= bestDepth) {
      best = entry;
      bestDepth = depth;
    }
  }
  return best;
}

/** A checkout entry's `with:` input as written, for messages. */
export function inputText(step: Step, name: string): string | null {
  const pair = step.with?.pairs.find((p) => keyText(p.key) === name);
  return pair === undefined ? null : getText(step.with, name);
}
