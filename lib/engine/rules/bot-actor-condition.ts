import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'bot-actor-condition',
    category: 'CICD-SEC-1',
    title: 'Authorization based on a spoofable bot actor',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'if: compares github.actor / github.triggering_actor to a …[bot] login in a privileged or pull_request workflow.',
    recommendation: '',
  },
  create: () => ({}),
});
