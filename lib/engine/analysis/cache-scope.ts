/**
 * Who writes the Actions cache that runs of the default branch (tags and releases included) restore, and which
 * jobs restore it to ship something: the two ends of a cache-poisoning chain, read from the run model.
 *
 * Cache entries are scoped by ref: a run reads its own ref's entries and the default branch's. Runs of
 * `pull_request_target` write the base branch's scope, runs of `workflow_run`, `issue_comment`, `issues`,
 * `discussion*`, `fork`, `watch` and `repository_dispatch` the default branch's: when an outsider's code runs in
 * one of them (a checkout or artifact of theirs that a step executes, or their text expanded into a script or
 * written to `$GITHUB_ENV`), it can write any entry there (the runner's cache token is within reach of code in
 * the job, and the job's own post-step saves what the code left). A fork's `pull_request` run writes only its
 * pull request's own scope, which no release reads; `pull_request_review*` runs the merge ref's.
 */
import { pinsApprovedCode } from './pr-head.js';
import { checkoutReach } from './outsider-code.js';
import { describeStep } from './describe.js';
import { everyPathGuarded, stepTrustOn } from './trust-guards.js';
import { envInjections, scriptInjections, type InjectionHit } from './injections.js';
import { cacheStep, DEFAULT_SCOPE_EVENTS, restoreReadsSave, restoresFrom, type CacheUse } from './caching.js';
import { describeTaint } from './describe.js';
import { intersect, isEmpty, occasionIndexes, type RunSet } from './run-model/conditions.js';
import { onRunner, type CalledStep, type Reach, type RunModel, type TracedExecution, type WorkspaceEntry } from './run-model/index.js';
import { nothingReads } from './run-model/readers.js';
import { mayHoldOutsiderCode } from './run-model/workspace.js';
import { stepScope, type TaintAnalyzer } from '../expressions/taint.js';
import type { Job, Step } from '../model/workflow.js';
import { ScanCache } from '../model/scan-cache.js';
import { scalarText } from '../yaml/model.js';

export { DEFAULT_SCOPE_EVENTS } from './caching.js';

/** The rule whose finding stands for a writer (the entry of the `cache-poisoning-release` attack path). */
export type WriterRule = 'untrusted-checkout' | 'artifact-poisoning' | 'script-injection' | 'github-env-injection' | 'cache-poisoning';

export interface CacheWriter {
  job: Job;
  step: Step;
  rule: WriterRule;
  /** The event of the run through which the outsider gets there (`pull_request_target`, `issues` ...). */
  event: string;
  /** `\`.github/workflows/pr.yml\` (job \`test\`) checks out pull request code under \`pull_request_target\` and ... (untrusted-checkout)` */
  text: string;
  /**
   * Null: an outsider writes with nobody's approval (anyone, or a label that stays on new commits). Otherwise
   * what stands in the way, in words: a maintainer's approval per run after which the code can still change,
   * or an environment whose reviewers could not be checked.
   */
  gate: string | null;
  /** For a save whose key or content the pull request picks, without code of theirs running: the cache it writes. */
  save?: CacheUse;
  /**
   * For a writer gated by an approval: the maintainer's act that starts its run, in words: `a maintainer's command`
   * (a comment command on `issue_comment`, a dispatch on `repository_dispatch`), or `a maintainer's approval`.
   */
  act?: string;
}

/** Head references fixed by the event: what a maintainer approved is what runs. */

/** Events on which a maintainer's approval is a command: a comment, or a dispatch sent for one (`/ok-to-test`). */
const COMMAND_EVENTS: ReadonlySet<string> = new Set(['issue_comment', 'discussion_comment', 'repository_dispatch']);

/** The maintainer's act a gated writer's run waits for, in words (`CacheWriter.act`); undefined behind an environment nobody could check. */
function actOf(reach: Reach): string | undefined {
  if (reach.level !== 'approval') return undefined;
  return reach.event !== null && COMMAND_EVENTS.has(reach.event) ? "a maintainer's command" : "a maintainer's approval";
}

