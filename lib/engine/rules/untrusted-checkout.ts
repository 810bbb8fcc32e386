import { describeStep } from '../analysis/describe.js';
import { untrustedCheckouts } from '../analysis/pr-head.js';
import { describeGate, reviewedEnvironmentGate, stepTrust } from '../analysis/trust-guards.js';
import { workspaceCodeEvidence } from '../analysis/workspace-code.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';

/** The first later step (or, for a script, the same step) that runs code from the working directory. */
function workspaceCodeAfter(job: Job, step: Step, scripted: boolean): { step: Step; evidence: string } | null {
  for (const later of job.steps) {
    if (later.index < step.index || (later.index === step.index && !scripted)) continue;
    const evidence = workspaceCodeEvidence(later);
    if (evidence !== null) return { step: later, evidence };
  }
  return null;
}

export default defineWorkflowRule({
  meta: {
    id: 'untrusted-checkout',
    category: 'CICD-SEC-4',
    title: 'Untrusted pull request code checked out in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A workflow that runs with the base repository\'s token and secrets (`pull_request_target`, `workflow_run`, `issue_comment` ...) checks out the head of a pull request (`actions/checkout` with the head ref or SHA, `git fetch` of `refs/pull/*` then `git checkout`, `gh pr checkout`), so the contributor\'s code lands in a privileged job. MEDIUM when no later step of the job runs code from the workspace.',
    recommendation:
      'Build and test pull requests in a `pull_request` workflow, which runs without secrets; if a privileged follow-up is needed, pass results as data through an artifact to a `workflow_run` job that never checks out or runs the pull request\'s code. If the checkout must stay, restrict the job to trusted authors (`github.event.pull_request.head.repo.full_name == github.repository`).',
  },
  create: (context) => ({
    job(job) {
      for (const checkout of untrustedCheckouts(job, context.repository)) {
        const runs = workspaceCodeAfter(job, checkout.step, checkout.offset !== undefined);
        const consequence =
          runs !== null
            ? `; ${runs.step === checkout.step ? 'the same step' : describeStep(runs.step)} then runs code from it (${runs.evidence}) with the workflow's token and secrets`
            : '; no later step of the job appears to run code from it, but any tool that reads its files (configuration, scripts, lockfiles) can be turned against the job';
        // An environment with required reviewers (from the settings snapshot) holds every run for approval.
        const gate = reviewedEnvironmentGate(stepTrust(checkout.step));
        // A maintainer's approval (an `/ok-to-test` comment or dispatch, a label, an environment) comes
        // first, so an outsider cannot start the job; what remains is the race between the approval and the
        // checkout of a ref that moves (a branch, `refs/pull/*`): MEDIUM, whatever the job then runs.
        const approval = checkout.dispatcher !== undefined ? `the workflow runs only on \`repository_dispatch\`, sent by ${checkout.dispatcher}` : "the job waits for a maintainer's approval";
        context.report({
          node: checkout.node,
          ...(checkout.offset !== undefined ? { offset: checkout.offset } : {}),
          severity: gate.holds ? 'LOW' : checkout.gated || checkout.uncheckedEnvironment !== undefined ? 'MEDIUM' : runs !== null ? 'HIGH' : 'MEDIUM',
          message:
            `${describeStep(checkout.step)} checks out pull request code (${checkout.how}, from ${checkout.evidence}) in a workflow triggered by \`${checkout.trigger}\`${consequence}` +
            (gate.holds
              ? `${describeGate(gate)}, though the code can change between the approval and the checkout.`
              : checkout.uncheckedEnvironment !== undefined
                ? `; the job deploys to ${checkout.uncheckedEnvironment}, which holds each run for a reviewer only if the environment has required reviewers, and those could not be checked without a settings snapshot (\`--settings\`): with reviewers, the approved commit is what runs and nothing is wrong; without, any pull request's code runs here (MEDIUM until the reviewers are known).`
                : checkout.gated
                ? `; ${approval}, so an outsider cannot start it, but the code is resolved when the job runs, not when the approval was given: commits pushed to the pull request after the approval are what gets checked out (MEDIUM: pin the approved commit, such as \`github.event.pull_request.head.sha\` or a SHA named in the approval).`
                : checkout.approved
                  ? "; the job deploys to an environment, which may hold it for a reviewer's approval (a settings snapshot would show whether it has required reviewers), but the code can change between the approval and the checkout."
                  : '.'),
        });
      }
    },
  }),
});
