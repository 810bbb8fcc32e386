import { holdsMinor, holdsSecrets, minorKinds, minorWords } from '../analysis/run-model/holdings.js';
import { downloadEffect, downloadSeverity, inertEffect, type DownloadEffect } from '../analysis/artifact-effects.js';
import { downloadContent, triggeringRunReads } from '../analysis/artifacts.js';
import { describeStep } from '../analysis/describe.js';
import { envInjectionClaim, envInjectionSeverity, envInjections, scriptInjections } from '../analysis/injections.js';
import { outsiderCodeOn } from '../analysis/outsider-code.js';
import { dispatchedWorkflows, selfDispatches, sentWords, type SelfDispatch } from '../analysis/pr-dispatch.js';
import { readDispatched, sentInputs } from '../analysis/dispatch-inputs.js';
import { holdingFacts, reachFacts } from '../analysis/run-model/facts.js';
import { severityRank, type Severity } from '../types.js';
import { describeClaim, jobClaim, nothingReads, payloadEvents, severityOf, whoText, type Reach } from '../analysis/run-model/index.js';
import { outsiderReach } from '../analysis/run-model/reach.js';
import { jobTrustOn } from '../analysis/trust-guards.js';
import { forkAddedNames } from '../analysis/workflow-run.js';
import { agentEvents, scriptAgents, stepAgent } from '../analysis/agent-input.js';
import { outsiderControlled } from '../expressions/controller.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import type { Job, Workflow } from '../model/workflow.js';
import { asList, get, getText, scalarText, type YNode } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';

const DANGEROUS = new Set(['pull_request_target', 'workflow_run']);

/**
 * Well-known actions that only label, assign, greet, check titles or mark stale issues and pull requests
 * through the API: they never run the pull request's code or pass its text to a shell.
 */
const TRIAGE_ACTIONS = new Set([
  'actions/labeler',
  'actions/first-interaction',
  'actions/stale',
  'actions/add-to-project',
  'github/issue-labeler',
  'srvaroa/labeler',
  'timonvs/pr-labeler-action',
  'codelytv/pr-size-labeler',
  'kentaro-m/auto-assign-action',
  'pozil/auto-assign-issue',
  'actions-ecosystem/action-add-labels',
  'actions-ecosystem/action-remove-labels',
  'amannn/action-semantic-pull-request',
  'thehanimo/pr-title-checker',
  'thollander/actions-comment-pull-request',
  'release-drafter/release-drafter',
  'eps1lon/actions-label-merge-conflict',
  'step-security/harden-runner',
]);

/** A job that only runs well-known triage actions: no checkout, no script, no reusable workflow. */
function triageOnly(job: Job): boolean {
  if (job.uses !== undefined || job.steps.length === 0) return false;
  return job.steps.every((step) => step.run === undefined && step.usesRef?.kind === 'repository' && TRIAGE_ACTIONS.has(step.usesRef.slug));
}

/** What an outsider's content does in the workflow's jobs (run model), or why it does nothing, in words. */
interface Exposure {
  /** For HIGH or MEDIUM: the rule whose finding about the same job makes the same claim (`Armed.rule`). */
  rule?: string;
  /**
   * The policy's severity (docs/severity.md) for the job where an outsider's content does the most: HIGH or MEDIUM
   * when some job runs outsider code, runs outsider text, or consumes outsider artifacts that reach code or
   * secrets, from that job's reach, gates and holdings; LOW when none does.
   */
  severity: 'HIGH' | 'MEDIUM' | 'LOW';
  text: string;
  facts: string[];
  /**
   * For LOW: the rules whose findings about the workflow's jobs state a weakness an outsider's content reaches (a
   * script injection behind a gate, an argument injection, an AI agent reading their text), which the text names
   * instead of saying that no job does anything with it.
   */
  others?: string[];
}

/** A weakness another rule reports in a job of the workflow, named in a LOW description instead of reassurance. */
interface Other {
  text: string;
  rule: string;
}

/** One job's exposure to an outsider's content, with the policy's severity for that job. */
interface Armed {
  severity: 'HIGH' | 'MEDIUM';
  text: string;
  facts: string[];
  /** The rule whose finding about the same job states this weakness and its fix (untrusted-checkout, script-injection ...). */
  rule: string;
}

function stronger(found: Armed | null, candidate: Armed): Armed {
  return found === null || severityRank(candidate.severity) < severityRank(found.severity) ? candidate : found;
}

function armedSeverity(severity: Severity): 'HIGH' | 'MEDIUM' | null {
  return severity === 'HIGH' || severity === 'MEDIUM' ? severity : null;
}

/**
 * `exposure` over the jobs a privileged trigger's finding speaks for: those that can run on its event, and those that
 * run on none of the workflow's other privileged triggers (a comment command's job, which no finding of its own states);
 * a job that runs only on another of them (a `workflow_run` job's artifacts in a file that also runs on
 * `pull_request_target`) is that trigger's. Read once per set of jobs.
 */
function exposureOn(workflow: Workflow, context: WorkflowRuleContext, event: string, cache: Map<string, Exposure>): Exposure {
  const others = workflow.triggers.map((t) => t.name).filter((name) => name !== event && DANGEROUS.has(name));
  const jobs = workflow.jobs.filter((job) => jobTrustOn(job, event).length > 0 || !others.some((other) => jobTrustOn(job, other).length > 0));
  const key = `${event}\n${jobs.map((job) => job.id).join('\n')}`;
  let found = cache.get(key);
  if (found === undefined) cache.set(key, (found = exposure(workflow, context, jobs, event)));
  return found;
}

