import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'obfuscated-expression',
    category: 'CICD-SEC-4',
    title: 'Obfuscated expression or action reference',
    severity: 'LOW',
    surface: 'workflow',
    description: 'Index-notation context access (github[\'event\']), uses: paths with .. or //, base64/certutil decode piped into a shell.',
    recommendation: '',
  },
  create: () => ({}),
});
