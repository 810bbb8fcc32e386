/**
 * One model of each job run, each fact built once when first asked for, and shared by every exploitability
 * rule and by the attack paths: when it can run (conditions.ts), who can start it and what stands in the way
 * (reach.ts), what the workspace holds and whose code each step runs (workspace.ts, execution.ts), what the
 * job holds that is worth taking (holdings.ts), which publishing jobs a job's artifacts feed (feeds.ts), which
 * container images a job run pushes itself (pushes.ts), and
 * the severity those facts give (severity.ts). Rules read these facts; they do not derive them again; findings
 * carry them for the attack paths as short tags (facts.ts).
 */
import type { RepositoryModel } from '../../model/repository.js';
import { workflowRunSets, type Job, type Step } from '../../model/workflow.js';
import { ScanCache } from '../../model/scan-cache.js';
import { conditionRunSet, intersect, legCount, legIndexes, legSystems, occasionIndexes, overlap, valueRunSet, type Occasion, type RunSet } from './conditions.js';
import { activatedVenv, stepExecutions, stepVenvs, type ContainerBuild, type Execution } from './execution.js';
import { openedBy, openRunners, openRunnerWords, type OpenRunner } from './open-runners.js';
import { calledToken, holdsNothing, jobHoldings, nothingHeldText, secretsApartFrom, splitSecrets, nothingItselfWords, openRunnerNote, runnerKind, SELF_HOSTED_VALUABLE, valuables, type DefaultToken, type Holdings, type MinorSecrets } from './holdings.js';
import { feedsPublish } from './feeds.js';
import { cacheStep, conditionAtCaller, restoresFrom, sameFamily, savesToDefaultScope, switchAtCaller, switchCaches, type CacheUse } from '../caching.js';
import { forkReach, localCallers, pickerReach, reachOf, REACH_ORDER, valueReach, type ForkReach, type Reach, type ValueReach } from './reach.js';
import { everyPathGuarded, openPermissionChecks, stepTrustOn, type TrustGuard } from '../trust-guards.js';
import { describeStep } from '../describe.js';
import { checksOutEventCommit, codeOf, mayHoldOutsiderCode, workspaceEntries, type WorkspaceEntry } from './workspace.js';
import { envReaders, laterUse, type EnvReaders, type LaterUse } from './readers.js';
import { imageOwnership, ownerNamespace, PLATFORM_OWNERS, pushedNamespace, repositoryIdentity, usesOwnership, type Ownership, type RepositoryIdentity } from './ownership.js';
import type { UsesRef } from '../../model/uses.js';
import { get, type YNode } from '../../yaml/model.js';
import { serviceAccess, serviceHoldings, type ServiceAccess } from './services.js';
import { containerAccess, containerHoldings, type ContainerAccess } from './containers.js';
import { actionFailsJob } from '../permission-actions.js';
import { pushedBefore, type ImagePush } from './pushes.js';
import { dependentJobs } from '../validation.js';
import { prHeadDispatches, type PrHeadDispatch } from '../pr-dispatch.js';
import { namesPullRequest } from '../pr-head.js';
import type { HeldWords } from './severity.js';

export type { ForkReach, Reach, ReachLevel, ValueReach } from './reach.js';
export type { Holdings, DefaultToken } from './holdings.js';
export type { Execution, ExecutionKind } from './execution.js';
export type { WorkspaceEntry, Content, Clone } from './workspace.js';
export type { EnvReaders, LaterUse } from './readers.js';
export { nothingReads } from './readers.js';
export { approvalBindsCode, jobClaim, severityOf, describeClaim, holdsText, whoText, type Claim } from './severity.js';
export { outsiderReach, outsiderStarts, REACH_ORDER, weaker } from './reach.js';
export type { ServiceAccess, ServiceMount } from './services.js';
export type { ContainerAccess } from './containers.js';
export type { ImagePush } from './pushes.js';
export { ownerFact, usesOwnership, imageOwnership, repositoryIdentity, type Ownership, type RepositoryIdentity } from './ownership.js';

/** An execution traced to its code: the workspace entry that holds what it runs (null: nothing of the workspace's). */
export interface TracedExecution {
  execution: Execution;
  /** The step of the job that runs it (the caller, for steps of a local composite action). */
  step: Step;
  code: WorkspaceEntry | null;
}

/**
 * One way an outsider's code runs in a job (RunModel `outsiderWays`): a checkout or download of pull request code
 * that later steps run, on a fork's `pull_request` run or on a privileged one.
 */
export interface OutsiderWay {
  /** The workspace entry that holds the code. */
  entry: WorkspaceEntry;
  /** The executions that run it, in order (at least one). */
  sinks: readonly TracedExecution[];
  /** A fork's `pull_request` run of the event's code (read-only token, no secrets); false: a privileged run of pull request code. */
  fork: boolean;
  /** Who starts it: on a fork's run, the job's fork reach; otherwise the reach of the steps that run it (`sinkReach`). */
  reach: Reach;
  /**
   * Behind an approval, code other than the approved commit can run: on a fork's run, a checkout that does not
   * take the commit the event names (workspace.ts `checksOutEventCommit`); otherwise pull request code not pinned
   * to the approved commit.
   */
  race: boolean;
}

export interface JobRun {
  job: Job;
  /** Who can start the job, over every occasion it runs on. */
  reach: Reach;
  /** Who can start the job's runs for a fork's pull request (read-only token, no secrets), and what stands in the way; null: none can. */
  forkReach: ForkReach | null;
  holdings: Holdings;
  /** `holdings.selfHosted`, read without the rest of the holdings (a rule that needs only the runner asks this). */
  runner: Holdings['selfHosted'];
  /** What the job holds that is worth taking on its privileged runs (words; empty: nothing). */
  valuables: readonly string[];
  /** What a fork's read-only `pull_request` run of the job holds (the machine, if self-hosted). */
  forkValuables: readonly string[];
  /**
   * `forkValuables` less what a fork's pull request already gets with its own code: the self-hosted machine when
   * this repository already runs forks' pull request code there with no approval (`holdings.runnerOpenToForks`,
   * the job itself included). What another way onto a fork's run (an injected value, a command the log can run)
   * adds; the way that opens the machine is still reported on its own (self-hosted-runner, untrusted-checkout).
   */
  forkAddedValuables: readonly string[];
  /** Why `forkAddedValuables` leaves the self-hosted machine out, in words (`holdings.runnerOpenToForks`); undefined when it does not. */
  forkMachineOpened: string | undefined;
  /** The sentence for a job whose `valuables` are empty (it names write scopes that are not worth taking). */
  nothingHeld: string;
  /** Checkouts, downloads and clones, in step order. */
  workspace: readonly WorkspaceEntry[];
  /** Everything the job's steps execute, in order, steps of local composite actions included at their call. */
  executions: readonly TracedExecution[];
  /**
   * The job's steps in order, each followed by the steps of the local composite action it calls (and of the
   * actions those call), which run at the caller's place, with its trigger, permissions and secrets.
   */
  steps: readonly CalledStep[];
}

