/**
 * The facts a finding carries for the attack paths (FindingRecord.facts): short tags, stored with the finding,
 * so a path computed from stored findings checks the same facts as one computed from a fresh scan.
 *
 * - `reach:<level>`: who can start the job run the finding is about (reach.ts); `reach:fork-pr` when a fork's
 *   read-only `pull_request` run reaches it too;
 * - `exec`: the outsider's content executes (or steers a sink that executes or publishes);
 * - `holds`: the job holds something worth taking; `holds:token`, `holds:secrets`, `holds:oidc`,
 *   `holds:self-hosted`, `holds:publish` say what; `token:default` when the job's token has the repository's
 *   default scopes on some run (neither the job nor the workflow declares `permissions:`, and no caller here hands
 *   a called workflow's job its own on every run: holdings.ts `mayHoldDefault`), so a read-write default in the
 *   settings (`default-token-write`) is what it holds;
 * - `feeds:publish`: the job hands what it builds, through artifacts, to a job that publishes (feeds.ts), so
 *   what runs in it ships as much as in the publishing job itself;
 * - `publisher`: the step is the job's publishing step (a real publish, not a rehearsal), for findings about
 *   a step (`unpinned-action`): the action that itself ships the release;
 * - `event:<name>`: an event through which an outsider's value reaches the finding (for injections), or on
 *   which the step runs (`eventFacts`, for findings about what a step does, such as printing a secret);
 * - `run:<hex>`: the occasions and matrix legs on which the step can run (conditions.ts), so two findings of
 *   one job join only when they can happen in the same job run;
 * - `owner:first-party` / `owner:third-party`: whose code a `uses:` runs;
 * - `writer:<file>#<job>`: on a release's `cache-poisoning` finding, a job an outsider reaches that writes the cache
 *   it restores (cache-scope.ts), the entry the `cache-poisoning-release` path must start from; `cache:by-hand`
 *   when none of the jobs named saves that cache itself, so their code writes the entry through the runner's cache
 *   token (`writerSave`);
 * - `clone:mutable`: the job builds or runs a repository of someone else's that a script clones at a branch or
 *   tag (`git clone <url> && cd <dir> && make`, RunModel.mutableClones): one more input that changes whenever
 *   that repository's maintainers push.
 */
import type { Job, Step } from '../../model/workflow.js';
import { feedsPublish } from './feeds.js';
import { holdsSecrets, mayHoldDefault, valuables, type Holdings } from './holdings.js';
import type { JobRun, RunModel } from './index.js';
import type { Reach } from './reach.js';

export function reachFacts(reach: Reach): string[] {
  const facts = [`reach:${reach.level}`];
  if (reach.forkPullRequest) facts.push('reach:fork-pr');
  if (reach.event !== null) facts.push(`event:${reach.event}`);
  return facts;
}

export function holdingFacts(run: Pick<JobRun, 'holdings' | 'valuables'>): string[] {
  return holdingFactsOf(run.holdings, run.valuables);
}

/**
 * `holdingFacts` of a job run less the stored secrets `unreachable` names (in upper case): secrets the job
 * references only where a step keeps them from what the finding is about (a model key an agent action holds
 * in its own proxy: agent-input.ts `agentKeyCustody`).
 */
export function holdingFactsWithout(runs: RunModel, run: JobRun, unreachable: readonly string[]): string[] {
  if (unreachable.length === 0) return holdingFacts(run);
  const holdings: Holdings = { ...run.holdings, secrets: run.holdings.secrets.filter((s) => !unreachable.includes(s.toUpperCase())) };
  return holdingFactsOf(holdings, valuables(holdings, runs.defaultToken));
}

/** `holdingFacts` of any holdings (a service container's, services.ts) and their `valuables` words. */
export function holdingFactsOf(h: Holdings, held: readonly string[]): string[] {
  const facts: string[] = [];
  if (held.length > 0) facts.push('holds');
  if (h.token.kind === 'all' || mayHoldDefault(h) || (h.token.kind === 'scopes' && h.token.writes.some((s) => s === 'contents' || s === 'packages' || s === 'actions'))) facts.push('holds:token');
  if (mayHoldDefault(h)) facts.push('token:default');
  if (holdsSecrets(h)) facts.push('holds:secrets');
  if (h.oidc) facts.push('holds:oidc');
  // A machine the repository already opens to forks' pull requests with no approval (open-runners.ts) is no holding
  // an outsider lacks: a path through it (a third party's mutable action there) adds no way onto it.
  if (h.selfHosted === 'definite' && h.runnerOpenToForks === undefined) facts.push('holds:self-hosted');
  if (h.publishes !== null) facts.push('holds:publish');
  return facts;
}

/** `feeds:publish` when the job's artifacts reach a job that publishes (feeds.ts); none otherwise. */
export function feedFacts(runs: RunModel, job: Job): string[] {
  return feedsPublish(job, runs).length > 0 ? ['feeds:publish'] : [];
}

/** `event:<name>` for each event on which the step can run (RunModel.eventsOf). */
export function eventFacts(runs: RunModel, step: Step): string[] {
  return runs.eventsOf(step).map((e) => `event:${e}`);
}

/** `run:<hex>` of a step's run set; none for steps outside jobs or without a known set. */
/**
 * For a step of a local composite action: `job:<workflow file>#<job id>` for each job of the repository that runs
 * it (the run model's `jobSteps`), so an attack path about one of those jobs counts the action's findings among the
 * job's own (its mutable inputs); none for a workflow's own step.
 */
export function callerJobFacts(runs: RunModel, step: Step): string[] {
  if (step.job !== null) return [];
  const facts = new Set<string>();
  for (const caller of runs.jobSteps(step)) if (caller.job !== null && facts.size < 20) facts.add(`job:${caller.job.workflow.file.path}#${caller.job.id}`);
  return [...facts];
}

export function runFact(runs: RunModel, step: Step): string[] {
  const set = runs.runSet(step);
  if (set === undefined) return [];
  let hex = '';
  for (let i = 0; i < set.bits.length; i += 4) {
    const nibble = (set.bits[i] ?? 0) | ((set.bits[i + 1] ?? 0) << 1) | ((set.bits[i + 2] ?? 0) << 2) | ((set.bits[i + 3] ?? 0) << 3);
    hex += nibble.toString(16);
  }
  return [`run:${hex}`];
}

/** True when two `run:` facts (of findings bound to the same job) share an occasion and leg; true when either has none. */
export function runsOverlap(a: readonly string[] | undefined, b: readonly string[] | undefined): boolean {
  const x = a?.find((f) => f.startsWith('run:'));
  const y = b?.find((f) => f.startsWith('run:'));
  if (x === undefined || y === undefined || x.length !== y.length) return true;
  for (let i = 4; i < x.length; i++) if ((parseInt(x[i] as string, 16) & parseInt(y[i] as string, 16)) !== 0) return true;
  return false;
}

/** `clone:mutable` when the job builds a repository of someone else's cloned at a branch or tag (RunModel.mutableClones); none otherwise. */
export function cloneFacts(runs: RunModel, run: JobRun): string[] {
  return runs.mutableClones(run).length > 0 ? ['clone:mutable'] : [];
}
