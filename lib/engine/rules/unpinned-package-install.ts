import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'unpinned-package-install',
    category: 'CICD-SEC-3',
    title: 'Ad-hoc package installed without a version or lockfile',
    severity: 'LOW',
    surface: 'workflow',
    description: 'npm i -g pkg, npx pkg without version, pip install pkg without ==/hashes, go install …@latest, cargo install without --locked, gem install without -v.',
    recommendation: '',
  },
  create: () => ({}),
});
