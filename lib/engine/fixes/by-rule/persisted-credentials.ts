import { getPair } from '../../yaml/model.js';
import { indentUnit, insertAfterPair, isBlockMap } from '../edit.js';
import { laterGitRemoteUse } from '../git-network.js';
import { stepAt } from '../locate.js';
import { defineFixer } from '../types.js';

/**
 * `persist-credentials: false` on the checkout. Safe when no later step of the job talks to the remote
 * with git (push, fetch, pull) or runs an action that pushes; otherwise the job may rely on the
 * credentials and the fix is offered as unsafe.
 */
export default defineFixer({
  ruleId: 'persisted-credentials',
  safe: true,
  propose({ model, offset, file }) {
    const step = stepAt(model, offset);
    if (step === undefined || model.kind === 'dependabot') return { skipped: 'the checkout step was not found' };
    const text = file.text;
    const unit = indentUnit(text, model.root);
    const steps = step.job?.steps ?? (model.kind === 'action' ? model.steps : []);
    const needs = laterGitRemoteUse(steps, step.index);
    const safe = needs === null;
    const withPair = getPair(step.node, 'with');
    let edit;
    if (withPair === undefined) {
      const uses = getPair(step.node, 'uses');
      edit = uses === undefined ? null : insertAfterPair(text, step.node, uses, 'with', ['persist-credentials: false'], unit);
    } else if (isBlockMap(text, withPair.value)) {
      const existing = getPair(withPair.value, 'persist-credentials');
      if (existing !== undefined) {
        if (existing.value.kind !== 'scalar' || existing.value.style !== 'plain') return { skipped: '`persist-credentials` is not a plain value' };
        edit = { start: existing.value.start, end: existing.value.end, text: 'false' };
        return { edits: [edit], safe: false, note: 'the step sets `persist-credentials: true` on purpose' };
      }
      const last = withPair.value.pairs.at(-1);
      edit = last === undefined ? null : insertAfterPair(text, withPair.value, last, 'persist-credentials', 'false', unit);
    } else {
      edit = null;
    }
    if (edit === null) return { skipped: 'the step or its `with:` is not a block mapping' };
    return safe ? { edits: [edit], safe } : { edits: [edit], safe, note: needs };
  },
});
