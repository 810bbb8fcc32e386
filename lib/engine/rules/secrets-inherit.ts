import { localWorkflowPath } from '../analysis/permissions.js';
import { PRIVILEGED_TRIGGERS } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';

export default defineWorkflowRule({
  meta: {
    id: 'secrets-inherit',
    category: 'CICD-SEC-5',
    title: 'All secrets passed to a reusable workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A job calls a reusable workflow with `secrets: inherit`, handing it every secret of the repository, organization and environment instead of the few it needs. HIGH when an outsider can trigger the caller and the called workflow belongs to another repository; a reusable workflow of the same repository is MEDIUM on such triggers and LOW otherwise.',
    recommendation:
      'Replace `secrets: inherit` with an explicit `secrets:` mapping of only the secrets the called workflow declares under `on.workflow_call.secrets`.',
  },
  create: (context) => ({
    job(job) {
      const secrets = job.secrets;
      if (job.uses === undefined || secrets?.kind !== 'scalar' || typeof secrets.value !== 'string') return;
      if (secrets.value.trim() !== 'inherit') return;
      // Outsider triggers only: sending a `repository_dispatch` needs a write token already.
      const outsider = job.workflow.triggers.filter((t) => PRIVILEGED_TRIGGERS.has(t.name)).map((t) => t.name);
      const target = typeof job.uses.value === 'string' ? job.uses.value : 'a reusable workflow';
      const local = localWorkflowPath(target) !== null;
      // A reusable workflow of the same repository is the repository's own code: inheriting secrets there
      // widens what an injection in it could reach, but hands nothing to another party.
      const severity: Severity = outsider.length > 0 ? (local ? 'MEDIUM' : 'HIGH') : local ? 'LOW' : 'MEDIUM';
      const why =
        severity === 'HIGH'
          ? ` HIGH: anyone with a GitHub account can trigger \`${outsider[0] ?? ''}\`, and the called workflow is code of another repository.`
          : severity === 'LOW'
            ? ' LOW: the called workflow is part of this repository and no outsider triggers the caller.'
            : local && outsider.length > 0
              ? ` Not HIGH: the called workflow is part of this repository, though anyone can trigger \`${outsider[0] ?? ''}\`.`
              : '';
      context.report({
        node: secrets,
        severity,
        message:
          `Job \`${job.id}\` passes every secret to \`${target}\` with \`secrets: inherit\`` +
          (outsider.length > 0 ? `, in a workflow triggered by \`${outsider[0]}\`.` : '.') +
          why,
      });
    },
  }),
});
