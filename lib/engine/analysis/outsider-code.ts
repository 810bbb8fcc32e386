/**
 * Whether an outsider steers code that runs in a job, for rules that ask more than who can start it (a
 * long-lived token is theirs only if something they write runs beside it): code of theirs that a step runs (a
 * pull request's checkout or another run's artifacts, traced by the run model to the step that executes it), or
 * their text expanded into a script or written to `$GITHUB_ENV` / `$GITHUB_PATH` (injections.ts, at the
 * severities an outsider reaches: anyone, a sticky label, an environment nobody could check).
 */
import { describeStep, taintSourceText } from './describe.js';
import { envInjections, injectionClaim, runScriptCarriesCode, scriptInjections, type InjectionHit } from './injections.js';
import { payloadEvents, seesJobToken, type JobRun, type RunModel, type TracedExecution, type WorkspaceEntry } from './run-model/index.js';
import { REACH_ORDER, type Reach, type ReachLevel } from './run-model/reach.js';
import type { TaintAnalyzer } from '../expressions/taint.js';
import type { Severity } from '../types.js';
import type { Job, Step } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';

const cache = new ScanCache<Job, string | null>();

const strong = (hit: InjectionHit) => hit.severity === undefined || hit.severity === 'HIGH' || hit.severity === 'MEDIUM';

/** How an outsider steers code in `job`, in words naming the step (`step \`Test\` of job \`ci\` runs …`); null when nothing they write runs there. */
export function outsiderSteering(job: Job, runs: RunModel, taint: TaintAnalyzer): string | null {
  let found = cache.get(job);
  if (found === undefined) {
    found = readSteering(job, runs, taint);
    cache.set(job, found);
  }
  return found;
}

function readSteering(job: Job, runs: RunModel, taint: TaintAnalyzer): string | null {
  const run = runs.job(job);
  for (const entry of run.workspace) {
    if (entry.content !== 'outsider' || entry.checkout?.hiddenBy === 'trusted-author') continue;
    // A container build's commands, handed no token, run in their own container: they steer nothing the job holds.
    const sink = runs.sinksOf(run, entry).find(seesJobToken);
    if (sink !== undefined) return `${describeStep(sink.step)} runs ${sink.execution.evidence} from ${entry.kind === 'checkout' ? 'their checkout' : 'their artifacts'} (${entry.how})`;
  }
  for (const { step } of run.steps) {
    if (scriptInjections(step, taint, runs).some(strong)) return `${describeStep(step)} expands their text into code it runs`;
    if (step.job !== null && envInjections(step, taint).some(strong)) return `${describeStep(step)} writes their text to \`$GITHUB_ENV\` or \`$GITHUB_PATH\``;
  }
  return null;
}

/**
 * Who can make a pull request checkout's code run through its sinks: the run model's reach of the checkout over
 * those sinks, except for a `repository_dispatch` workflow whose dispatch stands for a maintainer's approval (a
 * slash command only users with write permission can run, `/ok-to-test`: pr-head.ts `dispatcher`), which is that
 * approval, named by who sends the event. untrusted-checkout and the cache writers read it alike.
 */
export function checkoutReach(runs: RunModel, entry: WorkspaceEntry, sinks: readonly TracedExecution[]): Reach {
  const reach = runs.sinkReach(runs.stepReach(entry.step), sinks);
  const dispatcher = entry.checkout?.dispatcher;
  if (dispatcher === undefined) return reach;
  return { ...reach, level: 'approval', event: reach.event ?? 'repository_dispatch', gates: [`the workflow runs only on \`repository_dispatch\`, sent by ${dispatcher}`] };
}

/** A pull request's checkout whose code a step of the job runs, on a job run a given step is part of. */
export interface OutsiderCheckoutRun {
  /** Who can make that code run (the run model's reach of the checkout, through its sinks). */
  reach: Reach;
  /** `step \`Test\` (line 14) runs \`npm test\` from the pull request's checkout (line 9)` */
  text: string;
}

const checkoutRuns = new ScanCache<Step, OutsiderCheckoutRun | null>();

