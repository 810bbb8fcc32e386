import { occurrencesIn } from '../analysis/file-scalars.js';
import { scriptOf } from '../analysis/file-scripts.js';
import { outsiderReach, whoText, type Reach, type RunModel } from '../analysis/run-model/index.js';
import { isFullSha } from '../model/uses.js';
import { getScalar, scalarText } from '../yaml/model.js';
import { unverifiedDownloads } from './download-without-checksum.js';
import { downloadOrigin } from '../analysis/download-origin.js';
import { outsiderSteering } from '../analysis/outsider-code.js';
import type { TaintAnalyzer } from '../expressions/taint.js';
import { hitSeverity, scriptRemoteRuns } from './pipe-to-shell.js';
import type { Severity } from '../types.js';
import { fileMayUseSecrets, mayUseSecrets, secretUses } from '../analysis/secrets.js';
import { expressionsOf, type ExpressionOccurrence } from '../expressions/extract.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowReport } from '../rule.js';
import { keyText, type YMap, type YNode } from '../yaml/model.js';

/**
 * Secret names that say they hold a GitHub token (`GH_PAT`, `GH_TOKEN`, `BOT_GITHUB_TOKEN`,
 * `GH_RELEASE_TOKEN`): a stored one is a personal access token, since installation tokens expire in an
 * hour and the job token is `GITHUB_TOKEN` (user secrets may not start with `GITHUB_`).
 */
const GITHUB_PAT_NAME = /(?:^|_)(?:GH|GITHUB)_(?:PAT|TOKEN)(?:_|$)|(?:^|_)(?:GH|GITHUB)(?:_[A-Z0-9]+){0,4}_(?:TOKEN|PAT)$/i;
/** Names that say "personal access token". */
const PAT_NAME = /(?:^|_)PAT(?:_|$)|PERSONAL_ACCESS_TOKEN|PERSONAL_TOKEN/i;
/** Services whose PATs are not GitHub's (`VSCE_PAT` publishes to the VS Code Marketplace). */
const OTHER_SERVICE = /VSCE|OVSX|AZURE|DEVOPS|NUGET|DOCKER|QUAY|JFROG|ARTIFACTORY|GITLAB|BITBUCKET|HUGGINGFACE|JIRA|ATLASSIAN|SNYK|FIGMA|NOTION|(?:^|_)(?:ADO|AZDO|DH|HF)(?:_|$)/i;
/** `with:` inputs and `env:` variables through which actions and tools take a GitHub token. */
const TOKEN_INPUT = /token|(?:^|[-_])pat$/i;
const TOKEN_ENV = /^(?:GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GH_PAT|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN)$/;

type Position = { kind: 'with'; key: string; step: Step | null } | { kind: 'env'; key: string } | { kind: 'run'; line: string } | { kind: 'secrets'; key: string } | { kind: 'other' };

/** Whether a secret of this name, used at this position, is a GitHub personal access token. */
function isGithubPat(name: string, position: Position): boolean {
  if (name.toUpperCase() === 'GITHUB_TOKEN') return false;
  if (GITHUB_PAT_NAME.test(name)) return true;
  if (!PAT_NAME.test(name)) return false;
  // A PAT given as a registry password (`docker/login-action`) is the registry's, not GitHub's.
  if (!OTHER_SERVICE.test(name)) return !((position.kind === 'with' || position.kind === 'secrets') && /password/i.test(position.key));
  // `VSCE_PAT`, `OVSX_PAT` ...: a PAT of another service, unless it goes where a GitHub token goes.
  switch (position.kind) {
    case 'with':
      return TOKEN_INPUT.test(position.key);
    case 'env':
      return TOKEN_ENV.test(position.key);
    case 'run':
      return /github|\bgh\s/i.test(position.line);
    case 'secrets':
      return TOKEN_INPUT.test(position.key);
    default:
      return false;
  }
}

function describe(position: Position): string {
  switch (position.kind) {
    case 'with':
      return position.step?.uses !== undefined && typeof position.step.uses.value === 'string'
        ? `passed as \`${position.key}\` to \`${position.step.uses.value.replace(/@.*$/, '')}\``
        : `passed as \`with.${position.key}\``;
    case 'env':
      return `exported as \`${position.key}\``;
    case 'run':
      return 'used in a script';
    case 'secrets':
      return `passed to the reusable workflow as \`${position.key}\``;
    default:
      return 'used';
  }
}

