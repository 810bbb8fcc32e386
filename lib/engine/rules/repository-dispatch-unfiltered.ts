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
        // What a sender chooses is the event type and the payload. A workflow that reads neither does the same
        // whatever is sent, and only a holder of a token with write access can send it: LOW.
        const reads = /\bclient_payload\b|github\.event\.action\b|\bgithub\.event\b(?!\.)|toJSON\(\s*github\.event\s*\)|GITHUB_EVENT_PATH|context\.payload\b/i.test(workflow.file.text);
        context.report({
          node: trigger.node,
          job: null,
          ...(reads ? {} : { severity: 'LOW' as const }),
          message: reads
            ? '`repository_dispatch` has no `types:` filter: every dispatched event type runs this workflow, with a `client_payload` the sender chooses, which the workflow reads.'
            : '`repository_dispatch` has no `types:` filter: every dispatched event type runs this workflow. LOW: the workflow reads neither the event type nor its `client_payload`, so what a sender chooses changes nothing it does, and only a holder of a token with write access can send it.',
        });
      }
    },
  }),
});
