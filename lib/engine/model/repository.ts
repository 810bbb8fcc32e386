import { rereadRunSets, type Action, type Dependabot, type Step, type Workflow } from './workflow.js';
import { DEFAULT_BRANCH_EVENTS } from '../analysis/run-model/conditions.js';
import { flatMap } from './arrays.js';
import { getText } from '../yaml/model.js';
import { repositoryNames } from '../analysis/run-model/ownership.js';
import { followedWorkflows } from '../analysis/workflow-run.js';
import { calledLocalWorkflow, jobTokenSecrets } from '../analysis/callers.js';
import { callFails } from '../analysis/runners.js';
import { isCheckoutAction } from './uses.js';

/** The events of a run a fork's pull request can start (pull request events; `workflow_run` aside). */
const PULL_REQUEST_RUN_EVENTS: readonly string[] = ['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment'];

/**
 * For a `workflow_run` workflow whose `workflows:` all resolve to workflows of the repository, none of which runs on
 * `workflow_run` itself (a chain whose first run a fork may start): the pull request events among their triggers, and
 * `pull_request` (a fork's pull request can add a workflow of a followed name that runs on it: workflow-run.ts
 * `followsUntrustedRuns`), which are all that `github.event.workflow_run.event` can be on a run a fork's pull
 * request started. Null otherwise.
 */
function forkRunEvents(workflow: Workflow, repository: RepositoryModel): readonly string[] | null {
  const followed = followedWorkflows(workflow, repository);
  if (followed === null || followed.some((f) => f.unknown)) return null;
  const events = new Set<string>(['pull_request']);
  for (const { upstream } of followed) {
    for (const run of upstream) {
      for (const trigger of run.triggers) {
        if (trigger.name === 'workflow_run') return null;
        if (PULL_REQUEST_RUN_EVENTS.includes(trigger.name)) events.add(trigger.name);
      }
    }
  }
  return PULL_REQUEST_RUN_EVENTS.filter((e) => events.has(e));
}

const NO_OWNERS: ReadonlySet<string> = new Set();

/** Everything the engine parsed from one repository, with the cross-file links rules need. */
export class RepositoryModel {
  readonly workflows: Workflow[];
  readonly actions: Action[];
  readonly dependabot: Dependabot[];
  /** `owner/repo` in lower case when the scan knows it (the checkout's `origin` remote, `--github`), else null. */
  readonly fullName: string | null;
  /** The lower-cased logins of the users the repository's CODEOWNERS names (../codeowners.ts): people with write access. */
  readonly codeOwners: ReadonlySet<string>;
  readonly #actionsByDirectory = new Map<string, Action>();
  #callers: Map<Action, Step[]> | undefined;
  #checkoutPaths: Set<string> | undefined;

  constructor(workflows: Workflow[], actions: Action[], dependabot: Dependabot[], fullName: string | null = null, codeOwners: ReadonlySet<string> = NO_OWNERS, defaultBranch: string | null = null) {
    this.workflows = workflows;
    this.codeOwners = codeOwners;
    this.actions = actions;
    this.dependabot = dependabot;
    this.fullName = fullName === null ? null : fullName.toLowerCase();
    for (const action of actions) this.#actionsByDirectory.set(action.directory, action);
    for (const workflow of workflows) workflow.callerJobs = undefined;
    for (const workflow of workflows) {
      workflow.repository = this.fullName;
      for (const job of workflow.jobs) {
        for (const step of job.steps) {
          if (step.usesRef?.kind !== 'local') continue;
          const action = this.localAction(step);
          if (action !== undefined) step.calledAction = action;
          else delete step.calledAction;
        }
        if (job.uses === undefined) continue;
        const called = calledLocalWorkflow(this, job);
        if (called !== undefined) {
          job.called = called;
          (called.callerJobs ??= []).push(job);
        }
      }
    }
    // A job that needs a call of a reusable workflow that always fails (runners.ts `callFails`) never runs: the
    // workflow's run sets, made before the calls were resolved, are made again.
    for (const workflow of workflows) {
      const failing = new Set(workflow.jobs.filter((j) => j.called !== undefined && callFails(j)).map((j) => j.id));
      if (failing.size > 0 && workflow.jobs.some((j) => j.needs.some((id) => failing.has(id)))) rereadRunSets(workflow);
    }
    for (const workflow of workflows) {
      if (!workflow.triggers.some((t) => t.name === 'workflow_call')) continue;
      const tokens = jobTokenSecrets(workflow);
      if (tokens.size > 0) workflow.jobTokenSecrets = tokens;
    }
    // Runs of the repository's own events are on its default branch: a condition on another branch never holds there.
    for (const workflow of workflows) {
      const before = workflow.defaultBranch;
      if (defaultBranch === null) delete workflow.defaultBranch;
      else workflow.defaultBranch = defaultBranch;
      if (workflow.defaultBranch !== before && workflow.triggers.some((t) => DEFAULT_BRANCH_EVENTS.has(t.name))) rereadRunSets(workflow);
    }
    for (const workflow of workflows) {
      if (!workflow.triggers.some((t) => t.name === 'workflow_run')) continue;
      const events = forkRunEvents(workflow, this);
      if (events === null) continue;
      workflow.forkRunEvents = events;
      // Only a condition that reads the followed run's event changes with them: most files have none.
      if (workflow.file.text.includes('workflow_run.event')) rereadRunSets(workflow);
    }
  }

