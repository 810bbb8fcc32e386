import { runnerTimeLimit } from '../analysis/runners.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'missing-timeout',
    category: 'BEST-PRAC-1',
    title: 'Job has no timeout',
    severity: 'LOW',
    surface: 'workflow',
    fix: { safe: false },
    description:
      'A job that runs steps has no `timeout-minutes`, so a hung or hijacked job keeps its runner (and its token) for the platform maximum of 6 hours.',
    recommendation: 'Set `timeout-minutes` on the job to a little more than its usual duration.',
  },
  create: (context) => ({
    job(job) {
      // Reusable-workflow calls take their timeouts from the called workflow's jobs.
      if (job.uses !== undefined || job.steps.length === 0) return;
      if (job.node.pairs.some((p) => p.key.value === 'timeout-minutes')) return;
      // Every step bounded: the job is too (only its setup, which GitHub runs, is left).
      if (job.steps.every((step) => step.node.pairs.some((p) => p.key.value === 'timeout-minutes'))) return;
      // A runner that ends every job sooner itself (`ubuntu-slim`: 15 minutes) already bounds it.
      if (runnerTimeLimit(job) !== null) return;
      context.report({
        node: job.key,
        message: `Job \`${job.id}\` has no \`timeout-minutes\`; it can run for up to 6 hours.`,
      });
    },
  }),
});
