import { describeStep } from '../analysis/describe.js';
import { envInjectionClaim, envInjectionSeverity, envInjections } from '../analysis/injections.js';
import { holdingFacts, reachFacts, runFact } from '../analysis/run-model/facts.js';
import { describeClaim } from '../analysis/run-model/index.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'github-env-injection',
    category: 'CICD-SEC-4',
    title: 'Untrusted data written to GITHUB_ENV or GITHUB_PATH',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'In a workflow an outsider can trigger with the base repository\'s privileges, a `run:` script writes attacker-controlled text (pull request or issue data, directly or through env, outputs and shell variables, or the content of an artifact downloaded from another run) to `$GITHUB_ENV` or `$GITHUB_PATH`, also from inside a `{ ...; }` group, subshell, loop or `if` block redirected there. A newline in it defines any variable (`LD_PRELOAD`, `BASH_ENV`, `GIT_SSH_COMMAND`; the runner refuses only `NODE_OPTIONS`) or `PATH` entry for every later step of the job. HIGH when anyone can start it, a later step (or an earlier action\'s post step) runs with it, and the job holds a write scope, secret or OIDC; MEDIUM without those holdings, or when a maintainer approves each run; LOW when nothing runs after it or only trusted authors reach it.',
    recommendation:
      'Do not route untrusted values through `$GITHUB_ENV`/`$GITHUB_PATH`: pass them to the steps that need them with `env:` or step outputs, and validate artifact contents (for example, that a pull request number is all digits) before any use.',
  },
  create: (context) => ({
    step(step) {
      const hits = envInjections(step, context.taint);
      if (hits.length === 0 || step.job === null) return;
      const runs = context.runs;
      const run = runs.job(step.job);
      const claim = envInjectionClaim(step, step.job, runs);
      const { reach, executes } = claim;
      const { later, posts } = runs.envReaders(step);
      const first = later[0] ?? posts[0];
      const runsAfter =
        first === undefined
          ? 'no step of the job runs after it, and no earlier action has a post step to run with it (LOW)'
          : later.length > 0
            ? `${describeStep(first)} (line ${step.owner.file.position(first.node.start).line})${later.length > 1 ? ` and ${later.length - 1} more` : ''} then run${later.length > 1 ? '' : 's'} with it`
            : `the post step of ${describeStep(first)} (${String(first.uses?.value ?? '')}) runs with it after the last step`;
      for (const { artifact: _artifact, ...hit } of hits) {
        context.report({
          ...hit,
          severity: envInjectionSeverity(hit, claim),
          message: `${hit.message.replace(/\.$/, '')}; ${runsAfter}; ${describeClaim(claim)}.`,
          facts: [...reachFacts(reach), ...(executes ? ['exec'] : []), ...holdingFacts(run), ...runFact(runs, step)],
        });
      }
    },
  }),
});
