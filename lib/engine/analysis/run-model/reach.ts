/**
 * Who can start a job or step, and what stands in the way: over every occasion on which it can run
 * (conditions.ts), the weakest of
 * - `anyone`: anyone with a GitHub account, with no approval (a fork's pull request under
 *   `pull_request_target`, an issue or comment, a `workflow_run` after a pull request's run);
 * - `sticky-label`: a label a maintainer put on a pull request, checked on a workflow that also runs on new
 *   commits: after one approval, every later push runs unreviewed;
 * - `unreviewed-environment`: an `environment:` whose required reviewers the workflow cannot show (no settings
 *   snapshot): an approval of unknown strength;
 * - `approval`: a maintainer approves each run as it is (a label on a `labeled`-only run, a member's comment
 *   or permission check, an environment with required reviewers, a maintainer's act such as assigning);
 * - `trusted-author`: only trusted authors reach it (a same-repository pull request, a member author, a named
 *   actor, an event only collaborators cause on that path);
 * - `collaborator`: only people with write access start it (push, dispatch, schedule, release ...).
 */
import { EXTERNAL_TRIGGERS } from '../../expressions/controller.js';
import type { RepositoryModel } from '../../model/repository.js';
import { workflowRunSets, type Job, type Step, type Workflow } from '../../model/workflow.js';
import { dispatchGate } from '../dispatch-gate.js';
import { localCallers } from '../callers.js';

export { localCallers } from '../callers.js';
import { jobTrustOn, stepTrustOn, type TrustGuard, type TrustPaths } from '../trust-guards.js';
import { followsUntrustedRuns } from '../workflow-run.js';
import { occasionIndexes, workflowRuns, type Occasion, type RunSet } from './conditions.js';

export type ReachLevel = 'anyone' | 'sticky-label' | 'unreviewed-environment' | 'approval' | 'trusted-author' | 'collaborator';

/** Weakest (most reachable) first. */
export const REACH_ORDER: readonly ReachLevel[] = ['anyone', 'sticky-label', 'unreviewed-environment', 'approval', 'trusted-author', 'collaborator'];

export interface Reach {
  /** The weakest reach over the privileged occasions (not counting fork `pull_request` runs). */
  level: ReachLevel;
  /** The event that gives it; null for `collaborator`. */
  event: string | null;
  /** What stands in the way on that path, in words (`the condition \`...\``); empty for `anyone`. */
  gates: string[];
  /**
   * A fork's `pull_request` run reaches it: anyone starts it, but with a read-only token and no secrets (only
   * the machine, if self-hosted, is worth anything there).
   */
  forkPullRequest: boolean;
}

/** Activity types only people with triage or write access cause (labels, assignments, milestones, locks, merge queue). */
const MAINTAINER_ACTIONS = new Set([
  'labeled', 'unlabeled', 'assigned', 'unassigned', 'review_requested', 'review_request_removed', 'milestoned', 'demilestoned',
  'pinned', 'unpinned', 'transferred', 'locked', 'unlocked', 'enqueued', 'dequeued', 'auto_merge_enabled', 'auto_merge_disabled',
  'dismissed', 'category_changed', 'deleted',
]);

const PULL_REQUEST_FAMILY = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);

export function weaker(a: ReachLevel, b: ReachLevel): ReachLevel {
  return REACH_ORDER.indexOf(a) <= REACH_ORDER.indexOf(b) ? a : b;
}

/** The reach an occasion gives before any condition of the job: who can cause that event. */
function occasionReach(occasion: Occasion, workflow: Workflow, repository: RepositoryModel): ReachLevel {
  const event = occasion.event;
  if (event === null) return 'collaborator';
  if (occasion.fork === 'same') return 'trusted-author';
  if (event === 'repository_dispatch') return dispatchGate(workflow, repository).holds ? 'collaborator' : 'anyone';
  if (!EXTERNAL_TRIGGERS.has(event)) return 'collaborator';
  if (event === 'workflow_run' && !followsUntrustedRuns(workflow, repository)) return 'collaborator';
  if (occasion.action !== null && MAINTAINER_ACTIONS.has(occasion.action)) return PULL_REQUEST_FAMILY.has(event) || event === 'issues' || event === 'discussion' ? 'approval' : 'collaborator';
  return 'anyone';
}