function exposure(workflow: Workflow, context: WorkflowRuleContext, jobs: readonly Job[], event: string): Exposure {
  let armed: Armed | null = null;
  // Outsider code a step runs, per job: the same claim as untrusted-checkout's (and artifact-poisoning's for a
  // download a step runs), from that job's reach, the race after an approval and what the job holds.
  const unarmed: string[] = [];
  const others: Other[] = [];
  const withCode = new Set<Job>();
  for (const job of jobs) {
    // Only what can run on this trigger's event: a download a step runs only on `workflow_run` is that trigger's.
    const code = outsiderCodeOn(context, job, event);
    if (code === null) continue;
    withCode.add(job);
    const run = context.runs.job(job);
    if (code.kind === 'script') {
      // Outsider text in a script: script-injection's own claim of that expansion (the ceiling of the kind of
      // text, the gates that vouch for the value), never above what that finding says.
      const injection = code.injection();
      const severity = injection === null ? null : armedSeverity(injection.severity);
      if (injection === null || severity === null) {
        if (others.length < 2) others.push({ text: `${code.text}${injection?.text ?? ''}`, rule: 'script-injection' });
        continue;
      }
      const facts = [...new Set([...injection.facts.filter((f) => f.startsWith('reach:') || f === 'exec'), ...holdingFacts(run)])];
      armed = stronger(armed, { severity, text: `${code.text}${injection.text}`, facts, rule: 'script-injection' });
      if (armed.severity === 'HIGH') break;
      continue;
    }
    const claim = jobClaim(run, code.reach, true, code.race);
    const severity = armedSeverity(severityOf(claim));
    if (severity === null) {
      if (unarmed.length < 2) unarmed.push(`${code.text}, but ${whoText(code.reach)}${run.valuables.length === 0 ? `, and ${run.nothingHeld}` : ''}`);
      continue;
    }
    // Behind a maintainer's act that approves each run, what keeps it MEDIUM: the code is taken when the job runs.
    const race = code.race && code.reach.level === 'approval' && code.reach.approvalMoves !== true && code.reach.labelRemoved === undefined ? ', and the code is taken when the job runs, not when the approval was given, so commits pushed after it run too' : '';
    armed = stronger(armed, { severity, text: `${code.text}; ${describeClaim(claim)}${race}`, facts: [...reachFacts(code.reach), 'exec', ...holdingFacts(run)], rule: code.from === 'download' ? 'artifact-poisoning' : 'untrusted-checkout' });
    if (armed.severity === 'HIGH') break;
  }
  // Outsider text in a script, a code input (`github-script`), a local action's script, or `$GITHUB_ENV` that a
  // later step (or an earlier action's post step) runs with: the injection rules' own analyses and claims
  // (script-injection, github-env-injection). A write in the job's last step defines variables nothing reads.
  let unreadEnv: string | null = null;
  for (const job of jobs) {
    if (job.uses !== undefined || armed?.severity === 'HIGH') continue;
    const run = context.runs.job(job);
    for (const { step } of run.steps) {
      const env = step.job !== null ? envInjections(step, context.taint) : [];
      const read = env.length > 0 && !nothingReads(context.runs.envReaders(step));
      if (env.length > 0 && !read) unreadEnv ??= `${describeStep(step)} (line ${step.owner.file.position(step.node.start).line}) writes pull request text to \`$GITHUB_ENV\`, but no later step of job \`${job.id}\` runs with it`;
      // github-env-injection's claim and severity: the milder of the hit's own ceiling and the policy's for the job.
      const envClaim = read && step.job !== null ? envInjectionClaim(step, step.job, context.runs) : null;
      const hits = [
        ...scriptInjections(step, context.taint, context.runs).map((h) => ({ hit: h, severity: h.severity ?? 'HIGH', claim: '', rule: 'script-injection' })),
        ...(envClaim !== null ? env.map((h) => ({ hit: h, severity: envInjectionSeverity(h, envClaim), claim: `; ${describeClaim(envClaim)}`, rule: 'github-env-injection' })) : []),
      ];
      for (const { hit, severity: own, claim, rule } of hits) {
        const severity = armedSeverity(own);
        const line = step.owner.file.position(hit.node.start).line;
        const whole = hit.message.replace(/\.$/, '');
        const message = whole.length > 240 ? `${whole.slice(0, 237)}...` : whole;
        if (severity === null) {
          // Outsider text that reaches a script behind a gate (LOW there): named, never "no job puts its text into a script".
          const outsiders = hit.taint === undefined || outsiderControlled(hit.taint.controller);
          const where = `${describeStep(step)} (line ${line})`;
          const text = hit.expression !== undefined && hit.claim !== undefined
            ? `${where} expands \`\${{ ${hit.expression} }}\` into code it runs${hit.claim}`
            : rule === 'github-env-injection' ? `${where} writes an outsider's text to \`$GITHUB_ENV\`${claim}` : `line ${line} of \`${step.owner.file.path}\`: ${message}${claim}`;
          if (own === 'LOW' && outsiders && others.length < 2 && !others.some((o) => o.text.includes(`(line ${line})`))) others.push({ text, rule });
          continue;
        }
        const facts = [...new Set([...(hit.facts ?? []).filter((f) => f.startsWith('reach:') || f === 'exec'), ...holdingFacts(run)])];
        armed = stronger(armed, { severity, text: `line ${line} of \`${step.owner.file.path}\`: ${message}${claim}`, facts, rule });
        break;
      }
      if (armed?.severity === 'HIGH') break;
    }
  }
  // The pull request's head handed to another repository's CI (untrusted-checkout's dispatch claim, MEDIUM at
  // most there: what that repository's workflow does with the head is not in this scan).
  let approvedDispatch: string | null = null;
  for (const job of jobs) {
    if (job.uses !== undefined || armed !== null) continue;
    for (const dispatch of context.runs.prHeadDispatches(job)) {
      const reach = context.runs.stepReach(dispatch.step);
      const line = workflow.file.position(dispatch.step.node.start).line;
      if (severityOf({ reach, executes: true, holds: ['a dispatch token'], raceAfterApproval: !dispatch.pinned }) === 'LOW') {
        // A maintainer's approval of each run that sends the approved commit (untrusted-checkout's LOW claim).
        if (reach.level === 'approval' && dispatch.pinned) approvedDispatch ??= `${describeStep(dispatch.step)} (line ${line}) dispatches \`${dispatch.target}\` with ${sentWords(dispatch)}, but ${whoText(reach)} and the payload carries the approved commit (\`${dispatch.target}\`'s CI, which this scan cannot see, must check out exactly that SHA)`;
        continue;
      }
      // Behind an approval, the race that keeps it MEDIUM: the head read when the job runs, or resolved by that CI.
      const race =
        reach.level !== 'approval' || dispatch.pinned
          ? ''
          : dispatch.shaReadAtRun && dispatch.sha !== null
            ? ", but the commit sent is the head as this job reads it, so commits pushed between the maintainer's act and that read are sent"
            : ', but that CI resolves the head when it runs, so commits pushed after the approval run there';
      armed = { severity: 'MEDIUM', text: `${describeStep(dispatch.step)} (line ${line}) dispatches \`${dispatch.target}\` with ${sentWords(dispatch)}, whose CI then runs the pull request's code; ${whoText(reach)}${race}`, facts: [...reachFacts(reach), 'exec'], rule: 'untrusted-checkout' };
      break;
    }
  }
  // Another run's artifacts a fork's run made, read by a job that holds secrets: their content steers that job,
  // unless nothing runs them and their content only goes where it cannot act (a static upload, a comment, a status).
  // artifact-poisoning's claim: the policy's severity when their content runs (or goes to `$GITHUB_ENV`), MEDIUM
  // when it only steers the job.
  for (const job of jobs) {
    if (job.uses !== undefined || armed?.severity === 'HIGH') continue;
    const run = context.runs.job(job);
    const secrets = holdsSecrets(run.holdings);
    for (const entry of run.workspace) {
      if (entry.kind !== 'download' || entry.content !== 'outsider' || !secrets) continue;
      // A download that never runs on this trigger's event is another trigger's weakness.
      if (!context.runs.stepRunsOn(entry.step, event)) continue;
      const effect = downloadEffect(context.runs, context.taint, run, entry);
      if (inertEffect(effect)) continue;
      const reach = effect.reach;
      if (!outsiderReach(reach)) continue;
      // artifact-poisoning's severity for the download (artifact-effects.ts `downloadSeverity`).
      const verdict = downloadSeverity(context.runs, { run: effect.run, reach, runsThem: effect.sinks.length > 0, use: effect.use, steersOnlyBareJobs: effect.steersOnlyBareJobs });
      const severity = verdict === null ? null : armedSeverity(verdict.severity);
      if (verdict === null || severity === null) continue;
      const executes = verdict.executes;
      const line = workflow.file.position(entry.step.node.start).line;
      armed = stronger(armed, {
        severity,
        text: `${describeStep(entry.step)} (line ${line}) downloads artifacts a fork's run made (${entry.how}) into a job that holds ${run.valuables.join(', ') || 'secrets'}${executes ? ', and a later step runs their content' : ', where their content steers what the job does'}; ${whoText(reach)}`,
        facts: [...reachFacts(reach), ...(executes ? ['exec'] : []), ...holdingFacts(run)],
        rule: 'artifact-poisoning',
      });
      break;
    }
  }
  if (armed !== null) return armed;
  // Not armed: say what is there, never what the workflow contradicts.
  const notes: string[] = [...unarmed];
  for (const job of jobs) {
    if (job.uses !== undefined || notes.length >= 2) continue;
    const run = context.runs.job(job);
    for (const entry of run.workspace) {
      if (entry.content !== 'outsider' || withCode.has(job)) continue;
      // Brought in only on another trigger's event (a download that runs only on `workflow_run`): that trigger's to state.
      if (!context.runs.stepRunsOn(entry.step, event)) continue;
      const line = workflow.file.position(entry.step.node.start).line;
      // A checkout only trusted authors reach that a step runs: say it runs, and who reaches it (never "no job runs it").
      const ran = entry.checkout?.hiddenBy === 'trusted-author' ? context.runs.sinksOf(run, entry)[0] : undefined;
      const runsText = ran === undefined ? '' : ` and ${describeStep(ran.step)} (line ${workflow.file.position(ran.step.node.start).line}) runs ${ran.execution.evidence} from it`;
      const what = entry.kind === 'download' ? `downloads artifacts of a pull request's run (${entry.how}, line ${line})` : `checks out pull request code (${entry.how}, line ${line})${runsText}`;
      const effect = entry.kind === 'download' ? downloadEffect(context.runs, context.taint, run, entry) : null;
      // Their content steers a job that holds no secret (the loop above arms only those that do), and artifact-poisoning
      // rates it MEDIUM (an argument injection into a call made with a write token, a value a job that holds something
      // worth taking acts on): named with that finding, never "no step runs code from them" alone.
      const verdict = effect === null || inertEffect(effect) || context.runs.sinksOf(run, entry).length > 0
        ? null
        : downloadSeverity(context.runs, { run: effect.run, reach: effect.reach, runsThem: false, use: effect.use, steersOnlyBareJobs: effect.steersOnlyBareJobs });
      if (verdict !== null && armedSeverity(verdict.severity) !== null && outsiderReach(effect?.reach ?? context.runs.stepReach(entry.step))) {
        const steers = verdict.act === 'argv'
          ? 'a value read from them is split into the words of a call made with a write token, where the fork can add options and arguments (argument injection)'
          : 'their content steers what the job does';
        others.push({ text: `job \`${job.id}\` ${what}; no step runs code from them, but ${steers}`, rule: 'artifact-poisoning' });
        break;
      }
      const payload = entry.kind === 'checkout' ? payloadEvents(entry) : null;
      const why =
        payload !== null && !payload.has(event)
          ? `its ref is read from ${payload.has('pull_request_target') ? "a pull request event's payload" : `the \`${[...payload].join('`, `')}\` payload`}, which \`${event}\` does not carry: on \`${event}\` it checks out the run's own commit`
          : entry.checkout?.sameRepositoryRef === true
          ? "its ref gives a fork's pull request the base branch and names the head only of a pull request from a branch of this repository, which only people with write access push"
          : entry.checkout?.hiddenBy === 'trusted-author'
          ? whoText(context.runs.stepReach(entry.step))
          : effect !== null && inertEffect(effect)
            ? `no step runs code from them: ${inertText(effect)}`
            : context.runs.sinksOf(run, entry).length === 0
              ? entry.kind === 'download'
                ? `no step runs code from them and the job holds no secret${holdsMinor(run.holdings) ? ` but ${minorWords(run.holdings)}` : ''}`
                : 'no later step runs code from it'
              : whoText(context.runs.stepReach(entry.step));
      notes.push(`job \`${job.id}\` ${what}, but ${why}`);
      break;
    }
    if (notes.length >= 2) break;
  }
  if (approvedDispatch !== null && notes.length < 2) notes.push(approvedDispatch);
  // An action that downloads the triggering run's artifact itself and parses it as data (artifacts.ts
  // `TRIGGERING_RUN_READERS`): say so, never that no job downloads the run's artifacts.
  for (const job of jobs) {
    if (job.uses !== undefined || notes.length >= 2) continue;
    const read = triggeringRunReads(job).find((d) => downloadContent(d, workflow, context.repository) === 'outsider' && outsiderReach(context.runs.stepReach(d.step)));
    if (read?.readBy === undefined) continue;
    const line = workflow.file.position(read.step.node.start).line;
    const held = context.runs.job(job).valuables;
    notes.push(`job \`${job.id}\` downloads artifacts of a pull request's run (${read.how}, line ${line})${held.length > 0 ? ` in a job that holds ${held.slice(0, 3).join(', ')}` : ''}, but the action ${read.readBy.reads} and no step runs them: at worst ${read.readBy.forged}`);
  }
  if (unreadEnv !== null && notes.length < 2) notes.push(unreadEnv);
  // An AI agent that reads an outsider's text on the workflow's privileged trigger, in a job that holds something:
  // agent-untrusted-input's subject, named rather than "no job puts its text into a script".
  const triggers = workflow.triggers.filter((t) => DANGEROUS.has(t.name)).map((t) => t.name);
  for (const job of jobs) {
    if (job.uses !== undefined || others.length >= 2) continue;
    const run = context.runs.job(job);
    if (run.valuables.length === 0) continue;
    for (const { step } of run.steps) {
      const name = stepAgent(step)?.name ?? scriptAgents(step)[0]?.cli.name;
      if (name === undefined) continue;
      const events = agentEvents(step, context.taint);
      if (!triggers.some((t) => events.has(t))) continue;
      const reach = context.runs.stepReach(step);
      if (reach.level === 'collaborator' || reach.level === 'trusted-author') continue;
      others.push({ text: `${describeStep(step)} (line ${workflow.file.position(step.node.start).line}) runs ${name}, an AI agent that reads text an outsider can write, in a job that holds ${run.valuables.slice(0, 3).join(', ')}`, rule: 'agent-untrusted-input' });
      break;
    }
  }
  const calls = jobs.filter((j) => j.uses !== undefined);
  let callsNote: string | null = null;
  if (calls.length > 0) {
    const owners = calls.map((j) => (j.usesRef === undefined ? 'third-party' : context.runs.ownershipOf(j.usesRef)));
    const own = owners.every((o) => o === 'local' || o === 'first-party');
    callsNote = `${calls.length === 1 ? `job \`${calls[0]!.id}\` calls` : `${calls.length} jobs call`} ${own ? 'reusable workflows of this repository or its owner' : 'reusable workflows'}, whose own findings say what they do with the event`;
  }
  // What other rules report comes first; the sentence that no job does anything with the outsider's content only
  // when nothing does.
  const named = [...others.map((o) => o.text), ...notes].slice(0, Math.max(2, others.length));
  if (callsNote !== null) named.push(callsNote);
  if (named.length === 0) named.push("no job runs the pull request's code, hands its head to another repository's CI, downloads its run's artifacts into a job with secrets, or puts its text into a script or `$GITHUB_ENV`");
  return { severity: 'LOW', text: named.join('; '), facts: [], ...(others.length > 0 ? { others: [...new Set(others.map((o) => o.rule))] } : {}) };
}

/** `the \`script-injection\` finding about that job states`, or `the \`a\` and \`b\` findings about those jobs state`. */
function othersText(rules: readonly string[]): string {
  const names = rules.map((r) => `\`${r}\``);
  return names.length === 1 ? `the ${names[0]} finding about that job states` : `the ${names.slice(0, -1).join(', ')} and ${names[names.length - 1]} findings about those jobs state`;
}

