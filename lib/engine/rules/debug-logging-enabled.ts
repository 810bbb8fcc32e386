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
      "`ACTIONS_STEP_DEBUG` or `ACTIONS_RUNNER_DEBUG` is set to true in an `env:` block. GitHub turns its debug logging on only from a secret or configuration variable of that name (or a re-run with debug logging), so this does not; it puts the variable in every step's environment, where a tool or action that reads it itself prints more of what it does, for every run, to logs anyone who can read the repository can read.",
    recommendation:
      'Remove the variable from `env:`; to debug one run, use "Re-run jobs with debug logging" or set the `ACTIONS_STEP_DEBUG` repository variable temporarily.',
  },
  create: (context) => {
    const check = (env: YMap | undefined, where: () => string, job?: Job | null) => {
      for (const pair of envPairs(env, VARIABLES)) {
        // Forwarding the repository's own debug setting (`${{ secrets.ACTIONS_STEP_DEBUG }}`) does not force anything on.
        if (runnerFlag(pair.value) !== 'on') continue;
        // The catalog's default is MEDIUM; GitHub's runner takes debug logging only from a secret or variable of the
        // name, so the `env:` form turns nothing of its own on (see the rule's doc): each finding is LOW.
        context.report({
          node: pair.key,
          severity: 'LOW',
          ...(job === undefined ? {} : { job }),
          message: `\`${keyText(pair.key)}\` is set to true in the env of ${where()}. GitHub's runner turns debug logging on only from a secret or configuration variable of that name (or a re-run with debug logging), so this does not; it reaches only the steps' environment, where a tool or action that reads the variable itself prints more on every run (LOW).`,
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