/** The writer's standing, from the model's reach of the step: null when no outsider gets there. */
function gateOf(reach: Reach, race: boolean, text = false): string | null | undefined {
  if (reach.event === null || !DEFAULT_SCOPE_EVENTS.has(reach.event)) return undefined;
  switch (reach.level) {
    case 'anyone':
    case 'sticky-label':
      return null;
    case 'unreviewed-environment':
      return `behind ${reach.gates.join(' / ') || 'an environment'}, whose required reviewers could not be checked without a settings snapshot`;
    case 'approval': {
      if (!race) return undefined;
      const gates = reach.gates.join(' / ');
      // Outsider text run as code: read when the job runs, after the command (a title edited, a branch renamed).
      const reading = "reading the outsider's text when the job runs (a pull request's title, body or branch name can change after the command)";
      if (text && COMMAND_EVENTS.has(reach.event)) return `once a maintainer's ${reach.event === 'repository_dispatch' ? 'command' : 'comment command'} starts it${gates === '' ? '' : ` (${gates})`}, ${reading}`;
      if (text) return `once a maintainer approves the run, ${reading.replace('after the command', 'after the approval')}`;
      if (reach.event === 'repository_dispatch') return `once a maintainer's command starts it (${gates || 'a dispatch'}), resolving the pull request's code when the job runs (commits pushed after the command)`;
      if (COMMAND_EVENTS.has(reach.event)) return `once a maintainer's comment command starts it${gates === '' ? '' : ` (${gates})`}, resolving the pull request's code when the job runs (commits pushed after the command)`;
      return 'once a maintainer approves the run, resolving the code when the job runs (commits pushed after the approval)';
    }
    default:
      return undefined;
  }
}

function where(step: Step, job: Job): string {
  return `\`${job.workflow.file.path}\` (job \`${job.id}\`)`;
}

function sinkWords(sinks: readonly TracedExecution[]): string {
  const first = sinks[0] as TracedExecution;
  const inside = first.execution.step !== first.step && first.step.usesRef?.kind === 'local' ? ` (inside local action \`${first.step.usesRef.path}\`)` : '';
  return `${describeStep(first.step)} runs ${first.execution.evidence}${inside} from it`;
}

interface ScopeWriters {
  writers: readonly CacheWriter[];
  held: readonly CacheWriter[];
}

const writersCache = new ScanCache<RunModel, ScopeWriters>();

function scopeWriters(runs: RunModel, taint: TaintAnalyzer): ScopeWriters {
  let found = writersCache.get(runs);
  if (found === undefined) {
    found = readWriters(runs, taint);
    writersCache.set(runs, found);
  }
  return found;
}

/**
 * Every writer of the default branch's cache scope an outsider reaches, ungated ones first, in file order:
 * code of theirs that a step runs, their text run as code, and `pull_request_target` cache saves whose key or
 * content their pull request picks. Computed once per scan.
 */
export function defaultScopeWriters(runs: RunModel, taint: TaintAnalyzer): readonly CacheWriter[] {
  return scopeWriters(runs, taint).writers;
}

/**
 * The jobs that run pull request code in the default branch's cache scope that no outsider reaches by themselves,
 * so `defaultScopeWriters` leaves them out: a collaborator's act comes first (a comment command from someone the
 * condition trusts, an approval of the very commit that runs, a pull request of a trusted author). Their `gate`
 * says which act, in words (`but only after a comment by someone its condition trusts (...)`), and `act` names it
 * short (`a trusted collaborator's comment on the outsider's pull request`). Not a writer an outsider uses, but not nothing either: a release
 * finding that no outsider's writer reaches names one of them instead of saying no workflow runs pull request code
 * there. Computed once per scan, with the writers.
 */
