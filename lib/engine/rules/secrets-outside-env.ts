import { liveJobNodes } from '../analysis/run-model/holdings.js';
import { isGithubToken, secretOccurrencesIn } from '../analysis/secrets.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'secrets-outside-env',
    category: 'CICD-SEC-6',
    title: 'Secrets used in a job without an environment',
    severity: 'INFO',
    pedantic: true,
    surface: 'workflow',
    description:
      'A job reads stored secrets but has no `environment:`: the secrets are repository or organisation secrets, available to every workflow and branch, and no environment protection rule (required reviewers, branch restrictions, wait timers) stands between a workflow change and their use.',
    recommendation:
      'Move the secrets to a deployment environment with protection rules (required reviewers, allowed branches) and set `environment:` on the jobs that need them.',
  },
  create: (context) => ({
    job(job) {
      if (job.environment !== undefined || job.uses !== undefined) return;
      const occurrences = liveJobNodes(job).flatMap((node) => secretOccurrencesIn(job.workflow, node)).filter((s) => !isGithubToken(s.name));
      const first = occurrences[0];
      if (first === undefined) return;
      const names = [...new Set(occurrences.map((s) => s.name))];
      context.report({
        node: first.occurrence.scalar,
        offset: first.occurrence.offset,
        message: `Job \`${job.id}\` uses ${names.length === 1 ? 'secret' : 'secrets'} ${names.slice(0, 5).map((n) => `\`${n}\``).join(', ')}${names.length > 5 ? ', ...' : ''} without an \`environment:\`, so no environment protection rule applies to ${names.length === 1 ? 'it' : 'them'}.`,
        key: job.id,
      });
    },
  }),
});