/** Where the content of a download nothing runs goes (artifact-effects.ts `inertEffect`), in words. */
function inertText(effect: DownloadEffect): string {
  const use = effect.use;
  if (use === null) return 'nothing uses their content';
  const who = use.subject ?? describeStep(use.step);
  const what =
    use.kind === 'content'
      ? "the fork chooses only the files that upload publishes, such as a preview of its own pull request"
      : use.kind === 'status'
        ? "at worst a spoofed status or check on a commit of the fork's choosing"
        : use.kind === 'comment'
          ? "at worst a comment of the fork's wording, or on a pull request it picks"
          : use.kind === 'label'
          ? "at worst a label of the fork's choosing on an issue or pull request it picks, added with the run's own token, whose events start no workflow"
          : use.kind === 'checkout'
            ? "the pull request's code lands in the workspace, which the job checks out by design, and nothing of it runs"
          : use.kind === 'pick'
            ? "at worst which run's artifacts that download fetches, whose files are judged at it"
            : 'the values are validated before use';
  // The other uses no further than it (a comment's target beside the run a later download fetches): named, not left out.
  const other = effect.others[0];
  const more = effect.others.length > 1 ? ` (and ${effect.others.length - 1} more such use${effect.others.length > 2 ? 's' : ''})` : '';
  const besides = other === undefined ? '' : `, and ${other.subject ?? describeStep(other.step)} ${other.detail}${more}`;
  return `${who} ${use.detail} (${what})${besides}`;
}

