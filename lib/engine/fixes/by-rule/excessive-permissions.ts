import { leastPrivilege } from '../least-privilege.js';
import { defineFixer } from '../types.js';

/** Moves write scopes from the workflow level to the jobs that need them (least privilege per job), `permissions: {}` above. */
export default defineFixer({
  ruleId: 'excessive-permissions',
  safe: true,
  propose: ({ model, repository }) => (model.kind === 'workflow' ? leastPrivilege(model, repository) : { skipped: 'not a workflow' }),
});