  /**
   * The local action a `uses: ./path` step runs, resolved from the repository root as GitHub does; or, when nothing
   * is there and the path's first directories are where a step checks out this repository (`actions/checkout`
   * with `path: src/app` and no other `repository:`), the action at the rest of the path (`./src/app/.github/actions/x`
   * is `.github/actions/x` of that checkout, whose file stands for what runs as the root's does).
   */
  localAction(step: Step): Action | undefined {
    if (step.usesRef?.kind !== 'local') return undefined;
    const path = normalizeLocalPath(step.usesRef.path);
    const found = this.#actionsByDirectory.get(path);
    if (found !== undefined || !path.includes('/')) return found;
    const parts = path.split('/');
    for (let cut = 1; cut < parts.length && cut <= 4; cut++) {
      if (!this.#selfCheckoutPaths().has(parts.slice(0, cut).join('/'))) continue;
      const inner = this.#actionsByDirectory.get(parts.slice(cut).join('/'));
      if (inner !== undefined) return inner;
    }
    return undefined;
  }

  /** The `path:` of every `actions/checkout` step of the repository that checks out this repository (no other `repository:`). */
  #selfCheckoutPaths(): Set<string> {
    if (this.#checkoutPaths === undefined) {
      const paths = new Set<string>();
      const steps = [...flatMap(this.workflows, (w) => flatMap(w.jobs, (j) => j.steps)), ...flatMap(this.actions, (a) => a.steps)];
      for (const step of steps) {
        const ref = step.usesRef;
        if (ref?.kind !== 'repository' || !isCheckoutAction(ref)) continue;
        const path = getText(step.with, 'path');
        if (path === null || path.includes('${{')) continue;
        const repository = getText(step.with, 'repository')?.trim().toLowerCase() ?? null;
        if (repository !== null && repository !== '' && !/^\$\{\{\s*github\.repository\s*\}\}$/.test(repository) && repository !== this.fullName) continue;
        const dir = normalizeLocalPath(path);
        if (dir !== '') paths.add(dir);
      }
      this.#checkoutPaths = paths;
    }
    return this.#checkoutPaths;
  }

  /**
   * The repository's own action a step runs: a local action (`./path`), or one the step names by one of the
   * repository's own names (`uses: owner/repo/path@ref`, `owner/repo@ref` for the root action), whose action file
   * is in the checkout. The names are the run model's (run-model/ownership.ts `repositoryNames`): the scan's,
   * those the workflows compare `github.repository` against or declare, and, when nothing else names it (a copy
   * without `.git`), an action repository's call of its own root action by its published name. GitHub fetches
   * such an action at `ref`, not from the workspace, so rules that reason about the workspace keep asking
   * `localAction`; the checkout's file stands for what runs (the same people control every ref). Only the
   * checkout's action files are looked up: `..` stops at the root.
   */
  ownAction(step: Step): Action | undefined {
    const ref = step.usesRef;
    if (ref?.kind === 'local') return this.localAction(step);
    if (ref?.kind !== 'repository' || ref.isWorkflow || this.#actionsByDirectory.size === 0) return undefined;
    if (ref.slug !== this.fullName && !repositoryNames(this, this.fullName).names.has(ref.slug)) return undefined;
    return this.#actionsByDirectory.get(normalizeLocalPath(ref.path));
  }

  /** Steps (of workflows and of other composite actions) that run one of the repository's own actions (`ownAction`). */
  callersOf(action: Action): readonly Step[] {
    if (this.#callers === undefined) {
      const callers = new Map<Action, Step[]>();
      const steps = [...flatMap(this.workflows, (w) => flatMap(w.jobs, (j) => j.steps)), ...flatMap(this.actions, (a) => a.steps)];
      for (const step of steps) {
        const target = this.ownAction(step);
        if (target === undefined) continue;
        const list = callers.get(target) ?? [];
        list.push(step);
        callers.set(target, list);
      }
      this.#callers = callers;
    }
    return this.#callers.get(action) ?? [];
  }
}

/** True when a relative path climbs above its root at some point (`./../action/x`, `a/../../b`): it names nothing inside the root. */
export function leavesRoot(path: string): boolean {
  let depth = 0;
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    depth += part === '..' ? -1 : 1;
    if (depth < 0) return true;
  }
  return false;
}

/** `./.github/actions/setup/` -> `.github/actions/setup`; `.` and `./` -> ''. */
export function normalizeLocalPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
