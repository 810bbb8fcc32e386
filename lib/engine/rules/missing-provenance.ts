import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'missing-provenance',
    category: 'CICD-SEC-9',
    title: 'Release published without provenance',
    severity: 'LOW',
    surface: 'workflow',
    description: 'A publishing workflow with no attestation/signing step (actions/attest-build-provenance, slsa-github-generator, npm publish --provenance, cosign).',
    recommendation: '',
  },
  create: () => ({}),
});
