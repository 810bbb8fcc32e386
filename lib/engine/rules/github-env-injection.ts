import { envInjections } from '../analysis/injections.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'github-env-injection',
    category: 'CICD-SEC-4',
    title: 'Untrusted data written to GITHUB_ENV or GITHUB_PATH',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'In a workflow an outsider can trigger with the base repository\'s privileges, a `run:` script writes attacker-controlled text (pull request or issue data, directly or through env, outputs and shell variables, or the content of an artifact downloaded from another run) to `$GITHUB_ENV` or `$GITHUB_PATH`. A newline in it defines any variable (`NODE_OPTIONS`, `LD_PRELOAD`, `BASH_ENV`) or `PATH` entry for every later step of the job.',
    recommendation:
      'Do not route untrusted values through `$GITHUB_ENV`/`$GITHUB_PATH`: pass them to the steps that need them with `env:` or step outputs, and validate artifact contents (for example, that a pull request number is all digits) before any use.',
  },
  create: (context) => ({
    step(step) {
      for (const hit of envInjections(step, context.taint)) context.report(hit);
    },
  }),
});
