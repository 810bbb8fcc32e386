import { describeStep } from '../analysis/describe.js';
import { reachFacts } from '../analysis/run-model/facts.js';
import type { RunModel } from '../analysis/run-model/index.js';
import type { Job, Step } from '../model/workflow.js';
import { defineSettingsRule } from '../rule.js';
import { get, type YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { readArea } from '../settings/areas.js';
import { text } from '../settings/json.js';
import { actionsDisabled, visibility } from '../settings/repository.js';

const WEAK: Readonly<Record<string, string>> = {
  first_time_contributors:
    'only first-time contributors need approval; anyone who has had one pull request merged (a typo fix is enough) runs workflows from their fork without a maintainer looking first',
  first_time_contributors_new_to_github:
    'only first-time contributors who are new to GitHub need approval; any established account runs workflows from its fork without a maintainer looking first',
};

/**
 * A call of the REST API that approves a fork pull request's pending workflow run: `POST
 * /repos/{owner}/{repo}/actions/runs/{run_id}/approve` (through `gh api`, `curl`, `github.request`) or
 * `github.rest.actions.approveWorkflowRun` in `actions/github-script`.
 */
const APPROVE_CALL = /\bapproveWorkflowRun\b|\/actions\/runs\/[^\s'"`/]{1,200}\/approve\b/;
/** A token other than the job's own (a stored secret, a GitHub App token a step made): it may hold `actions: write`. */
const OTHER_TOKEN = /\bsecrets\.(?!GITHUB_TOKEN\b)\w+|\bsteps\.[\w-]+\.outputs\.[\w-]*token/i;

/** The script of a step that approves runs (a `run:` or a github-script `script`), with the call's offset in it. */
function approveCall(step: Step): { node: YScalar; index: number } | null {
  const script = step.run ?? get(step.with, 'script');
  if (script?.kind !== 'scalar' || typeof script.value !== 'string') return null;
  const match = APPROVE_CALL.exec(script.value);
  return match === null ? null : { node: script, index: match.index };
}

/** True when the step can make the call: the job's token has `actions: write`, or the step uses another token. */
function mayApprove(runs: RunModel, job: Job, step: Step): boolean {
  const token = runs.job(job).holdings.token;
  if (token.kind !== 'scopes' || token.writes.includes('actions')) return true;
  return OTHER_TOKEN.test(job.workflow.file.text.slice(step.node.start, step.node.end));
}

/**
 * When the approving step runs without a maintainer's act for that run (run model reach): on an event a fork's
 * pull request causes (`synchronize`, `opened`, a followed run), behind a label that stays when new commits are
 * pushed, or on a schedule; null when each run needs a maintainer (a label event, a member's comment, a dispatch).
 */
function automatic(runs: RunModel, step: Step): { when: string; facts: string[] } | null {
  const reach = runs.stepReach(step);
  if (reach.level === 'anyone') return { when: `whenever \`${reach.event ?? 'the trigger'}\` runs, which a fork's pull request causes itself (a push to it included)`, facts: reachFacts(reach) };
  if (reach.level === 'sticky-label') {
    return { when: `once a maintainer has labelled the pull request (${reach.gates.join(' / ')}), and again on every later push, since the label stays`, facts: reachFacts(reach) };
  }
  if (runs.eventsOf(step).includes('schedule')) return { when: "on a schedule, for whatever runs are pending at the time", facts: ['event:schedule'] };
  return null;
}

/**
 * A job of a `pull_request` workflow of the repository that a fork's run reaches on a self-hosted runner (run model
 * `forkValuables`): what an approval lets a fork's code at. Null when the runs it would approve hold nothing.
 */
function forkRunHolding(runs: RunModel): string | null {
  for (const workflow of runs.repository.workflows) {
    if (!workflow.triggers.some((t) => t.name === 'pull_request')) continue;
    for (const job of workflow.jobs) {
      const run = runs.job(job);
      if (run.forkReach === null || run.forkValuables.length === 0) continue;
      return `job \`${job.id}\` of \`${workflow.file.path}\` runs a fork's pull request with ${run.forkValuables.join(', ')}`;
    }
  }
  return null;
}

export default defineSettingsRule({
  meta: {
    id: 'fork-pr-approval-weak',
    category: 'CICD-SEC-4',
    title: 'Fork pull requests run without maintainer approval',
    severity: 'MEDIUM',
    surface: 'repo-settings',
    description:
      'A public repository whose fork pull request approval policy is weaker than "all external contributors", so workflows of outsiders\' pull requests start without a maintainer approving them. Also a workflow that approves fork pull requests\' pending runs itself through the REST API (`POST .../actions/runs/{run_id}/approve`) on an event the fork causes, behind a label that stays, or on a schedule: LOW when the approved runs are `pull_request` runs (read-only token, no secrets), MEDIUM when a `pull_request` job of the repository runs on a self-hosted runner.',
    recommendation:
      'Settings → Actions → General → "Approval for running fork pull request workflows from contributors": choose "Require approval for all external contributors" (`PUT /repos/{owner}/{repo}/actions/permissions/fork-pr-contributor-approval` with `approval_policy: all_external_contributors`).',
  },
  workflows: (context) => {
    let holding: string | null | undefined;
    return {
      step(step) {
        const job = step.job;
        if (job === null || step.owner.kind !== 'workflow') return;
        const call = approveCall(step);
        if (call === null || !mayApprove(context.runs, job, step)) return;
        const auto = automatic(context.runs, step);
        if (auto === null) return;
        if (holding === undefined) holding = forkRunHolding(context.runs);
        const why =
          holding === null
            ? "LOW: the runs it approves are fork pull requests' `pull_request` runs, which get a read-only token and no secrets, and no `pull_request` job here runs on a self-hosted runner"
            : `MEDIUM: ${holding}, which a fork's code then reaches with nobody having read it`;
        context.report({
          node: call.node,
          offset: valueOffsetToSource(step.owner.file, call.node, call.index),
          severity: holding === null ? 'LOW' : 'MEDIUM',
          message: `${describeStep(step)} approves fork pull requests' pending workflow runs through the REST API (\`POST .../actions/runs/{run_id}/approve\`) ${auto.when}: the approval GitHub holds a fork's runs for (the fork pull request approval policy) is given by a workflow instead of a maintainer, so the fork's later pushes run without anyone reading them first. ${why}.`,
          recommendation:
            "Let a maintainer approve each fork run (Settings → Actions → General, and the Approve button on the run), or approve only on a maintainer's act for that run (a `labeled` event on the label itself, a member's comment), never on `synchronize`, a label that stays, or a schedule.",
          facts: auto.facts,
          key: `auto-approve:${job.id}:${step.index}`,
        });
      },
    };
  },
  check(snapshot, context) {
    if (visibility(snapshot) !== 'public' || actionsDisabled(snapshot)) return;
    const approval = readArea(snapshot, 'fork_pr_approval');
    const policy = approval.readable ? text(approval.value, 'approval_policy') : undefined;
    const weakness = policy === undefined ? undefined : WEAK[policy];
    if (weakness === undefined) return;
    context.report({
      message: `The fork pull request approval policy is \`${policy}\`, so ${weakness}. Attacker-written workflow code then runs in this repository's Actions, with its caches and any self-hosted runner it can target, before anyone has read it.`,
    });
  },
});
