import { defineWorkflowRule } from '../rule.js';

/**
 * An online audit: the engine is pure and offline, so `create` reports nothing; lib/online/ produces this
 * rule's findings from GitHub's answers (`--online` in the CLI, always in the service), in the same shape.
 */
export default defineWorkflowRule({
  meta: {
    id: 'impostor-commit',
    category: 'CICD-SEC-3',
    title: 'Pinned commit not in the named repository',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      "A `uses:` pins a full commit SHA that is on no branch and no tag of the repository it names: GitHub serves commits of any fork through the parent's name, so the pin may be an attacker's fork commit. Online only (`--online`, always in the service).",
    recommendation: 'Replace the SHA with the commit of a release tag of the named repository (check it with `git ls-remote --tags`), and keep the version in a `# vX.Y.Z` comment.',
  },
  create: () => ({}),
});
