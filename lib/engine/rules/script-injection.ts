import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'script-injection',
    category: 'CICD-SEC-4',
    title: 'Attacker-controlled expression expanded into a script',
    severity: 'HIGH',
    surface: 'workflow',
    description: '${{ }} that evaluates from an attacker-controlled context inside run:, actions/github-script script:, or another known code-executing action input. HIGH for *arbitrary* contexts; MEDIUM for *structured*; LOW for inputs.* of string type and values of unknown provenance. Follows the dataflow above.',
    recommendation: '',
  },
  create: () => ({}),
});