/**
 * The pull request checkout (an untrusted checkout, as `untrusted-checkout` reports it) whose code a step of
 * `step`'s job runs in a job run `step` is part of, reached the most openly; null when the job runs nothing of
 * theirs with it. A finding about what an outsider could slip into such a job by another way (a cache entry it
 * restores or saves) adds nothing: the job is already theirs, with the same token and secrets, and the fix is
 * that checkout.
 */
export function outsiderCheckoutWith(runs: RunModel, step: Step): OutsiderCheckoutRun | null {
  let found = checkoutRuns.get(step);
  if (found === undefined) {
    found = readCheckoutRun(runs, step);
    checkoutRuns.set(step, found);
  }
  return found;
}

/** A pull request checkout of a job whose code some step runs, with all its sinks and their reach (any run). */
interface Candidate {
  /** Its place among the job's ways (workspace order). */
  index: number;
  entry: JobRun['workspace'][number];
  sinks: readonly TracedExecution[];
  /** REACH_ORDER index of the reach through all its sinks: the most open any job run can give it. */
  order: number;
}

const jobCandidates = new ScanCache<Job, Candidate[]>();

/**
 * The job's pull request checkouts that some step runs, most openly reached first (stable in workspace order), once
 * per job: a step's answer then usually takes the first one, instead of walking every checkout and every execution
 * of the job for each step that asks (a job of n checkouts and n caches was quadratic). The checkouts and their
 * sinks are the run model's `privilegedWays`; their order is not the way's `reach`, which starts from the
 * first step that runs the code: a step's answer starts from the checkout's own step (`readCheckoutRun`), and so
 * does the bound its walk stops at.
 */
function candidatesOf(runs: RunModel, job: Job): Candidate[] {
  let found = jobCandidates.get(job);
  if (found !== undefined) return found;
  found = [];
  for (const [index, { entry, sinks }] of runs.privilegedWays(job).entries()) {
    if (entry.kind !== 'checkout' || entry.checkout === undefined) continue;
    found.push({ index, entry, sinks, order: REACH_ORDER.indexOf(runs.sinkReach(runs.stepReach(entry.step), sinks).level) });
  }
  found.sort((a, b) => a.order - b.order || a.index - b.index);
  jobCandidates.set(job, found);
  return found;
}

function readCheckoutRun(runs: RunModel, step: Step): OutsiderCheckoutRun | null {
  const job = step.job;
  if (job === null || job.uses !== undefined) return null;
  // The most openly reached checkout whose code runs in a job run `step` is part of; of equally open ones the
  // earliest. A checkout's reach through fewer sinks is never more open than through all of them (sinkReach), so
  // once the best found is at least as open as what the rest can reach, the walk stops.
  let best: { candidate: Candidate; order: number; reach: Reach; sinks: TracedExecution[] } | null = null;
  for (const candidate of candidatesOf(runs, job)) {
    if (best !== null && (candidate.order > best.order || (candidate.order === best.order && best.candidate.order === best.order))) break;
    const { entry } = candidate;
    if (entry.step !== step && !runs.sameRun(entry.step, step)) continue;
    const sinks = candidate.sinks.filter((s) => s.step === step || runs.sameRun(s.step, step));
    if (sinks.length === 0) continue;
    const reach = runs.sinkReach(runs.stepReach(entry.step), sinks);
    if (reach.level === 'trusted-author' || reach.level === 'collaborator') continue;
    const order = REACH_ORDER.indexOf(reach.level);
    if (best !== null && (order > best.order || (order === best.order && candidate.index > best.candidate.index))) continue;
    best = { candidate, order, reach, sinks };
  }
  if (best === null) return null;
  const sink = best.sinks[0] as TracedExecution;
  const file = job.workflow.file;
  return {
    reach: best.reach,
    text: `${describeStep(sink.step)} (line ${file.position(sink.step.node.start).line}) runs ${sink.execution.evidence} from the pull request's checkout (${best.candidate.entry.how}, line ${file.position(best.candidate.entry.step.node.start).line})`,
  };
}

/** True when `theirs` is reached at least as openly as `level`: the outsider's code runs wherever the other claim does. */
export function reachedAsOpenly(theirs: Reach, level: ReachLevel): boolean {
  return REACH_ORDER.indexOf(theirs.level) <= REACH_ORDER.indexOf(level);
}

