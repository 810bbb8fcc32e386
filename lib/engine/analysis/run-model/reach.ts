/**
 * Who can start a job or step, and what stands in the way: over every occasion on which it can run
 * (conditions.ts), the weakest of
 * - `anyone`: anyone with a GitHub account, with no approval (a fork's pull request under
 *   `pull_request_target`, an issue or comment, a `workflow_run` after a pull request's run);
 * - `sticky-label`: a label a maintainer put on a pull request, checked on a workflow that also runs on new
 *   commits: after one approval, every later push runs unreviewed;
 * - `unreviewed-environment`: an approval of unknown strength: an `environment:` whose required reviewers the
 *   workflow cannot show (no settings snapshot, and no comment of the workflow that says it needs an approval), or
 *   a check the scan cannot read (`unreadCheck`: another repository's action answering about the actor, or its
 *   reusable workflow in a job that must succeed first);
 * - `approval`: a maintainer approves each run as it is (a label on a `labeled`-only run, a label the workflow
 *   removes in every run, a member's comment or permission check, an environment with required reviewers or one
 *   the workflow's own comment says needs an approval, a maintainer's act such as assigning);
 * - `trusted-author`: only trusted authors reach it (a same-repository pull request, a member author, a named
 *   actor, an event only collaborators cause on that path);
 * - `collaborator`: only people with write access start it (push, dispatch, schedule, release ...).
 */
import { EXTERNAL_TRIGGERS } from '../../expressions/controller.js';
import type { RepositoryModel } from '../../model/repository.js';
import { workflowRunSets, type Job, type Step, type Workflow } from '../../model/workflow.js';
import { dispatchGate } from '../dispatch-gate.js';
import type { LabelRemoval } from '../label-removal.js';
import { localCallers } from '../callers.js';

export { localCallers } from '../callers.js';
import { checksActor, environmentApproves, holdsOnAction, jobTrustOn, stepTrustOn, type TrustGuard, type TrustPaths } from '../trust-guards.js';
import { followsUntrustedRuns } from '../workflow-run.js';
import { callerRuns, COMMENT_EVENTS, occasionIndexes, type Occasion, type RunSet } from './conditions.js';
import { flatMap } from '../../model/arrays.js';

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
  /**
   * For `approval`: the approval does not bind to the code that runs. A label check that reads the labels the
   * pull request has, on a `labeled`-only workflow: any later label event runs the commits pushed since.
   */
  approvalMoves?: boolean;
  /**
   * For `approval` by a label: the workflow removes that label in every run (where, in words), so the label
   * approves one run: each new push needs a new label. `whenRunEnds`: the removal waits for the code (an
   * `always()` step at the end, or a later job that needs the gated one and runs with `always()`), so the label
   * stays while the run lasts and a label event during it runs the commits pushed since.
   */
  labelRemoved?: LabelRemoval;
  /**
   * With `labelRemoved`: the workflow also runs on new commits, so a commit pushed between the label and its
   * removal runs under it (with `whenRunEnds`, a commit pushed at any time during the run). That is the race of
   * any approval (between the maintainer's act and the code the run takes), not a standing approval: the
   * approval level, with the race named.
   */
  labelRace?: boolean;
  /**
   * For `anyone` on a step: an earlier step of the job that checks the actor's permission but stands in the way
   * of no later step (its deny path ends only its own step, or an action that gates only what it does itself,
   * trust-guards.ts `openPermissionChecks`), in words: why a job that looks guarded is not.
   */
  noGate?: string;
  /**
   * For `trusted-author`: what keeps outsiders out is fork exclusion, on every way the run can come about: only
   * pull requests (or the runs a `workflow_run` follows) from branches of this repository reach it (a condition
   * `head.repo.full_name == github.repository` or naming this repository, `head.repo.fork == false` ..., folded by
   * the run model's conditions or read as a `same-repository` guard), and `gates` names that condition. Those
   * branches are pushed only by people with write access or by the repository's own bots (Dependabot), so the
   * code is theirs, not an outsider's; a named-author or actor check without it (an author who may push from a
   * fork) is not this.
   */
  sameRepository?: true;
  /**
   * With `sameRepository`: other head repositories the condition lets through by name (`full_name == 'a/b' ||
   * ...`), whose pushers the maintainers chose; every other fork is kept out.
   */
  alsoFrom?: readonly string[];
  /**
   * For `anyone` on a step that downloads the artifacts of a run it picks (`pickerReach`): the event that runs the
   * step with no approval (`schedule`, `push` ...). The outsider does not start that run: their pull request's run
   * only has to be the one it picks.
   */
  pickedOn?: string;
  /**
   * For `unreviewed-environment`: what stands in the way is a check the scan cannot read (an `unread-check` guard:
   * another repository's action or reusable workflow that decides who may go on), not an environment.
   */
  unreadCheck?: true;
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
  // A dispatch whose payload names a pull request (`client_payload.pull_request`, the `/ok-to-test` pattern of a
  // slash-command dispatcher) is a collaborator's approval of that pull request's code, not a run of their own.
  if (event === 'repository_dispatch') return dispatchGate(workflow, repository).holds ? (workflow.file.text.includes('client_payload.pull_request') ? 'approval' : 'collaborator') : 'anyone';
  if (!EXTERNAL_TRIGGERS.has(event)) return 'collaborator';
  if (event === 'workflow_run' && !followsUntrustedRuns(workflow)) return 'collaborator';
  // A comment's author edits and deletes it too: those are no maintainer's acts on a comment event.
  if (occasion.action !== null && MAINTAINER_ACTIONS.has(occasion.action) && !(COMMENT_EVENTS.has(event) && occasion.action === 'deleted')) return PULL_REQUEST_FAMILY.has(event) || event === 'issues' || event === 'discussion' ? 'approval' : 'collaborator';
  return 'anyone';
}

