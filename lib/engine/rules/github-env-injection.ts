import { describeStep } from '../analysis/describe.js';
import { envInjections } from '../analysis/injections.js';
import { holdingFacts, reachFacts, runFact } from '../analysis/run-model/facts.js';
import { describeClaim, severityOf, type Claim } from '../analysis/run-model/index.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { severityRank, type Severity } from '../types.js';

/**
 * Actions whose `action.yml` declares a `post:` step (a cleanup, a cache save, a logout), which the runner starts
 * after the job's last step with the environment `$GITHUB_ENV` defines. Source: each action's `action.yml`.
 */
const POST_STEP_ACTIONS = new Set([
  'actions/checkout',
  'actions/cache',
  'actions/setup-node',
  'actions/setup-python',
  'actions/setup-go',
  'actions/setup-java',
  'actions/setup-dotnet',
  'actions/create-github-app-token',
  'astral-sh/setup-uv',
  'aws-actions/configure-aws-credentials',
  'azure/login',
  'docker/login-action',
  'docker/setup-buildx-action',
  'google-github-actions/auth',
  'gradle/actions/setup-gradle',
  'pnpm/action-setup',
  'swatinem/rust-cache',
  'webfactory/ssh-agent',
]);

/**
 * The steps that run with what a step writes to `$GITHUB_ENV` / `$GITHUB_PATH`: the later steps of the job (in
 * the same job run), and the post steps of actions that ran before it (`actions/checkout`'s cleanup, a cache
 * save).
 */
function affected(context: WorkflowRuleContext, step: Step): { later: Step[]; posts: Step[] } {
  const job = step.job;
  if (job === null) return { later: [], posts: [] };
  const later = job.steps.filter((s) => s.index > step.index && context.runs.sameRun(step, s));
  const posts = job.steps.filter((s) => s.index < step.index && s.usesRef?.kind === 'repository' && POST_STEP_ACTIONS.has(s.usesRef.path === '' ? s.usesRef.slug : `${s.usesRef.slug}/${s.usesRef.path}`) && context.runs.sameRun(step, s));
  return { later, posts };
}

export default defineWorkflowRule({
  meta: {
    id: 'github-env-injection',
    category: 'CICD-SEC-4',
    title: 'Untrusted data written to GITHUB_ENV or GITHUB_PATH',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'In a workflow an outsider can trigger with the base repository\'s privileges, a `run:` script writes attacker-controlled text (pull request or issue data, directly or through env, outputs and shell variables, or the content of an artifact downloaded from another run) to `$GITHUB_ENV` or `$GITHUB_PATH`, also from inside a `{ ...; }` group, subshell, loop or `if` block redirected there. A newline in it defines any variable (`NODE_OPTIONS`, `LD_PRELOAD`, `BASH_ENV`) or `PATH` entry for every later step of the job. HIGH when anyone can start it, a later step (or an earlier action\'s post step) runs with it, and the job holds a write scope, secret or OIDC; MEDIUM without those holdings, or when a maintainer approves each run; LOW when nothing runs after it or only trusted authors reach it.',
    recommendation:
      'Do not route untrusted values through `$GITHUB_ENV`/`$GITHUB_PATH`: pass them to the steps that need them with `env:` or step outputs, and validate artifact contents (for example, that a pull request number is all digits) before any use.',
  },
  create: (context) => ({
    step(step) {
      const hits = envInjections(step, context.taint);
      if (hits.length === 0 || step.job === null) return;
      const runs = context.runs;
      const run = runs.job(step.job);
      const reach = runs.stepReach(step);
      const { later, posts } = affected(context, step);
      const executes = later.length > 0 || posts.length > 0;
      const claim: Claim = { reach, executes, holds: run.valuables, forkHolds: run.forkValuables, nothingHeld: run.nothingHeld, raceAfterApproval: true };
      const model = severityOf(claim);
      const first = later[0] ?? posts[0];
      const runsAfter =
        first === undefined
          ? 'no step of the job runs after it, and no earlier action has a post step to run with it (LOW)'
          : later.length > 0
            ? `${describeStep(first)} (line ${step.owner.file.position(first.node.start).line})${later.length > 1 ? ` and ${later.length - 1} more` : ''} then run${later.length > 1 ? '' : 's'} with it`
            : `the post step of ${describeStep(first)} (${String(first.uses?.value ?? '')}) runs with it after the last step`;
      for (const { artifact: _artifact, ...hit } of hits) {
        const own: Severity = hit.severity ?? 'HIGH';
        const severity = severityRank(own) >= severityRank(model) ? own : model;
        context.report({
          ...hit,
          severity,
          message: `${hit.message.replace(/\.$/, '')}; ${runsAfter}; ${describeClaim(claim)}.`,
          facts: [...reachFacts(reach), ...(executes ? ['exec'] : []), ...holdingFacts(run), ...runFact(runs, step)],
        });
      }
    },
  }),
});