/** Reaches at which an outsider's code can run: with no approval, or behind one of some strength. */
const OUTSIDER: ReadonlySet<string> = new Set(['anyone', 'sticky-label', 'unreviewed-environment', 'approval']);

/** An outsider's code or text that runs in a job: where, and who can start it. */
export type OutsiderCode = OutsiderCodeFacts &
  (
    | {
        /** Pull request code a checkout or download put in the workspace, which a step runs. */
        kind: 'workspace';
        /** Which put it there: a checkout (untrusted-checkout's finding) or an artifact download (artifact-poisoning's). */
        from: 'checkout' | 'download';
      }
    | {
        /** Outsider text expanded into a `run:` script. */
        kind: 'script';
        /**
         * The claim script-injection makes of that expansion (injections.ts `injectionClaim`): its severity (with
         * the ceiling of the kind of text and the gates that vouch for the value), words (`; who; holds`) and facts.
         * Worked out when asked (most readers need only the reach), once.
         */
        injection(): { severity: Severity; text: string; facts: string[] } | null;
      }
  );

interface OutsiderCodeFacts {
  job: Job;
  reach: Reach;
  /** Behind an approval, the code can still change after it (a branch or `refs/pull/*` resolved at run time, text that can be edited). */
  race: boolean;
  /** `step \`Build\` of job \`b\` (line 12) runs \`npm ci\` from the pull request's checkout (line 9)` */
  text: string;
}

/**
 * The weakest-reached outsider code run in one of `jobs`, from the run model: a checkout or download of pull
 * request code that a later step runs (a build tool in its directory, a script or local action from it), or
 * outsider text (free or structured, from the event) expanded into a `run:` script, on a step an outsider can
 * start (anyone, a sticky label, an environment of unknown strength, a maintainer's approval: `reach` says which).
 * Null when none, or only trusted authors reach it: the grant is then wider than needed, not armed.
 */
export function outsiderCode(context: { runs: RunModel; taint: TaintAnalyzer }, jobs: readonly Job[]): OutsiderCode | null {
  let best: OutsiderCode | null = null;
  for (const job of jobs) {
    const found = jobOutsiderCode(context, job);
    if (found !== null && (best === null || REACH_ORDER.indexOf(found.reach.level) < REACH_ORDER.indexOf(best.reach.level))) best = found;
  }
  return best;
}

/**
 * The weakest-reached outsider code of `job` whose steps (the step that runs it, and its checkout or download) can
 * all run on `event` (or on an event not known): a download that runs only on `workflow_run` is no outsider code
 * of the job's `pull_request_target` runs. Null when none.
 */
export function outsiderCodeOn(context: { runs: RunModel; taint: TaintAnalyzer }, job: Job, event: string): OutsiderCode | null {
  let best: OutsiderCode | null = null;
  for (const candidate of jobOutsiderCandidates(context, job)) {
    if (candidate.events !== null && !candidate.events.has(event)) continue;
    if (!candidate.with.every((s) => context.runs.stepRunsOn(s, event))) continue;
    if (best === null || REACH_ORDER.indexOf(candidate.found.reach.level) < REACH_ORDER.indexOf(best.reach.level)) best = candidate.found;
  }
  return best;
}

/**
 * The outsider code of `step`'s job that can read what `step` leaves behind for later steps (the credentials a
 * checkout persists): code that runs at or after `step`, in a job run `step` also runs in (the run model's
 * condition compatibility: a checkout for same-repository pull requests and one for forks, under mutually
 * exclusive `if:`s, never run together). The weakest-reached such code, or null.
 */
export function outsiderCodeAfter(context: { runs: RunModel; taint: TaintAnalyzer }, step: Step, skip?: (runner: Step, withSteps: readonly Step[]) => boolean): OutsiderCode | null {
  const job = step.job;
  if (job === null) return null;
  let best: OutsiderCode | null = null;
  for (const candidate of jobOutsiderCandidates(context, job)) {
    if (candidate.runs.index < step.index || skip?.(candidate.runs, candidate.with) === true) continue;
    if (!candidate.with.every((s) => s === step || context.runs.sameRun(step, s, candidate.events))) continue;
    if (best === null || REACH_ORDER.indexOf(candidate.found.reach.level) < REACH_ORDER.indexOf(best.reach.level)) best = candidate.found;
  }
  return best;
}

