import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'artifact-poisoning',
    category: 'CICD-SEC-4',
    title: 'Artifact from an untrusted run used in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'workflow_run workflow downloads artifacts of the triggering run (actions/download-artifact with run-id, dawidd6/action-download-artifact, gh run download) into the workspace, not an isolated temp dir.',
    recommendation: '',
  },
  create: () => ({}),
});
