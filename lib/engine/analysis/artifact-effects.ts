import type { TaintAnalyzer } from '../expressions/taint.js';
import { ScanCache } from '../model/scan-cache.js';
import type { Job, Step } from '../model/workflow.js';
import { describeStep } from './describe.js';
import { get, keyText, type YNode } from '../yaml/model.js';
import { artifactUses, isolatedExecutions, picksForkRuns, readsWorkspaceFile, runChoice, strongestUse, type ArtifactUse, type ForeignDownload, type IsolatedExecution } from './artifacts.js';
import { envInjections, outputCarriesOutsiderText } from './injections.js';
import { within } from './run-model/execution.js';
import { namedByArtifact } from './pr-head.js';
import { dependentJobs } from './validation.js';
import { codeOf } from './run-model/workspace.js';
import { nothingReads, outsiderStarts, jobClaim, severityOf, type JobRun, type Reach, type RunModel, type TracedExecution, type WorkspaceEntry } from './run-model/index.js';
import type { Severity } from '../types.js';
import { commentSink, givenToken, stepNotice } from './notices.js';
import { readOnlyToken } from './run-model/holdings.js';
import { publishingStep } from './publishing.js';

/**
 * What a job does with the files of a download of another run's artifacts (a workspace entry of the run model):
 * the executions that run them, or else the most telling use later steps (and the jobs that read the job's
 * outputs) make of their content (artifacts.ts `artifactUses`). Shared by `artifact-poisoning`, which judges
 * the download, and `dangerous-trigger`, which says whether an outsider's content does anything in the workflow.
 */
export interface DownloadEffect {
  /**
   * Executions after the download that run files it may hold, in order; or, when none does, those that run a
   * later checkout whose ref a value read from the files names (`checkout`).
   */
  sinks: TracedExecution[];
  /** The checkout the sinks run, when the files only name what is checked out (`ref: ${{ steps.x.outputs.sha }}`). */
  checkout?: WorkspaceEntry;
  /** When no step runs them: the most telling use of their content; null when the analysis follows none. */
  use: ArtifactUse | null;
  /**
   * The other uses of their content that steer something, each no further than `use` does (a comment's target, a
   * status, a label, which run a later download fetches, whether a step runs, a checkout nothing runs, an upload):
   * named beside `use`, so no text says nothing else uses them.
   */
  others: readonly ArtifactUse[];
  /**
   * When no step runs them: true when every job their content steers (a value read into a step, an output in
   * a job's `if:`) holds nothing worth taking (run model `valuables`: a read-only token, no secret, OIDC,
   * self-hosted machine or publish), so the steering reaches nothing but that job's own results and the
   * comments or statuses other jobs post. False when a value goes to a reusable workflow, whose jobs are not known here.
   */
  steersOnlyBareJobs: boolean;
  /**
   * The steps whose behaviour their content steers: steps that run them (the sinks), and steps given their content
   * as data (a value in a command, an input, `$GITHUB_ENV`), for a gate on another value (`runsOutsider`).
   */
  steered: readonly Step[];
  /**
   * Where the effect counts: the download's own job run, or the run of a job that needs it when what runs or is
   * steered is there (the checkout the files name, or a step that expands a value read from them into its script,
   * when no step runs them). That run's holdings decide what the effect is worth.
   */
  run: JobRun;
  /**
   * Who can bring it about: the reach of the download's step, or of that other job's checkout or step, given what
   * stands between it and the sinks (run model `sinkReach`).
   */
  reach: Reach;
}

const effects = new ScanCache<WorkspaceEntry, DownloadEffect>();

/** Uses that steer no more than where a comment, status or label goes, which run a download fetches, or whether a step runs. */
const LIMITED_USES: ReadonlySet<ArtifactUse['kind']> = new Set(['comment', 'status', 'label', 'pick', 'gate', 'checkout', 'content']);
/** The order they are named in: what a value picks (a comment's target, a download's run) before what the files are handed to. */
const OTHERS_ORDER: readonly ArtifactUse['kind'][] = ['pick', 'comment', 'status', 'label', 'gate', 'checkout', 'content'];

