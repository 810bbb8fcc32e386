import { getPair } from '../../yaml/model.js';
import { indentUnit, insertAfterPair, insertBeforePair } from '../edit.js';
import { jobAt } from '../locate.js';
import { defineFixer } from '../types.js';

/** Generous for most CI jobs and far below the 6-hour platform maximum; tune it to the job's usual duration. */
export const DEFAULT_TIMEOUT_MINUTES = 60;

/**
 * Unsafe: a scan does not know how long the job usually runs (its run history is not in the repository), so
 * 60 minutes is a guess that could cut a longer job short. `--fix=unsafe` applies it; review the value.
 */
export default defineFixer({
  ruleId: 'missing-timeout',
  safe: false,
  propose({ model, offset, file }) {
    const job = jobAt(model, offset);
    if (job === undefined || model.kind !== 'workflow') return { skipped: 'the job was not found' };
    const text = file.text;
    const unit = indentUnit(text, model.root);
    const steps = getPair(job.node, 'steps');
    const runsOn = getPair(job.node, 'runs-on');
    const edit =
      (steps === undefined ? null : insertBeforePair(text, job.node, steps, 'timeout-minutes', String(DEFAULT_TIMEOUT_MINUTES), unit)) ??
      (runsOn === undefined ? null : insertAfterPair(text, job.node, runsOn, 'timeout-minutes', String(DEFAULT_TIMEOUT_MINUTES), unit));
    return edit === null ? { skipped: 'the job is not a block mapping' } : { edits: [edit], safe: false, note: `${DEFAULT_TIMEOUT_MINUTES} minutes is a guess: the job's usual duration is not known` };
  },
});
