import { defineWorkflowRule } from '../rule.js';

/**
 * An online audit: the engine is pure and offline, so `create` reports nothing; lib/online/ produces this
 * rule's findings from GitHub's answers (`--online` in the CLI, always in the service), in the same shape.
 */
export default defineWorkflowRule({
  meta: {
    id: 'stale-action-ref',
    category: 'CICD-SEC-3',
    title: "Pinned commit is no release tag's commit",
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A `uses:` pins a commit of the named repository that no tag points at: an unreleased commit, unreviewed as a release, that update bots cannot map to a version. Online only.',
    recommendation: 'Pin the commit of a release tag and name the tag in a `# vX.Y.Z` comment.',
  },
  create: () => ({}),
});
