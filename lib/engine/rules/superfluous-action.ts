import { expandMatrix } from '../analysis/matrix-values.js';
import { runnerImage, superfluousAction, type RunnerImage } from '../data/runner-tools.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { scalarText } from '../yaml/model.js';

/**
 * The hosted images every leg of the job runs on, or null when any leg's runner is unknown: a self-hosted
 * or custom label, a runner group, several labels, or an expression other than a plain matrix value.
 */
function hostedImages(job: Job): { label: string; image: RunnerImage }[] | null {
  let node = job.runsOn;
  if (node?.kind === 'seq') node = node.items.length === 1 ? node.items[0] : undefined;
  if (node?.kind !== 'scalar') return null;
  const text = scalarText(node);
  if (text === null) return null;
  const labels = expandMatrix(job, text);
  if (labels === null || labels.length === 0) return null;
  const images: { label: string; image: RunnerImage }[] = [];
  for (const label of new Set(labels.map((l) => l.trim().toLowerCase()))) {
    const image = runnerImage(label);
    if (image === undefined) return null;
    images.push({ label, image });
  }
  return images;
}

export default defineWorkflowRule({
  meta: {
    id: 'superfluous-action',
    category: 'BEST-PRAC-5',
    title: 'Action duplicates a tool the runner image has',
    severity: 'INFO',
    surface: 'workflow',
    description:
      'A step runs a third-party action whose whole job is one call of a program every GitHub-hosted image the job runs on already has (`gh release create`, `gh issue create`, `jq`, `yq`, `docker run`), so the job trusts one more outside party with its token for nothing. The list, with a source per entry, and the images read (named by image version and date) are in the rule\'s documentation.',
    recommendation:
      'Call the program in a `run:` step instead (for example `gh release create "$TAG" dist/* --generate-notes` with `GH_TOKEN: ${{ github.token }}`), and drop the action.',
  },
  create: (context) => ({
    step(step) {
      const job = step.job;
      const ref = step.usesRef;
      // Composite actions run on their caller's runner, which the action cannot know.
      if (job === null || ref?.kind !== 'repository' || ref.path !== '' || step.uses === undefined) return;
      const action = superfluousAction(ref.slug);
      if (action === undefined) return;
      // In a job container `run:` steps run inside the container, where the image's programs are not.
      if (job.container !== undefined) return;
      const images = hostedImages(job);
      if (images === null || !images.every(({ image }) => image.tools.includes(action.tool))) return;
      const on = images.map(({ label }) => `\`${label}\``).join(', ');
      context.report({
        node: step.uses,
        message: `\`${action.slug}\` does no more than one call of \`${action.tool}\`, which GitHub's ${on} image${images.length > 1 ? 's' : ''} already ${images.length > 1 ? 'have' : 'has'}: ${action.instead} in a \`run:\` step does the same ${
          // GitHub's own actions are no other party's code; these are archived (archived-actions.ts) and get no fixes.
          ref.owner.toLowerCase() === 'actions' ? 'with a tool GitHub maintains, where this action of GitHub\'s is archived and gets no fixes' : 'without handing the job\'s token to another party\'s code'
        }.`,
        recommendation: `Replace the step with ${action.instead} in a \`run:\` step (for \`gh\`, set \`GH_TOKEN: \${{ github.token }}\` in its \`env:\`).`,
        key: `${job.id}:${action.slug}`,
      });
    },
  }),
});
