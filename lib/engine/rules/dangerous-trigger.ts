import { holdsSecrets, webhookWords } from '../analysis/run-model/holdings.js';
import { downloadEffect, inertEffect, type DownloadEffect } from '../analysis/artifact-effects.js';
import { describeStep } from '../analysis/describe.js';
import { envInjections, scriptInjections } from '../analysis/injections.js';
import { outsiderCode } from '../analysis/permissions.js';
import { prHeadDispatches } from '../analysis/pr-dispatch.js';
import { reachFacts } from '../analysis/run-model/facts.js';
import { nothingReads, severityOf, whoText } from '../analysis/run-model/index.js';
import { outsiderReach } from '../analysis/run-model/reach.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { Job, Workflow } from '../model/workflow.js';
import { asList, get, scalarText, type YNode } from '../yaml/model.js';

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
  /** MEDIUM: some job runs outsider code, runs outsider text, or consumes outsider artifacts that reach code or secrets. */
  armed: boolean;
  text: string;
  facts: string[];
}

function exposure(workflow: Workflow, context: WorkflowRuleContext): Exposure {
  const jobs = workflow.jobs;
  const code = outsiderCode(context, jobs);
  if (code !== null) {
    const severity = severityOf({ reach: code.reach, executes: true, holds: ['the base repository\'s token and secrets'], raceAfterApproval: code.race });
    if (severity !== 'LOW') return { armed: true, text: `${code.text}; ${whoText(code.reach)}`, facts: [...reachFacts(code.reach), 'exec'] };
  }
  // Outsider text in a script, a code input (`github-script`), a local action's script, or `$GITHUB_ENV` that a
  // later step (or an earlier action's post step) runs with: the injection rules' own analyses and claims
  // (script-injection, github-env-injection). A write in the job's last step defines variables nothing reads.
  let unreadEnv: string | null = null;
  for (const job of jobs) {
    if (job.uses !== undefined) continue;
    for (const { step } of context.runs.job(job).steps) {
      const env = step.job !== null ? envInjections(step, context.taint) : [];
      const read = env.length > 0 && !nothingReads(context.runs.envReaders(step));
      if (env.length > 0 && !read) unreadEnv ??= `${describeStep(step)} (line ${step.owner.file.position(step.node.start).line}) writes pull request text to \`$GITHUB_ENV\`, but no later step of job \`${job.id}\` runs with it`;
      const hits = [...scriptInjections(step, context.taint, context.runs), ...(read ? env : [])];
      const hit = hits.find((h) => h.severity === undefined || h.severity === 'HIGH' || h.severity === 'MEDIUM');
      if (hit === undefined) continue;
      const line = step.owner.file.position(hit.node.start).line;
      const message = hit.message.length > 240 ? `${hit.message.slice(0, 237)}...` : hit.message;
      return { armed: true, text: `line ${line} of \`${step.owner.file.path}\`: ${message.replace(/\.$/, '')}`, facts: [...(hit.facts ?? []).filter((f) => f.startsWith('reach:') || f === 'exec')] };
    }
  }
  // The pull request's head handed to another repository's CI (untrusted-checkout's dispatch claim).
  for (const job of jobs) {
    if (job.uses !== undefined) continue;
    for (const dispatch of prHeadDispatches(job, context.runs.identity.names)) {
      const reach = context.runs.stepReach(dispatch.step);
      if (severityOf({ reach, executes: true, holds: ['a dispatch token'], raceAfterApproval: !dispatch.pinned }) === 'LOW') continue;
      const line = workflow.file.position(dispatch.step.node.start).line;
      return { armed: true, text: `${describeStep(dispatch.step)} (line ${line}) dispatches \`${dispatch.target}\` with the pull request's head (\`${dispatch.head}\`), whose CI then runs the pull request's code; ${whoText(reach)}`, facts: [...reachFacts(reach), 'exec'] };
    }
  }
  // Another run's artifacts a fork's run made, read by a job that holds secrets: their content steers that job,
  // unless nothing runs them and their content only goes where it cannot act (a static upload, a comment, a status).
  for (const job of jobs) {
    if (job.uses !== undefined) continue;
    const run = context.runs.job(job);
    const secrets = holdsSecrets(run.holdings);
    for (const entry of run.workspace) {
      if (entry.kind !== 'download' || entry.content !== 'outsider' || !secrets) continue;
      if (inertEffect(downloadEffect(context.runs, context.taint, run, entry))) continue;
      const reach = context.runs.stepReach(entry.step);
      if (!outsiderReach(reach)) continue;
      const line = workflow.file.position(entry.step.node.start).line;
      return { armed: true, text: `${describeStep(entry.step)} (line ${line}) downloads artifacts a fork's run made (${entry.how}) into a job that holds ${run.valuables.join(', ') || 'secrets'}; ${whoText(reach)}`, facts: [...reachFacts(reach)] };
    }
  }
  // Not armed: say what is there, never what the workflow contradicts.
  const notes: string[] = [];
  if (code !== null) notes.push(`${code.text}, but ${whoText(code.reach)}`);
  for (const job of jobs) {
    if (job.uses !== undefined) continue;
    const run = context.runs.job(job);
    for (const entry of run.workspace) {
      if (entry.content !== 'outsider' || (code !== null && code.job === job)) continue;
      const line = workflow.file.position(entry.step.node.start).line;
      const what = entry.kind === 'download' ? `downloads artifacts of a pull request's run (${entry.how}, line ${line})` : `checks out pull request code (${entry.how}, line ${line})`;
      const effect = entry.kind === 'download' ? downloadEffect(context.runs, context.taint, run, entry) : null;
      const why =
        entry.checkout?.hiddenBy === 'trusted-author'
          ? whoText(context.runs.stepReach(entry.step))
          : effect !== null && inertEffect(effect)
            ? `no step runs code from them: ${inertText(effect)}`
            : context.runs.sinksOf(run, entry).length === 0
              ? entry.kind === 'download'
                ? `no step runs code from them and the job holds no secret${run.holdings.webhooks.length === 0 ? '' : ` but ${webhookWords(run.holdings.webhooks)}`}`
                : 'no later step runs code from it'
              : whoText(context.runs.stepReach(entry.step));
      notes.push(`job \`${job.id}\` ${what}, but ${why}`);
      break;
    }
    if (notes.length >= 2) break;
  }
  if (unreadEnv !== null && notes.length < 2) notes.push(unreadEnv);
  const calls = jobs.filter((j) => j.uses !== undefined);
  if (calls.length > 0) {
    const owners = calls.map((j) => (j.usesRef === undefined ? 'third-party' : context.runs.ownershipOf(j.usesRef)));
    const own = owners.every((o) => o === 'local' || o === 'first-party');
    notes.push(`${calls.length === 1 ? `job \`${calls[0]!.id}\` calls` : `${calls.length} jobs call`} ${own ? 'reusable workflows of this repository or its owner' : 'reusable workflows'}, whose own findings say what they do with the event`);
  }
  if (notes.length === 0) notes.push("no job runs the pull request's code, hands its head to another repository's CI, downloads its run's artifacts into a job with secrets, or puts its text into a script or `$GITHUB_ENV`");
  return { armed: false, text: notes.join('; '), facts: [] };
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
          : 'the values are validated before use';
  return `${who} ${use.detail} (${what})`;
}

/**
 * What the workflow's jobs run with, in words, from the run model's holdings: the sentence used to say "the base
 * repository's secrets and a write token" of workflows whose jobs hold a read-only token and no secret.
 */
function privileges(workflow: Workflow, context: WorkflowRuleContext): string {
  // A reusable workflow's jobs hold what the called workflow declares: not known here.
  if (workflow.jobs.length === 0 || workflow.jobs.some((j) => j.uses !== undefined)) return "the base repository's secrets and a write token";
  const holdings = workflow.jobs.map((j) => context.runs.job(j).holdings);
  const writes = holdings.some((h) => h.token.kind !== 'scopes' || h.token.writes.length > 0);
  const secrets = holdings.some(holdsSecrets);
  if (writes && secrets) return "the base repository's secrets and a write token";
  if (writes) return `a write token (its jobs read none of the stored secrets${holdings.some((h) => h.webhooks.length > 0) ? ' but a chat webhook' : ''})`;
  if (secrets) return "the base repository's secrets (its jobs' tokens are read-only here)";
  return `the base repository's context (its jobs' tokens are read-only here and they read none of the stored secrets${holdings.some((h) => h.webhooks.length > 0) ? ' but a chat webhook' : ''})`;
}

/**
 * For a `workflow_run` trigger with a `branches:` filter that runs started by forks' pull requests pass: the filter
 * in words (it compares the followed run's head branch by name, which a fork chooses), or ''.
 */
function branchFilterText(config: YNode | undefined): string {
  const names = asList(get(config, 'branches')).flatMap((n) => {
    const text = scalarText(n);
    return text === null ? [] : [text.replace(/[`\r\n]/g, '').slice(0, 60)];
  });
  if (names.length === 0) return '';
  const shown = `${names.slice(0, 5).join(', ')}${names.length > 5 ? ', ...' : ''}`;
  return ` Its \`branches: [${shown}]\` filter keeps no fork out: it matches the head branch of the run it follows, which for a fork's pull request is the fork's own branch name (a fork can name its branch \`${names[0]}\`), so it does not restrict the trigger to the base repository's branches.`;
}

