import { defineWorkflowRule } from '../rule.js';

/**
 * An online audit: the engine is pure and offline, so `create` reports nothing; lib/online/ produces this
 * rule's findings from GitHub's answers (`--online` in the CLI, always in the service), in the same shape.
 */
export default defineWorkflowRule({
  meta: {
    id: 'ref-confusion',
    category: 'CICD-SEC-3',
    title: 'Ref names both a branch and a tag',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      "A `uses:` ref names both a branch and a tag of the action's repository: which one GitHub runs is not what a reader expects, and whoever can push a branch can shadow a release. Online only.",
    recommendation: 'Pin the action to a full commit SHA (with the version in a comment), or use a ref that is only a tag.',
  },
  create: () => ({}),
});
