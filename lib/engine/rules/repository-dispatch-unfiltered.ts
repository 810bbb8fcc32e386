import { defineWorkflowRule } from '../rule.js';
import { asList, get, scalarText } from '../yaml/model.js';

export default defineWorkflowRule({
  meta: {
    id: 'repository-dispatch-unfiltered',
    category: 'CICD-SEC-8',
    title: 'repository_dispatch accepted without an event-type allow-list',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'The workflow runs on `repository_dispatch` without a non-empty `types:` list, so any event type sent by any holder of a token with write access to the repository starts it, with a `client_payload` of the sender\'s choosing.',
    recommendation:
      'List the event types the workflow handles under `repository_dispatch: types: [...]`, and treat `github.event.client_payload` as untrusted input.',
  },
  create: (context) => ({
    workflow(workflow) {
      for (const trigger of workflow.triggers) {
        if (trigger.name !== 'repository_dispatch') continue;
        const types = asList(get(trigger.config, 'types')).filter((t) => (scalarText(t) ?? '').trim() !== '' || t.kind !== 'scalar');
        if (types.length > 0) continue;
        context.report({
          node: trigger.node,
          job: null,
          message: '`repository_dispatch` has no `types:` filter: every dispatched event type runs this workflow.',
        });
      }
    },
  }),
});
