import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'self-hosted-runner',
    category: 'CICD-SEC-7',
    title: 'Job runs on a self-hosted runner',
    severity: 'LOW',
    surface: 'workflow',
    description: 'runs-on with self-hosted (scalar, list, group, or matrix value). HIGH when the workflow is triggered by pull_request*.',
    recommendation: '',
  },
  create: () => ({}),
});