/** At most this many pieces of someone else's code are named in a description. */
const NAMED = 3;

/** A `uses:` or image text for a description: bounded (it is the scanned repository's) and without backticks. */
function shown(text: string): string {
  const clean = text.replace(/`/g, "'").trim();
  return `\`${clean.length > 80 ? `${clean.slice(0, 77)}...` : clean}\``;
}

/** An image reference not pinned by digest (`name:tag`, `name`), read as text; expressions are not resolved. */
function mutableImage(reference: string): boolean {
  return reference.trim() !== '' && !reference.includes('@');
}

/**
 * Someone else's code that can change under the job without a change to this repository, in words (empty: none):
 * a third party's action or reusable workflow on a tag or branch (the run model's ownership; steps of local
 * composite actions included at their call), a third party's image by tag (the job's container, a service given
 * the PAT, the workspace or the machine, `docker://` steps), a script fetched and run (`curl … | sh`, not a vendor's official installer) and a download
 * nothing verifies. Any of them runs beside the token: the runner's memory holds every secret of the job.
 */
function foreignCode(runs: RunModel, job: Job): string[] {
  const found: string[] = [];
  const image = (text: string | null) => {
    if (text !== null && !text.includes('${{') && mutableImage(text) && runs.imageOwnershipOf(text) === 'third-party') found.push(`image ${shown(text)}`);
  };
  if (job.usesRef?.kind === 'repository' && !isFullSha(job.usesRef.ref) && runs.ownershipOf(job.usesRef) === 'third-party' && job.uses !== undefined) found.push(`reusable workflow ${shown(String(job.uses.value))}`);
  const container = job.container;
  // The job's container holds only what reaches the steps that run in it (the run model's container): it counts
  // when a PAT does, or when its definition gives it the machine.
  const access = runs.container(job)?.access;
  if (container !== undefined && access !== undefined && (access.mounts.some((m) => m.reach === 'host') || access.secrets.some((name) => isGithubPat(name, { kind: 'other' })))) {
    image(scalarText(container) ?? getScalar(container, 'image')?.value?.toString() ?? null);
  }
  // A service container runs apart from the job: only one given the PAT, the workspace or the machine reaches it (the run model's service access).
  for (const pair of job.services?.pairs ?? []) {
    const access = runs.service(job, pair.value).access;
    if (access.mounts.length > 0 || access.secrets.some((name) => isGithubPat(name, { kind: 'other' }))) image(scalarText(pair.value) ?? getScalar(pair.value, 'image')?.value?.toString() ?? null);
  }
  for (const { step } of runs.job(job).steps) {
    const ref = step.usesRef;
    if (ref?.kind === 'repository' && !isFullSha(ref.ref) && runs.ownershipOf(ref) === 'third-party' && step.uses !== undefined) found.push(`action ${shown(String(step.uses.value))}`);
    else if (ref?.kind === 'docker') image(ref.image);
    const script = scriptOf(step);
    if (script === null) continue;
    // The repository's own, its owner's and GitHub's scripts and files are not someone else's (ownership.ts), nor is
    // a vendor's official installer or a fixed version of a per-version archive (download-origin.ts).
    const fetched = scriptRemoteRuns(script).find((hit) => hitSeverity(hit, false, runs.identity).severity !== 'LOW');
    if (fetched !== undefined) found.push(`a script fetched and run (${shown(fetched.form)}${fetched.url === null ? '' : ` from ${shown(fetched.url)}`})`);
    const download = unverifiedDownloads(step).find((d) => downloadOrigin(step, script.text, d.offset, d.fetch.url, runs.identity).kind === 'mutable');
    if (download !== undefined) found.push(`an unverified download (${shown(download.fetch.url ?? download.fetch.program)})`);
  }
  return [...new Set(found)];
}

/** What raises a PAT above hygiene in one job: someone else's mutable code in it, or an outsider who starts it and steers code in it. */
interface Exposure {
  job: Job;
  foreign: string[];
  /** The reach that lets an outsider start the job (or the step), or null. */
  outsider: Reach | null;
  /** How the outsider steers code that runs in the job (their checkout run, their text run as code), or null. */
  steer: string | null;
}

/** An outsider can start it: anyone, a sticky label, or an environment whose reviewers could not be checked. */
function outsiderStarts(reach: Reach): boolean {
  return outsiderReach(reach) || reach.level === 'unreviewed-environment';
}

function exposureOf(runs: RunModel, taint: TaintAnalyzer, job: Job, reach: Reach): Exposure {
  const outsider = outsiderStarts(reach) ? reach : null;
  return { job, foreign: foreignCode(runs, job), outsider, steer: outsider === null ? null : outsiderSteering(job, runs, taint) };
}

/** Someone else's mutable code runs beside the token, or an outsider who starts the job steers code in it. */
function exposed(e: Exposure): boolean {
  return e.foreign.length > 0 || (e.outsider !== null && e.steer !== null);
}

const LOW_WHY =
  "LOW: only collaborators start the job and it runs only this repository's, its owner's and GitHub's code and actions pinned by SHA, so taking the token needs a compromise of one of those first.";

/**
 * An outsider starts the job but nothing they write runs in it: the token goes only to code of this repository,
 * its owner or GitHub, or actions pinned by SHA (or, for a reusable workflow's call, to the owner's workflow,
 * which decides what runs).
 */
function startedOnly(e: Exposure & { outsider: Reach }): string {
  const uses = e.job.uses === undefined ? null : String(e.job.uses.value).replace(/@.*$/, '');
  const where =
    uses === null
      ? "no step runs their code or expands their text into code, and the job runs only this repository's, its owner's and GitHub's code and actions pinned by SHA"
      : `the token goes only to reusable workflow \`${uses}\`, the repository's own or its owner's, which decides what runs, and nothing here runs their code or text`;
  return `LOW: ${whoText(e.outsider)}, but ${where}; starting the run gives them no way to the token without a compromise of that code first.`;
}

/** The severity of a PAT held by these jobs (the worst of them), and the sentence that says why. */
function judge(exposures: readonly Exposure[]): { severity: Severity; why: string } {
  const worst = exposures.find(exposed);
  if (worst === undefined) {
    const started = exposures.find((e): e is Exposure & { outsider: Reach } => e.outsider !== null);
    return { severity: 'LOW', why: started === undefined ? LOW_WHY : startedOnly(started) };
  }
  const reasons: string[] = [];
  if (worst.outsider !== null && worst.steer !== null) reasons.push(`${whoText(worst.outsider)}, and ${worst.steer}`);
  if (worst.foreign.length > 0) {
    const named = worst.foreign.slice(0, NAMED).join(', ');
    reasons.push(
      `the job also runs someone else's code that can change without a change here: ${named}${worst.foreign.length > NAMED ? ` and ${worst.foreign.length - NAMED} more` : ''}, so its publisher (or whoever takes over their account) can take the token with nothing but a pin in the way`,
    );
    // Who starts the run matters less than who changes that code, but it is said when an outsider can.
    if (worst.outsider !== null && worst.steer === null) reasons.push(whoText(worst.outsider));
  }
  return { severity: 'MEDIUM', why: `MEDIUM: ${reasons.join('; ')}.` };
}

export default defineWorkflowRule({
  meta: {
    id: 'personal-access-token',
    category: 'CICD-SEC-2',
    title: 'Long-lived personal access token used in a workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A secret named like a personal access token (`*_PAT`, `PAT_*`, `*PERSONAL_ACCESS_TOKEN*`, `GH_TOKEN`, `*_GH_TOKEN`, `*_GITHUB_TOKEN`) is passed to an action, a tool or a script as a GitHub token. A PAT does not expire with the run and acts with all of its owner\'s access.',
    recommendation:
      'Use the job\'s `GITHUB_TOKEN` with the `permissions:` the job needs, or a GitHub App installation token minted per run (`actions/create-github-app-token`) scoped to the repositories and permissions required.',
  },
  create: (context) => {
    // Offsets are per file: remember them per scalar (each belongs to one file), not across the repository.
    const seen = new WeakMap<object, Set<number>>();
    /**
     * The severity where the PAT sits: a step's (its own reach, in its job; a local composite action's step at
     * the jobs that call it), a job's (its reach), or the workflow's `env:` (every job of the workflow).
     */
    const severityAt = (job: Job | null | undefined, step: Step | null, workflow: Workflow | null): { severity: Severity; why: string } => {
      const runs = context.runs;
      const taint = context.taint;
      if (step !== null) {
        if (step.job !== null) return judge([exposureOf(runs, taint, step.job, runs.stepReach(step))]);
        const callers = runs.jobSteps(step);
        if (callers.length === 0) return { severity: 'MEDIUM', why: 'MEDIUM: no workflow here runs this action, so who starts its jobs and what runs beside it are not known.' };
        return judge(callers.map((caller) => exposureOf(runs, taint, caller.job as Job, runs.stepReach(caller))));
      }
      if (job !== null && job !== undefined) return judge([exposureOf(runs, taint, job, runs.job(job).reach)]);
      if (workflow !== null) return workflow.jobs.length === 0 ? { severity: 'LOW', why: LOW_WHY } : judge(workflow.jobs.map((j) => exposureOf(runs, taint, j, runs.job(j).reach)));
      return { severity: 'MEDIUM', why: '' };
    };
    const reportOccurrence = (occurrence: ExpressionOccurrence, position: Position, job: Job | null | undefined, step: Step | null = null, workflow: Workflow | null = null) => {
      if (occurrence.expr === null || !mayUseSecrets(occurrence.span.source)) return;
      const offsets = seen.get(occurrence.scalar) ?? new Set<number>();
      seen.set(occurrence.scalar, offsets);
      if (offsets.has(occurrence.offset)) return;
      const use = secretUses(occurrence.expr).find((u) => u.kind === 'named' && !u.tested && isGithubPat(u.name, position));
      if (use?.kind !== 'named') return;
      offsets.add(occurrence.offset);
      const { severity, why } = severityAt(job, step, workflow);
      const report: WorkflowReport = {
        node: occurrence.scalar,
        offset: occurrence.offset,
        severity,
        message: `\`secrets.${use.name}\`, by its name a personal access token, is ${describe(position)}; unlike the job token it outlives the run and carries its owner's access.${why === '' ? '' : ` ${why}`}`,
      };
      context.report(job === undefined ? report : { ...report, job });
    };
    /** Every PAT carried by the `${{ }}` of `node`. */
    const check = (model: Workflow | Action, node: YNode, position: Position, job: Job | null | undefined, step: Step | null) => {
      for (const occurrence of occurrencesIn(model, node)) reportOccurrence(occurrence, position, job, step, model.kind === 'workflow' && job === null ? model : null);
    };
    const checkMap = (model: Workflow | Action, map: YMap | undefined, kind: 'with' | 'env' | 'secrets', step: Step | null, job: Job | null | undefined) => {
      for (const pair of map?.pairs ?? []) {
        const key = keyText(pair.key);
        check(model, pair.value, kind === 'with' ? { kind, key, step } : { kind, key }, job, step);
      }
    };
    return {
      workflow(workflow) {
        if (!fileMayUseSecrets(workflow)) return;
        checkMap(workflow, workflow.env, 'env', null, null);
      },
      job(job) {
        const workflow = job.workflow;
        if (!fileMayUseSecrets(workflow)) return;
        checkMap(workflow, job.env, 'env', null, job);
        checkMap(workflow, job.with, 'with', null, job);
        if (job.secrets?.kind === 'map') checkMap(workflow, job.secrets, 'secrets', null, job);
      },
      step(step) {
        // Only `secrets.*` is reported: a file whose expressions never name the context has nothing to report.
        if (!fileMayUseSecrets(step.owner)) return;
        const file = step.owner.file;
        checkMap(step.owner, step.env, 'env', step, undefined);
        checkMap(step.owner, step.with, 'with', step, undefined);
        const run = step.run;
        if (run !== undefined && typeof run.value === 'string') {
          const script = run.value;
          for (const occurrence of expressionsOf(file, run)) {
            if (!mayUseSecrets(occurrence.span.source)) continue;
            const start = script.lastIndexOf('\n', occurrence.span.start) + 1;
            const end = script.indexOf('\n', occurrence.span.end);
            reportOccurrence(occurrence, { kind: 'run', line: script.slice(start, end === -1 ? script.length : end) }, undefined, step);
          }
        }
      },
    };
  },
});
