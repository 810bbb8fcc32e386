import { readPermissions } from '../analysis/permissions.js';
import { privilegedTriggers } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';

/** Write scopes that let a token change code, releases, packages or workflow runs, or mint OIDC tokens. */
const CRITICAL_SCOPES = new Set(['contents', 'id-token', 'packages', 'actions']);

export default defineWorkflowRule({
  meta: {
    id: 'excessive-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token granted broader permissions than needed',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      '`permissions: write-all` on a workflow or job, or write scopes granted at workflow level, where they apply to every job. HIGH for `write-all`, and for `contents`, `id-token`, `packages` or `actions` write on a privileged trigger.',
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
          severity: 'HIGH',
          message: 'The workflow grants `write-all`: every job gets a token that can write to every scope of the repository.',
        });
        return;
      }
      if (permissions.kind !== 'scopes') return;
      // When a single job inherits them, workflow-level grants are that job's own: narrow grants are
      // the recommended pattern there, so only the grants that arm a privileged trigger are reported.
      // A reusable workflow's grants are capped by its caller's job, which is where they are decided.
      const singleJob = inheriting.length === 1;
      const reusableOnly = workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call');
      for (const write of permissions.writes) {
        const high = privileged.length > 0 && CRITICAL_SCOPES.has(write.scope);
        if ((singleJob || reusableOnly) && !high) continue;
        context.report({
          node: write.key,
          job: null,
          severity: high ? 'HIGH' : 'MEDIUM',
          message:
            (singleJob
              ? `\`${write.scope}: write\` is granted at workflow level to job \`${inheriting[0]?.id ?? ''}\``
              : `\`${write.scope}: write\` is granted at workflow level, so every job of the workflow gets it`) +
            (high ? `, on the privileged trigger \`${privileged[0]}\`.` : '.'),
        });
      }
    },
    job(job) {
      if (job.permissions === undefined) return;
      const permissions = readPermissions(job.permissions);
      if (permissions.kind !== 'write-all') return;
      context.report({
        node: permissions.node,
        severity: 'HIGH',
        message: `Job \`${job.id}\` grants \`write-all\`: its token can write to every scope of the repository.`,
      });
    },
  }),
});