const ACTION_BOUND = new WeakMap<TrustPaths, boolean>();

/**
 * True when some guard of `paths` holds only on some activities (`onlyOn`, `notOn`), so the paths read differently
 * per activity; computed once per set of paths (a job's on one event are computed once per scan).
 */
function actionBound(paths: TrustPaths): boolean {
  let bound = ACTION_BOUND.get(paths);
  if (bound === undefined) {
    bound = paths.some((path) => path.some((g) => g.onlyOn !== undefined || g.notOn !== undefined));
    ACTION_BOUND.set(paths, bound);
  }
  return bound;
}

/**
 * How one way to run (a conjunction of guards) holds an outsider back. `action`: the occasion's activity, given
 * only when some guard of the paths holds on some activities only (`actionBound`).
 */
function pathReach(all: readonly TrustGuard[], base: ReachLevel, action: string | null = null): PathReach {
  // A guard that holds only on some activities (a permission action that checks only created comments) is none on the others.
  const path = action === null ? all : all.filter((g) => holdsOnAction(g, action));
  const unchecked = action === null ? undefined : all.find((g) => g.onlyOn !== undefined && !holdsOnAction(g, action));
  let level = base;
  const gates: string[] = [];
  // Another guard that binds the approval to the code (`github.event.label.name == X`) keeps it bound. A label
  // the workflow removes each run on a workflow that also runs on pushes approves one run: a push racing the run
  // gets in, the race of any approval (`labelRace`), not a standing approval.
  const moves = (g: TrustGuard) => g.kind === 'label' && g.laterLabels === true;
  const approvalMoves = path.some(moves) && !path.some((g) => (g.kind === 'label' && !moves(g)) || g.kind === 'commenter' || environmentApproves(g));
  const removedBy = path.find((g) => g.kind === 'label' && g.removedBy !== undefined)?.removedBy;
  const tighten = (to: ReachLevel, guard: TrustGuard) => {
    if (REACH_ORDER.indexOf(to) > REACH_ORDER.indexOf(level)) level = to;
    gates.push(guard.kind === 'environment' ? guard.condition : guard.kind === 'unread-check' ? unreadWords(guard) : `\`${guard.condition}\``);
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
        tighten(environmentApproves(guard) ? 'approval' : 'unreviewed-environment', guard);
        break;
      case 'bypassable-label':
        tighten('sticky-label', guard);
        break;
      case 'unread-check':
        tighten('unreviewed-environment', guard);
        break;
    }
  }
  const found: PathReach = { level, gates: [...new Set(gates)], approvalMoves: level === 'approval' && approvalMoves };
  if (unreadOnly(level, path)) found.unreadCheck = true;
  if (level === 'trusted-author') {
    const same = path.filter((g) => g.kind === 'same-repository');
    if (same.length > 0) found.sameRepository = same.map(conditionWords);
  }
  if (level === 'approval' && removedBy !== undefined) {
    found.labelRemoved = removedBy;
    if (path.some((g) => g.kind === 'label' && g.pushRace === true)) found.labelRace = true;
  }
  if (unchecked !== undefined && action !== null) {
    const check = unchecked.check;
    const who = check !== undefined && check.action !== '' && check.step !== '' && !`${check.action}${check.step}`.includes('`') ? `\`${check.action}\` (step \`${check.step}\`)` : unchecked.condition;
    found.noGate = `on a ${action} comment ${who} ends its step without checking the permission: it checks only when a comment is ${(unchecked.onlyOn ?? []).join(' or ')}, so the later steps run for anyone`;
  }
  return found;
}