export default defineWorkflowRule({
  meta: {
    id: 'dangerous-trigger',
    category: 'CICD-SEC-4',
    title: 'Workflow uses a trigger that runs with base-repository privileges',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'The workflow runs on `pull_request_target` or `workflow_run`: events an outsider can cause (by opening a pull request) that run with the base repository\'s secrets and a write token. MEDIUM when some job runs an outsider\'s content (run model: a checkout or download of pull request code that a step runs, event text expanded into a script or into `$GITHUB_ENV` that a later step runs with, or a fork run\'s artifacts read by a job that holds secrets, unless nothing runs them and they are only uploaded as they are or only decide a comment or a status) with no approval, or behind one the code can change after; LOW otherwise (the trigger is the setting in which such a mistake would be exploitable), saying what is there: a checkout nothing runs, a gate, calls to reusable workflows, jobs that only read pull request data through the API or act on merged pull requests.',
    recommendation:
      'Prefer `pull_request`, which runs fork pull requests without secrets. Where the privileged trigger is needed, keep its jobs minimal: no checkout of pull request code, no `${{ }}` of pull request data in scripts, least `permissions:`, and artifacts treated as untrusted data.',
  },
  create: (context) => ({
    workflow(workflow) {
      const safe = workflow.jobs.length > 0 && workflow.jobs.every(triageOnly);
      let found: Exposure | undefined;
      for (const trigger of workflow.triggers) {
        if (!DANGEROUS.has(trigger.name)) continue;
        const outsiders = trigger.name === 'pull_request_target' || followsUntrustedRuns(workflow, context.repository);
        if (!outsiders) {
          context.report({
            node: trigger.node,
            job: null,
            severity: 'LOW',
            message: `\`${trigger.name}\` runs with ${privileges(workflow, context)} after workflows that do not run on pull requests today; any that starts to hands its runs to this one.`,
          });
          continue;
        }
        const held = privileges(workflow, context);
        // The filter said to keep no fork out only where a fork's run still reaches a job (no origin check in its `if:`).
        const forkReaches = trigger.name === 'workflow_run' && workflow.jobs.some((j) => outsiderReach(context.runs.reachOn(j, null, 'workflow_run')));
        const filter = forkReaches ? branchFilterText(trigger.config) : '';
        const what =
          trigger.name === 'pull_request_target'
            ? `runs on pull requests from forks with ${held}`
            : `runs after other workflows, including runs started by fork pull requests, with ${held}`;
        if (safe) {
          context.report({ node: trigger.node, job: null, severity: 'LOW', message: `\`${trigger.name}\` ${what}; every job only runs well-known labeling or triage actions, with no checkout or script.${filter}` });
          continue;
        }
        found ??= exposure(workflow, context);
        context.report({
          node: trigger.node,
          job: null,
          severity: found.armed ? 'MEDIUM' : 'LOW',
          message: found.armed
            ? `\`${trigger.name}\` ${what}, and an outsider's content runs in it: ${found.text}.${filter}`
            : `\`${trigger.name}\` ${what}; ${found.text}.${filter} LOW: keep it that way, with least \`permissions:\`.`,
          facts: found.facts,
        });
      }
    },
  }),
});