export function heldBackWriters(runs: RunModel, taint: TaintAnalyzer): readonly CacheWriter[] {
  return scopeWriters(runs, taint).held;
}

function readWriters(runs: RunModel, taint: TaintAnalyzer): ScopeWriters {
  const writers: CacheWriter[] = [];
  const held: CacheWriter[] = [];
  const repository = runs.repository;
  const candidates = repository.workflows.filter((w) => w.triggers.some((t) => DEFAULT_SCOPE_EVENTS.has(t.name) || t.name === 'workflow_call'));
  for (const workflow of candidates) {
    for (const job of workflow.jobs) {
      const run = runs.job(job);
      // Code of the outsider that a step runs: a checkout of the pull request, or another run's artifacts (most jobs
      // have neither, and their workspace is not worked out for this).
      for (const entry of mayHoldOutsiderCode(job, repository) ? run.workspace : []) {
        if (entry.content !== 'outsider') continue;
        // A container build's commands run in their own container and write none of the runner's files: a build's
        // cache export is a save of its own (the saves below).
        const sinks = runs.sinksOf(run, entry).filter(onRunner);
        if (sinks.length === 0) continue;
        const reach = checkoutReach(runs, entry, sinks);
        const race = entry.checkout === undefined || !pinsApprovedCode(entry.checkout);
        const gate = entry.checkout?.hiddenBy === 'trusted-author' ? undefined : gateOf(reach, race);
        if (gate === undefined) {
          const words = heldOf(reach, entry, sinks);
          if (words !== undefined) held.push({ job, step: entry.step, rule: entry.kind === 'checkout' ? 'untrusted-checkout' : 'artifact-poisoning', event: reach.event ?? '', gate: words.gate, act: words.act, text: heldText(entry, reach, sinks, job) });
          continue;
        }
        writers.push({ job, step: entry.step, rule: entry.kind === 'checkout' ? 'untrusted-checkout' : 'artifact-poisoning', event: reach.event ?? '', gate, act: actOf(reach), text: entryText(entry, reach, sinks, job) });
      }
      // The outsider's text run as code.
      for (const step of job.steps) {
        for (const [analysis, rule, what] of ENTRY_ANALYSES) {
          if (!analysis(step, taint, runs).some(strong)) continue;
          // Variables a job's last step defines reach no step: nothing runs with them.
          if (rule === 'github-env-injection' && nothingReads(runs.envReaders(step))) continue;
          const reach = runs.stepReach(step);
          const gate = gateOf(reach, true, true);
          if (gate === undefined) continue;
          writers.push({ job, step, rule, event: reach.event ?? '', gate, act: actOf(reach), text: `${where(step, job)} ${what} under \`${reach.event ?? ''}\`` });
          break;
        }
      }
      // A cache saved under pull_request_target whose key or content the pull request picks.
      if (!workflow.triggers.some((t) => t.name === 'pull_request_target')) continue;
      for (const { step, caller } of run.steps) {
        const use = cacheStep(step);
        if (use === null || !use.saves) continue;
        const controlled = prControlled(use, caller, run.workspace, taint, (e) => runs.sinksOf(run, e).length > 0);
        if (controlled === null) continue;
        const reach = runs.stepReach(caller);
        if (reach.event !== 'pull_request_target') continue;
        // Files of a checkout that names the commit the event carries (`head.sha` on a `labeled` event): behind an
        // approval, what saves is what the maintainer approved; a key made of the event's text is not approved code.
        const pinned = controlled.checkout?.checkout !== undefined && pinsApprovedCode(controlled.checkout.checkout) ? controlled.checkout : undefined;
        const gate = gateOf(reach, pinned === undefined);
        const text = `${where(caller, job)} saves a cache (${use.how}) under \`pull_request_target\`, and ${controlled.text}`;
        if (gate === undefined) {
          const words = pinned === undefined ? undefined : heldOf(reach, pinned, []);
          if (words !== undefined) held.push({ job, step: caller, rule: 'cache-poisoning', event: 'pull_request_target', gate: words.gate, act: words.act, save: use, text });
          continue;
        }
        writers.push({ job, step: caller, rule: 'cache-poisoning', event: 'pull_request_target', gate, act: actOf(reach), save: use, text });
      }
    }
  }
  // Ungated writers first; within each, the order found (file, job, step).
  return { writers: [...writers.filter((w) => w.gate === null), ...writers.filter((w) => w.gate !== null)], held };
}

