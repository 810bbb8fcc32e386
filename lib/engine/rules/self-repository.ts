import { checkoutInputs } from '../analysis/pr-head.js';
import { normalizeLocalPath } from '../model/repository.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getText } from '../yaml/model.js';

/** Earlier `actions/checkout` steps of the step's job. */
function earlierCheckouts(step: Step): Step[] {
  const job = step.job;
  if (job === null) return [];
  return job.steps.slice(0, step.index).filter((s) => s.usesRef?.kind === 'repository' && s.usesRef.slug === 'actions/checkout');
}

/** Where a checkout lands, relative to the workspace ('' for the root). */
function checkoutPath(step: Step): string {
  return normalizeLocalPath(getText(step.with, 'path') ?? '');
}

export default defineWorkflowRule({
  meta: {
    id: 'self-repository',
    category: 'CICD-SEC-3',
    title: 'Local action resolved from the workspace',
    severity: 'INFO',
    pedantic: true,
    surface: 'workflow',
    description:
      'A step runs `uses: ./path`, which GitHub resolves from the job\'s workspace: whatever a previous step checked out (or wrote) at that path runs. The self-repository form `uses: $/path` (GitHub, July 2026) runs the action from the workflow\'s own repository at the workflow\'s commit, whatever the workspace holds. LOW when an earlier checkout in the job fetches another ref or repository.',
    recommendation: 'Write `uses: $/path` (same path, without the leading `./`) so the action always comes from the workflow\'s own commit.',
  },
  create: (context) => ({
    step(step) {
      if (step.usesRef?.kind !== 'local' || step.usesRef.self === true || step.uses === undefined) return;
      const path = step.usesRef.path;
      const target = normalizeLocalPath(path);
      const checkouts = earlierCheckouts(step);
      // An action checked out on purpose into its own directory (testing an action at another ref) is not
      // in the workflow's repository at that path: `$/` cannot replace it.
      if (checkouts.some((s) => checkoutPath(s) !== '' && (target === checkoutPath(s) || target.startsWith(`${checkoutPath(s)}/`)))) return;
      const replaced = checkouts.find((s) => checkoutPath(s) === '' && checkoutInputs(s).length > 0);
      context.report({
        node: step.uses,
        ...(replaced !== undefined ? { severity: 'LOW' as const } : {}),
        message:
          replaced !== undefined
            ? `\`uses: ${path}\` runs whatever the workspace holds at that path, and an earlier checkout in this job fetches another ref or repository: that checkout's \`${path}\` is what runs.`
            : `\`uses: ${path}\` runs whatever the workspace holds at that path; \`uses: $/${path.replace(/^\.\//, '')}\` pins it to the workflow's own commit.`,
        recommendation: `Write \`uses: $/${path.replace(/^\.\//, '')}\`.`,
      });
    },
  }),
});
