import { getPair } from '../../yaml/model.js';
import { indentUnit, insertBeforePair, lineStart } from '../edit.js';
import { defineFixer } from '../types.js';

/**
 * One workflow-level group per workflow and ref; runs queue (`cancel-in-progress: false`) so a deployment
 * or a publication is never cut off halfway, and an older run cannot finish after a newer one.
 */
export const CONCURRENCY_LINES = ['group: ${{ github.workflow }}-${{ github.ref }}', 'cancel-in-progress: false'] as const;

export default defineFixer({
  ruleId: 'missing-concurrency',
  safe: true,
  propose({ model, file }) {
    if (model.kind !== 'workflow') return { skipped: 'not a workflow' };
    const jobs = getPair(model.root, 'jobs');
    if (jobs === undefined) return { skipped: 'the workflow has no `jobs:`' };
    const edit = insertBeforePair(file.text, model.root, jobs, 'concurrency', CONCURRENCY_LINES, indentUnit(file.text, model.root));
    if (edit === null) return { skipped: 'the workflow is not a block mapping' };
    // Keep the blank line that separated the block above from `jobs:` between the new block and `jobs:`.
    const start = lineStart(file.text, jobs.key.start);
    const blankBefore = start >= 2 && file.text.slice(lineStart(file.text, start - 1), start).trim() === '';
    return { edits: [{ ...edit, text: blankBefore ? `${edit.text}\n` : edit.text }], safe: true };
  },
});
