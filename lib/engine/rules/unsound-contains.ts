import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unsound-contains',
    category: 'CICD-SEC-1',
    title: 'Substring check used as an allow-list',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'contains(\'<literal string>\', <context>) where a shorter or crafted value passes (e.g. contains(\'refs/heads/main refs/heads/dev\', github.ref)).',
    recommendation: '',
  },
  create: () => ({}),
});
