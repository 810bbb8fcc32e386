import { localWorkflowPath } from '../analysis/permissions.js';
import { jobTrustOn, type TrustGuard, type TrustGuardKind } from '../analysis/trust-guards.js';
import type { RepositoryModel } from '../model/repository.js';
import { hasPullRequestTrigger, type Job, type Workflow } from '../model/workflow.js';
import { selfHosted } from '../analysis/runners.js';
import { defineWorkflowRule } from '../rule.js';
import { scalarText } from '../yaml/model.js';

/** How pull requests reach a job: the `pull_request*` events, and the local caller jobs when it is a reusable workflow. */
interface PullRequestEntry {
  text: string;
  events: string[];
  callers: Job[];
}

/** A `pull_request*` trigger of the workflow, or of a workflow of the repository that calls it (`./` or `$/`). */
function pullRequestEntry(repository: RepositoryModel, workflow: Workflow): PullRequestEntry | null {
  const events = (w: Workflow) => [...new Set(w.triggers.filter((t) => t.name.startsWith('pull_request')).map((t) => t.name))];
  if (hasPullRequestTrigger(workflow)) return { text: 'a workflow triggered by pull requests', events: events(workflow), callers: [] };
  if (!workflow.triggers.some((t) => t.name === 'workflow_call')) return null;
  for (const caller of repository.workflows) {
    if (caller === workflow || !hasPullRequestTrigger(caller)) continue;
    const callers = caller.jobs.filter((j) => {
      const text = j.uses === undefined ? null : scalarText(j.uses);
      return text !== null && localWorkflowPath(text) === workflow.file.path;
    });
    if (callers.length > 0) return { text: `a reusable workflow called by \`${caller.file.path}\`, which pull requests trigger`, events: events(caller), callers };
  }
  return null;
}

/**
 * What stands between a pull request and the job, per way it runs: `author` when only trusted authors' pull
 * requests reach it (a same-repository check, a named or trusted author or actor, a maintainer-only event),
 * `approval` when a maintainer approves a pull request first (a label on a `labeled`-only run, a permission
 * check, an environment whose required reviewers the settings snapshot shows), `none` otherwise (a label check
 * a new push keeps, an environment of unknown strength). The gate analyses of missing-permissions (`gated`).
 */
type Reach = 'none' | 'approval' | 'author' | 'never';
const REACH_ORDER: readonly Reach[] = ['none', 'approval', 'author', 'never'];
const AUTHOR_GUARDS: ReadonlySet<TrustGuardKind> = new Set(['same-repository', 'pr-author', 'actor', 'maintainer-event']);

function pathReach(path: readonly TrustGuard[]): Reach {
  if (path.some((g) => AUTHOR_GUARDS.has(g.kind))) return 'author';
  if (path.some((g) => g.kind === 'label' || g.kind === 'commenter' || (g.kind === 'environment' && g.reviewed === true))) return 'approval';
  return 'none';
}

/** The weakest gate over every way a pull request event runs the job (`never` when no way does). */
function reachOf(job: Job, events: readonly string[]): Reach {
  let worst: Reach = 'never';
  for (const event of events) {
    for (const path of jobTrustOn(job, event)) {
      const reach = pathReach(path);
      if (REACH_ORDER.indexOf(reach) < REACH_ORDER.indexOf(worst)) worst = reach;
    }
  }
  return worst;
}

/** The gate that keeps a fork's pull request off the job: the stronger of the job's own and its callers'. */
function pullRequestGate(job: Job, entry: PullRequestEntry): Reach {
  const own = reachOf(job, entry.events);
  if (entry.callers.length === 0) return own;
  let callers: Reach = 'never';
  for (const caller of entry.callers) {
    const reach = reachOf(caller, entry.events);
    if (REACH_ORDER.indexOf(reach) < REACH_ORDER.indexOf(callers)) callers = reach;
  }
  return REACH_ORDER.indexOf(own) > REACH_ORDER.indexOf(callers) ? own : callers;
}

const APPROVAL_RISK =
  'a maintainer approves the pull request as it is when they label or approve it: commits pushed after their review and before the approval, or a later checkout of a branch that moved, still run on the runner and can persist in it';

export default defineWorkflowRule({
  meta: {
    id: 'self-hosted-runner',
    category: 'CICD-SEC-7',
    title: 'Job runs on a self-hosted runner',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A job\'s `runs-on` selects the `self-hosted` label (as a string, a list item, the `labels:` of a runner group, or a matrix value a leg runs with). Self-hosted runners keep state between jobs and sit inside your network. HIGH when pull requests trigger the workflow (directly, or through a local caller of a reusable workflow), where a fork\'s code can run on them; MEDIUM when every way a pull request reaches the job needs a maintainer\'s approval (a label on a labeled-only run, a member\'s comment, a reviewed environment), LOW when only trusted authors\' pull requests reach it. On pull requests, a runner group or a label no GitHub-hosted runner has is reported MEDIUM: it is a self-hosted runner or a larger runner the workflow cannot tell apart.',
    recommendation:
      'Run untrusted or pull-request jobs on GitHub-hosted runners; keep self-hosted runners for trusted branches, make them ephemeral (one job per runner, e.g. actions-runner-controller), and isolate their network and credentials.',
  },
  create: (context) => ({
    job(job) {
      const hit = selfHosted(job);
      if (hit === null) return;
      const found = pullRequestEntry(context.repository, job.workflow);
      const gate = found === null ? 'never' : pullRequestGate(job, found);
      // Only trusted authors' pull requests reach the job (or none does): as off pull requests.
      const entry = gate === 'author' || gate === 'never' ? null : found;
      const gated = gate === 'author' && found !== null ? ` in ${found.text}, which only trusted authors' pull requests reach (a condition of the job or its caller)` : '';
      if (!hit.certain) {
        // Without the label, the runner may be one of GitHub's larger runners: only worth a finding where a pull request reaches it.
        if (entry === null) return;
        context.report({
          node: hit.node,
          severity: gate === 'approval' ? 'LOW' : 'MEDIUM',
          message:
            gate === 'approval'
              ? `Job \`${job.id}\` runs on a ${hit.how} in ${entry.text}, only after a maintainer's approval (a label, a permission check or a reviewed environment): if it is a self-hosted runner, ${APPROVAL_RISK}. LOW: it may also be a GitHub-hosted larger runner.`
              : `Job \`${job.id}\` runs on a ${hit.how} in ${entry.text}: if it is a self-hosted runner, code from a pull request can run on, and persist in, it. MEDIUM, not HIGH: without the \`self-hosted\` label it may be a GitHub-hosted larger runner.`,
        });
        return;
      }
      if (entry !== null && gate === 'approval') {
        context.report({
          node: hit.node,
          severity: 'MEDIUM',
          message: `Job \`${job.id}\` runs on a self-hosted runner (${hit.how}) in ${entry.text}, only after a maintainer's approval (a label, a permission check or a reviewed environment). MEDIUM, not HIGH: ${APPROVAL_RISK}.`,
        });
        return;
      }
      context.report({
        node: hit.node,
        ...(entry !== null ? { severity: 'HIGH' as const } : {}),
        message:
          entry !== null
            ? `Job \`${job.id}\` runs on a self-hosted runner (${hit.how}) in ${entry.text}: code from a pull request can run on, and persist in, the runner.`
            : `Job \`${job.id}\` runs on a self-hosted runner (${hit.how})${gated}; whatever the job runs can persist in the runner and reach its network.`,
      });
    },
  }),
});