/**
 * What the workflow's jobs run with, in words, from the run model's holdings: the sentence used to say "the base
 * repository's secrets and a write token" of workflows whose jobs hold a read-only token and no secret.
 */
function privileges(workflow: Workflow, context: WorkflowRuleContext): string {
  // A reusable workflow's jobs hold what the called workflow declares: not known here.
  if (workflow.jobs.length === 0 || workflow.jobs.some((j) => j.uses !== undefined)) return "the base repository's secrets and a write token";
  const holdings = workflow.jobs.map((j) => context.runs.job(j).holdings);
  const writing = holdings.filter((h) => h.token.kind !== 'scopes' || h.token.writes.length > 0);
  const writes = writing.length > 0;
  // A token whose one write scope is `id-token` can mint OIDC tokens, and write nothing to the repository.
  const oidcOnly = writes && writing.every((h) => h.token.kind === 'scopes' && h.token.writes.every((w) => w === 'id-token'));
  const token = oidcOnly ? 'an OIDC token (`id-token: write`, its only write scope)' : 'a write token';
  const secrets = holdings.some(holdsSecrets);
  if (writes && secrets) return `the base repository's secrets and ${token}`;
  if (writes) return `${token} (its jobs read none of the stored secrets${minorKinds(holdings) === '' ? '' : ` but ${minorKinds(holdings)}`})`;
  if (secrets) return "the base repository's secrets (its jobs' tokens are read-only here)";
  return `the base repository's context (its jobs' tokens are read-only here and they read none of the stored secrets${minorKinds(holdings) === '' ? '' : ` but ${minorKinds(holdings)}`})`;
}

