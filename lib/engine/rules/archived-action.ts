import { archivedAction } from '../data/archived-actions.js';
import { defineWorkflowRule } from '../rule.js';
import type { YScalar } from '../yaml/model.js';
import type { UsesRef } from '../model/uses.js';

export default defineWorkflowRule({
  meta: {
    id: 'archived-action',
    category: 'CICD-SEC-3',
    title: 'Action from an archived repository',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A step uses an action (or a job calls a reusable workflow) whose repository its owner archived: it gets no fixes, security fixes included, and its dependencies age in place. Offline from a dated snapshot with a source per entry (listed in the rule\'s documentation); with `--online`, live from GitHub for the repositories the snapshot lacks.',
    recommendation: 'Move to the maintained replacement the finding names, or vendor the action and maintain it yourself.',
  },
  create: (context) => {
    const check = (node: YScalar | undefined, ref: UsesRef | undefined) => {
      if (node === undefined || ref?.kind !== 'repository') return;
      const archived = archivedAction(ref.slug);
      if (archived === undefined) return;
      context.report({
        node,
        message: `\`${ref.owner}/${ref.repo}\` is archived: it receives no fixes, security fixes included.`,
        ...(archived.replacement !== null ? { recommendation: `Replace it with ${archived.replacement}.` } : {}),
      });
    };
    return {
      job(job) {
        check(job.uses, job.usesRef);
      },
      step(step) {
        check(step.uses, step.usesRef);
      },
    };
  },
});
