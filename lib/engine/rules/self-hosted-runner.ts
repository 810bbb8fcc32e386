import { expressionsOf } from '../expressions/extract.js';
import { valueSources } from '../analysis/expression-values.js';
import { contextPath, Literal } from '../expressions/parse.js';
import { hasPullRequestTrigger, type Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { asList, get, getMap, isMap, keyText, stringScalars, type YNode, type YScalar } from '../yaml/model.js';

const LABEL = 'self-hosted';

function isLabel(text: string): boolean {
  return text.trim().toLowerCase() === LABEL;
}

/** A string literal naming the label, or a JSON literal (for `fromJSON`) listing it. */
function literalHasLabel(text: string): boolean {
  if (isLabel(text)) return true;
  if (!text.toLowerCase().includes(LABEL)) return false;
  try {
    const parsed: unknown = JSON.parse(text);
    return (Array.isArray(parsed) ? parsed : [parsed]).some((v) => typeof v === 'string' && isLabel(v));
  } catch {
    return false;
  }
}

/** Whether some value of matrix axis `name` (an axis list or an `include` entry) is or lists the label. */
function matrixHasLabel(job: Job, name: string): boolean {
  const matrix = getMap(job.strategy, 'matrix');
  if (matrix === undefined) return false;
  const candidates: YNode[] = [];
  for (const pair of matrix.pairs) {
    const key = keyText(pair.key).toLowerCase();
    if (key === name) candidates.push(pair.value);
    if (key === 'include') {
      for (const entry of asList(pair.value)) {
        if (!isMap(entry)) continue;
        for (const p of entry.pairs) if (keyText(p.key).toLowerCase() === name) candidates.push(p.value);
      }
    }
  }
  return candidates.some((node) => [...stringScalars(node)].some((s) => isLabel(String(s.value))));
}

/** How a `runs-on` scalar selects a self-hosted runner, or null. */
function selfHostedScalar(job: Job, scalar: YScalar): string | null {
  if (typeof scalar.value !== 'string') return null;
  const occurrences = expressionsOf(job.workflow.file, scalar);
  if (occurrences.length === 0) return isLabel(scalar.value) ? 'the `self-hosted` label' : null;
  for (const occurrence of occurrences) {
    if (occurrence.expr === null) continue;
    for (const source of valueSources(occurrence.expr)) {
      if (source instanceof Literal) {
        if (typeof source.token.value === 'string' && literalHasLabel(source.token.value)) return 'the `self-hosted` label in its expression';
        continue;
      }
      const path = contextPath(source);
      if (path?.[0] === 'matrix' && path[1] !== undefined && matrixHasLabel(job, path[1])) {
        return `the \`self-hosted\` label in matrix value \`matrix.${path[1]}\``;
      }
    }
  }
  return null;
}

/** The node of `runs-on` that selects a self-hosted runner, with how. */
function selfHosted(job: Job): { node: YScalar; how: string } | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return null;
  // `runs-on: { group: ..., labels: [...] }`: the labels decide; a group alone may be GitHub-hosted larger runners.
  const labels = runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn;
  for (const item of asList(labels)) {
    if (item.kind !== 'scalar') continue;
    const how = selfHostedScalar(job, item);
    if (how !== null) return { node: item, how };
  }
  return null;
}

export default defineWorkflowRule({
  meta: {
    id: 'self-hosted-runner',
    category: 'CICD-SEC-7',
    title: 'Job runs on a self-hosted runner',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A job\'s `runs-on` selects the `self-hosted` label (as a string, a list item, the `labels:` of a runner group, or a matrix value the expression reads). Self-hosted runners keep state between jobs and sit inside your network. HIGH when the workflow runs on `pull_request*` events, where a fork\'s code can run on them.',
    recommendation:
      'Run untrusted or pull-request jobs on GitHub-hosted runners; keep self-hosted runners for trusted branches, make them ephemeral (one job per runner, e.g. actions-runner-controller), and isolate their network and credentials.',
  },
  create: (context) => ({
    job(job) {
      const hit = selfHosted(job);
      if (hit === null) return;
      const onPullRequests = hasPullRequestTrigger(job.workflow);
      context.report({
        node: hit.node,
        ...(onPullRequests ? { severity: 'HIGH' as const } : {}),
        message: onPullRequests
          ? `Job \`${job.id}\` runs on a self-hosted runner (${hit.how}) in a workflow triggered by pull requests: code from a pull request can run on, and persist in, the runner.`
          : `Job \`${job.id}\` runs on a self-hosted runner (${hit.how}); whatever the job runs can persist in the runner and reach its network.`,
      });
    },
  }),
});