/** How one way to run (a conjunction of guards) holds an outsider back. */
function pathReach(path: readonly TrustGuard[], base: ReachLevel): { level: ReachLevel; gates: string[] } {
  let level = base;
  const gates: string[] = [];
  const tighten = (to: ReachLevel, guard: TrustGuard) => {
    if (REACH_ORDER.indexOf(to) > REACH_ORDER.indexOf(level)) level = to;
    gates.push(guard.kind === 'environment' ? guard.condition : `\`${guard.condition}\``);
  };
  for (const guard of path) {
    switch (guard.kind) {
      case 'same-repository':
      case 'pr-author':
      case 'actor':
      case 'maintainer-event':
        tighten('trusted-author', guard);
        break;
      case 'label':
      case 'commenter':
        tighten('approval', guard);
        break;
      case 'environment':
        tighten(guard.reviewed === true ? 'approval' : 'unreviewed-environment', guard);
        break;
      case 'bypassable-label':
        tighten('sticky-label', guard);
        break;
    }
  }
  return { level, gates: [...new Set(gates)] };
}

/** The weakest reach of a job (`step` null) or step over the occasions of its run set. */
export function reachOf(job: Job, step: Step | null, repository: RepositoryModel): Reach {
  const workflow = job.workflow;
  const runs = workflowRunSets(workflow) ?? workflowRuns(workflow);
  const set: RunSet | undefined = step === null ? runs.jobs.get(job) : (runs.steps.get(step) ?? runs.jobs.get(job));
  const occasions = set === undefined ? runs.occasions.map((_, i) => i) : occasionIndexes(set);
  let best: Reach = { level: 'collaborator', event: null, gates: [], forkPullRequest: false };
  const trustByEvent = new Map<string, TrustPaths>();
  for (const index of occasions) {
    const occasion = runs.occasions[index] as Occasion;
    if (occasion.event === null) {
      // A reusable workflow runs on its callers' events, behind their jobs' conditions.
      if (active.has(workflow)) continue;
      active.add(workflow);
      try {
      for (const caller of localCallers(workflow, repository)) {
        if (caller.workflow === workflow) continue;
        const theirs = reachOf(caller, null, repository);
        best.forkPullRequest = best.forkPullRequest || theirs.forkPullRequest;
        if (REACH_ORDER.indexOf(theirs.level) < REACH_ORDER.indexOf(best.level)) best = { ...theirs, forkPullRequest: best.forkPullRequest };
      }
      } finally {
        active.delete(workflow);
      }
      continue;
    }
    const base = occasionReach(occasion, workflow, repository);
    if (occasion.event === 'pull_request' || occasion.event === 'pull_request_review' || occasion.event === 'pull_request_review_comment') {
      // A fork's run of these events has a read-only token and no secrets (pull_request_review* runs like pull_request).
      if (base === 'anyone') best.forkPullRequest = best.forkPullRequest || guardedReach(job, step, occasion.event, base, trustByEvent).level === 'anyone';
      continue;
    }
    if (base === 'collaborator' || base === 'trusted-author') {
      if (REACH_ORDER.indexOf(base) < REACH_ORDER.indexOf(best.level)) best = { ...best, level: base, event: null, gates: [] };
      continue;
    }
    const found = guardedReach(job, step, occasion.event as string, base, trustByEvent);
    if (REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(best.level)) best = { ...best, level: found.level, event: occasion.event, gates: found.gates };
  }
  return best;
}

function guardedReach(job: Job, step: Step | null, event: string, base: ReachLevel, cache: Map<string, TrustPaths>): { level: ReachLevel; gates: string[] } {
  let paths = cache.get(event);
  if (paths === undefined) {
    paths = step === null ? jobTrustOn(job, event) : stepTrustOn(step, event);
    cache.set(event, paths);
  }
  let best: { level: ReachLevel; gates: string[] } | null = null;
  for (const path of paths) {
    const found = pathReach(path, base);
    if (best === null || REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(best.level)) best = found;
  }
  return best ?? { level: 'collaborator', gates: [] };
}

/** Workflows whose callers are being read (a cycle of calls, which GitHub rejects, ends here). */
const active = new Set<Workflow>();

/** `anyone` or `sticky-label`: an outsider runs their content with no approval of that content. */
export function outsiderReach(reach: Reach): boolean {
  return reach.level === 'anyone' || reach.level === 'sticky-label';
}