export function downloadEffect(runs: RunModel, taint: TaintAnalyzer, run: JobRun, entry: WorkspaceEntry): DownloadEffect {
  let found = effects.get(entry);
  if (found === undefined) {
    let sinks = downloadSinks(runs, run, entry);
    // A value read from the files names the commit a later checkout brings (`ref: ${{ steps.meta.outputs.sha }}`):
    // the fork picks the code that checkout holds, so what runs it runs their choice.
    const checkout = sinks.length > 0 ? undefined : artifactCheckout(runs, run, entry.step);
    if (checkout !== undefined) sinks = checkout.sinks;
    const envWrites = (step: Step) => envInjections(step, taint).some((h) => h.artifact === true);
    const context = {
      repository: runs.repository,
      sameRun: (a: Step, b: Step) => runs.sameRun(a, b),
      envWrites,
      valuables: (job: Job) => runs.job(job).valuables,
      carries: outputCarriesOutsiderText(taint),
      runsOutsider: (job: Job, step: Step | null) => runsOutsider(runs, taint, job, step),
      checkoutRuns: (step: Step) => checkoutRuns(runs, step),
      tokenWrites: (step: Step) => tokenWrites(runs, step),
    };
    const uses = sinks.length > 0 ? [] : artifactUses(entry.step, entry.dir, context);
    const bare = uses.every((u) => u.kind !== 'data' || (u.step.job !== null && !(u.subject !== undefined && u.step === entry.step) && !interpolatesOutputs(u.step) && runs.job(u.step.job).valuables.length === 0));
    const steered = [...new Set([...sinks.map((t) => t.step), ...uses.filter((u) => (u.kind === 'data' || u.kind === 'env') && u.subject === undefined).map((u) => u.step)])];
    const use = strongestUse(uses);
    const others: ArtifactUse[] = [];
    for (const u of uses) {
      if (u === use || !LIMITED_USES.has(u.kind) || u.splitsArgs !== undefined || u.spliced === true) continue;
      if (others.some((o) => o.step === u.step && o.kind === u.kind && o.subject === u.subject) || (use !== null && use.step === u.step && use.kind === u.kind && use.subject === u.subject)) continue;
      others.push(u);
    }
    others.sort((a, b) => OTHERS_ORDER.indexOf(a.kind) - OTHERS_ORDER.indexOf(b.kind));
    const site = effectSite(runs, run, entry.step, entry.download !== undefined && picksFork(runs, entry.download), sinks, checkout, use);
    found = { sinks, ...(checkout !== undefined ? { checkout: checkout.entry } : {}), use, others, steersOnlyBareJobs: sinks.length === 0 && bare, steered, ...site };
    effects.set(entry, found);
  }
  return found;
}

/**
 * What a job does with a download kept outside the workspace (`path: ${{ runner.temp }}/a`, `gh run download -D
 * /tmp/a`), which replaces nothing of the checkout: the commands that run a file from there (artifacts.ts
 * `isolatedExecutions`), or, when none does, the checkout a value read from the files names and the executions that
 * run it (`artifactCheckout`, in this job or one that needs it). Null when neither: nothing runs them.
 */
export interface IsolatedEffect {
  /** Commands after the download that run a file from where it landed, in order. */
  executions: IsolatedExecution[];
  /** When no command runs them: the checkout whose ref a value read from them names. */
  checkout?: WorkspaceEntry;
  /** The executions that run that checkout (empty with `executions`). */
  sinks: TracedExecution[];
  /** As in `DownloadEffect`: the job run the effect counts in, and who can bring it about. */
  run: JobRun;
  reach: Reach;
}

export function isolatedEffect(runs: RunModel, run: JobRun, download: ForeignDownload): IsolatedEffect | null {
  const executions = isolatedExecutions(download, (a, b) => runs.sameRun(a, b));
  if (executions.length > 0) return { executions, sinks: [], ...effectSite(runs, run, download.step, picksFork(runs, download), [], undefined, null) };
  const checkout = artifactCheckout(runs, run, download.step);
  if (checkout === undefined) return null;
  return { executions, checkout: checkout.entry, sinks: checkout.sinks, ...effectSite(runs, run, download.step, picksFork(runs, download), checkout.sinks, checkout, null) };
}

