import { imagePin } from './unpinned-image.js';
import { immutableReleaseTag } from '../data/immutable-releases.js';
import { isFullSha } from '../model/uses.js';
import type { Action } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getPair, getScalar, scalarText } from '../yaml/model.js';

/** The mutable things a composite action's steps run: remote actions by tag or branch, images by tag. */
function mutableSteps(action: Action): string[] {
  const result: string[] = [];
  for (const step of action.steps) {
    const ref = step.usesRef;
    // The exact tag of an immutable release (data/immutable-releases.ts) runs the released code, as a SHA does.
    if (ref?.kind === 'repository' && !isFullSha(ref.ref) && !immutableReleaseTag(ref.slug, ref.ref)) result.push(`${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}@${ref.ref}`);
    if (ref?.kind === 'docker' && imagePin(ref.image).kind !== 'digest') result.push(`docker://${ref.image}`);
  }
  return [...new Set(result)];
}

export default defineWorkflowRule({
  meta: {
    id: 'unpinnable-action',
    category: 'CICD-SEC-3',
    title: 'Action cannot be pinned by its callers',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'An action the repository publishes (any `action.yml`/`action.yaml` outside `.github/`) runs something mutable: a docker action whose `runs.image` is a `docker://` image without a digest, or a composite action whose steps use actions by tag or branch (or images by tag). Callers who pin this action to a commit SHA still run whatever those tags point to when the job runs.',
    recommendation:
      'Pin what the action runs: `runs.image: docker://image@sha256:<digest>`, and full commit SHAs for the `uses:` of composite steps, so that pinning this action pins everything it runs.',
  },
  create: (context) => ({
    action(action) {
      const using = getPair(action.runs, 'using');
      // Actions under `.github/` are the repository's own helpers, called as `uses: ./...`: no caller pins them.
      if (using === undefined || action.directory === '.github' || action.directory.startsWith('.github/')) return;
      if (action.using === 'docker') {
        const image = getScalar(action.runs, 'image');
        const text = image === undefined ? null : scalarText(image)?.trim() ?? null;
        if (text === null || !text.startsWith('docker://') || imagePin(text.slice('docker://'.length)).kind === 'digest') return;
        context.report({
          node: using.key,
          job: null,
          message: `Docker action \`${action.directory === '' ? '.' : action.directory}\` runs the image \`${text}\`, which is not pinned by digest: callers pinning this action by SHA still run whatever that tag points to.`,
        });
        return;
      }
      if (action.using !== 'composite') return;
      const mutable = mutableSteps(action);
      if (mutable.length === 0) return;
      const shown = mutable.slice(0, 3).map((m) => `\`${m}\``).join(', ') + (mutable.length > 3 ? ` and ${mutable.length - 3} more` : '');
      context.report({
        node: using.key,
        job: null,
        message: `Composite action \`${action.directory === '' ? '.' : action.directory}\` runs ${shown} by mutable reference: callers pinning this action by SHA still run whatever ${mutable.length === 1 ? 'that reference points' : 'those references point'} to.`,
      });
    },
  }),
});
