import { defineWorkflowRule } from '../rule.js';

/**
 * An online audit: the engine is pure and offline, so `create` reports nothing; lib/online/ produces this
 * rule's findings from GitHub's answers (`--online` in the CLI, always in the service), in the same shape.
 */
export default defineWorkflowRule({
  meta: {
    id: 'online-audit-incomplete',
    category: 'CICD-SEC-3',
    title: 'Online audit incomplete',
    severity: 'INFO',
    surface: 'workflow',
    description:
      'Some `uses:` references could not be checked online (the API budget of the scan was spent, GitHub refused or failed): they are unassessed, not clean. Online only.',
    recommendation: "Scan again later (the shared cache keeps what was already checked), or raise the budget share; with the CLI, check that GITHUB_TOKEN can read the action's repository.",
  },
  create: () => ({}),
});
