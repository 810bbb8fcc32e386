import { foreignDownloads } from '../analysis/artifacts.js';
import { describeStep } from '../analysis/describe.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { workspaceCodeEvidence } from '../analysis/workspace-code.js';
import { defineWorkflowRule } from '../rule.js';
import { asList, get, scalarText } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

export default defineWorkflowRule({
  meta: {
    id: 'artifact-poisoning',
    category: 'CICD-SEC-4',
    title: 'Artifact from an untrusted run used in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A `workflow_run` workflow downloads the artifacts of the run that triggered it (`actions/download-artifact` with `run-id`, `dawidd6/action-download-artifact`, `gh run download`, `downloadArtifact` in github-script) into its workspace. When that run was a pull request from a fork, the fork chose the files, and they can overwrite scripts and configuration the privileged job then uses. MEDIUM when no later step of the job runs code from the workspace.',
    recommendation:
      'Download into an isolated directory (`path: ${{ runner.temp }}/artifacts`), treat every file as untrusted data (validate numbers and names before use, never execute or source it), and never extract it over the checkout.',
  },
  create: (context) => ({
    job(job) {
      const workflow = job.workflow;
      if (!workflow.triggers.some((t) => t.name === 'workflow_run') || !followsUntrustedRuns(workflow, context.repository)) return;
      const trigger = workflow.triggers.find((t) => t.name === 'workflow_run');
      const upstream = asList(get(trigger?.config, 'workflows')).flatMap((n) => {
        const name = scalarText(n);
        return name === null ? [] : [`\`${name}\``];
      });
      for (const download of foreignDownloads(job)) {
        if (download.isolated) continue;
        const where = download.destination === null ? 'the workspace' : `\`${download.destination}\`, inside the workspace`;
        // Files that no later step runs (a PR number, a diff to post, a site to upload) are data: MEDIUM.
        const runs = job.steps.find((s) => s.index > download.step.index && workspaceCodeEvidence(s) !== null);
        context.report({
          ...(runs === undefined ? { severity: 'MEDIUM' as const } : {}),
          node: download.node,
          ...(download.scriptOffset !== undefined && download.step.run !== undefined
            ? { offset: valueOffsetToSource(workflow.file, download.step.run, download.scriptOffset) }
            : {}),
          message:
            `${describeStep(download.step)} downloads artifacts of the triggering run (${download.how}) into ${where}; ` +
            `the run${upstream.length > 0 ? ` of ${upstream.join(', ')}` : ''} can come from a fork's pull request, which then chooses those files` +
            (runs !== undefined
              ? `, and ${describeStep(runs)} then runs code from the workspace (${workspaceCodeEvidence(runs) ?? ''}).`
              : '. MEDIUM: no later step of the job runs code from the workspace, so the files are data the job reads; validate them before use.'),
        });
      }
    },
  }),
});
