import { envPairs, runnerFlag } from '../analysis/runner-flags.js';
import { stepWhere } from '../analysis/step-label.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { keyText, type YMap } from '../yaml/model.js';

const VARIABLES = ['ACTIONS_STEP_DEBUG', 'ACTIONS_RUNNER_DEBUG'];

export default defineWorkflowRule({
  meta: {
    id: 'debug-logging-enabled',
    category: 'CICD-SEC-7',
    title: 'Actions debug logging forced on',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      '`ACTIONS_STEP_DEBUG` or `ACTIONS_RUNNER_DEBUG` is set to true in an `env:` block, so every run writes debug output (request bodies, environment, intermediate values) to logs that anyone who can read the repository can read.',
    recommendation:
      'Remove the variable from `env:`; to debug one run, use "Re-run jobs with debug logging" or set the `ACTIONS_STEP_DEBUG` repository variable temporarily.',
  },
  create: (context) => {
    const check = (env: YMap | undefined, where: () => string, job?: Job | null) => {
      for (const pair of envPairs(env, VARIABLES)) {
        // Forwarding the repository's own debug setting (`${{ secrets.ACTIONS_STEP_DEBUG }}`) does not force anything on.
        if (runnerFlag(pair.value) !== 'on') continue;
        context.report({
          node: pair.key,
          ...(job === undefined ? {} : { job }),
          message: `\`${keyText(pair.key)}\` is set to true in the env of ${where()}, so debug output of every run goes to the logs.`,
        });
      }
    };
    return {
      workflow(workflow) {
        check(workflow.env, () => 'the workflow', null);
      },
      job(job) {
        check(job.env, () => `job \`${job.id}\``);
      },
      step(step) {
        // Most steps have no `env:`: no closure for them, and the step's label only when a finding names it.
        if (step.env === undefined) return;
        check(step.env, () => stepWhere(step));
      },
    };
  },
});