/**
 * How a download's files act, for the severity policy: `runs` (a step runs them), `env` (their content in
 * `$GITHUB_ENV` a later step runs with), `unread-env` (written there, but nothing runs with it), `spliced` (a value
 * read from them expanded into a script), `bare` (their content steers only jobs that hold nothing worth taking),
 * `steers` (it steers a job: a value in a command or an input, an output in an `if:`), `argv` (a value split unquoted
 * into the words of a `gh` or `curl` call made with a write token, also one a command substitution runs: `ArtifactUse.splitsArgs`),
 * `unread-output` (read into step outputs no later step or job reads), `low` (any other use: a gate,
 * a comment, a status, a label, a checkout nothing runs, an upload as they are, or none the analysis follows).
 */
export type DownloadAct = 'runs' | 'env' | 'unread-env' | 'spliced' | 'published' | 'bare' | 'steers' | 'argv' | 'unread-output' | 'low';

/**
 * The severity of a download of an outsider's artifacts (`artifact-poisoning`'s, which `dangerous-trigger` arms at):
 * the policy's verdict (run model `severityOf`) when their content runs, MEDIUM at most when it only steers a job
 * that holds something worth taking and an outsider reaches it, or when a value read from them is split into the words
 * of a `gh` or `curl` call made with a write token; LOW otherwise (also when they are only read into outputs nothing
 * reads); null when their values are checked before use (no claim).
 */
export function downloadSeverity(runs: RunModel, effect: Pick<DownloadEffect, 'run' | 'reach'> & { runsThem: boolean; use: ArtifactUse | null; steersOnlyBareJobs: boolean }): { severity: Severity; executes: boolean; act: DownloadAct } | null {
  const { run, reach, runsThem, use } = effect;
  // Their content in `$GITHUB_ENV` runs only in the steps after the write (and earlier actions' post steps).
  if (!runsThem && use?.kind === 'env' && nothingReads(runs.envReaders(use.step))) return { severity: 'LOW', executes: false, act: 'unread-env' };
  // A value read from them expanded with `${{ }}` into a script: their text runs as code in that step.
  const spliced = !runsThem && use?.kind === 'data' && use.spliced === true;
  // Handed as they are to a step that publishes (a package upload, a release): the fork's files are what the project
  // publishes, a sink that publishes (severity policy (b)).
  const published = !runsThem && use?.kind === 'content' && publishingStep(use.step) !== null;
  if (runsThem || use?.kind === 'env' || spliced || published) {
    const claim = jobClaim(run, reach, true, true);
    return { severity: severityOf(claim), executes: true, act: runsThem ? 'runs' : spliced ? 'spliced' : published ? 'published' : 'env' };
  }
  // A value split into the words of a `gh` or `curl` call made with a write token: the fork adds options and arguments
  // to it (argument injection), whatever else the step does with the value. MEDIUM at most, and only an outsider's.
  if (use?.splitsArgs !== undefined) return { severity: outsiderStarts(reach) ? 'MEDIUM' : 'LOW', executes: false, act: 'argv' };
  if (use?.kind === 'validated') return null;
  // Read into outputs that no later step or job reads (a use of an output is a use of its own, stronger than this).
  if (use?.kind === 'read') return { severity: 'LOW', executes: false, act: 'unread-output' };
  // Every job it steers holds nothing worth taking: the fork decides only what those jobs do with a read token.
  if (use?.kind === 'data' && effect.steersOnlyBareJobs) return { severity: 'LOW', executes: false, act: 'bare' };
  // Their content steers what the job does without running as code: MEDIUM at most, and only an outsider's.
  if (use?.kind === 'data') return { severity: outsiderStarts(reach) ? 'MEDIUM' : 'LOW', executes: false, act: 'steers' };
  return { severity: 'LOW', executes: false, act: 'low' };
}

/** Downloads whose effect is being computed (a cycle of jobs, which GitHub rejects, ends here). */
const computing = new Set<WorkspaceEntry>();

/**
 * True when a job (`step` null: any of its steps) is steered by an outsider: it runs their content (an execution
 * traced to a workspace entry that holds a pull request's code, not one only trusted authors reach, or a fork's
 * run's artifacts), or is given the content of a fork's artifacts as data (a value in a command or an input).
 */