interface PathReach {
  level: ReachLevel;
  gates: string[];
  approvalMoves: boolean;
  labelRemoved?: LabelRemoval;
  labelRace?: boolean;
  /** A guard of the path that does not hold on the occasion's activity, in words (`Reach.noGate`). */
  noGate?: string;
  /** For `trusted-author`: the path keeps forks out (`Reach.sameRepository`): its same-repository conditions, in words. */
  sameRepository?: string[];
  /** For `unreviewed-environment`: the unknown approval is a check the scan cannot read (`Reach.unreadCheck`). */
  unreadCheck?: true;
}

/** True when a path's approval of unknown strength is a check the scan cannot read, with no environment of unknown reviewers. */
function unreadOnly(level: ReachLevel, path: readonly TrustGuard[]): boolean {
  return level === 'unreviewed-environment' && !path.some((g) => g.kind === 'environment' && !environmentApproves(g));
}

/** An `unread-check` guard in words: whose answer stands in the way, and where. */
function unreadWords(guard: TrustGuard): string {
  const check = guard.check;
  if (check === undefined) return guard.condition;
  return `the answer of \`${check.action}\` in step \`${check.step}\`, another repository's action handed the actor's login that the scan does not read, which \`${guard.condition}\` requires`;
}

/**
 * The weakest reach of a job (`step` null) or step over the occasions of its run set; with `only`, over the
 * occasions of that one event (through callers too).
 */
