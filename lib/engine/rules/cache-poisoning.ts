import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'cache-poisoning',
    category: 'CICD-SEC-9',
    title: 'Cache restored in a release or publishing workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'actions/cache or setup-* cache: in a workflow triggered by tags/releases or that publishes (package publish, gh release, image push). MEDIUM when the key is PR-controlled under pull_request_target.',
    recommendation: '',
  },
  create: () => ({}),
});
