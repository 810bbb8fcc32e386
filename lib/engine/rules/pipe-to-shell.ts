import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'pipe-to-shell',
    category: 'CICD-SEC-3',
    title: 'Remote script piped into an interpreter',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'curl|wget|iwr … | [sudo] sh|bash|zsh|python|node|perl|iex, bash <(curl …), sh -c "$(curl …)".',
    recommendation: '',
  },
  create: () => ({}),
});
