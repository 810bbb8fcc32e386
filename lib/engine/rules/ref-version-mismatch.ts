import { defineWorkflowRule } from '../rule.js';

/**
 * An online audit: the engine is pure and offline, so `create` reports nothing; lib/online/ produces this
 * rule's findings from GitHub's answers (`--online` in the CLI, always in the service), in the same shape.
 */
export default defineWorkflowRule({
  meta: {
    id: 'ref-version-mismatch',
    category: 'CICD-SEC-3',
    title: "Version comment names another commit's tag",
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A `uses:` pins a SHA whose `# vX.Y.Z` comment names a tag that points at a different commit: the comment a reviewer trusts does not describe the code that runs. Online only.',
    recommendation: 'Set the SHA to the commit of the tag the comment names (or correct the comment), for instance with `pinact` or Dependabot.',
  },
  create: () => ({}),
});