/** Conditions in a description: `a` / `b`, each as the reach gives it (in backticks already, or a check's words). */
function gateList(gates: readonly string[]): string {
  return gates.length === 0 ? '' : ` (${gates.join(' / ')})`;
}

/**
 * What holds pull request code that runs in the default branch's cache scope back from outsiders, when the model's
 * reach leaves it out of the writers (`gateOf` undefined), in words, with the act named short; undefined when its
 * run writes no default-branch scope (a run only collaborators start, on an event that writes another scope).
 */
function heldOf(reach: Reach, entry: WorkspaceEntry, sinks: readonly TracedExecution[]): { gate: string; act: string } | undefined {
  if (reach.event === null || !DEFAULT_SCOPE_EVENTS.has(reach.event)) return undefined;
  const gates = gateList(reach.gates);
  const checkout = entry.checkout;
  if (reach.level === 'approval') {
    // The approved commit is what runs: pinned by the event, or a check that fails the job for later pushes.
    const pinned =
      checkout === undefined || !pinsApprovedCode(checkout)
        ? "it resolves the pull request's code when the job runs (commits pushed after the approval run too)"
        : checkout.raceClosedBy !== undefined
          ? `${checkout.raceClosedBy}, so the commits that run are the ones approved`
          : `it checks out the commit the event names (${checkout.evidence}), the one approved`;
    if (reach.event === 'repository_dispatch') return { gate: `but only once a maintainer's command starts it${gates}, and ${pinned}`, act: "a maintainer's command for the outsider's pull request" };
    if (COMMAND_EVENTS.has(reach.event)) return { gate: `but only after a maintainer's comment command${gates}, and ${pinned}`, act: "a maintainer's comment command on the outsider's pull request" };
    return { gate: `but only after a maintainer's approval${gates}, and ${pinned}`, act: "a maintainer's approval of the outsider's commit" };
  }
  if (reach.level !== 'trusted-author') return undefined;
  if (reach.sameRepository === true) return { gate: `but only for pull requests from the repository's own branches${gates}`, act: 'a pull request from a branch of the repository, which only collaborators push' };
  // A comment command whose author the condition trusts (a named user, a collaborator's association): the pull
  // request's code is still an outsider's, run after a collaborator's act; resolved when the job runs, a commit
  // pushed after the comment runs too.
  const first = sinks[0]?.step ?? entry.step;
  const byComment = COMMAND_EVENTS.has(reach.event) && reach.event !== 'repository_dispatch' && everyPathGuarded(stepTrustOn(first, reach.event), (g) => g.kind === 'actor' || g.kind === 'commenter');
  if (byComment) {
    const race = checkout !== undefined && !pinsApprovedCode(checkout) ? ", resolving the pull request's code when the job runs (commits pushed after the comment run too)" : '';
    return { gate: `but only after a comment by someone its condition trusts${gates}${race}`, act: "a trusted collaborator's comment on the outsider's pull request" };
  }
  return { gate: `but only for people its condition trusts${gates}`, act: 'an act of someone its condition trusts' };
}

function heldText(entry: WorkspaceEntry, reach: Reach, sinks: readonly TracedExecution[], job: Job): string {
  const what = entry.kind === 'checkout' ? 'checks out pull request code' : `downloads another run's artifacts (${entry.how})`;
  return `${where(entry.step, job)} ${what} under \`${reach.event ?? ''}\` and ${sinkWords(sinks)}`;
}