/**
 * For a `workflow_run` trigger with a `branches:` filter that runs started by forks' pull requests pass: the filter
 * in words (it compares the followed run's head branch by name, which a fork chooses), or ''.
 */
function branchFilterText(config: YNode | undefined): string {
  const names = flatMap(asList(get(config, 'branches')), (n) => {
    const text = scalarText(n);
    return text === null ? [] : [text.replace(/[`\r\n]/g, '').slice(0, 60)];
  });
  if (names.length === 0) return '';
  const shown = `${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}`;
  return ` Its \`branches: [${shown}]\` filter keeps no fork out: it matches the head branch of the run it follows, which for a fork's pull request is the fork's own branch name (a fork can name its branch \`${names[0]}\`), so it does not restrict the trigger to the base repository's branches.`;
}

/** Write scopes the job's own token needs to send each dispatch. */
const DISPATCH_SCOPE = { workflow: 'actions', repository: 'contents' } as const;

/** True when the job's own token can send the dispatch (its scope, `write-all`, or a default token not known read-only). */
function tokenCanDispatch(dispatch: SelfDispatch, job: Job, context: WorkflowRuleContext): boolean {
  const token = context.runs.job(job).holdings.token;
  if (token.kind === 'all') return true;
  if (token.kind === 'default') return context.runs.defaultToken !== 'read';
  return token.writes.includes(DISPATCH_SCOPE[dispatch.kind]);
}

/** An input of a started workflow, in words: `input \`pr\``, `` `client_payload.pr` ``. */
function inputWords(input: string, kind: SelfDispatch['kind']): string {
  if (kind === 'workflow') return input === '' ? 'inputs, as a whole,' : `input \`${input}\``;
  return input === '' ? '`client_payload`' : `\`client_payload.${input}\``;
}

/** The environments a workflow's jobs run in, as written. */
function environments(workflow: Workflow): string[] {
  const names = workflow.jobs.flatMap((j) => {
    const env = j.environment;
    if (env === undefined) return [];
    const name = env.kind === 'scalar' ? scalarText(env) : getText(env, 'name');
    return name === null || name.trim() === '' ? [] : [name.trim().slice(0, 60)];
  });
  return [...new Set(names)];
}

/**
 * Steps anyone with a GitHub account starts that start another workflow of this repository: that workflow runs the
 * repository's code with its secrets and scopes, when the outsider chooses and on the inputs their text gives.
 * MEDIUM when a value they choose reaches a sink there, LOW when it only picks among fixed ones (dispatch-inputs.ts).
 */
function reportSelfDispatches(workflow: Workflow, context: WorkflowRuleContext): void {
  for (const job of workflow.jobs) {
    if (job.uses !== undefined) continue;
    // The repository's names only when a step names a repository to dispatch to (most jobs dispatch nothing).
    for (const dispatch of selfDispatches(job, () => context.runs.identity.names)) {
      const reach = context.runs.stepReach(dispatch.step);
      if (!outsiderReach(reach)) {
        if (reach.level === 'approval') reportDispatchRace(workflow, job, dispatch, reach, context);
        continue;
      }
      if (dispatch.credential === null && !tokenCanDispatch(dispatch, job, context)) continue;
      const event = dispatchEvent(dispatch);
      const what = dispatch.target === null ? `a ${event} of this repository` : dispatch.kind === 'workflow' ? `workflow \`${dispatch.target}\` of this repository (${event})` : `a ${event} of type \`${dispatch.target}\` to this repository`;
      const token = context.runs.job(job).holdings.token;
      const scope = token.kind === 'scopes' ? `\`${DISPATCH_SCOPE[dispatch.kind]}: write\`` : token.kind === 'all' ? '`write-all`' : `${context.runs.defaultToken === 'write' ? 'read-write' : 'default (read-write on many repositories)'} scopes`;
      const credential = dispatch.credential !== null ? `sent with \`${dispatch.credential}\`` : `sent with the job's own token, whose ${scope} ${token.kind === 'scopes' ? 'lets' : 'let'} it start the run (a dispatch is the one event that token's acts start runs on)`;
      const opened = dispatch.permission !== undefined ? `, for any commenter (\`permission: ${dispatch.permission}\`)` : '';
      const sends = dispatch.outsiderText !== null ? `; it hands over text the outsider writes (\`${dispatch.outsiderText}\`)` : '';
      const head = `${describeStep(dispatch.step)} (line ${workflow.file.position(dispatch.step.node.start).line}) starts ${what} with ${dispatch.how}${opened}, ${credential}; ${whoText(reach)}${sends}`;
      const targets = dispatchedWorkflows(dispatch, context.repository.workflows);
      let severity: 'MEDIUM' | 'LOW' = 'LOW';
      let tail: string;
      if (targets.length === 0) {
        tail = dispatch.target === null
          ? 'which workflow it starts is computed at run time: check what the workflows it can start hold (secrets, write scopes, a publish) and whether they run on the inputs it sends'
          : `no workflow of this repository here ${dispatch.kind === 'workflow' ? `is \`${dispatch.target}\` with a \`workflow_dispatch\` trigger` : 'runs on that event'}: check what the workflow it starts holds and whether it runs on the inputs it sends`;
      } else {
        const held = [...new Set(targets.flatMap((w) => w.jobs.flatMap((j) => context.runs.job(j).valuables)))];
        const names = targets.slice(0, 3).map((w) => `\`${w.file.path}\``).join(', ');
        const envs = targets.flatMap(environments);
        // What the started workflows do with the values the outsider chooses (dispatch-inputs.ts): a sink keeps the
        // finding MEDIUM; values that only pick among fixed ones, or that nothing reads, run nothing of theirs.
        const sent = sentInputs(dispatch);
        const readings = targets.map((w) => ({ w, reading: readDispatched(w, dispatch.kind, sent.fed, context.taint, context.repository) }));
        // A sink counts where the workflow it is in holds something (MEDIUM), or to say where it is (LOW).
        const holds = (w: Workflow) => w.jobs.some((j) => context.runs.job(j).valuables.length > 0);
        const sinkAt = readings.find((r) => r.reading.sinks.length > 0 && holds(r.w)) ?? readings.find((r) => r.reading.sinks.length > 0);
        const sink = sinkAt === undefined ? '' : `\`${sinkAt.w.file.path}\`'s ${inputWords(sinkAt.reading.sinks[0]!.input, dispatch.kind)} ${sinkAt.reading.sinks[0]!.text}`;
        const gate = envs.length > 0 ? `; only the approval of environment ${envs.slice(0, 3).map((e) => `\`${e}\``).join(', ')} stands in the way, if it has required reviewers (not visible here)` : '; nothing stands in the way of that run';
        if (sinkAt !== undefined && holds(sinkAt.w)) {
          severity = 'MEDIUM';
          tail = `${names} then runs the repository's code with ${held.slice(0, 4).join(', ')}, when the outsider chooses, and what they send reaches a sink there: ${sink}${gate}`;
        } else if (held.length > 0) {
          const picks = readings.flatMap((r) => r.reading.picks).slice(0, 4);
          const none = dispatch.kind === 'workflow' ? 'the dispatch sends no input they choose (it sends constants of this workflow, or none, and the others take their defaults)' : 'the dispatch sends no `client_payload` value they choose';
          const what = sent.fed !== null && sent.fed.length === 0 ? none : `what they send only picks among fixed values or is not read: ${picks.join('; ')}`;
          const ref = sent.ref !== null ? `; they also choose the ref it runs on (${sent.ref}), which the dispatch API takes only as a branch or tag of this repository (never a pull request's), so it runs that branch's version of the workflow, which may differ from the one read here` : '';
          tail = `${names} then runs the repository's own code with ${held.slice(0, 4).join(', ')}, when the outsider chooses, but nothing of theirs runs there: ${what}${ref}${gate}. LOW: the outsider chooses only when it runs and among the values it takes; keep what the dispatch sends to such values`;
        } else {
          const flows = sinkAt !== undefined ? `; ${sink}` : '';
          tail = `${names} ${targets.length === 1 ? 'holds' : 'hold'} nothing worth taking (no stored secret, write scope or publish), so the outsider only chooses when it runs${flows}`;
        }
      }
      context.report({
        ...dispatchSite(workflow, job, dispatch),
        severity,
        message: `${head}; ${tail}.`,
        facts: reachFacts(reach),
      });
    }
  }
}

