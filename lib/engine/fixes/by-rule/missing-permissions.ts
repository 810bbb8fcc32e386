import { leastPrivilege } from '../least-privilege.js';
import { defineFixer } from '../types.js';

/** Job-level least-privilege blocks computed from what each job does, and `permissions: {}` at workflow level. */
export default defineFixer({
  ruleId: 'missing-permissions',
  safe: true,
  propose: ({ model, repository }) => (model.kind === 'workflow' ? leastPrivilege(model, repository) : { skipped: 'not a workflow' }),
});