const strong = (hit: InjectionHit) => hit.severity === undefined || hit.severity === 'HIGH' || hit.severity === 'MEDIUM';

const ENTRY_ANALYSES: readonly (readonly [(step: Step, analyzer: TaintAnalyzer, runs: RunModel) => InjectionHit[], WriterRule, string])[] = [
  [scriptInjections, 'script-injection', 'expands outsider-controlled text into a script (script-injection)'],
  [envInjections, 'github-env-injection', 'writes outsider-controlled text to `$GITHUB_ENV` or `$GITHUB_PATH` (github-env-injection)'],
];

function entryText(entry: WorkspaceEntry, reach: Reach, sinks: readonly TracedExecution[], job: Job): string {
  const what = entry.kind === 'checkout' ? 'checks out pull request code' : `downloads another run's artifacts (${entry.how})`;
  const rule = entry.kind === 'checkout' ? 'untrusted-checkout' : 'artifact-poisoning';
  return `${where(entry.step, job)} ${what} under \`${reach.event ?? ''}\` and ${sinkWords(sinks)} (${rule})`;
}

/**
 * Why the entry a `pull_request_target` step saves is the pull request's to choose, in words (its key comes from
 * their text, or their checkout came first and its files pick key and content), with that checkout when it is the
 * reason; null when neither.
 */
export function prControlled(use: CacheUse, caller: Step, workspace: readonly WorkspaceEntry[], taint: TaintAnalyzer, runsFrom: (entry: WorkspaceEntry) => boolean = () => true): { text: string; checkout: WorkspaceEntry | null } | null {
  if (use.key !== undefined) {
    const found = taint.ofNode(use.key, stepScope(use.step));
    if (found !== null && (found.level === 'arbitrary' || found.level === 'structured')) return { text: `its key comes from ${describeTaint(found)}`, checkout: null };
  }
  const keyText = use.key === undefined ? '**' : (scalarText(use.key) ?? '**');
  // A checkout into a subdirectory (`path: pr`) that nothing runs, whose files the key's `hashFiles` cannot reach
  // (no pattern names that directory or `**`; an action's default key may hash any lockfile), picks neither the key nor what the job's own code puts in the cache.
  const aside = (e: WorkspaceEntry) => e.dir !== null && e.dir !== '' && !runsFrom(e) && !keyText.includes('**') && !keyText.includes(e.dir.split('/')[0] ?? e.dir);
  const checkout = workspace.find((e) => e.kind === 'checkout' && e.content === 'outsider' && e.checkout?.hiddenBy !== 'trusted-author' && e.step.index < caller.index && !aside(e));
  if (checkout !== undefined) return { text: `${describeStep(checkout.step)} checked out the pull request first, so its files pick the key and the content`, checkout };
  return null;
}

/** The run set of a cache step at its caller, narrowed by the inputs that switch caching by the run (the run model's `cacheRunSet`). */
export function cachingRuns(runs: RunModel, use: CacheUse, caller: Step): RunSet | undefined {
  return runs.cacheRunSet(use, caller);
}

/** True when a run set is known and empty (the step never caches). */
export function neverRuns(set: RunSet | undefined): boolean {
  return set !== undefined && isEmpty(set);
}

/**
 * The writers whose entries a restore by a step of `job` (at `caller`, the job's step that runs it) can read: any
 * outsider's code or text, or a save of the same cache on a system whose entries the restore's system takes
 * (`saveSystems`); for a restore that reads only its own run's entries (`ownRunOnly`), only writers that can run in
 * that same workflow run.
 */
export function writersFor(writers: readonly CacheWriter[], restore: CacheUse, job: Job, caller: Step, runs: RunModel): CacheWriter[] {
  const at = restoreSystems(restore, job, caller, runs);
  return writers.filter((w) => (w.save === undefined || restoreReadsSave(restore, w.save, { restore: at, save: saveSystems(w, runs.cacheRunSet(w.save, w.step), runs) })) && restoresFrom(restore, job.workflow, w.job.workflow));
}