/** The event a self-dispatch sends, in words. */
function dispatchEvent(dispatch: SelfDispatch): string {
  return dispatch.kind === 'workflow' ? '`workflow_dispatch`' : '`repository_dispatch`';
}

/** Where a self-dispatch finding goes: the dispatching command (in a script, its line), bound to its job, one per step. */
function dispatchSite(workflow: Workflow, job: Job, dispatch: SelfDispatch) {
  return {
    node: dispatch.node,
    ...(dispatch.scriptOffset !== undefined && dispatch.step.run !== undefined ? { offset: valueOffsetToSource(workflow.file, dispatch.step.run, dispatch.scriptOffset) } : {}),
    job,
    key: `self-dispatch:${job.id}:${dispatch.step.index}`,
  };
}

/**
 * A dispatch a maintainer's act starts (a member's comment command, a label) that hands another workflow of this
 * repository the pull request by something that moves with it: its number, `refs/pull/<n>/head` or its head branch,
 * not a commit. That run checks it out when it starts and runs it with what it holds, so the approval does not bind
 * the code: what the author pushes between the maintainer's review and that checkout runs there, the race of any
 * approval (severity policy: MEDIUM when the run holds something). Nothing when the value is a commit, when no job
 * of the started workflow runs what it checks out, or when that job holds nothing.
 */
