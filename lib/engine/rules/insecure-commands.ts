import { envPairs, runnerFlag } from '../analysis/runner-flags.js';
import { stepWhere } from '../analysis/step-label.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { YMap } from '../yaml/model.js';

const VARIABLE = 'ACTIONS_ALLOW_UNSECURE_COMMANDS';
const NAMES: readonly string[] = [VARIABLE];

export default defineWorkflowRule({
  meta: {
    id: 'insecure-commands',
    category: 'CICD-SEC-7',
    title: 'Deprecated insecure workflow commands re-enabled',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      '`ACTIONS_ALLOW_UNSECURE_COMMANDS` is set truthy in an `env:` block (workflow, job or step), which re-enables the `::set-env` and `::add-path` commands: any text a step prints can then set environment variables or the PATH of later steps.',
    recommendation:
      'Remove `ACTIONS_ALLOW_UNSECURE_COMMANDS` and write to the `$GITHUB_ENV` / `$GITHUB_PATH` files instead of printing `::set-env` / `::add-path`; upgrade actions that still need the old commands.',
  },
  create: (context) => {
    // `where` is a function: most `env:` blocks do not set the variable, and naming a step costs.
    const check = (env: YMap | undefined, where: () => string, job?: Job | null) => {
      for (const pair of envPairs(env, NAMES)) {
        const flag = runnerFlag(pair.value);
        if (flag === 'off') continue;
        context.report({
          node: pair.key,
          ...(job === undefined ? {} : { job }),
          message:
            flag === 'on'
              ? `\`${VARIABLE}\` is set to true in the env of ${where()}: every line its steps print can run \`::set-env\` / \`::add-path\`.`
              : `\`${VARIABLE}\` is set from an expression in the env of ${where()}; when it evaluates to true, printed \`::set-env\` / \`::add-path\` lines change later steps' environment.`,
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
        check(step.env, () => stepWhere(step));
      },
    };
  },
});