/** `runner.os` of the legs on which a restore of `job` (at `caller`) runs (the run model's `systems`); null where not known. */
function restoreSystems(restore: CacheUse, job: Job, caller: Step, runs: RunModel): (string | null)[] {
  return runs.systems(job, runs.cacheRunSet(restore, caller));
}

/**
 * `runner.os` of the legs on which a writer's save (run set `set`) runs on a run of the writer's event (a reusable
 * workflow's occasion, whose event is not known, counts); null where not known.
 */
function saveSystems(writer: CacheWriter, set: RunSet | undefined, runs: RunModel): (string | null)[] {
  return runs.systems(writer.job, set, (o) => o.event === null || o.event === writer.event);
}

/**
 * The rules whose findings start the `cache-poisoning-release` attack path (the first group of its kind in the
 * catalog; a test checks the two agree): a writer of another rule (another run's artifacts, a cache save the
 * pull request picks) is named by the release finding but starts no path of its own.
 */
export const PATH_ENTRY_RULES: ReadonlySet<WriterRule> = new Set(['untrusted-checkout', 'script-injection', 'github-env-injection']);

/**
 * How a writer's own job puts an entry where `restore` finds it: a step of that job (steps of local composite
 * actions at their call) that saves a cache the restore reads (caching.ts `restoreReadsSave`: the same action and
 * package manager, an `actions/cache` key of the same shape or under one of the restore's `restore-keys:`), on a
 * run of the writer's event that the writer's step runs in. The outsider's code there only has to leave its files
 * where that step saves from, and the job's post step saves them.
 *
 * The save must run on a system whose entries the restore's system takes (`restoreReadsSave` with the run model's
 * `runner.os` of both steps' legs): a job on `windows-latest` saves setup-node's `node-cache-Windows-...` entry,
 * which a release on `ubuntu-latest` never restores. A system not known (a self-hosted label) may be any.
 *
 * Null when the job saves no such cache: its code can still write the entry by hand, under any key, through the
 * runner's cache token (`ACTIONS_RUNTIME_TOKEN`, handed to every JavaScript action's environment and within reach
 * of any code on the runner: the Cacheract technique), but a release takes that entry only when the key it computes
 * has no entry yet (then also under a restore key), or once the legitimate entry has been evicted: entries are
 * immutable per key and scope.
 */
export function writerSave(writer: CacheWriter, restore: CacheUse, job: Job, caller: Step, runs: RunModel): CalledStep | null {
  const at = restoreSystems(restore, job, caller, runs);
  if (writer.save !== undefined) {
    const systems = { restore: at, save: saveSystems(writer, runs.cacheRunSet(writer.save, writer.step), runs) };
    return restoreReadsSave(restore, writer.save, systems) ? { step: writer.save.step, caller: writer.step } : null;
  }
  const within = runs.runSet(writer.step);
  for (const called of runs.job(writer.job).steps) {
    const use = cacheStep(called.step);
    if (use === null || !restoreReadsSave(restore, use)) continue;
    const own = runs.cacheRunSet(use, called.caller);
    const set = own !== undefined && within !== undefined ? intersect(own, within) : (own ?? within);
    if (set !== undefined) {
      // A reusable workflow's occasion has no event of its own (null): its callers' runs are not told apart here.
      const events = occasionIndexes(set).map((o) => set.occasions[o]?.event ?? null);
      if (!events.some((e) => e === null || e === writer.event)) continue;
    }
    // Saved on a system whose entries the restore's system never takes (another system's key, a Windows archive).
    if (restoreReadsSave(restore, use, { restore: at, save: saveSystems(writer, set, runs) })) return called;
  }
  return null;
}
