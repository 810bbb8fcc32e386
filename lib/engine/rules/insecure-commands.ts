import { envPairs, runnerFlag } from '../analysis/runner-flags.js';
import { stepWhere } from '../analysis/step-label.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { YMap } from '../yaml/model.js';
import { EXTERNAL_TRIGGERS } from '../expressions/controller.js';
import { severityRank, type Severity } from '../types.js';

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
    /**
     * The policy (docs/severity.md) over the job's triggers: whoever gets text printed steers every later step,
     * so the claim is what the job holds against who can print. An outsider's privileged run (comment, issue,
     * `pull_request_target` ...) with holdings: HIGH, without: MEDIUM. A fork's `pull_request` run already runs
     * the fork's code with a read-only token and no secrets: LOW, unless the machine is self-hosted. Runs only
     * collaborators start print what their merged code and dependencies print (a compromised upstream):
     * MEDIUM with holdings, LOW without.
     */
    const rate = (job: Job): { severity: Severity; why: string } => {
      const run = context.runs.job(job);
      const triggers = job.workflow.triggers.map((t) => t.name);
      const held = run.valuables.length > 0 ? `the job holds ${run.valuables.join(', ')}` : run.nothingHeld;
      const privileged = triggers.find((t) => t !== 'pull_request' && EXTERNAL_TRIGGERS.has(t));
      if (privileged !== undefined) {
        return run.valuables.length > 0
          ? { severity: 'HIGH', why: `anyone with a GitHub account can start it through \`${privileged}\` and get their text printed; ${held}` }
          : { severity: 'MEDIUM', why: `anyone with a GitHub account can start it through \`${privileged}\`, but ${held}` };
      }
      // The machine counts only when forks' pull requests do not already run their own code on it.
      if (triggers.includes('pull_request') && run.forkAddedValuables.length > 0) {
        return { severity: 'HIGH', why: `a fork's \`pull_request\` run reaches it, and the job holds ${run.forkAddedValuables.join(', ')}` };
      }
      const others = triggers.filter((t) => t !== 'pull_request');
      if (others.length > 0 && run.valuables.length > 0) {
        return { severity: 'MEDIUM', why: `only collaborators start it (\`${others.join('`, `')}\`), so the text comes from merged code or a dependency; ${held}` };
      }
      return {
        severity: 'LOW',
        why: !triggers.includes('pull_request')
          ? `only collaborators start it, and ${held}`
          : run.forkMachineOpened !== undefined
            ? `a fork's \`pull_request\` run reaches it on a self-hosted runner, but ${run.forkMachineOpened}, so the text it prints adds no way onto the machine that a fork's pull request lacks`
            : "a fork's `pull_request` run already runs the fork's code with a read-only token and no secrets",
      };
    };
    const worst = (jobs: readonly Job[]): { severity: Severity; why: string } | null => {
      let found: { severity: Severity; why: string } | null = null;
      for (const job of jobs) {
        const rated = rate(job);
        if (found === null || severityRank(rated.severity) < severityRank(found.severity)) found = rated;
      }
      return found;
    };
    // `where` is a function: most `env:` blocks do not set the variable, and naming a step costs.
    const check = (env: YMap | undefined, where: () => string, jobs: readonly Job[], job?: Job | null) => {
      for (const pair of envPairs(env, NAMES)) {
        const flag = runnerFlag(pair.value);
        if (flag === 'off') continue;
        const rated = worst(jobs);
        const why = rated === null ? '' : ` ${rated.severity}: ${rated.why}.`;
        context.report({
          node: pair.key,
          ...(job === undefined ? {} : { job }),
          ...(rated === null ? {} : { severity: rated.severity }),
          message:
            flag === 'on'
              ? `\`${VARIABLE}\` is set to true in the env of ${where()}: every line its steps print can run \`::set-env\` / \`::add-path\`.${why}`
              : `\`${VARIABLE}\` is set from an expression in the env of ${where()}; when it evaluates to true, printed \`::set-env\` / \`::add-path\` lines change later steps' environment.${why}`,
        });
      }
    };
    return {
      workflow(workflow) {
        check(workflow.env, () => 'the workflow', workflow.jobs, null);
      },
      job(job) {
        check(job.env, () => `job \`${job.id}\``, [job]);
      },
      step(step) {
        check(step.env, () => stepWhere(step), step.job === null ? [] : [step.job]);
      },
    };
  },
});
