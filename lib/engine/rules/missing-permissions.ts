import { privilegedTriggers } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'missing-permissions',
    category: 'CICD-SEC-5',
    title: 'Workflow token permissions not declared',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A job runs without `permissions:` in a workflow that declares none either, so its GITHUB_TOKEN gets the repository default, which is read-write on many repositories. HIGH when the workflow has a privileged trigger.',
    recommendation:
      'Add `permissions: {}` (or `contents: read`) at the top of the workflow and grant each job only the scopes it needs in its own `permissions:` block.',
  },
  create: (context) => ({
    workflow(workflow) {
      if (workflow.permissions !== undefined) return;
      // A workflow that only runs when called gets its token from the caller's job: the finding
      // belongs to the caller (a call job without permissions is reported below).
      if (workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call')) return;
      const privileged = privilegedTriggers(workflow).map((t) => t.name);
      const where = privileged.length > 0 ? ` The workflow runs on \`${privileged[0]}\`, a privileged trigger.` : '';
      for (const job of workflow.jobs) {
        if (job.permissions !== undefined) continue;
        const what =
          job.uses !== undefined
            ? `Job \`${job.id}\` calls a reusable workflow without \`permissions:\`, so the called jobs get the repository's default token permissions.`
            : `Job \`${job.id}\` has no \`permissions:\` and the workflow sets none, so its GITHUB_TOKEN gets the repository's default permissions.`;
        context.report({
          node: job.key,
          job,
          severity: privileged.length > 0 ? 'HIGH' : 'MEDIUM',
          message: what + where,
        });
      }
    },
  }),
});
