import { outsiderCode } from '../analysis/outsider-code.js';
import { calledLocalWorkflow, declaresOwnPermissions } from '../analysis/permissions.js';
import { reachFacts } from '../analysis/run-model/facts.js';
import { severityOf, whoText, type Reach } from '../analysis/run-model/index.js';
import { outsiderReach, REACH_ORDER } from '../analysis/run-model/reach.js';
import type { Job, Workflow } from '../model/workflow.js';
import type { RepositoryModel } from '../model/repository.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';

/** Jobs whose token the missing `permissions:` decides: call jobs of a local workflow that declares its own are not. */
function undeclaredJobs(repository: RepositoryModel, workflow: Workflow): Job[] {
  return workflow.jobs.filter((job) => {
    if (job.permissions !== undefined) return false;
    const called = calledLocalWorkflow(repository, job);
    return called === undefined || !declaresOwnPermissions(called);
  });
}

function listed(jobs: readonly Job[]): string {
  const names = jobs.slice(0, 3).map((j) => `\`${j.id}\``);
  const more = jobs.length > 3 ? ` and ${jobs.length - 3} more` : '';
  return jobs.length === 1 ? `job ${names[0] ?? ''}` : `jobs ${names.join(', ')}${more}`;
}

export default defineWorkflowRule({
  meta: {
    id: 'missing-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token permissions not declared',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A workflow declares no `permissions:` and some of its jobs declare none either, so their GITHUB_TOKEN gets the repository default, which is read-write on many repositories. One finding per workflow file when no job declares any, else one per job without its own; HIGH when an outsider can trigger the workflow (`pull_request_target`, `issue_comment`, `workflow_run` ...) and a job checks out pull request code or downloads its artifacts, or puts outsider text into a script, in a step no gate (trusted-author condition, maintainer approval) covers.',
    recommendation:
      'Add `permissions: {}` (or `contents: read`) at the top of the workflow and grant each job only the scopes it needs in its own `permissions:` block.',
  },
  create: (context) => {
    function report(workflow: Workflow, jobs: readonly Job[], perJob: boolean): void {
      const first = jobs[0];
      if (first === undefined) return;
      const stepJobs = jobs.filter((j) => j.uses === undefined);
      const localCallers = jobs.filter((j) => calledLocalWorkflow(context.repository, j) !== undefined);
      // Who can start the jobs, and whether an outsider's code or text runs in one (run model).
      let reach: Reach = { level: 'collaborator', event: null, gates: [], forkPullRequest: false };
      for (const job of jobs) {
        const theirs = context.runs.job(job).reach;
        const rank = REACH_ORDER.indexOf(theirs.level) - REACH_ORDER.indexOf(reach.level);
        // At the same level, a fork's `pull_request` run is wider reach than collaborators alone.
        if (rank < 0 || (rank === 0 && theirs.forkPullRequest && !reach.forkPullRequest)) reach = theirs;
      }
      const code = outsiderCode(context, stepJobs);
      const readOnly = context.runs.defaultToken === 'read';
      let severity: Severity = 'LOW';
      let why: string;
      if (code !== null && !readOnly) {
        severity = severityOf({ reach: code.reach, executes: true, holds: ['the default token'], raceAfterApproval: code.race });
        why = ` ${severity}: ${code.text}, and ${whoText(code.reach)}, so an outsider's code runs with a token that may be able to write.`;
      } else if (readOnly) {
        why = ' LOW: the settings snapshot shows the repository\'s default token is read-only.';
      } else if (outsiderReach(reach) && stepJobs.length > 0) {
        why = ` LOW: ${whoText(reach)}, but no job runs an outsider's code or text (a checkout or download of pull request code that a step runs, event text expanded into a script), so outside input reaches the token only through the actions' own handling.`;
      } else if (outsiderReach(reach)) {
        why = ` LOW: the ${jobs.length === 1 ? 'job only calls' : 'jobs only call'} reusable workflows${localCallers.length === jobs.length ? ' of this repository, whose own jobs decide what they do with the token' : ''}.`;
      } else {
        // A fork's `pull_request` run that a gate of unknown strength stands before (an environment) still gets a read-only token.
        const forkRuns = !reach.forkPullRequest && jobs.some((j) => {
          const fork = j.uses === undefined ? context.runs.job(j).forkReach : null;
          return fork !== null && fork.level !== 'trusted-author' && fork.level !== 'collaborator';
        });
        why =
          reach.level === 'collaborator' && reach.forkPullRequest
            ? ` LOW: ${whoText(reach)}; the default permissions apply to collaborators' runs (pushes, their own pull requests), so no outsider's code runs with a token that can write.`
            : reach.level === 'collaborator' && forkRuns
              ? " LOW: collaborators start it, and a fork's `pull_request` run of it gets a read-only token whatever the default, so no outsider's code runs with a token that can write."
              : ` LOW: ${reach.level === 'collaborator' ? 'only collaborators start it' : whoText(reach)}, so no outsider's code runs with the token.`;
      }
      const what =
        jobs.length === workflow.jobs.length
          ? `The workflow sets no \`permissions:\` and neither ${jobs.length === 1 ? 'does its' : 'do its'} ${listed(jobs)}`
          : `The workflow sets no \`permissions:\` and ${listed(jobs)} ${jobs.length === 1 ? 'sets' : 'set'} none`;
      context.report({
        node: first.key,
        job: jobs.length === 1 || perJob ? first : null,
        severity,
        key: 'missing-permissions',
        message: `${what}, so ${jobs.length === 1 ? 'its' : 'their'} GITHUB_TOKEN gets the repository's default permissions (read-write on many repositories).${why}`,
        facts: code !== null ? [...reachFacts(code.reach), 'exec', 'holds:token'] : reachFacts(reach),
      });
    }
    return {
      workflow(workflow) {
        if (workflow.permissions !== undefined) return;
        // A workflow that only runs when called gets its token from the caller's job: the finding
        // belongs to the caller (a call job without permissions is reported in the caller's file).
        if (workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call')) return;
        const undeclared = undeclaredJobs(context.repository, workflow);
        if (undeclared.length === 0) return;
        // When every job runs with the default token, the finding is a fact of the file (bound to no job, so it
        // joins the attack path of any job); when some jobs declare their own, one finding per job that does
        // not, bound to it, so no attack path pairs the default token with a job that never had it.
        if (undeclared.length === workflow.jobs.length) report(workflow, undeclared, false);
        else for (const job of undeclared) report(workflow, [job], true);
      },
    };
  },
});