export function reachOf(job: Job, step: Step | null, repository: RepositoryModel, only?: string): Reach {
  const workflow = job.workflow;
  const runs = workflowRunSets(workflow);
  const set: RunSet | undefined = step === null ? runs.jobs.get(job) : (runs.steps.get(step) ?? runs.jobs.get(job));
  const occasions = set === undefined ? runs.occasions.map((_, i) => i) : occasionIndexes(set);
  let best: Reach = { level: 'collaborator', event: null, gates: [], forkPullRequest: false };
  const trustByEvent = new Map<string, TrustPaths>();
  // Whether every way in at the trusted-author level keeps forks out (`Reach.sameRepository`), and the conditions that do.
  let sameEverywhere = true;
  const sameGates: string[] = [];
  const trusted = (same: readonly string[] | undefined) => {
    if (same === undefined) sameEverywhere = false;
    else for (const gate of same) if (!sameGates.includes(gate)) sameGates.push(gate);
  };
  for (const index of occasions) {
    const occasion = runs.occasions[index] as Occasion;
    if (occasion.event !== null && only !== undefined && occasion.event !== only) continue;
    if (occasion.event === null) {
      // A reusable workflow runs on its callers' events, behind their jobs' conditions and then its own (a
      // first job that checks the commenter's permission, whose output or failure the later jobs need): per
      // event, the stronger of the two.
      if (active.has(workflow)) continue;
      active.add(workflow);
      try {
        for (const caller of localCallers(workflow)) {
          // A caller whose fixed inputs rule the job (or step) out never runs it (conditions.ts `callerRuns`).
          if (caller.workflow === workflow || !callerRuns(job, step, caller)) continue;
          for (const event of only !== undefined ? [only] : callerEvents(caller.workflow, repository)) {
            const theirs = reachOf(caller, null, repository, event);
            const found = throughCaller(job, step, theirs, trustByEvent);
            best.forkPullRequest = best.forkPullRequest || found.forkPullRequest;
            if (found.level === 'trusted-author') trusted(found.sameRepository === true ? found.gates : undefined);
            if (REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(best.level) || (found.level === best.level && found.approvalMoves === true && best.approvalMoves !== true)) {
              best = { ...found, forkPullRequest: best.forkPullRequest };
            }
          }
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
      // A same-repository run: fork exclusion when a fork's run of the same kind would reach further (an outsider
      // or a maintainer's act on `pull_request_target`, a `workflow_run` after pull request runs), named by the
      // same-repository guards; after runs no pull request starts, nothing was excluded. Once some way in does not
      // keep forks out, the rest are not read for it.
      if (base === 'trusted-author' && sameEverywhere) {
        const twin = occasionReach({ ...occasion, fork: 'fork' }, workflow, repository);
        trusted(twin === 'collaborator' || twin === 'trusted-author' ? undefined : sameRepositoryGuards(job, step, occasion.event as string, trustByEvent));
      }
      if (REACH_ORDER.indexOf(base) < REACH_ORDER.indexOf(best.level)) best = { ...best, level: base, event: null, gates: [] };
      continue;
    }
    const found = guardedReach(job, step, occasion.event as string, base, trustByEvent, occasion.action);
    if (found.level === 'trusted-author') trusted(found.sameRepository);
    if (REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(best.level) || (found.level === best.level && found.approvalMoves && best.approvalMoves !== true)) {
      best = { ...best, level: found.level, event: occasion.event, gates: found.gates };
      if (found.level === 'anyone' && found.noGate !== undefined) best.noGate = found.noGate;
      else delete best.noGate;
      if (found.approvalMoves) best.approvalMoves = true;
      else delete best.approvalMoves;
      if (found.labelRemoved !== undefined) best.labelRemoved = found.labelRemoved;
      else delete best.labelRemoved;
      if (found.labelRace === true) best.labelRace = true;
      else delete best.labelRace;
      if (found.unreadCheck === true) best.unreadCheck = true;
      else delete best.unreadCheck;
    }
  }
  if (best.level === 'trusted-author' && sameEverywhere) return { ...best, gates: sameGates, sameRepository: true };
  delete best.sameRepository;
  return best;
}

/** A guard's condition in a description: an expression in backticks, a step's check (`fork check in step \`x\``) as it is. */
function conditionWords(guard: TrustGuard): string {
  return guard.condition.includes('`') ? guard.condition : `\`${guard.condition}\``;
}

/**
 * The same-repository guards of a job's (or step's) ways to run on `event`, in words; the conditions' own text
 * when the run model's conditions ruled a fork's run out but no guard names it (`head.repo.fork != true` read only
 * by the folding): `the job's condition`.
 */
function sameRepositoryGuards(job: Job, step: Step | null, event: string, cache: Map<string, TrustPaths>): string[] {
  const paths = trustOn(job, step, event, cache);
  const found = [...new Set(paths.flatMap((path) => path.filter((g) => g.kind === 'same-repository').map(conditionWords)))];
  if (found.length > 0) return found;
  const own = [step?.if, job.if].map((c) => (c?.kind === 'scalar' && typeof c.value === 'string' ? c.value.trim() : '')).filter((c) => c !== '' && c.length <= 200);
  return own.map((c) => `\`${c}\``);
}

/** The events a workflow runs on, through its local callers for a reusable workflow. */
function callerEvents(workflow: Workflow, repository: RepositoryModel, seen: Set<Workflow> = new Set()): string[] {
  if (seen.has(workflow)) return [];
  seen.add(workflow);
  const runs = workflowRunSets(workflow);
  const events = new Set<string>();
  for (const occasion of runs.occasions) {
    if (occasion.event !== null) events.add(occasion.event);
    else for (const caller of localCallers(workflow)) for (const event of callerEvents(caller.workflow, repository, seen)) events.add(event);
  }
  return [...events];
}

/**
 * A called job's (or step's) reach on one event of its caller (`theirs`, the caller's reach on that event):
 * the called job's own conditions stand in the way too. A fork's read-only `pull_request` run still reaches it
 * unless those conditions keep it out.
 */
function throughCaller(job: Job, step: Step | null, theirs: Reach, cache: Map<string, TrustPaths>): Reach {
  const forkPullRequest = theirs.forkPullRequest && [...FORK_RUN_EVENTS].some((event) => guardedReach(job, step, event, 'anyone', cache).level === 'anyone');
  if (theirs.event === null || theirs.level === 'collaborator' || theirs.level === 'trusted-author') return { ...theirs, forkPullRequest };
  const own = guardedReach(job, step, theirs.event, theirs.level, cache);
  const approvalMoves = own.approvalMoves || (theirs.approvalMoves === true && own.level === 'approval' && own.gates.length === 0);
  const reach: Reach = { level: own.level, event: own.level === 'collaborator' ? null : theirs.event, gates: [...new Set([...theirs.gates, ...own.gates])], forkPullRequest };
  if (approvalMoves) reach.approvalMoves = true;
  if (own.level === 'unreviewed-environment' && (own.unreadCheck === true || (theirs.unreadCheck === true && own.gates.length === 0))) reach.unreadCheck = true;
  if (own.level === 'trusted-author' && own.sameRepository !== undefined) Object.assign(reach, { gates: own.sameRepository, sameRepository: true as const });
  return reach;
}

/** Who can start a job's runs for a fork's pull request, and what stands in the way there. */
export interface ForkReach {
  /** `anyone` (no gate), `sticky-label`, `unreviewed-environment`, `approval`, `trusted-author` (fork runs are excluded) ... */
  level: ReachLevel;
  /** The event (`pull_request`, `pull_request_review` ...). */
  event: string;
  /** What stands in the way, in words (the label check, the environment ...). */
  gates: string[];
  /** For `approval`: the approval does not bind to the code (as `Reach.approvalMoves`: a label any later label event reuses). */
  approvalMoves?: boolean;
}

/**
 * The weakest reach over the occasions on which a fork's pull request starts the job with a read-only token
 * and no secrets (`pull_request`, `pull_request_review*`; through local callers for a reusable workflow, where
 * both the caller's conditions and the job's own stand in the way); null when no such occasion reaches it. A
 * maintainer's activity (`labeled`) is an approval; a fork-excluding condition makes it `trusted-author`.
 * `reachOf` folds these runs into `forkPullRequest` (anyone or not); this keeps the gate, for what a fork's code
 * can reach on the machine itself (a self-hosted runner).
 */
export function forkReach(job: Job, repository: RepositoryModel): ForkReach | null {
  const workflow = job.workflow;
  const runs = workflowRunSets(workflow);
  const set = runs.jobs.get(job);
  const occasions = set === undefined ? runs.occasions.map((_, i) => i) : occasionIndexes(set);
  let best: ForkReach | null = null;
  const better = (found: ForkReach) => {
    if (best === null || REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(best.level)) best = found;
  };
  const cache = new Map<string, TrustPaths>();
  for (const index of occasions) {
    const occasion = runs.occasions[index] as Occasion;
    if (occasion.event === null) {
      if (active.has(workflow)) continue;
      active.add(workflow);
      try {
        for (const caller of localCallers(workflow)) {
          if (caller.workflow === workflow || !callerRuns(job, null, caller)) continue;
          const theirs = forkReach(caller, repository);
          if (theirs === null) continue;
          // The called job's own conditions stand in the way too: the stronger of the two.
          const own = guardedReach(job, null, theirs.event, theirs.level, cache);
          better({ level: own.level, event: theirs.event, gates: [...new Set([...theirs.gates, ...own.gates])] });
        }
      } finally {
        active.delete(workflow);
      }
      continue;
    }
    if (!FORK_RUN_EVENTS.has(occasion.event)) continue;
    const base = occasionReach(occasion, workflow, repository);
    if (base === 'collaborator' || base === 'trusted-author') {
      better({ level: base, event: occasion.event, gates: [] });
      continue;
    }
    const found = guardedReach(job, null, occasion.event, base, cache, occasion.action);
    const gates = base === 'approval' ? [`the \`${occasion.action ?? ''}\` activity, a maintainer's act`, ...found.gates] : found.gates;
    better({ level: found.level, event: occasion.event, gates: [...new Set(gates)], ...(found.approvalMoves ? { approvalMoves: true } : {}) });
  }
  return best;
}

function guardedReach(job: Job, step: Step | null, event: string, base: ReachLevel, cache: Map<string, TrustPaths>, action: string | null = null): PathReach {
  const paths = trustOn(job, step, event, cache);
  let best: PathReach | null = null;
  const byAction = actionBound(paths) ? action : null;
  // Fork exclusion holds only when every way in at the trusted-author level keeps forks out (`Reach.sameRepository`).
  const trusted: PathReach[] = [];
  for (const path of paths) {
    const found = pathReach(path, base, byAction);
    if (found.level === 'trusted-author') trusted.push(found);
    if (best === null || REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(best.level) || (found.level === best.level && found.approvalMoves && !best.approvalMoves)) best = found;
  }
  if (best === null) return { level: 'collaborator', gates: [], approvalMoves: false };
  if (best.level !== 'trusted-author') return best;
  const { sameRepository: _same, ...rest } = best;
  if (!trusted.every((t) => t.sameRepository !== undefined)) return rest;
  return { ...rest, sameRepository: [...new Set(trusted.flatMap((t) => t.sameRepository ?? []))] };
}

/** The trust paths of a job (`step` null) or step on `event`, read once per event into `cache` (one reach's reading). */
function trustOn(job: Job, step: Step | null, event: string, cache: Map<string, TrustPaths>): TrustPaths {
  let paths = cache.get(event);
  if (paths === undefined) {
    paths = step === null ? jobTrustOn(job, event) : stepTrustOn(step, event);
    cache.set(event, paths);
  }
  return paths;
}

/** Workflows whose callers are being read (a cycle of calls, which GitHub rejects, ends here). */
const active = new Set<Workflow>();

/**
 * Who feeds a step that downloads the artifacts of a run it picks itself (by branch, pull request, or a run id it
 * computes), given the step's own reach: an outsider does not need to start the step's run, only to have their
 * pull request's run be the one picked. So a gate that only some events pass (a member's comment) holds nothing
 * back when the step also runs on an event nobody approves, one only collaborators or the clock cause (`schedule`,
 * `push`, `workflow_dispatch` ...): `anyone`, naming that event (`pickedOn`). Otherwise the step's reach.
 */
export function pickerReach(job: Job, step: Step, repository: RepositoryModel, reach: Reach): Reach {
  if (reach.level === 'anyone') return reach;
  const workflow = job.workflow;
  const runs = workflowRunSets(workflow);
  const set: RunSet | undefined = runs.steps.get(step) ?? runs.jobs.get(job);
  const occasions = set === undefined ? runs.occasions.map((_, i) => i) : occasionIndexes(set);
  for (const index of occasions) {
    const occasion = runs.occasions[index] as Occasion;
    if (occasion.event === null || FORK_RUN_EVENTS.has(occasion.event) || occasion.fork !== null) continue;
    if (occasionReach(occasion, workflow, repository) !== 'collaborator') continue;
    return { level: 'anyone', event: occasion.event, gates: [], forkPullRequest: reach.forkPullRequest, pickedOn: occasion.event };
  }
  return reach;
}

/** `anyone` or `sticky-label`: an outsider runs their content with no approval of that content. */
export function outsiderReach(reach: Reach): boolean {
  return reach.level === 'anyone' || reach.level === 'sticky-label';
}

/** An outsider can start it: anyone, a sticky label, or an environment whose reviewers could not be checked. */
export function outsiderStarts(reach: Reach): boolean {
  return outsiderReach(reach) || reach.level === 'unreviewed-environment';
}

/** Who can put a value into a step: a `Reach` with what the maintainer's act in the way vouches for. */
export interface ValueReach extends Reach {
  /**
   * A maintainer acts before the run (a comment, a label, a named actor) but that act does not vouch for the
   * value: a member's `/deploy` comment under an issue whose title an outsider wrote. The approval stands in the
   * way, but nobody read the value as code (MEDIUM with holdings, where a vouched value is LOW).
   */
  unvouched: boolean;
  /**
   * The approval is the merge of the pull request (`github.event.pull_request.merged`): a maintainer merged it,
   * and the value is text its author chose (title, body, branch name), which the merge does not vouch for as code.
   */
  merged?: true;
}

/** Events whose runs for a fork's pull request have a read-only token and no secrets. */
const FORK_RUN_EVENTS = new Set(['pull_request', 'pull_request_review', 'pull_request_review_comment']);

/**
 * Who can put a value into a job or step, over the occasions whose event brings it in (`events`; the
 * taint's), read like `reachOf` with one difference: a guard counts for the value only if it vouches for it
 * (`covers`: a same-repository check for pull request text, a member check for the comment it guards). A guard
 * that vouches makes the value a trusted party's (`trusted-author`, or `approval` for a label or a reviewed
 * environment); a maintainer's act that does not (a member's comment under an outsider's title) is an
 * `approval` marked `unvouched`; an environment whose reviewers are not known, `unreviewed-environment`; a
 * sticky label, `sticky-label`. A maintainer's activity (`labeled`, `assigned`) approves what the event carries.
 */
export function valueReach(job: Job, step: Step | null, repository: RepositoryModel, events: ReadonlySet<string>, covers: (guard: TrustGuard) => boolean): ValueReach {
  return valueReachOf(job, step, repository, events, covers, new Set());
}

function valueReachOf(job: Job, step: Step | null, repository: RepositoryModel, events: ReadonlySet<string>, covers: (guard: TrustGuard) => boolean, seen: Set<Workflow>): ValueReach {
  const workflow = job.workflow;
  const runs = workflowRunSets(workflow);
  const set: RunSet | undefined = step === null ? runs.jobs.get(job) : (runs.steps.get(step) ?? runs.jobs.get(job));
  const occasions = set === undefined ? runs.occasions.map((_, i) => i) : occasionIndexes(set);
  let best: ValueReach = { level: 'collaborator', event: null, gates: [], forkPullRequest: false, unvouched: false };
  const better = (found: ValueReach) => {
    const a = REACH_ORDER.indexOf(found.level);
    const b = REACH_ORDER.indexOf(best.level);
    if (a < b || (a === b && found.unvouched && !best.unvouched)) best = { ...found, forkPullRequest: best.forkPullRequest || found.forkPullRequest };
    else best.forkPullRequest = best.forkPullRequest || found.forkPullRequest;
  };
  const trustByEvent = new Map<string, TrustPaths>();
  for (const index of occasions) {
    const occasion = runs.occasions[index] as Occasion;
    if (occasion.event === null) {
      if (seen.has(workflow)) continue;
      seen.add(workflow);
      for (const caller of localCallers(workflow)) {
        if (caller.workflow !== workflow && callerRuns(job, step, caller)) better(calledValueReach(job, step, valueReachOf(caller, null, repository, events, covers, seen), covers, trustByEvent));
      }
      seen.delete(workflow);
      continue;
    }
    if (!events.has(occasion.event)) continue;
    const base = occasionReach(occasion, workflow, repository);
    if (base === 'collaborator' || base === 'trusted-author') {
      // A condition folded into the occasion (a same-repository check): name the guard that says so.
      const paths = base === 'trusted-author' ? trustOn(job, step, occasion.event, trustByEvent) : [];
      const gates = [...new Set(flatMap(paths, (path) => path.filter(covers).slice(0, 1).map(guardText)))];
      better({ level: base, event: null, gates, forkPullRequest: false, unvouched: false });
      continue;
    }
    if (base === 'approval' && occasion.event === 'repository_dispatch') {
      // A collaborator's dispatch naming a pull request approves running it, not the text its author wrote.
      better({ level: 'approval', event: occasion.event, gates: [`a collaborator's \`repository_dispatch\` (${dispatchGate(workflow, repository).by})`], forkPullRequest: false, unvouched: true });
      continue;
    }
    if (base === 'approval') {
      better({ level: 'approval', event: occasion.event, gates: [`the \`${occasion.action ?? ''}\` activity, a maintainer's act on what the event carries`], forkPullRequest: false, unvouched: false });
      continue;
    }
    const paths = trustOn(job, step, occasion.event, trustByEvent);
    // On an edit or a deletion of a comment, the actor is whoever edits or deletes it (a maintainer moderating an
    // outsider's comment), not its author: a check of the actor vouches for nothing the comment says.
    const changed = COMMENT_EVENTS.has(occasion.event) && (occasion.action === null || occasion.action === 'edited' || occasion.action === 'deleted');
    const coversHere = changed ? (g: TrustGuard) => !checksActor(g) && covers(g) : covers;
    const bound = actionBound(paths);
    for (const whole of paths) {
      const path = bound ? whole.filter((g) => holdsOnAction(g, occasion.action)) : whole;
      let found = valuePathReach(path, coversHere);
      if (changed && found.unvouched && path.some((g) => checksActor(g) && covers(g))) {
        found = { ...found, gates: [...found.gates, "a check of whoever caused the event, which on the comment's `edited` and `deleted` events is whoever edits or deletes it (a maintainer moderating an outsider's comment), not its author"] };
      }
      if (FORK_RUN_EVENTS.has(occasion.event)) {
        // A fork's run: read-only token, no secrets; only whether it reaches the value at all matters.
        if (found.level === 'anyone') better({ ...best, forkPullRequest: true });
        continue;
      }
      better({ ...found, event: occasion.event, forkPullRequest: false });
    }
  }
  return best;
}

/**
 * A reusable workflow's value reach through one caller: the caller's (`theirs`), then the called job's own ways in on
 * that event (a first job that checks the commenter's permission, whose output the later jobs need): the weaker of
 * them, so the stronger gate holds, with both gates named.
 */
function calledValueReach(job: Job, step: Step | null, theirs: ValueReach, covers: (guard: TrustGuard) => boolean, cache: Map<string, TrustPaths>): ValueReach {
  if (theirs.event === null || theirs.level === 'collaborator' || theirs.level === 'trusted-author') return theirs;
  let own: ReturnType<typeof valuePathReach> | null = null;
  for (const path of trustOn(job, step, theirs.event, cache)) {
    const found = valuePathReach(path, covers);
    if (own === null || REACH_ORDER.indexOf(found.level) < REACH_ORDER.indexOf(own.level)) own = found;
  }
  if (own === null || REACH_ORDER.indexOf(own.level) <= REACH_ORDER.indexOf(theirs.level)) return theirs;
  return { ...theirs, level: own.level, gates: [...new Set([...theirs.gates, ...own.gates])], unvouched: theirs.unvouched || own.unvouched };
}

/** A guard as a description names it: `the condition \`...\``, `environment \`prod\``. */
function guardText(guard: TrustGuard): string {
  if (guard.kind === 'unread-check') return unreadWords(guard);
  if (guard.kind !== 'environment') return `the condition \`${guard.condition}\``;
  return guard.reviewed === true ? `the ${guard.condition}, whose required reviewers (per the settings snapshot) approve each run,` : guard.condition;
}

/** How one way to run (a conjunction of guards) holds an outsider's value back. */
function valuePathReach(path: readonly TrustGuard[], covers: (guard: TrustGuard) => boolean): { level: ReachLevel; gates: string[]; unvouched: boolean; merged?: true; unreadCheck?: true } {
  const text = guardText;
  // A merge vouches for the code, not for the text its author wrote: the merge is a maintainer's act that lets
  // that text in (an approval not read as code), unless another guard vouches for it.
  const vouching = path.filter((g) => g.merged !== true && covers(g));
  if (vouching.length > 0) {
    const approval = vouching.every((g) => g.kind === 'label' || g.kind === 'environment');
    return { level: approval ? 'approval' : 'trusted-author', gates: [...new Set(vouching.map(text))], unvouched: false };
  }
  let level = 'anyone' as ReachLevel;
  const gates: string[] = [];
  const tighten = (to: ReachLevel, guard: TrustGuard) => {
    if (REACH_ORDER.indexOf(to) > REACH_ORDER.indexOf(level)) level = to;
    gates.push(text(guard));
  };
  for (const guard of path) {
    switch (guard.kind) {
      case 'maintainer-event':
        tighten(guard.merged === true && covers(guard) ? 'approval' : 'trusted-author', guard);
        break;
      case 'commenter':
      case 'actor':
      case 'label':
        tighten('approval', guard);
        break;
      case 'environment':
        tighten(environmentApproves(guard) ? 'approval' : 'unreviewed-environment', guard);
        break;
      case 'unread-check':
        tighten('unreviewed-environment', guard);
        break;
      case 'bypassable-label':
        tighten('sticky-label', guard);
        break;
      default:
        // A same-repository or author check that does not vouch for this value (a comment on a member's pull request).
        break;
    }
  }
  const merged = level === 'approval' && path.some((g) => g.merged === true && covers(g));
  const unread = unreadOnly(level, path);
  return { level, gates: [...new Set(gates)], unvouched: level === 'approval', ...(merged ? { merged: true as const } : {}), ...(unread ? { unreadCheck: true as const } : {}) };
}