function reportDispatchRace(workflow: Workflow, job: Job, dispatch: SelfDispatch, reach: Reach, context: WorkflowRuleContext): void {
  const sent = sentInputs(dispatch);
  if (sent.pullRequest.length === 0 || (dispatch.credential === null && !tokenCanDispatch(dispatch, job, context))) return;
  for (const target of dispatchedWorkflows(dispatch, context.repository.workflows).slice(0, 4)) {
    const reading = readDispatched(target, dispatch.kind, sent.fed, context.taint, context.repository);
    for (const use of reading.checkouts) {
      const checkout = use.checkout;
      if (checkout === undefined || checkout.job === null || !sent.pullRequest.includes(use.input)) continue;
      const run = context.runs.job(checkout.job);
      // The checkout's own code: what its entry holds, or for a script that checks out into the workspace
      // (`gh pr checkout`, `git checkout`), the workspace code run from that step on.
      const executed = run.executions.find((e) => e.code !== null && (e.code.step === checkout || (checkout.run !== undefined && e.step.index >= checkout.index)));
      if (executed === undefined) continue;
      const claim = jobClaim(run, reach, true, true);
      const severity = severityOf(claim);
      if (severity === 'LOW') continue;
      const event = dispatchEvent(dispatch);
      const inputs = sent.pullRequest.map((i) => `\`${i}\``).join(', ');
      context.report({
        ...dispatchSite(workflow, job, dispatch),
        severity,
        message:
          `${describeStep(dispatch.step)} (line ${workflow.file.position(dispatch.step.node.start).line}) starts \`${target.file.path}\` (${event}) with ${dispatch.how}, handing it the pull request in ${sent.pullRequest.length === 1 ? 'input' : 'inputs'} ${inputs} by its number, \`refs/pull/...\` or branch, not by a commit; ${whoText(reach)}. ` +
          `There ${dispatch.kind === 'workflow' ? 'input' : 'value'} ${use.input === '' ? 'the payload' : `\`${use.input}\``} ${use.text}, and job \`${checkout.job.id}\` runs that checkout's code (${executed.execution.evidence.slice(0, 80)}, line ${target.file.position(executed.step.node.start).line}) while it holds ${claim.holds.slice(0, 4).join(', ')}. ` +
          `The checkout takes the pull request as it is when that run starts, so commits its author pushes after the maintainer's review run there under the approval: the race of any approval. Send the head commit that was reviewed (a SHA the maintainer names, or the event's) and check out that SHA.`,
        facts: reachFacts(reach),
      });
      return;
    }
  }
}

/**
 * For a `workflow_run` that follows names whose workflows here run on no pull request: how a fork's run still gets
 * there (workflow-run.ts `followsUntrustedRuns`), in words; empty otherwise.
 */
function addedNamesText(workflow: Workflow, context: WorkflowRuleContext): string {
  const names = forkAddedNames(workflow, context.repository);
  if (names.length === 0) return '';
  const shown = names.slice(0, 3).map((n) => `\`${n}\``).join(', ');
  return ` (the repository's ${shown} run${names.length === 1 ? 's' : ''} on no pull request, but a fork's pull request can add a workflow of ${names.length === 1 ? 'that name' : 'such a name'} that does)`;
}

/**
 * A job of a comment-triggered workflow that holds something worth taking (a write scope, a secret ...), whose
 * permission check stands in the way on some occasions only: on a comment activity it does not check (a slash-command
 * action that checks only `created` and `edited` comments, run on `deleted` ones too) or on none (a deny path that
 * ends only its own step), so a later step runs for anyone (run model `Reach.noGate`). Null when there is none.
 */
function openCommentJob(workflow: Workflow, event: string, context: WorkflowRuleContext): { job: Job; holds: string; why: string; reach: Reach } | null {
  for (const job of workflow.jobs) {
    if (job.uses !== undefined) continue;
    const run = context.runs.job(job);
    if (run.valuables.length === 0) continue;
    for (const step of job.steps) {
      const reach = context.runs.stepReach(step);
      if (reach.level !== 'anyone' || reach.event !== event || reach.noGate === undefined) continue;
      return { job, holds: run.valuables.slice(0, 4).join(', '), why: reach.noGate, reach };
    }
  }
  return null;
}

