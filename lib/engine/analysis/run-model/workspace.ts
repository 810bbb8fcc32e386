/**
 * What a job's workspace holds, step by step: every checkout (with the repository and ref it brings, its
 * `path:`, whether it leaves credentials in `.git/config`), and every download of another run's artifacts, each
 * with the directory it lands in and who controls its content. With `codeOf`, an execution (execution.ts) is
 * traced to the checkout or download that holds the code it runs.
 */
import { downloadContent, foreignDownloads, type ForeignDownload } from '../artifacts.js';
import { pullRequestCheckouts, type UntrustedCheckout } from '../pr-head.js';
import type { RepositoryModel } from '../../model/repository.js';
import type { Job, Step } from '../../model/workflow.js';
import { getText, keyText } from '../../yaml/model.js';
import { normalizeWorkspacePath, within, workingDirectory, type Execution } from './execution.js';
import { words } from '../../shell.js';
import { valueOffsetToSource } from '../../yaml/offsets.js';

/** Who decides what a workspace entry holds. */
export type Content =
  /** A pull request's (or a run's a pull request started) code or files: whoever opened it. */
  | 'outsider'
  /** The base repository's own code (a branch, tag or SHA of it). */
  | 'base'
  /** Another repository's code, or a ref the workflow cannot show. */
  | 'other';

export interface WorkspaceEntry {
  step: Step;
  kind: 'checkout' | 'download';
  /** Directory in the workspace (`''`: the workspace itself); null when it cannot be placed. */
  dir: string | null;
  content: Content;
  /** `actions/checkout with \`ref: ${{ github.event.pull_request.head.sha }}\``, `gh run download` ... */
  how: string;
  /** For checkouts of pull request code: the analysis' view of it (evidence, trigger, gates). */
  checkout?: UntrustedCheckout & { hiddenBy?: 'trusted-author' | 'approved-commit' };
  /** For downloads of another run's artifacts. */
  download?: ForeignDownload;
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

export function workspaceEntries(job: Job, repository: RepositoryModel): WorkspaceEntry[] {
  const entries: WorkspaceEntry[] = [];
  const untrusted = pullRequestCheckouts(job, repository);
  const workflow = job.workflow;
  const downloads = foreignDownloads(job);
  // By step, once: a job of thousands of steps must not search every checkout and download for each step.
  const checkoutsOf = groupByStep(untrusted);
  const downloadsOf = groupByStep(downloads);
  for (const step of job.steps) {
    const mine = checkoutsOf.get(step) ?? [];
    if (step.usesRef?.kind === 'repository' && step.usesRef.slug === 'actions/checkout') {
      const dir = normalizeWorkspacePath(getText(step.with, 'path') ?? '');
      const persist = (getText(step.with, 'persist-credentials') ?? 'true').trim().toLowerCase() !== 'false';
      const pr = mine.find((c) => c.offset === undefined);
      if (pr !== undefined) {
        entries.push({ step, kind: 'checkout', dir, content: 'outsider', how: pr.how, checkout: pr, persistsCredentials: persist, forkCode: true });
      } else {
        const repositoryInput = getText(step.with, 'repository');
        const own = repositoryInput === null || /^\s*\$\{\{\s*github\.repository\s*\}\}\s*$/.test(repositoryInput);
        entries.push({ step, kind: 'checkout', dir, content: own ? 'base' : 'other', how: 'actions/checkout', persistsCredentials: persist, forkCode: checksOutEventCode(repositoryInput, getText(step.with, 'ref')) });
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

/**
 * The workspace entry that holds the code an execution runs: the latest entry before it (an earlier step, or an
 * earlier command of the same script) whose directory contains the execution's path, the deepest directory
 * winning. Registry packages run nothing from the workspace (null). An execution or entry whose place is not
 * known matches only entries (or executions) whose place is not known either.
 */
export function codeOf(execution: Execution, entries: readonly WorkspaceEntry[], caller: Step = execution.step): WorkspaceEntry | null {
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
    // Later entries replace earlier ones at the same depth (a second checkout into the same directory).
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
