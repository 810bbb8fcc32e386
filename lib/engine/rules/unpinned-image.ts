import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unpinned-image',
    category: 'CICD-SEC-3',
    title: 'Container image not pinned by digest',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'container:, services.*.image, uses: docker://… without @sha256:. HIGH for :latest or no tag.',
    recommendation: '',
  },
  create: () => ({}),
});