/** An outsider's code found in a job: the step that runs it, and the steps that must run with it (its checkout). */
interface OutsiderCandidate {
  found: OutsiderCode;
  runs: Step;
  with: readonly Step[];
  /**
   * The events on which the code is the outsider's (a checkout of a ref read from one event's payload, text of one
   * event's payload): on the others the ref or text is empty. Null: any event.
   */
  events: ReadonlySet<string> | null;
  /** The first step that runs its entry's code (or a script): what `outsiderCode` names for the job. */
  first: boolean;
}

/** Per job, once per scan: rules ask it per step (a checkout, a token step), which must not cost a walk of the job each. */
const outsiderCodeCache = new ScanCache<Job, OutsiderCode | null>();
const outsiderCandidateCache = new ScanCache<Job, readonly OutsiderCandidate[]>();

function jobOutsiderCode(context: { runs: RunModel; taint: TaintAnalyzer }, job: Job): OutsiderCode | null {
  const cached = outsiderCodeCache.get(job);
  if (cached !== undefined) return cached;
  let best: OutsiderCode | null = null;
  for (const { found, first } of jobOutsiderCandidates(context, job)) {
    if (!first) continue;
    if (best === null || REACH_ORDER.indexOf(found.reach.level) < REACH_ORDER.indexOf(best.reach.level)) best = found;
  }
  outsiderCodeCache.set(job, best);
  return best;
}

/**
 * Every outsider code of a job, from the run model: each workspace entry of pull request code with the first
 * step that runs it, and each script that expands outsider text, on a step an outsider can start.
 */
function jobOutsiderCandidates(context: { runs: RunModel; taint: TaintAnalyzer }, job: Job): readonly OutsiderCandidate[] {
  const cached = outsiderCandidateCache.get(job);
  if (cached !== undefined) return cached;
  const found: OutsiderCandidate[] = [];
  if (job.uses === undefined) {
    // The run model's ways in on privileged runs (a fork's read-only run holds no token scope), each step that runs
    // the code with its own reach: a later step may be kept from outsiders where the first is not.
    for (const way of context.runs.privilegedWays(job)) {
      const entry = way.entry;
      way.sinks.forEach((sink, i) => {
        const reach = context.runs.sinkReach(context.runs.stepReach(entry.step), [sink]);
        if (!OUTSIDER.has(reach.level)) return;
        const file = job.workflow.file;
        found.push({
          first: i === 0,
          runs: sink.step,
          with: [entry.step, sink.step],
          events: payloadEvents(entry),
          found: {
            job,
            kind: 'workspace',
            from: entry.kind === 'download' ? 'download' : 'checkout',
            reach,
            race: way.race,
            text: `${describeStep(sink.step)} (line ${file.position(sink.step.node.start).line}) runs ${sink.execution.evidence} from the pull request's ${entry.kind === 'download' ? 'artifacts' : 'checkout'} (${entry.how}, line ${file.position(entry.step.node.start).line})`,
          },
        });
      });
    }
    for (const step of job.steps) {
      if (step.run === undefined) continue;
      // The script's outsider text first: most scripts expand none, and a step's reach costs a walk of its
      // conditions over the workflow's occasions.
      for (const { occurrence, taint } of context.taint.outsiderScriptText(step)) {
        // A value checked before this use carries no code (script-injection reports none): the next one may.
        if (!runScriptCarriesCode(step, occurrence, taint)) continue;
        let claim: ReturnType<typeof injectionClaim> | undefined;
        const injection = () => (claim ??= injectionClaim(step, taint, context.runs));
        const reach = context.runs.stepReach(step);
        if (OUTSIDER.has(reach.level)) {
          found.push({ first: true, runs: step, with: [step], events: taint.events === undefined ? null : new Set(taint.events), found: { job, kind: 'script', reach, injection, race: true, text: `${describeStep(step)} (line ${step.owner.file.position(step.run.start).line}) expands ${taintSourceText(taint)} into its script` } });
        }
        break;
      }
    }
  }
  outsiderCandidateCache.set(job, found);
  return found;
}