function runsOutsider(runs: RunModel, taint: TaintAnalyzer, job: Job, step: Step | null): boolean {
  const run = runs.job(job);
  const mine = (s: Step) => step === null || s === step;
  return run.workspace.some((e) => {
    if (e.content !== 'outsider' || e.checkout?.hiddenBy === 'trusted-author') return false;
    if (runs.sinksOf(run, e).some((t) => mine(t.step))) return true;
    if (e.kind !== 'download' || computing.has(e)) return false;
    computing.add(e);
    try {
      return downloadEffect(runs, taint, run, e).steered.some(mine);
    } finally {
      computing.delete(e);
    }
  });
}

/**
 * A checkout after `download` (a step that downloads another run's artifacts) whose ref a value read from those
 * artifacts names (pr-head.ts: `ref: ${{ steps.x.outputs.sha }}` where step x read a downloaded file), and which a
 * later step runs; undefined when there is none. Also in a job that needs the download's job, through its outputs
 * (`ref: ${{ needs.changes.outputs.branch }}`), directly or through jobs that pass them on (the checkout's provenance
 * names the download's job): the fork's files name the code that job checks out and runs.
 */
export function artifactCheckout(runs: RunModel, run: JobRun, download: Step): ArtifactCheckout | undefined {
  const named = (theirs: JobRun, e: WorkspaceEntry, through: string | null): ArtifactCheckout | undefined => {
    if (e.kind !== 'checkout' || e.checkout === undefined || !namedByArtifact(e.checkout.evidence)) return undefined;
    if (through === null ? e.step.index <= download.index : !e.checkout.evidence.toLowerCase().includes(through)) return undefined;
    const sinks = runs.sinksOf(theirs, e);
    return sinks.length > 0 ? { entry: e, run: theirs, sinks } : undefined;
  };
  for (const e of run.workspace) {
    const own = named(run, e, null);
    if (own !== undefined) return own;
  }
  const job = download.job;
  if (job === null) return undefined;
  const through = `needs.${job.id.toLowerCase()}.outputs.`;
  for (const other of dependentJobs(job)) {
    if (other.uses !== undefined) continue;
    const theirs = runs.job(other);
    for (const e of theirs.workspace) {
      const found = named(theirs, e, through);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** A checkout whose ref a value read from a download's files names (`artifactCheckout`), the run it is in, and what runs it there. */
export interface ArtifactCheckout {
  entry: WorkspaceEntry;
  /** The job run of the checkout: the download's own, or a job's that needs it. */
  run: JobRun;
  /** The executions after the checkout that run it (never empty). */
  sinks: TracedExecution[];
}

/**
 * A download of a run the job picks itself among runs a fork's pull request can start with no approval (a branch,
 * a computed id, a workflow that runs on `pull_request`): whoever gets their run picked feeds it, on every event the
 * step runs on (`RunModel.pickerReach`).
 */
function picksFork(runs: RunModel, download: ForeignDownload): boolean {
  return runChoice(download) === 'chosen' && picksForkRuns(download, runs.repository);
}

/**
 * The run and reach an effect counts in (`DownloadEffect.run`, `reach`): the job run of the checkout the files name
 * when it is another job's, or of the step that expands a value read from them into its script when no step runs
 * them and it is another job's; otherwise the download's own, with the download step's reach.
 */
function effectSite(runs: RunModel, run: JobRun, download: Step, picked: boolean, sinks: readonly TracedExecution[], checkout: ArtifactCheckout | undefined, use: ArtifactUse | null): { run: JobRun; reach: Reach } {
  const elsewhere = checkout !== undefined ? (checkout.run !== run ? checkout.entry.step : null) : sinks.length === 0 && use?.spliced === true && use.step.job !== run.job ? use.step : null;
  const at = elsewhere === null || elsewhere.job === null ? run : runs.job(elsewhere.job);
  // A run the job picks itself reaches it on any event the step runs on: a gate only some of them pass holds nothing back.
  const site = elsewhere ?? download;
  if (!picked) return { run: at, reach: runs.sinkReach(runs.stepReach(site), sinks) };
  return { run: at, reach: runs.sinkReach(runs.pickerReach(site), sinks, (step) => runs.pickerReach(step)) };
}


/** True when a later step runs what a checkout step brings (run model sinks), or the checkout is not one the model traces. */
function checkoutRuns(runs: RunModel, step: Step): boolean {
  if (step.job === null) return true;
  const run = runs.job(step.job);
  const entry = run.workspace.find((e) => e.kind === 'checkout' && e.step === step);
  return entry === undefined || runs.sinksOf(run, entry).length > 0;
}

/**
 * True when a step's commands act with a token that can write: another credential given to it (a stored secret as
 * `GH_TOKEN`), or the run's own `GITHUB_TOKEN` when the job's is not read-only (run model holdings).
 */
function tokenWrites(runs: RunModel, step: Step): boolean {
  const token = givenToken(step);
  if (token === null || step.job === null) return false;
  return token === 'other' || !readOnlyToken(runs.job(step.job).holdings, runs.defaultToken);
}

/** A script (`run:` or a github-script's `script`) that splices a step's or job's output into its code: it may run it. */
function interpolatesOutputs(step: Step): boolean {
  const file = step.owner.file.text;
  const script = step.run ?? (step.usesRef?.kind === 'repository' && step.usesRef.slug === 'actions/github-script' ? get(step.with, 'script') : undefined);
  if (script === undefined) return false;
  return /\$\{\{[^}]*\b(?:steps|needs)\.[\w-]+\.outputs\b/.test(file.slice(script.start, script.end));
}

/**
 * True when nothing runs the files and their content only goes where it cannot act: uploaded or deployed as
 * they are (a static preview), into a comment, a commit status or a label added with the run's own token, or read
 * as validated values; not when a value is split into the words of a comment's call (`ArtifactUse.splitsArgs`).
 */
export function inertEffect(effect: DownloadEffect): boolean {
  const kind = effect.use?.kind;
  if (effect.use?.splitsArgs !== undefined) return false;
  return effect.sinks.length === 0 && (kind === 'content' || kind === 'checkout' || kind === 'pick' || kind === 'comment' || kind === 'status' || kind === 'label' || kind === 'validated');
}

/**
 * Executions after a download that run files it may hold: traced to it, or to a later download into the same
 * directory or below (an extraction adds files, it does not remove the earlier ones; only a checkout over the
 * directory cleans it).
 */
function downloadSinks(runs: RunModel, run: JobRun, entry: WorkspaceEntry): TracedExecution[] {
  return run.executions.filter((t) => {
    if (!runs.sameRun(entry.step, t.step)) return false;
    if (t.code === entry) return true;
    // `npx x` run where the files landed takes the package they install (`node_modules/.bin/x`) before the registry's.
    if (t.execution.kind === 'registry' && typeof t.execution.resolvesFrom === 'string') {
      const holder = codeOf({ ...t.execution, kind: 'project', path: t.execution.resolvesFrom }, run.workspace, t.step);
      return holder === entry || (holder !== null && holder.kind === 'download' && holder.step.index >= entry.step.index && entry.dir !== null && holder.dir !== null && within(holder.dir, entry.dir));
    }
    // A download whose directory is not known may hold any path of the workspace: whatever runs after it.
    if (entry.dir === null && t.execution.kind !== 'registry' && (t.step.index > entry.step.index || (t.step === entry.step && (t.execution.offset ?? 0) > (entry.offset ?? 0)))) return true;
    const code = t.code;
    if (code === null || code.kind !== 'download' || code.step.index < entry.step.index || (code.step === entry.step && (code.offset ?? 0) < (entry.offset ?? 0))) return false;
    if (t.execution.path === null) return entry.dir === null;
    return entry.dir === null || within(t.execution.path, entry.dir);
  });
}

/**
 * What a job still does with values from pull request artifacts around a download whose own content the analysis
 * follows nowhere (`DownloadEffect.use` null, no step runs them): a run, branch or artifact the download fetches
 * that a value read from an earlier download's files picks (that download's `pick` use), and a later step of the
 * same job run that posts a comment given step or job outputs (its target, its text: `number: ${{
 * steps.pr.outputs.content }}`, `body: ${{ steps.report.outputs.content }}`), which may carry what the job read
 * from the workspace these files landed in (a report a script builds from them). Named, so no text says their
 * content reaches nothing when the job's comment and its next download are the fork's to steer.
 */
export interface UntracedSteering {
  /** The earlier download whose files pick what this one fetches, and that use (`kind: 'pick'`, at this download's step). */
  pickedBy: { download: Step; use: ArtifactUse } | null;
  /**
   * The first later step of the job run that posts a comment given outputs that may carry pull request files: `later`,
   * the inputs (or `env:` names, its script) given outputs of steps after this download, which may carry what the job
   * read from the workspace these files landed in; `earlier`, those given values an earlier download's files fill
   * (`from`: that download, whose own finding names the use).
   */
  comment: { step: Step; later: readonly Given[]; earlier: readonly Given[]; from: Step | null } | null;
  /**
   * The first later step of the job run that hands the directory they landed in to an action by an input the analysis
   * reads no files from (`storybookBuildDir: storybook-static`): what that action does with them is the fork's files'
   * use. `value` as written.
   */
  handedTo: { step: Step; input: string; value: string } | null;
}

/** An input (or `env:` name, or `run` for the script) of a step and the first step or job output it is given. */
interface Given {
  input: string;
  ref: string;
}

const OUTPUT_PATH = /\b(?:steps|needs)\.[\w-]+\.outputs\.[\w-]+/;

/** Every scalar text below a node (bounded). */
function scalarTexts(node: YNode | undefined, into: string[] = []): string[] {
  if (node === undefined || into.length >= 200) return into;
  if (node.kind === 'scalar') {
    if (typeof node.value === 'string') into.push(node.value);
  } else if (node.kind === 'seq') for (const item of node.items) scalarTexts(item, into);
  else for (const pair of node.pairs) scalarTexts(pair.value, into);
  return into;
}

/** The inputs, `env:` names and script of a step given a step or job output, with the first output each is given. */
function givenOutputs(step: Step): Given[] {
  const found: Given[] = [];
  const take = (input: string, node: YNode | undefined) => {
    const ref = scalarTexts(node).map((t) => OUTPUT_PATH.exec(t)?.[0]).find((m) => m !== undefined);
    if (ref !== undefined) found.push({ input, ref });
  };
  for (const pair of step.with?.kind === 'map' ? step.with.pairs : []) take(keyText(pair.key), pair.value);
  for (const pair of step.env?.kind === 'map' ? step.env.pairs : []) take(keyText(pair.key), pair.value);
  if (step.run !== undefined) take('run', step.run);
  return found;
}

export function untracedSteering(runs: RunModel, taint: TaintAnalyzer, run: JobRun, entry: WorkspaceEntry): UntracedSteering {
  // What the earlier downloads of pull request artifacts in the job run do with their files (their own findings).
  const earlier = run.workspace
    .filter((other) => other !== entry && other.kind === 'download' && other.content === 'outsider' && other.step.index < entry.step.index && runs.sameRun(other.step, entry.step))
    .map((other) => {
      const effect = downloadEffect(runs, taint, run, other);
      return { download: other.step, uses: [effect.use, ...effect.others].filter((u): u is ArtifactUse => u !== null) };
    });
  let pickedBy: UntracedSteering['pickedBy'] = null;
  for (const { download, uses } of earlier) {
    const use = uses.find((u) => u.kind === 'pick' && u.step === entry.step);
    if (use !== undefined) {
      pickedBy = { download, use };
      break;
    }
  }
  let comment: UntracedSteering['comment'] = null;
  const job = run.job;
  for (const step of job.steps) {
    if (step.index <= entry.step.index || !runs.sameRun(entry.step, step) || stepNotice(step) !== 'comment') continue;
    const given = givenOutputs(step);
    // Outputs of steps after the download that read files of the workspace: values the job read once the files were there.
    const afterDownload = (g: Given) => {
      const id = /^steps\.([\w-]+)\./.exec(g.ref)?.[1];
      const writer = id === undefined ? undefined : job.steps.find((s) => s.id === id);
      return writer !== undefined && writer.index > entry.step.index && readsWorkspaceFile(writer);
    };
    const later = given.filter(afterDownload);
    const from = earlier.find(({ uses }) => uses.some((u) => u.step === step))?.download ?? null;
    if (later.length === 0 && from === null) continue;
    comment = { step, later, earlier: from === null ? [] : given.filter((g) => !afterDownload(g)), from };
    break;
  }
  return { pickedBy, comment, handedTo: handedDirectory(runs, job, entry) };
}

/** A relative path as a workspace directory: without `./` and trailing slashes. */
function workspaceDir(text: string): string {
  return text.trim().replace(/^(\.\/)+/, '').replace(/\/+$/, '');
}

/** `UntracedSteering.handedTo`: an action after the download given their directory (or a path in it) as an input. */
function handedDirectory(runs: RunModel, job: Job, entry: WorkspaceEntry): UntracedSteering['handedTo'] {
  const dir = entry.dir;
  if (dir === null || dir === '') return null;
  for (const step of job.steps) {
    if (step.index <= entry.step.index || step.usesRef?.kind !== 'repository' || !runs.sameRun(entry.step, step)) continue;
    for (const pair of step.with?.kind === 'map' ? step.with.pairs : []) {
      const value = pair.value.kind === 'scalar' && typeof pair.value.value === 'string' ? pair.value.value : null;
      if (value === null || value.includes('${{')) continue;
      const path = workspaceDir(value);
      if (path === dir || path.startsWith(`${dir}/`)) return { step, input: keyText(pair.key), value: value.trim() };
    }
  }
  return null;
}

/** `\`number\`, \`body\`` (the script as `script`). */
function inputWords(given: readonly Given[]): string {
  return given.map((g) => (g.input === 'run' ? 'script' : `\`${g.input}\``)).join(', ');
}

/**
 * `untracedSteering` in words, for a download whose own content the analysis follows nowhere: what picks the run
 * it fetches, and the comment later steps post with values read after it or from an earlier download's files; null
 * when neither is there.
 */
export function untracedText(found: UntracedSteering): { text: string; worst: string } | null {
  const parts: string[] = [];
  const worst: string[] = [];
  if (found.pickedBy !== null) {
    const { download, use } = found.pickedBy;
    const picks = use.picks;
    const given = picks === undefined ? '' : ` (\`${picks.ref}\`, its \`${picks.inputs.join('`, `')}\`)`;
    parts.push(`the run they come from is picked by a value read from the artifacts ${describeStep(download)} downloads${given}`);
    worst.push("which run's artifacts the job fetches");
  }
  if (found.comment !== null) {
    const { step, later, earlier, from } = found.comment;
    const line = step.owner.file.position(step.node.start).line;
    const takes = (given: readonly Given[]) => (given.length > 1 ? 'take' : 'takes');
    const clauses: string[] = [];
    const first = later[0];
    if (first !== undefined) clauses.push(`whose ${inputWords(later)} ${takes(later)} \`${first.ref}\`${later.length > 1 ? ' (and more)' : ''}, an output of a step after this download that reads files of the workspace these files landed in`);
    if (from !== null) {
      const what = earlier.length === 0 ? 'whose target or text' : `whose ${inputWords(earlier)}`;
      clauses.push(`${clauses.length > 0 ? 'and ' : ''}${what} ${earlier.length > 1 ? 'come' : 'comes'} from the artifacts ${describeStep(from)} downloads`);
    }
    parts.push(`${describeStep(step)} (line ${line}) then posts a comment (${commentSink(step)}) ${clauses.join(', ')}`);
    worst.push("a comment's target or wording");
  }
  if (found.handedTo !== null) {
    const { step, input, value } = found.handedTo;
    const ref = step.usesRef;
    const action = ref?.kind === 'repository' ? (ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`) : 'an action';
    parts.unshift(`${describeStep(step)} hands them to ${action} (its \`${input}: ${value}\`), which works with the fork's files as it is built to (what it uploads, publishes or reports is theirs)`);
    worst.unshift(`what ${action} does with the fork's files`);
  }
  if (parts.length === 0) return null;
  return { text: parts.join('; and '), worst: worst.join(', and ') };
}