export default defineWorkflowRule({
  meta: {
    id: 'dangerous-trigger',
    category: 'CICD-SEC-4',
    title: 'Workflow uses a trigger that runs with base-repository privileges',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'The workflow runs on `pull_request_target` or `workflow_run`: events an outsider can cause (by opening a pull request) that run with the base repository\'s secrets and, unless `permissions:` says otherwise, a write token. Armed when some job runs an outsider\'s content (run model: a checkout or download of pull request code that a step runs, event text expanded into a script or into `$GITHUB_ENV` that a later step runs with, or a fork run\'s artifacts read by a job that holds secrets, unless nothing runs them and they are only uploaded as they are or only decide a comment or a status), at the severity policy\'s verdict for that job, as the finding about the same job says (untrusted-checkout, script-injection, github-env-injection, artifact-poisoning), but never HIGH: where that finding is HIGH (anyone can start it and the job holds a write scope or the undeclared default token, a secret, OIDC, a self-hosted machine or a publish) this one restates it and is MEDIUM, naming it; MEDIUM too when the job holds none of these, when the artifacts only steer it, or behind an approval the code can change after (a dispatch of the pull request\'s head to another repository\'s CI: MEDIUM at most, as that CI is not in the scan); INFO for a `workflow_run` on which every job keeps a fork\'s run out (its run event among those only collaborators cause, a head-repository check); LOW otherwise (the trigger is the setting in which such a mistake would be exploitable), saying what is there: a checkout nothing runs, a gate, calls to reusable workflows, jobs that only read pull request data through the API or act on merged pull requests, and, instead of saying no job does anything with the outsider\'s content, the weakness another rule reports in a job (a script injection behind a gate, an argument injection in a job without secrets, an AI agent reading the thread). Also, on any trigger: a step anyone with a GitHub account starts that starts another workflow of this repository (`workflow_dispatch`, `repository_dispatch`, an open slash-command dispatcher) with a token that can, MEDIUM when that workflow holds secrets, write scopes or a publish and a value the outsider chooses reaches a sink there (a script, code, a checkout or fetch, `$GITHUB_ENV`, a publish, an AI agent, an action it does not follow), LOW when what they send only picks among fixed values (`type: choice`, compared, checked, a value a script or the API receives) or is not read, when it holds nothing, or when it is not found here. MEDIUM too for such a step a maintainer\'s act starts (a member\'s comment command, a label) when it hands that workflow the pull request by its number, `refs/pull/<n>/...` or branch rather than a commit, and a job there checks it out and runs it while holding a secret, write scope or publish: the checkout takes the pull request as it is when that run starts, so commits pushed after the review run under the approval (the race of any approval). LOW on an `issue_comment` or `discussion_comment` trigger: a job that holds a write scope, secret or publish behind a permission check some comment activity gets past (a slash-command action that checks only `created` and `edited` comments, on a workflow that also runs on `deleted` ones), when nothing of the outsider\'s runs.',
    recommendation:
      'Prefer `pull_request`, which runs fork pull requests without secrets. Where the privileged trigger is needed, keep its jobs minimal: no checkout of pull request code, no `${{ }}` of pull request data in scripts, least `permissions:`, and artifacts treated as untrusted data. Before a step that starts another workflow on an outsider\'s event, check the actor\'s permission in a way that fails the job (or require `write` in a slash-command dispatcher), and pass no event text as inputs.',
  },
  create: (context) => ({
    workflow(workflow) {
      // No job that can run (each on a retired runner image, or behind a condition that never holds: the model drops
      // them, run-model/conditions.ts): the trigger starts nothing, and a claim about what runs would not hold.
      if (workflow.jobs.length === 0) return;
      const safe = workflow.jobs.every(triageOnly);
      // What an outsider's content does, over the jobs each trigger runs (a `workflow_run` job's artifacts are not a
      // `pull_request_target` run's doing).
      const exposures = new Map<string, Exposure>();
      for (const trigger of workflow.triggers) {
        if (!DANGEROUS.has(trigger.name)) continue;
        const held = privileges(workflow, context);
        // The filter said to keep no fork out only where a fork's run still reaches a job (no origin check in its `if:`).
        // Each job's reach on `workflow_run` alone, read once for the filter's words and for the check below.
        const onRun = trigger.name === 'workflow_run' ? workflow.jobs.map((j) => context.runs.reachOn(j, null, 'workflow_run')) : [];
        const forkReaches = onRun.some(outsiderReach);
        const filter = forkReaches ? branchFilterText(trigger.config) : '';
        // Every job's condition keeps a fork's run out (`workflow_run.event` among events only collaborators cause,
        // a head-repository check): the trigger starts nothing an outsider's run reaches.
        const forkOut = (r: Reach) => r.level === 'collaborator' || (r.level === 'trusted-author' && r.sameRepository === true);
        if (trigger.name === 'workflow_run' && onRun.every(forkOut)) {
          const gates = [...new Set(onRun.flatMap((r) => r.gates))].slice(0, 2);
          context.report({ node: trigger.node, job: null, severity: 'INFO', message: `\`workflow_run\` runs after other workflows, including runs started by fork pull requests, but every job keeps a fork's run out${gates.length > 0 ? `: ${gates.join("; ").replace(/\s+/g, " ")}` : ""}. INFO: keep such a check on every job added.` });
          continue;
        }
        const what =
          trigger.name === 'pull_request_target'
            ? `runs on pull requests from forks with ${held}`
            : `runs after other workflows, including runs started by fork pull requests${addedNamesText(workflow, context)}, with ${held}`;
        if (safe) {
          context.report({ node: trigger.node, job: null, severity: 'LOW', message: `\`${trigger.name}\` ${what}; every job only runs well-known labeling or triage actions, with no checkout or script.${filter}` });
          continue;
        }
        const found = exposureOn(workflow, context, trigger.name, exposures);
        // The same run's weakness is the finding of the rule about it (an untrusted checkout, an injection ...),
        // which states it and carries its fix: at HIGH this one would count that mistake twice, so it is MEDIUM,
        // naming that finding, and says what is its own: the trigger that lets an outsider's content in.
        const restated = found.severity === 'HIGH' ? ` MEDIUM here, not HIGH: the \`${found.rule ?? 'untrusted-checkout'}\` finding about the same job states this weakness at its own severity and carries the fix; this one is the privileged trigger that lets it in.` : '';
        context.report({
          node: trigger.node,
          job: null,
          severity: found.severity === 'HIGH' ? 'MEDIUM' : found.severity,
          message: found.severity !== 'LOW'
            ? `\`${trigger.name}\` ${what}, and an outsider's content runs in it: ${found.text}.${filter}${restated}`
            : found.others !== undefined
              ? `\`${trigger.name}\` ${what}; ${found.text}.${filter} LOW here, as the trigger: ${othersText(found.others)} that weakness at ${found.others.length > 1 ? 'their' : 'its'} own severity and carr${found.others.length > 1 ? 'y' : 'ies'} the fix.`
              : `\`${trigger.name}\` ${what}; ${found.text}.${filter} LOW: keep it that way, with least \`permissions:\`.`,
          facts: found.facts,
        });
      }
      for (const trigger of workflow.triggers) {
        if (trigger.name !== 'issue_comment' && trigger.name !== 'discussion_comment') continue;
        const open = openCommentJob(workflow, trigger.name, context);
        if (open === null) continue;
        const found = exposureOn(workflow, context, trigger.name, exposures);
        // Where an outsider's content runs, that finding (and the rules about it) says more than this one.
        if (found.severity !== 'LOW') continue;
        context.report({
          node: trigger.node,
          job: null,
          severity: 'LOW',
          message: `\`${trigger.name}\` lets anyone with a GitHub account start job \`${open.job.id}\`, which holds ${open.holds}: ${open.why}; what then runs is the repository's own steps and the actions it names, and nothing of theirs runs (no step runs their code or their text). LOW: the outsider chooses only when those steps run; check the permission in a way that holds on every comment activity, or run only on \`types: [created]\`.`,
          facts: reachFacts(open.reach),
        });
      }
      reportSelfDispatches(workflow, context);
    },
  }),
});
