import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'download-without-checksum',
    category: 'CICD-SEC-9',
    title: 'Downloaded binary or archive not verified',
    severity: 'MEDIUM',
    surface: 'workflow',
    description: 'curl/wget of an archive/binary/script with no sha256sum/shasum/gpg --verify/cosign verify/gh attestation verify/slsa-verifier in the same step.',
    recommendation: '',
  },
  create: () => ({}),
});
