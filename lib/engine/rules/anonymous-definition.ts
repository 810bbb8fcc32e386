import { defineWorkflowRule } from '../rule.js';
import { getPair } from '../yaml/model.js';

export default defineWorkflowRule({
  meta: {
    id: 'anonymous-definition',
    category: 'BEST-PRAC-5',
    title: 'Workflow or job without a name',
    severity: 'INFO',
    pedantic: true,
    surface: 'workflow',
    description:
      'A workflow without a top-level `name:`, or a job without `name:`: the Actions tab shows the file path, and checks (including required status checks) show the job id, which says little about what runs and changes when the file is reorganised. Not the workflow of a file whose only trigger is `workflow_call`: it has no runs of its own, and its jobs run in the caller\'s run, under the caller\'s name (its jobs are still reported).',
    recommendation: 'Give the workflow and each job a short `name:` that says what it does.',
  },
  create: (context) => ({
    workflow(workflow) {
      if (workflow.name !== null && workflow.name.trim() !== '') return;
      // A workflow only other workflows call has no runs of its own: its jobs run in the caller's run, which bears the
      // caller's name (GitHub: "the github context is always associated with the caller workflow"), and its checks
      // read `<calling job> / <job>`. Its own `name:` is shown nowhere; its jobs' names still are.
      if (workflow.triggers.length > 0 && workflow.triggers.every((t) => t.name === 'workflow_call')) return;
      const on = getPair(workflow.root, 'on');
      context.report({
        node: on?.key ?? workflow.root,
        job: null,
        message: `Workflow \`${workflow.file.path}\` has no \`name:\`; the Actions tab lists it by its path.`,
        key: 'workflow',
      });
    },
    job(job) {
      if (job.name !== null && job.name.trim() !== '') return;
      context.report({
        node: job.key,
        message: `Job \`${job.id}\` has no \`name:\`; its checks and logs show only the job id.`,
      });
    },
  }),
});
