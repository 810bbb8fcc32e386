import { foreignDownloads } from '../analysis/artifacts.js';
import { describeStep } from '../analysis/describe.js';
import { followsUntrustedRuns } from '../analysis/workflow-run.js';
import { workspaceCodeEvidence } from '../analysis/workspace-code.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { asList, get, getText, scalarText } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

export default defineWorkflowRule({
  meta: {
    id: 'artifact-poisoning',
    category: 'CICD-SEC-4',
    title: 'Artifact from an untrusted run used in a privileged workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A `workflow_run` workflow downloads the artifacts of the run that triggered it (`actions/download-artifact` with `run-id`, `dawidd6/action-download-artifact`, `gh run download`, `downloadArtifact` in github-script) into its workspace. When that run was a pull request from a fork, the fork chose the files, and they can overwrite scripts and configuration the privileged job then uses. MEDIUM when no later step of the job runs code from the workspace, or, for files kept in a subdirectory, from that directory.',
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
        // Files that no later step runs (a PR number, a diff to post, a site to upload) are data: MEDIUM. Files
        // kept in a subdirectory of their own cannot replace the checkout's scripts: only a step working in that
        // directory, or naming it, can run them.
        const inDirectory = subdirectory(download.destination);
        const later = job.steps.filter((s) => s.index > download.step.index && workspaceCodeEvidence(s) !== null);
        const runs = later.find((s) => inDirectory === null || reachesInto(s, inDirectory));
        const elsewhere = runs === undefined ? later[0] : undefined;
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
              : elsewhere !== undefined
                ? `. MEDIUM: the files stay in \`${download.destination ?? ''}\`, and the later steps that run code from the workspace (${describeStep(elsewhere)}: ${workspaceCodeEvidence(elsewhere) ?? ''}) neither work in that directory nor name it, so the files are data the job reads; validate them before use.`
                : '. MEDIUM: no later step of the job runs code from the workspace, so the files are data the job reads; validate them before use.'),
        });
      }
    },
  }),
});

/**
 * What names the workspace subdirectory a download lands in (`site` for `./site/` or
 * `${{ github.workspace }}/site`): a pattern for the directory as a path or a word in a later step; null for the
 * workspace itself and for any path this cannot place (`..`, variables, globs). Download actions
 * keep an artifact's files inside the destination (actions/download-artifact since 4.1.7; older versions are
 * `known-vulnerable-action`'s finding).
 */
function subdirectory(destination: string | null): RegExp | null {
  if (destination === null) return null;
  const path = destination
    .trim()
    .replace(/^(["'])(.*)\1$/, '$2')
    .replace(/^(\$\{\{\s*github\.workspace\s*\}\}|\$\{?GITHUB_WORKSPACE\}?)(\/|$)/, '')
    .replace(/^(\.\/)+/, '')
    .replace(/\/+$/, '');
  if (path === '' || path === '.' || path.startsWith('/') || /\.\.|[$*?[\]{}~\\]/.test(path)) return null;
  return new RegExp(`(^|[\\s'"=:/.])${path.replace(/[.+^$()|]/g, '\\$&')}(/|$|[\\s'";)&|])`);
}

/** Whether a step could run code from the directory `named` matches: it works there (`working-directory:`), or its script or inputs name it. */
function reachesInto(step: Step, named: RegExp): boolean {
  const workingDirectory = getText(step.node, 'working-directory') ?? (step.job === null ? null : getText(get(get(step.job.node, 'defaults'), 'run'), 'working-directory'));
  if (workingDirectory !== null && named.test(workingDirectory)) return true;
  if (step.run !== undefined && typeof step.run.value === 'string' && named.test(step.run.value)) return true;
  if (step.usesRef?.kind === 'local' && named.test(step.usesRef.path)) return true;
  return step.with?.pairs.some((p) => {
    const text = scalarText(p.value);
    return text !== null && named.test(text);
  }) === true;
}
