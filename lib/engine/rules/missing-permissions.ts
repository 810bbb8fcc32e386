import { calledLocalWorkflow, declaresOwnPermissions, outsiderInput } from '../analysis/permissions.js';
import { PRIVILEGED_TRIGGERS, type Job, type Workflow } from '../model/workflow.js';
import type { RepositoryModel } from '../model/repository.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';

/** Privileged triggers an outsider fires (a comment, an issue, a fork's pull request): `repository_dispatch` needs a write token. */
function outsiderTriggers(workflow: Workflow): string[] {
  return workflow.triggers.filter((t) => PRIVILEGED_TRIGGERS.has(t.name)).map((t) => t.name);
}

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
      const outsider = outsiderTriggers(workflow);
      const stepJobs = jobs.filter((j) => j.uses === undefined);
      const localCallers = jobs.filter((j) => calledLocalWorkflow(context.repository, j) !== undefined);
      let severity: Severity = 'MEDIUM';
      let why = '';
      const control = outsider.length > 0 ? outsiderInput(context, stepJobs, outsider, true) : null;
      const gatedControl = control === null && outsider.length > 0 ? outsiderInput(context, stepJobs, outsider, false) : null;
      if (control !== null) {
        severity = 'HIGH';
        why = ` HIGH: the workflow runs on \`${outsider[0] ?? ''}\`, which anyone with a GitHub account can trigger, and ${control}, so outside input meets a token that may be able to write.`;
      } else if (gatedControl !== null) {
        why = ` Not HIGH: ${gatedControl}, but only trusted authors or a maintainer's approval (a condition on the job or step, a label on a \`labeled\`-only workflow, an environment with required reviewers) let it run, so no outsider starts it.`;
      } else if (outsider.length > 0 && stepJobs.length > 0) {
        why = ` Not HIGH: anyone can trigger \`${outsider[0] ?? ''}\`, but no job checks out pull request code, downloads its artifacts or puts outsider text into a script, so outside input only reaches the token through the actions' own handling.`;
      } else if (outsider.length > 0) {
        why = ` Not HIGH: the ${jobs.length === 1 ? 'job only calls' : 'jobs only call'} reusable workflows${localCallers.length === jobs.length ? ' of this repository, whose own jobs decide what they do with the token' : ''}.`;
      } else if (workflow.triggers.some((t) => t.name === 'repository_dispatch')) {
        why = ' Not HIGH: `repository_dispatch` can only be sent with a token that has write access to the repository.';
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