/** A service container of a job: what its definition gives it, and what that amounts to (holdings.ts). */
export interface ServiceRun {
  access: ServiceAccess;
  holdings: Holdings;
  /** What it holds that is worth taking, in words (empty: nothing). */
  valuables: readonly string[];
}

/** A job's container (`jobs.<id>.container`): what reaches it (containers.ts), and what that amounts to. */
export interface ContainerRun {
  access: ContainerAccess;
  holdings: Holdings;
  /** What it holds that is worth taking, in words (empty: nothing). */
  valuables: readonly string[];
}

/** A step as it runs in a job: itself, or a step of a local composite action run by `caller`. */
export interface CalledStep {
  step: Step;
  /** The job's own step that runs it (the step itself for the job's steps). */
  caller: Step;
}

export interface RunModelOptions {
  /** What the settings snapshot says of the repository's default token; null when not known. */
  defaultToken?: DefaultToken;
  /** The scanned repository's `owner/name` when the caller knows it (ScanOptions.repository): its owner's code is first-party. */
  repository?: string | null;
}

/** At most this many levels of local composite actions are followed. */
const MAX_ACTION_DEPTH = 4;
/** Steps kept per directory that created a virtual environment there (the most recent): a hostile job of thousands of such steps is read in linear time. */
const MAX_VENV_CREATORS = 8;

/** Events whose payload has `github.event.pull_request` (and `github.head_ref`). */
const PULL_REQUEST_PAYLOAD: ReadonlySet<string> = new Set(['pull_request', 'pull_request_target', 'pull_request_review', 'pull_request_review_comment']);
const WORKFLOW_RUN_PAYLOAD: ReadonlySet<string> = new Set(['workflow_run']);

/**
 * The events on which a pull request checkout's ref holds pull request code, when its ref is read from one event's
 * payload (the source its evidence ends with: `github.event.pull_request.head.sha`, `github.head_ref`,
 * `github.event.workflow_run.head_sha`); on other events that value is empty, and the checkout takes the run's own
 * commit. Null when not known (a ref from a script, an artifact, an API lookup): any event.
 */
