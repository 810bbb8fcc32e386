import { indentUnit, insertAfterPair } from '../edit.js';
import { dependabotUpdateAt } from '../locate.js';
import { defineFixer } from '../types.js';
import { keyText } from '../../yaml/model.js';

export const DEFAULT_COOLDOWN_DAYS = 7;

export default defineFixer({
  ruleId: 'dependabot-missing-cooldown',
  safe: true,
  propose({ model, offset, file }) {
    const update = dependabotUpdateAt(model, offset);
    const last = update?.node.pairs.at(-1);
    if (update === undefined || last === undefined || model.kind !== 'dependabot') return { skipped: 'the update entry was not found' };
    // A cooldown that waits too little (or nothing) is there already: its days are a choice to make by hand.
    if (update.node.pairs.some((p) => keyText(p.key) === 'cooldown')) return { skipped: 'the entry has a `cooldown`; raise its days by hand' };
    const edit = insertAfterPair(file.text, update.node, last, 'cooldown', [`default-days: ${DEFAULT_COOLDOWN_DAYS}`], indentUnit(file.text, model.root));
    return edit === null ? { skipped: 'the update entry is not a block mapping' } : { edits: [edit], safe: true };
  },
});
