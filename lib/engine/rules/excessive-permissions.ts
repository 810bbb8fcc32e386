import { jobUsesScope, readPermissions } from '../analysis/permissions.js';
import { privilegedTriggers } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';

/** Write scopes that let a token change code, releases, packages or workflow runs, or mint OIDC tokens. */
const CRITICAL_SCOPES = new Set(['contents', 'id-token', 'packages', 'actions']);

/** Why a `write-all` grant is or is not HIGH: it arms whatever hostile input a privileged trigger brings. */
function writeAllWhy(privileged: readonly string[]): string {
  return privileged.length > 0
    ? ` HIGH: the workflow runs on \`${privileged[0] ?? ''}\`, where outside input reaches the job.`
    : ' MEDIUM: no trigger of the workflow brings outside input, so only a compromised step could misuse it.';
}

export default defineWorkflowRule({
  meta: {
    id: 'excessive-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token granted broader permissions than needed',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      '`permissions: write-all` on a workflow or job, or write scopes granted at workflow level, where they apply to every job. HIGH for `write-all` on a privileged trigger, and for `contents`, `id-token`, `packages` or `actions` write on a privileged trigger when more than one job inherits it; a single job that uses its grant is not reported.',
    recommendation:
      'Set `permissions: {}` or `contents: read` at workflow level and grant each write scope only in the `permissions:` of the job that needs it.',
  },
  create: (context) => ({
    workflow(workflow) {
      if (workflow.permissions === undefined) return;
      // Workflow-level permissions only matter for jobs that do not set their own.
      const inheriting = workflow.jobs.filter((j) => j.permissions === undefined);
      if (workflow.jobs.length > 0 && inheriting.length === 0) return;
      const permissions = readPermissions(workflow.permissions);
      const privileged = privilegedTriggers(workflow).map((t) => t.name);
      if (permissions.kind === 'write-all') {
        context.report({
          node: permissions.node,
          job: null,
          severity: privileged.length > 0 ? 'HIGH' : 'MEDIUM',
          message: `The workflow grants \`write-all\`: every job gets a token that can write to every scope of the repository.${writeAllWhy(privileged)}`,
        });
        return;
      }
      if (permissions.kind !== 'scopes') return;
      // When a single job inherits them, workflow-level grants are that job's own: narrow grants are
      // the recommended pattern there, so only the grants that arm a privileged trigger are reported.
      // A reusable workflow's grants are capped by its caller's job, which is where they are decided.
      // A call job passes the grant on as the ceiling of the reusable workflow's jobs, which may need it:
      // only jobs that run steps themselves show whether the grant is wider than needed.
      const stepJobs = inheriting.filter((j) => j.uses === undefined);
      if (inheriting.length > 0 && stepJobs.length === 0) return;
      const singleJob = stepJobs.length === 1;
      const reusableOnly = workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call');
      const only = singleJob ? stepJobs[0] : undefined;
      for (const write of permissions.writes) {
        const critical = privileged.length > 0 && CRITICAL_SCOPES.has(write.scope);
        if ((singleJob || reusableOnly) && !critical) continue;
        // The only job's grant at workflow level is that job's own grant: when the job uses it, nothing is excessive.
        if (only !== undefined && jobUsesScope(only, write.scope)) continue;
        const high = critical && only === undefined;
        context.report({
          node: write.key,
          job: null,
          severity: high ? 'HIGH' : 'MEDIUM',
          message:
            (only !== undefined
              ? `\`${write.scope}: write\` is granted at workflow level to job \`${only.id}\`, which shows no use of it`
              : `\`${write.scope}: write\` is granted at workflow level, so every job of the workflow gets it`) +
            (critical ? `, on the privileged trigger \`${privileged[0]}\`.` : '.') +
            (only !== undefined ? ' Not HIGH: it is the only job, so moving the grant to the job changes nothing; remove it if the job does not need it.' : ''),
        });
      }
    },
    job(job) {
      if (job.permissions === undefined) return;
      const permissions = readPermissions(job.permissions);
      if (permissions.kind !== 'write-all') return;
      const privileged = privilegedTriggers(job.workflow).map((t) => t.name);
      context.report({
        node: permissions.node,
        severity: privileged.length > 0 ? 'HIGH' : 'MEDIUM',
        message: `Job \`${job.id}\` grants \`write-all\`: its token can write to every scope of the repository.${writeAllWhy(privileged)}`,
      });
    },
  }),
});