export function payloadEvents(entry: WorkspaceEntry): ReadonlySet<string> | null {
  const evidence = entry.checkout?.evidence;
  if (evidence === undefined) return null;
  const source = /(?:^|<- |`)(github\.[\w.*]+)`?$/.exec(evidence)?.[1];
  if (source === undefined) return null;
  if (source.startsWith('github.event.pull_request.') || source === 'github.head_ref') return PULL_REQUEST_PAYLOAD;
  if (source.startsWith('github.event.workflow_run.')) return WORKFLOW_RUN_PAYLOAD;
  return null;
}

/**
 * True when what `sink` runs can use the job's token: it runs on the runner, or it is a container build (whose
 * commands run in their own container) handed the token as a build argument or build secret.
 */
export function seesJobToken(sink: TracedExecution): boolean {
  return sink.execution.build === undefined || sink.execution.build.token;
}

/** True when what `sink` runs runs on the runner itself, with the job's files, environment and caches (not in a container build's own container). */
export function onRunner(sink: TracedExecution): boolean {
  return sink.execution.build === undefined;
}

/**
 * True when `job` has a step that uses the same remote action as `step` (`owner/repo[/path]`, any ref): whoever
 * can change that action's code runs it in `job` directly, so a way into `job` through what `step` leaves behind
 * (a cache entry `job` restores) gives them nothing more.
 */
function runsSameAction(step: Step, job: Job): boolean {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return false;
  const path = ref.path.toLowerCase();
  return job.steps.some((s) => s.usesRef?.kind === 'repository' && s.usesRef.slug === ref.slug && s.usesRef.path.toLowerCase() === path);
}

export class RunModel {
  readonly repository: RepositoryModel;
  readonly defaultToken: DefaultToken;
  readonly #jobs = new ScanCache<Job, JobRun>();
  readonly #steps = new ScanCache<Step, Reach>();
  readonly #known: string | null;

  constructor(repository: RepositoryModel, options: RunModelOptions = {}) {
    this.repository = repository;
    this.defaultToken = options.defaultToken ?? null;
    this.#known = options.repository ?? null;
  }

  /** Who the scanned repository is: its name and owner when known, and the owners and images its workflows show as its own. */
  get identity(): RepositoryIdentity {
    return repositoryIdentity(this.repository, this.#known);
  }

  /** Who owns the code a `uses:` runs (ownership.ts): `local`, `first-party`, `platform` or `third-party`. */
  ownershipOf(ref: UsesRef): Ownership {
    return usesOwnership(ref, this.identity, this.repository);
  }

  /** Who owns a container image reference (ownership.ts). */
  imageOwnershipOf(reference: string): Ownership {
    return imageOwnership(reference, this.identity);
  }

  /**
   * The push of the image `reference` names by `step`'s own run before `step` reads it (at `offset` of its script):
   * an earlier step of the job, earlier in the same script, or a job it needs (pushes.ts); null when none did.
   */
  imagePushedBefore(step: Step, reference: string, offset?: number): ImagePush | null {
    return pushedBefore(this.repository, step, reference, offset);
  }

  /** The repository owner's namespace an image is published under, or null (ownership.ts `ownerNamespace`). */
  imageOwnerNamespaceOf(reference: string): string | null {
    return ownerNamespace(reference, this.identity);
  }

  /** The namespace the repository's workflows push to that an image is under, or null (ownership.ts `pushedNamespace`). */
  imagePushedNamespaceOf(reference: string): string | null {
    return pushedNamespace(reference, this.identity);
  }

  /**
   * What a service container of `job` (`definition`: the value under its name) is given and so holds
   * (services.ts): a service runs beside the job and gets only what its definition gives it.
   */
  service(job: Job, definition: YNode): ServiceRun {
    const access = serviceAccess(job, definition);
    const holdings = serviceHoldings(access, this.job(job).holdings);
    return { access, holdings, valuables: valuables(holdings, this.defaultToken) };
  }

  readonly #prHeadDispatches = new ScanCache<Job, readonly PrHeadDispatch[]>();

  /**
   * The job's steps that hand a pull request's head to another repository's CI (pr-dispatch.ts), read once per
   * job: untrusted-checkout and dangerous-trigger both read them. A sibling repository a script names by
   * `owner: context.repo.owner` is written under this repository's owner when the scan knows it (the caller's,
   * or the one owner its workflows name).
   */
  prHeadDispatches(job: Job): readonly PrHeadDispatch[] {
    let found = this.#prHeadDispatches.get(job);
    if (found === undefined) {
      // The identity only for a step that dispatches to a repository it names (most jobs have none).
      found = prHeadDispatches(
        job,
        () => this.identity.names,
        () => {
          const identity = this.identity;
          return identity.owner ?? (identity.owners.size === 1 ? ([...identity.owners][0] ?? null) : null);
        },
      );
      this.#prHeadDispatches.set(job, found);
    }
    return found;
  }

  readonly #containers = new ScanCache<Job, ContainerRun>();

  /**
   * What the container of `job` is given and so holds (containers.ts): the secrets and the token its steps get,
   * the job's OIDC, self-hosted machine and publish; null when the job has no container.
   */
  container(job: Job): ContainerRun | null {
    const definition = job.container;
    if (definition === undefined) return null;
    let found = this.#containers.get(job);
    if (found === undefined) {
      const access = containerAccess(job, definition, this.job(job).steps, this.repository);
      const holdings = containerHoldings(access, this.job(job).holdings);
      found = { access, holdings, valuables: valuables(holdings, this.defaultToken) };
      this.#containers.set(job, found);
    }
    return found;
  }

  /**
   * True when what a step produces can end up in a release: its job publishes, or hands its build (artifacts, or
   * cache entries saved on a run the step runs in) to a job that publishes. A step of a local composite action:
   * when one of the jobs that call it does (false with no caller here).
   */
  shipsRelease(step: Step): boolean {
    return this.jobSteps(step).some((caller) => {
      const job = caller.job as Job;
      return this.job(job).holdings.publishes !== null || this.releaseFeed(job, caller) !== null;
    });
  }

  /**
   * How a job that holds nothing worth taking still supplies a release, in words: what it builds reaches a job
   * that publishes, or it saves cache entries such a job restores; null when it does neither. `from`: one of the
   * job's steps (the one whose code a finding is about): only cache entries saved on runs that step runs in count,
   * since code it runs can plant nothing in a save of a run it is not part of.
   */
  releaseFeed(job: Job, from: Step | null = null): string | null {
    const fed = feedsPublish(job, this);
    if (fed.length > 0) return `what it builds reaches ${fed.slice(0, 2).map((j) => `job \`${j.id}\``).join(' and ')}, which publishes`;
    if (this.#savesShippedCache(job, from)) return 'it saves cache entries that a job which publishes restores';
    return null;
  }

  job(job: Job): JobRun {
    let run = this.#jobs.get(job);
    if (run === undefined) {
      run = this.#build(job);
      this.#jobs.set(job, run);
    }
    return run;
  }

  /** Who can start a step (its job's reach narrowed by the step's own condition and earlier permission checks). */
  stepReach(step: Step): Reach {
    if (step.job === null) return { level: 'collaborator', event: null, gates: [], forkPullRequest: false };
    let reach = this.#steps.get(step);
    if (reach === undefined) {
      // Only an earlier script (a `run:` or a github-script's `script`) or a permission action that fails its
      // step (permission-actions.ts) can fail the job for outsiders.
      reach = step.if === undefined && !step.job.steps.some((s) => s.index < step.index && (s.run !== undefined || get(s.with, 'script') !== undefined || actionFailsJob(s))) ? this.job(step.job).reach : reachOf(step.job, step, this.repository);
      reach = withNoGate(reach, step);
      this.#steps.set(step, reach);
    }
    return reach;
  }

  /**
   * Who feeds a step that downloads the artifacts of a run it picks itself (reach.ts `pickerReach`): its reach, or
   * anyone when it also runs on an event nobody approves (`schedule`, `push` ...), since the outsider only has to get
   * their pull request's run picked.
   */
  pickerReach(step: Step): Reach {
    const reach = this.stepReach(step);
    return step.job === null ? reach : pickerReach(step.job, step, this.repository, reach);
  }

  /**
   * Who can start a job (`step` null) or step on the occasions of one event only (reach.ts `reachOf` with
   * `only`): a `workflow_run` job's reach on `workflow_run` alone, whatever else the workflow runs on.
   */
  reachOn(job: Job, step: Step | null, event: string): Reach {
    return reachOf(job, step, this.repository, event);
  }

  /**
   * True when two steps of one job can run in the same job run (a common occasion and matrix leg); with `events`, on
   * an occasion of one of them (or of an event not known): a checkout whose ref is read from one event's payload
   * holds pull request code only on that event, so a step that runs only on others (`if: github.event_name ==
   * 'push'`) never runs it.
   */
  sameRun(a: Step, b: Step, events: ReadonlySet<string> | null = null): boolean {
    if (a.job === null || b.job === null || a.job !== b.job) return a.job === b.job;
    const runs = workflowRunSets(a.job.workflow);
    const x = runs.steps.get(a);
    const y = runs.steps.get(b);
    if (x === undefined || y === undefined) return true;
    if (events === null || x.bits.length !== y.bits.length) return overlap(x, y);
    const legs = legCount(x);
    for (let i = 0; i < x.bits.length; i++) {
      if (x.bits[i] !== 1 || y.bits[i] !== 1) continue;
      const event = x.occasions[Math.floor(i / legs)]?.event ?? null;
      if (event === null || events.has(event)) return true;
    }
    return false;
  }

  /** The run set of a step (or job), for callers that compare runs across jobs. */
  runSet(step: Step): RunSet | undefined {
    if (step.job === null) return undefined;
    return workflowRunSets(step.job.workflow).steps.get(step);
  }

  /** The run set of a job, for callers that compare runs across jobs (`sharedOccasion`). */
  jobRunSet(job: Job): RunSet | undefined {
    return workflowRunSets(job.workflow).jobs.get(job);
  }

  readonly #legSystems = new ScanCache<Job, readonly (string | null)[]>();

  /**
   * `runner.os` (`Linux`, `Windows`, `macOS`) of the legs of `set` (a run set of one of `job`'s steps; the job's own
   * when undefined) on which it runs on an occasion that `keep` accepts, each once (conditions.ts `legSystems`:
   * `runs-on` resolved through each leg's matrix values; a custom label that names a system as one of its words,
   * `gemini-windows-16-core`, counts as that system: this answers whether two steps share a system, and folds no
   * condition). Null stands for a leg whose system is not known (a self-hosted label that names none, a value the
   * model cannot resolve), and `[null]` is the answer when no leg is left or the job's runs are not known.
   */
  systems(job: Job, set: RunSet | undefined, keep?: (occasion: Occasion) => boolean): (string | null)[] {
    const own = this.jobRunSet(job);
    const within = set ?? own;
    if (within === undefined) return [null];
    const mine = within.legs === own?.legs;
    let known = mine ? this.#legSystems.get(job) : undefined;
    if (known === undefined) {
      known = legSystems(job, within.legs, true);
      if (mine) this.#legSystems.set(job, known);
    }
    const all = known;
    const found = [...new Set(legIndexes(within, keep).map((l) => all[l] ?? null))];
    return found.length === 0 ? [null] : found;
  }

  /**
   * The workflow steps a step runs at: the step itself in a job, or, for a step of a local composite action,
   * the job steps that call the action (through at most MAX_ACTION_DEPTH levels of composite actions).
   */
  jobSteps(step: Step): Step[] {
    if (step.job !== null) return [step];
    const found: Step[] = [];
    const seen = new Set<Step>();
    let frontier: Step[] = [step];
    for (let depth = 0; depth < MAX_ACTION_DEPTH && frontier.length > 0; depth++) {
      const next: Step[] = [];
      for (const inner of frontier) {
        if (inner.owner.kind !== 'action') continue;
        for (const caller of this.repository.callersOf(inner.owner)) {
          if (seen.has(caller)) continue;
          seen.add(caller);
          if (caller.job !== null) found.push(caller);
          else next.push(caller);
        }
      }
      frontier = next;
    }
    return found;
  }

  /** Who can put a value brought in by `events` into a step (reach.ts `valueReach`); `covers`: the guards that vouch for it. */
  valueReach(step: Step, events: ReadonlySet<string>, covers: (guard: TrustGuard) => boolean): ValueReach {
    if (step.job === null) return { level: 'collaborator', event: null, gates: [], forkPullRequest: false, unvouched: false };
    return withNoGate(valueReach(step.job, step, this.repository, events, covers), step);
  }

  /**
   * The events on which a step can run (its run set's occasions; a reusable workflow's: its local callers'
   * events); empty when not known (a composite action's step, a workflow whose callers are elsewhere).
   */
  eventsOf(step: Step): string[] {
    const set = this.runSet(step);
    if (set === undefined) return [];
    const events = new Set<string>();
    for (const index of occasionIndexes(set)) {
      const event = set.occasions[index]?.event;
      if (event !== null && event !== undefined) events.add(event);
      else if (step.job !== null) for (const caller of localCallers(step.job.workflow)) for (const e of this.#jobEvents(caller)) events.add(e);
    }
    return [...events];
  }

  /** True when `step` can run on `event`, or its events are not known (`eventsOf` empty). */
  stepRunsOn(step: Step, event: string): boolean {
    const events = this.eventsOf(step);
    return events.length === 0 || events.includes(event);
  }

  #jobEvents(job: Job): string[] {
    const runs = workflowRunSets(job.workflow);
    const set = runs.jobs.get(job);
    if (set === undefined) return [];
    const events = new Set<string>();
    for (const index of occasionIndexes(set)) {
      const event = set.occasions[index]?.event;
      if (event !== null && event !== undefined) events.add(event);
    }
    return [...events];
  }

  /**
   * For the supply-chain rules (a compromised upstream: an action's, a download host's, a script's): true when
   * the job a step runs in holds nothing worth taking (holdings.ts `holdsNothing`: a read-only token, or the
   * default token of a job that declares no `permissions:`, and no secret, OIDC, self-hosted machine or publish)
   * and hands nothing it builds to a job that publishes (feeds.ts). A step of a local composite action is judged
   * at the job steps that call it: true only when every one of them supplies nothing. With no caller here, an action
   * kept under `.github/` (the repository's own helper for its own workflows, which none of them uses) supplies
   * nothing, and any other action (one published for other repositories' jobs, whose holdings are not known) does.
   */
  suppliesNothing(step: Step): boolean {
    const callers = this.jobSteps(step);
    if (callers.length === 0) return internalUncalled(step);
    return callers.every((caller) => this.#stepSuppliesNothing(caller));
  }

  /**
   * What a compromised upstream reaches through a step, in words, for the supply-chain rules' descriptions: what
   * the job holds (`the job holds secret \`NPM_TOKEN\``), or how it supplies a release while holding nothing
   * (what it builds reaches a job that publishes; cache entries such a job restores). A step of a local composite
   * action is described at the first of its callers that supplies something (or says no workflow here runs it).
   */
  /**
   * For the supply-chain rules' LOW descriptions: why a step of an action kept under `.github/` that no workflow
   * here calls reaches nothing (`suppliesNothing` is true for it); null for any other step.
   */
  uncalledNote(step: Step): string | null {
    if (!internalUncalled(step) || this.jobSteps(step).length > 0) return null;
    return 'no workflow here runs this action, kept under `.github/` for the repository\'s own workflows, so a change upstream reaches no job\'s holdings until one does (what that job holds then decides)';
  }

  supplyText(step: Step): string {
    const callers = this.jobSteps(step);
    if (callers.length === 0)
      return internalUncalled(step)
        ? 'no workflow here runs this action, kept under `.github/` for the repository\'s own workflows, so no job holds anything through it until one does'
        : 'no workflow here runs this action, so what its jobs hold is not known';
    const caller = callers.find((c) => !this.#stepSuppliesNothing(c)) ?? (callers[0] as Step);
    const job = caller.job as Job;
    const run = this.holdingsAt(caller);
    const whose = step.job === null ? `job \`${job.id}\`, which runs this action,` : 'the job';
    if (!holdsNothing(run.holdings, this.defaultToken)) return `${whose} holds ${run.valuables.join(', ')}`;
    const feed = this.releaseFeed(job, caller);
    if (feed !== null) return `${whose} holds ${nothingItselfWords(run.holdings, this.defaultToken)}, but ${feed}`;
    return step.job === null ? `the jobs that run this action hold nothing worth taking` : run.nothingHeld;
  }

  /**
   * The chat webhooks, coverage upload tokens and identifiers the jobs a step runs in hold (holdings.ts `webhooks`,
   * `uploadTokens`, `identifiers`; a composite action's step: its callers'), each once.
   */
  minorAt(step: Step): MinorSecrets {
    const webhooks = new Set<string>();
    const uploadTokens = new Set<string>();
    const identifiers = new Set<string>();
    for (const caller of this.jobSteps(step)) {
      const holdings = this.job(caller.job as Job).holdings;
      for (const name of holdings.webhooks) webhooks.add(name);
      for (const name of holdings.uploadTokens) uploadTokens.add(name);
      for (const name of holdings.identifiers) identifiers.add(name);
    }
    // A step of a job (not of an action, whose callers' runners differ): whether its runner is open to forks.
    const open = step.job !== null && openRunnerNote(this.job(step.job).holdings) !== '';
    return { webhooks: [...webhooks], uploadTokens: [...uploadTokens], identifiers: [...identifiers], ...(open ? { openRunner: true as const } : {}) };
  }

  /**
   * `suppliesNothing` for a job that calls another owner's reusable workflow (`jobs.<id>.uses`): the called
   * workflow's jobs get no more than the call gives them (a token capped by the calling job's `permissions:`, the
   * secrets of its `secrets:` or every one with `inherit`, OIDC only with `id-token: write`; another owner's
   * workflow cannot use this repository's self-hosted runners), so true when the calling job holds nothing worth
   * taking and no job of the workflow that needs it, directly or through other jobs, publishes: what the called
   * workflow uploads or outputs is not known here.
   */
  callSuppliesNothing(job: Job): boolean {
    if (!holdsNothing(this.job(job).holdings, this.defaultToken)) return false;
    return dependentJobs(job).every((other) => this.job(other).holdings.publishes === null);
  }

  readonly #supplies = new ScanCache<Step, boolean>();

  readonly #holdingsAt = new ScanCache<Step, { holdings: Holdings; valuables: readonly string[]; nothingHeld: string }>();

  /**
   * What a job step's code can take: its job's holdings, less the secrets that only steps which never run in the same
   * job run name (another matrix leg, a contradictory condition: holdings.ts `secretsApartFrom`). A job whose steps
   * all run wherever it runs is its job's holdings.
   */
  holdingsAt(step: Step): { holdings: Holdings; valuables: readonly string[]; nothingHeld: string } {
    const job = step.job as Job;
    const run = this.job(job);
    const sets = workflowRunSets(job.workflow);
    const own = sets.jobs.get(job);
    if (job.steps.every((s) => sets.steps.get(s) === own)) return run;
    let found = this.#holdingsAt.get(step);
    if (found === undefined) {
      const apart = secretsApartFrom(job, step, (a, b) => this.sameRun(a, b));
      if (apart.length === 0) found = run;
      else {
        const holdings = { ...run.holdings, secrets: run.holdings.secrets.filter((n) => !apart.includes(n)) };
        found = { holdings, valuables: valuables(holdings, this.defaultToken), nothingHeld: nothingHeldText(holdings) };
      }
      this.#holdingsAt.set(step, found);
    }
    return found;
  }

  /**
   * True when a job step's code supplies nothing: its job holds nothing worth taking, hands no build to a job that
   * publishes, and saves no cache entry a publishing job restores on a run the step runs in.
   */
  #stepSuppliesNothing(step: Step): boolean {
    let found = this.#supplies.get(step);
    if (found === undefined) {
      const job = step.job as Job;
      found = holdsNothing(this.holdingsAt(step).holdings, this.defaultToken) && feedsPublish(job, this).length === 0 && !this.#savesShippedCache(job, step);
      this.#supplies.set(step, found);
    }
    return found;
  }

  /**
   * The runs on which a cache step saves or restores, at `caller` (the job step that runs it): the caller's run
   * set, narrowed by the step's own `if:` when it is a step of a local composite action, and by the inputs that
   * switch caching by the run (`cache: \${{ github.event_name == 'push' }}`; a composite action's step that hands
   * an input on, `enable-cache: \${{ inputs.enable-cache }}`, is read at the caller: the value it gives, else the
   * input's declared default, caching.ts `switchAtCaller`); undefined when not known.
   */
  cacheRunSet(use: CacheUse, caller: Step): RunSet | undefined {
    const job = caller.job;
    let set = this.runSet(caller);
    if (set === undefined || job === null) return set;
    // A composite action's step: its own `if:`, with the inputs it reads as the caller gives them.
    if (use.step !== caller) set = conditionRunSet(conditionAtCaller(use.step, caller, this.repository) ?? use.step.if, job, set);
    for (const s of use.switches) {
      // A composite action's step handing an input on: the caller's value, or the input's default when it gives none.
      const at = switchAtCaller(s, use.step, caller, this.repository);
      if (at === undefined) set = valueRunSet(s.node, job, set, s.on);
      else if ('node' in at) set = valueRunSet(at.node, job, set, s.on);
      else if (!switchCaches(s, at.text)) set = { ...set, bits: new Uint8Array(set.bits.length) };
    }
    return set;
  }

  readonly #cacheSaves = new ScanCache<Job, { use: CacheUse; set: RunSet | undefined }[]>();

  /** The job's steps that save cache entries, each with the runs it can save on (`cacheRunSet`); read once per job. */
  #jobCacheSaves(job: Job): { use: CacheUse; set: RunSet | undefined }[] {
    let found = this.#cacheSaves.get(job);
    if (found === undefined) {
      found = this.job(job).steps.flatMap(({ step, caller }) => {
        const use = cacheStep(step);
        return use === null || !use.saves ? [] : [{ use, set: this.cacheRunSet(use, caller) }];
      });
      this.#cacheSaves.set(job, found);
    }
    return found;
  }

  /**
   * True when a job saves cache entries, on a run in the default branch's cache scope (caching.ts
   * `savesToDefaultScope`: not a pull request's merge ref, a tag, or a branch a maintainer picks for a manual
   * dispatch), of a family that a job which publishes (or feeds a publish) restores: code running in it can plant
   * what a release builds from. `from` (one of the job's steps): only saves on runs that step runs in count.
   */
  #savesShippedCache(job: Job, from: Step | null): boolean {
    // Each save at the runs it can save on (its own condition, the caller's for a composite action's step, and
    // the inputs that switch caching), and of those only the runs `from` runs in: a save only on pull request
    // runs, or code that runs only on them, plants nothing a release reads, whatever else the job runs on.
    const all = this.#jobCacheSaves(job);
    if (all.length === 0) return false;
    const within = from === null ? undefined : this.runSet(from);
    const saves = all.filter(({ set }) => this.#savesDefaultScope(job, set !== undefined && within !== undefined ? intersect(set, within) : (set ?? within), 0)).map(({ use }) => use);
    if (saves.length === 0) return false;
    // A publishing job that runs `from`'s action itself is its controller's already: the cache adds no way in.
    const shipped = this.#shippedRestores().filter((restore) => from === null || restore.step.job === null || !runsSameAction(from, restore.step.job));
    // A restore keyed by its run's own id reads only what its own workflow run saved (caching.ts `ownRunOnly`).
    return saves.some((save) => shipped.some((restore) => sameFamily(save, restore) && restoresFrom(restore, restore.step.job?.workflow, job.workflow)));
  }

  /**
   * True when some run of `set` (a step's or job's of `job`) can be in the default branch's cache scope: one of its
   * occasions' events saves there (caching.ts `savesToDefaultScope`); in a reusable workflow, when one of its
   * local callers can (or it has none here: not known).
   */
  #savesDefaultScope(job: Job, set: RunSet | undefined, depth: number): boolean {
    if (set === undefined) return true;
    for (const index of occasionIndexes(set)) {
      const occasion = set.occasions[index];
      if (occasion === undefined) continue;
      if (occasion.event !== null) {
        if (savesToDefaultScope(occasion.event, occasion.ref)) return true;
        continue;
      }
      const callers = localCallers(job.workflow);
      if (callers.length === 0 || depth >= MAX_ACTION_DEPTH) return true;
      if (callers.some((caller) => this.#savesDefaultScope(caller, this.jobRunSet(caller), depth + 1))) return true;
    }
    return false;
  }

  #shipped: CacheUse[] | undefined;

  /**
   * Cache restores of every job of the repository that publishes (read once per scan, from the jobs' own steps
   * and holdings only: no job's run is built for it).
   */
  #shippedRestores(): CacheUse[] {
    if (this.#shipped !== undefined) return this.#shipped;
    const found: CacheUse[] = [];
    for (const workflow of this.repository.workflows) {
      for (const job of workflow.jobs) {
        if (jobHoldings(job).publishes === null) continue;
        for (const step of job.steps) {
          const use = cacheStep(step);
          if (use !== null && use.restores) found.push(use);
        }
      }
    }
    this.#shipped = found;
    return found;
  }

  /**
   * Who can make code run through `sinks`, given `reach`, who can bring it in: when every sink is a command of
   * an AI agent whose action runs only for an actor with write access (`Execution.startedBy`), a maintainer's
   * act starts what runs (an approval, after which the code can still change); otherwise `reach` itself.
   * `stepReach`: who starts a step that runs the code (`pickerReach` for files of a run the job picks itself).
   */
  sinkReach(reach: Reach, sinks: readonly TracedExecution[], stepReach: (step: Step) => Reach = (step) => this.stepReach(step)): Reach {
    if (sinks.length === 0 || REACH_ORDER.indexOf(reach.level) >= REACH_ORDER.indexOf('approval')) return reach;
    const gates: string[] = [];
    for (const sink of sinks) {
      const gate = sink.execution.startedBy;
      if (gate === undefined) return this.#sinkStepsReach(reach, sinks, stepReach);
      if (!gates.includes(gate)) gates.push(gate);
    }
    const { approvalMoves: _moves, ...rest } = reach;
    return { ...rest, level: 'approval', gates: [...new Set([...reach.gates, ...gates])] };
  }

  /**
   * When every step that runs the code is itself kept from outsiders where the step that brings it in is not
   * (its own `if:` on a permission check's output, a check that holds only on some activities of the event:
   * the code lands on a deleted comment, but nothing runs it there), the weakest of those steps' reach.
   */
  #sinkStepsReach(reach: Reach, sinks: readonly TracedExecution[], stepReach: (step: Step) => Reach): Reach {
    let weakest: Reach | null = null;
    for (const sink of sinks) {
      if (sink.step.job === null) return reach;
      const theirs = stepReach(sink.step);
      if (REACH_ORDER.indexOf(theirs.level) <= REACH_ORDER.indexOf(reach.level)) return reach;
      if (weakest === null || REACH_ORDER.indexOf(theirs.level) < REACH_ORDER.indexOf(weakest.level)) weakest = theirs;
    }
    return weakest ?? reach;
  }

  /** Executions after `entry` (in the same run) that run the code it holds. */
  sinksOf(run: JobRun, entry: WorkspaceEntry): TracedExecution[] {
    const events = payloadEvents(entry);
    return run.executions.filter((t) => t.code === entry && this.sameRun(entry.step, t.step, events));
  }

  /**
   * What code run through `sinks` holds, in a claim's words (severity.ts `HeldWords`): the job's, unless every sink
   * is a container image build (`Execution.build`), whose commands run in the build's own container with none of
   * the job's token, secrets, OIDC or files: then only what the builds are handed (secrets and the token, as build
   * arguments or build secrets), the image they push under a tag that does not name the pull request (one that does
   * is that pull request's own build, which nobody gets unless they ask for it), and a self-hosted machine, whose
   * Docker daemon and caches the build's commands share.
   */
  heldBy(run: JobRun, sinks: readonly TracedExecution[]): HeldWords & { holdings: Holdings } {
    if (sinks.length === 0 || sinks.some((t) => t.execution.build === undefined)) return run;
    const names: string[] = [];
    let token = false;
    const pushed: string[] = [];
    const own: string[] = [];
    for (const { execution } of sinks) {
      const build = execution.build as ContainerBuild;
      for (const name of build.secrets) if (!names.includes(name)) names.push(name);
      if (build.token) token = true;
      if (build.push === null) continue;
      const tags = build.push.tags;
      if (tags.length > 0 && tags.every((tag) => namesPullRequest(tag, execution.step, this.repository))) own.push(...tags);
      else pushed.push(...(tags.length > 0 ? tags : ['its image']));
    }
    const base = run.holdings;
    const split = splitSecrets(run.job.workflow, names);
    const { calledWith, fetches: _fetches, ...rest } = base;
    const holdings: Holdings = {
      ...rest,
      ...(token && calledWith !== undefined ? { calledWith } : {}),
      token: token ? base.token : { kind: 'scopes', writes: [] },
      secrets: split.credentials,
      webhooks: split.webhooks,
      uploadTokens: split.uploadTokens,
      identifiers: split.identifiers,
      inheritsSecrets: false,
      dynamicSecrets: null,
      oidc: false,
      publishes: pushed.length > 0 ? `the image the build pushes, as ${pushed.slice(0, 2).map((t) => `\`${t.slice(0, 80)}\``).join(', ')}` : null,
      tokenWriter: null,
    };
    const inside = `the build's commands run in its own container, which gets none of the job's token, secrets or OIDC${names.length > 0 || token ? '' : ' (nothing is handed to it as a build argument or build secret)'}${own.length > 0 ? `, and it pushes its image only under a tag that names the pull request (\`${(own[0] as string).slice(0, 80)}\`)` : ''}`;
    const found = valuables(holdings, token ? this.defaultToken : 'read');
    return { holdings, valuables: found, forkValuables: run.forkValuables, nothingHeld: `${inside}; ${nothingHeldText(holdings).replace(/^the job holds/, 'the build holds')}` };
  }

  /**
   * What the steps from `entry` on do with it when none runs its code (readers.ts): the first that may load
   * configuration from it (an unknown program, a third-party action on a movable ref), and what the others run.
   */
  laterUse(run: JobRun, entry: WorkspaceEntry): LaterUse {
    const events = payloadEvents(entry);
    return laterUse(run.steps, entry, (ref) => this.ownershipOf(ref), this.repository, (a, b) => this.sameRun(a, b, events));
  }

  readonly #envReaders = new ScanCache<Step, EnvReaders>();

  /**
   * The steps that run with what `step` writes to `$GITHUB_ENV` / `$GITHUB_PATH` (readers.ts): its job's later
   * steps in the same run, and earlier actions' post steps. Both empty: nothing reads the variables it defines.
   */
  envReaders(step: Step): EnvReaders {
    let found = this.#envReaders.get(step);
    if (found === undefined) {
      found = envReaders(step, (a, b) => this.sameRun(a, b));
      this.#envReaders.set(step, found);
    }
    return found;
  }

  /**
   * The job's clones of someone else's repository (not this repository, its owner's or GitHub's) at a branch or tag
   * (not checked out at a full SHA) that a later step builds or runs: code that changes whenever that repository's
   * maintainers push, one more mutable input of the machine, with the first step that runs it.
   */
  mutableClones(run: JobRun): { entry: WorkspaceEntry; sink: TracedExecution }[] {
    const found: { entry: WorkspaceEntry; sink: TracedExecution }[] = [];
    for (const entry of run.workspace) {
      const clone = entry.clone;
      if (entry.kind !== 'clone' || clone === undefined || clone.pinned || entry.content !== 'other') continue;
      const owner = clone.repository?.split('/')[0] ?? null;
      if (owner !== null && (this.identity.owners.has(owner) || PLATFORM_OWNERS.has(owner))) continue;
      const sink = this.sinksOf(run, entry)[0];
      if (sink !== undefined) found.push({ entry, sink });
    }
    return found;
  }

  #build(job: Job): JobRun {
    return new LazyJobRun(job, this);
  }

  #openRunners: readonly OpenRunner[] | undefined;

  /**
   * The job of this repository that already runs forks' pull request code with no approval on every runner `job`
   * can land on (open-runners.ts; itself when it is one), or null: one fact per scan, read by the rules through the
   * job's holdings (`runnerOpenToForks`), where the self-hosted machine is then not worth taking. Finding the
   * fork-running jobs reads their workspace, executions and reach (`outsiderWays`), never a job's holdings.
   */
  runnerOpenedBy(job: Job): Job | null {
    this.#openRunners ??= openRunners(this.repository.workflows.flatMap((w) => w.jobs), (j) => this.#runsForksCode(j));
    return openedBy(job, this.#openRunners);
  }

  /** True when anyone, with no approval, gets a pull request's code run in the job (a fork's run, or a privileged one). */
  #runsForksCode(job: Job): boolean {
    return this.outsiderWays(job).some((way) => way.reach.level === 'anyone');
  }

  readonly #outsiderWays = new ScanCache<Job, readonly OutsiderWay[]>();
  readonly #privilegedWays = new ScanCache<Job, readonly OutsiderWay[]>();

  /**
   * The ways an outsider's code runs in the job, in workspace order (for one entry, a fork's run first): on a
   * fork's `pull_request` run, a checkout of the event's code that a later step runs; on a privileged run, a
   * checkout or download of pull request code that a later step runs (not where only trusted authors reach it).
   * Whoever starts each and what stands in the way is its `reach`; none reach a job that calls a reusable workflow.
   */
  outsiderWays(job: Job): readonly OutsiderWay[] {
    let found = this.#outsiderWays.get(job);
    if (found === undefined) {
      found = this.#ways(job, true);
      this.#outsiderWays.set(job, found);
    }
    return found;
  }

  /**
   * The privileged ways of `outsiderWays` alone (not `fork`), in the same order: what the token's readers need.
   * Most jobs hold no pull request code on a privileged run, and then neither the job's fork reach nor its
   * executions are worked out (a fork's run of its own checkout matters only on a self-hosted runner), nor its
   * workspace when nothing could put such code there (`mayHoldOutsiderCode`).
   */
  privilegedWays(job: Job): readonly OutsiderWay[] {
    let found = this.#privilegedWays.get(job);
    if (found === undefined) {
      const ways = this.#outsiderWays.get(job)?.filter((way) => !way.fork) ?? (job.uses !== undefined || !mayHoldOutsiderCode(job, this.repository) ? [] : this.#ways(job, false));
      found = ways.some((way) => way.sinks.some((t) => !seesJobToken(t))) ? this.#tokenSinks(ways) : ways;
      this.#privilegedWays.set(job, found);
    }
    return found;
  }

  /**
   * `ways` with only the sinks that run beside the job's token (`seesJobToken`: not a container build that is not
   * handed it), and without the ways left with none; each way's reach is worked out again from the sinks it keeps.
   */
  #tokenSinks(ways: readonly OutsiderWay[]): OutsiderWay[] {
    const kept: OutsiderWay[] = [];
    for (const way of ways) {
      const sinks = way.sinks.filter(seesJobToken);
      const first = sinks[0];
      if (first === undefined) continue;
      kept.push(sinks.length === way.sinks.length ? way : { ...way, sinks, reach: this.sinkReach(this.stepReach(first.step), sinks) });
    }
    return kept;
  }

  #ways(job: Job, withFork: boolean): OutsiderWay[] {
    const ways: OutsiderWay[] = [];
    if (job.uses !== undefined) return ways;
    const run = this.job(job);
    for (const entry of run.workspace) {
      const fork = withFork && entry.forkCode ? run.forkReach : null;
      const forkWay = fork !== null;
      const privileged = entry.content === 'outsider' && entry.checkout?.hiddenBy !== 'trusted-author';
      if (!forkWay && !privileged) continue;
      const sinks = this.sinksOf(run, entry);
      const first = sinks[0];
      if (first === undefined) continue;
      if (forkWay && fork !== null) {
        let reach: Reach = { level: fork.level, event: fork.event, gates: fork.gates, forkPullRequest: false, ...(fork.approvalMoves === true ? { approvalMoves: true } : {}) };
        // An earlier step of the job that fails a fork's pull request (a fork check in its script) keeps the fork's
        // run from the sink: only branches of the repository reach it, as for a job-level fork check.
        if (fork.event !== null && REACH_ORDER.indexOf(fork.level) < REACH_ORDER.indexOf('trusted-author')) {
          const paths = stepTrustOn(first.step, fork.event);
          if (everyPathGuarded(paths, (g) => g.kind === 'same-repository')) {
            const gates = [...new Set(paths.flatMap((path) => path.filter((g) => g.kind === 'same-repository').map((g) => `\`${g.condition}\``)))];
            reach = { level: 'trusted-author', event: fork.event, gates, forkPullRequest: false };
          }
        }
        ways.push({ entry, sinks, fork: true, reach, race: !checksOutEventCommit(entry) });
      }
      if (privileged) ways.push({ entry, sinks, fork: false, reach: this.sinkReach(this.stepReach(first.step), sinks), race: entry.checkout?.hiddenBy !== 'approved-commit' });
    }
    return ways;
  }

  /**
   * The job's executions, traced to the workspace entries whose code they run (LazyJobRun's `executions`). Sourcing
   * the activate script of a virtual environment an earlier step of the job (one that runs with it) or an earlier
   * command of the same script created (`uv venv` then `source .venv/bin/activate`) runs the script the tool wrote,
   * not the checkout's: it is no execution of the workspace's code. Without such a creation, an activate script in
   * the workspace is the checkout's file like any other.
   */
  tracedExecutions(job: Job, workspace: readonly WorkspaceEntry[]): TracedExecution[] {
    const executions: TracedExecution[] = [];
    // The steps that created a virtual environment in each directory, most recent last (a few kept per directory).
    const venvs = new Map<string, Step[]>();
    for (const step of job.steps) {
      const created = stepVenvs(step);
      for (const execution of this.#expand(step, step, 0)) {
        const venv = activatedVenv(execution);
        if (venv !== null) {
          const sameScript = execution.step === step && execution.offset !== undefined && created.some((c) => c.dir === venv && c.offset < (execution.offset as number));
          if (sameScript || (venvs.get(venv) ?? []).some((creator) => this.sameRun(creator, step))) continue;
        }
        executions.push({ execution, step, code: codeOf(execution, workspace, step, (a, b) => this.sameRun(a, b)) });
      }
      for (const c of created) {
        if (c.dir === null) continue;
        const steps = venvs.get(c.dir) ?? [];
        if (steps.at(-1) !== step) steps.push(step);
        if (steps.length > MAX_VENV_CREATORS) steps.shift();
        venvs.set(c.dir, steps);
      }
    }
    return executions;
  }

  /** The job's steps, each followed by the steps of the local composite actions it calls (LazyJobRun's `steps`). */
  calledSteps(job: Job): CalledStep[] {
    const steps: CalledStep[] = [];
    for (const step of job.steps) this.#called(step, step, 0, steps);
    return steps;
  }

  /** A step and the steps of the local composite action it calls, at the caller's place. */
  #called(step: Step, caller: Step, depth: number, into: CalledStep[]): void {
    into.push({ step, caller });
    if (depth >= MAX_ACTION_DEPTH) return;
    // A local action, or the repository's own named by its full name (`owner/repo/path@ref`, RepositoryModel `ownAction`).
    const action = this.repository.ownAction(step);
    if (action === undefined || action.using !== 'composite') return;
    for (const inner of action.steps) this.#called(inner, caller, depth + 1, into);
  }

  /** A step's executions, with those of the local composite action it calls (run at the caller's place). */
  #expand(step: Step, caller: Step, depth: number): Execution[] {
    const own = stepExecutions(step);
    if (depth >= MAX_ACTION_DEPTH) return [...own];
    const action = this.repository.ownAction(step);
    if (action === undefined || action.using !== 'composite') return [...own];
    return [...own, ...action.steps.flatMap((inner) => this.#expand(inner, caller, depth + 1))];
  }
}

