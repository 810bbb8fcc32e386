import { defineWorkflowRule } from '../rule.js';

// Not implemented yet: the catalog entry is final, the detection lands with the rule's own change.
export default defineWorkflowRule({
  meta: {
    id: 'secret-in-log',
    category: 'CICD-SEC-6',
    title: 'Secret printed to logs or written to outputs',
    severity: 'HIGH',
    surface: 'workflow',
    description: 'echo/printf/cat/print/console.log/Write-Host of ${{ secrets.* }} (or of an env var holding one), secrets written to $GITHUB_OUTPUT/$GITHUB_ENV/::set-output, env/printenv/set dumps in jobs with secrets.',
    recommendation: '',
  },
  create: () => ({}),
});
