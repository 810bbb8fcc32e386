import { privilegedTriggers } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'secrets-inherit',
    category: 'CICD-SEC-5',
    title: 'All secrets passed to a reusable workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A job calls a reusable workflow with `secrets: inherit`, handing it every secret of the repository, organization and environment instead of the few it needs. HIGH when the calling workflow has a privileged trigger.',
    recommendation:
      'Replace `secrets: inherit` with an explicit `secrets:` mapping of only the secrets the called workflow declares under `on.workflow_call.secrets`.',
  },
  create: (context) => ({
    job(job) {
      const secrets = job.secrets;
      if (job.uses === undefined || secrets?.kind !== 'scalar' || typeof secrets.value !== 'string') return;
      if (secrets.value.trim() !== 'inherit') return;
      const privileged = privilegedTriggers(job.workflow).map((t) => t.name);
      const target = typeof job.uses.value === 'string' ? job.uses.value : 'a reusable workflow';
      context.report({
        node: secrets,
        severity: privileged.length > 0 ? 'HIGH' : 'MEDIUM',
        message:
          `Job \`${job.id}\` passes every secret to \`${target}\` with \`secrets: inherit\`` +
          (privileged.length > 0 ? `, in a workflow triggered by \`${privileged[0]}\`.` : '.'),
      });
    },
  }),
});