/**
 * A job's run, each fact read when a rule first asks for it and kept: of the corpus's 4,211 jobs, every one is
 * asked for its steps, about half for its holdings, over a quarter for its reach, under a tenth for its workspace
 * (readers first ask whether it can hold what they look for: `mayHoldOutsiderCode`) and about 3% for its
 * executions or fork reach. Each fact depends only on the job and the repository, so when it is read does not
 * change what it is.
 */
class LazyJobRun implements JobRun {
  readonly job: Job;
  readonly #model: RunModel;
  #reach: Reach | undefined;
  #forkReach: ForkReach | null | undefined;
  #holdings: Holdings | undefined;
  #valuables: readonly string[] | undefined;
  #forkValuables: readonly string[] | undefined;
  #nothingHeld: string | undefined;
  #workspace: readonly WorkspaceEntry[] | undefined;
  #executions: readonly TracedExecution[] | undefined;
  #steps: readonly CalledStep[] | undefined;

  constructor(job: Job, model: RunModel) {
    this.job = job;
    this.#model = model;
  }

  get reach(): Reach {
    return (this.#reach ??= reachOf(this.job, null, this.#model.repository));
  }

  get forkReach(): ForkReach | null {
    if (this.#forkReach === undefined) this.#forkReach = forkReach(this.job, this.#model.repository);
    return this.#forkReach;
  }

  get holdings(): Holdings {
    if (this.#holdings !== undefined) return this.#holdings;
    // A called workflow's job that declares no `permissions:` gets its callers' token (holdings.ts `calledToken`).
    const declared = jobHoldings(this.job);
    const called = declared.token.kind === 'default' ? calledToken(this.job, this.#model.repository) : null;
    const own = called === null ? declared : { ...declared, ...called };
    if (own.selfHosted !== 'definite') return (this.#holdings = own);
    const by = this.#model.runnerOpenedBy(this.job);
    if (by === null) return (this.#holdings = own);
    return (this.#holdings = { ...own, runnerOpenToForks: openRunnerWords(by, this.job) });
  }

  /** `holdings.selfHosted` is `runnerKind` (per job and scan): read without the rest of the holdings, or a field of its own. */
  get runner(): Holdings['selfHosted'] {
    return runnerKind(this.job);
  }

  get valuables(): readonly string[] {
    return (this.#valuables ??= valuables(this.holdings, this.#model.defaultToken));
  }

  get forkValuables(): readonly string[] {
    return (this.#forkValuables ??= valuables(this.holdings, this.#model.defaultToken, true));
  }

  get forkAddedValuables(): readonly string[] {
    return this.forkMachineOpened === undefined ? this.forkValuables : this.forkValuables.filter((v) => v !== SELF_HOSTED_VALUABLE);
  }

  get forkMachineOpened(): string | undefined {
    return this.forkValuables.includes(SELF_HOSTED_VALUABLE) ? this.holdings.runnerOpenToForks : undefined;
  }

  get nothingHeld(): string {
    return (this.#nothingHeld ??= nothingHeldText(this.holdings));
  }

  get workspace(): readonly WorkspaceEntry[] {
    return (this.#workspace ??= workspaceEntries(this.job, this.#model.repository, () => this.#model.identity));
  }

  get executions(): readonly TracedExecution[] {
    return (this.#executions ??= this.#model.tracedExecutions(this.job, this.workspace));
  }

  get steps(): readonly CalledStep[] {
    return (this.#steps ??= this.#model.calledSteps(this.job));
  }
}

/** `reach` with, when anyone starts the step, the earlier permission check that stands in its way in appearance only. */
function withNoGate<R extends Reach>(reach: R, step: Step): R {
  if (reach.level !== 'anyone' || step.job === null) return reach;
  const open = openPermissionChecks(step.job, step.index)[0];
  return open === undefined ? reach : { ...reach, noGate: `${describeStep(open.step)} checks the actor's permission, but ${open.why}, so the later steps run for anyone` };
}

/** A step of a composite action kept under `.github/` (the repository's own helper), which no workflow here calls. */
function internalUncalled(step: Step): boolean {
  return step.owner.kind === 'action' && step.owner.file.path.startsWith('.github/');
}
