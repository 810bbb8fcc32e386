import { expressionsOf } from '../expressions/extract.js';
import { valueSources } from '../analysis/expression-values.js';
import { contextPath, Literal } from '../expressions/parse.js';
import { expandMatrix } from '../analysis/matrix-values.js';
import { localWorkflowPath } from '../analysis/permissions.js';
import { jobTrustOn, type TrustGuard, type TrustGuardKind } from '../analysis/trust-guards.js';
import type { RepositoryModel } from '../model/repository.js';
import { hasPullRequestTrigger, type Job, type Workflow } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { asList, get, getMap, getScalar, isMap, keyText, scalarText, stringScalars, type YNode, type YScalar } from '../yaml/model.js';

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

/** The scalar values of a matrix axis list (or a lone scalar), as text; null for anything else. */
function axisValues(node: YNode): string[] | null {
  const items = node.kind === 'seq' ? node.items : [node];
  const values: string[] = [];
  for (const item of items) {
    if (item.kind !== 'scalar' || item.value === null) return null;
    values.push(String(item.value));
  }
  return values;
}

/**
 * The values matrix axis `name` takes in the legs that actually run: the axis' values, minus those every
 * leg of which an `exclude` entry removes, plus `include` entries. Null when the matrix cannot be read.
 */
export function matrixAxisValues(job: Job, name: string, limit = 256): YNode[] | null {
  const matrix = getMap(job.strategy, 'matrix');
  if (matrix === undefined) return null;
  const axes = new Map<string, { nodes: readonly YNode[]; values: string[] }>();
  const excludes: Map<string, string>[] = [];
  const included: YNode[] = [];
  for (const pair of matrix.pairs) {
    const key = keyText(pair.key).toLowerCase();
    if (key === 'include' || key === 'exclude') {
      for (const entry of asList(pair.value)) {
        if (!isMap(entry)) continue;
        if (key === 'include') {
          for (const p of entry.pairs) if (keyText(p.key).toLowerCase() === name) included.push(p.value);
          continue;
        }
        const exclude = new Map<string, string>();
        for (const p of entry.pairs) if (p.value.kind === 'scalar' && p.value.value !== null) exclude.set(keyText(p.key).toLowerCase(), String(p.value.value));
        excludes.push(exclude);
      }
      continue;
    }
    const values = axisValues(pair.value);
    axes.set(key, { nodes: pair.value.kind === 'seq' ? pair.value.items : [pair.value], values: values ?? [] });
  }
  const axis = axes.get(name);
  if (axis === undefined) return included;
  if (excludes.length === 0) return [...axis.nodes, ...included];
  // Enumerate the legs (bounded) and keep the axis values some surviving leg has.
  let legs: Map<string, string>[] = [new Map()];
  for (const [key, { values }] of axes) {
    if (values.length === 0) continue;
    legs = legs.flatMap((leg) => values.map((v) => new Map([...leg, [key, v]])));
    if (legs.length > limit) return [...axis.nodes, ...included];
  }
  const surviving = legs.filter((leg) => !excludes.some((ex) => [...ex].every(([k, v]) => leg.get(k) === v)));
  const kept = new Set(surviving.map((leg) => leg.get(name)));
  return [...axis.nodes.filter((n) => n.kind === 'scalar' && kept.has(String(n.value))), ...included];
}

/** Whether some value of matrix axis `name` that a leg runs with is or lists the label. */
function matrixHasLabel(job: Job, name: string): boolean {
  const candidates = matrixAxisValues(job, name) ?? [];
  return candidates.some((node) => stringScalars(node).some((s) => isLabel(String(s.value))));
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

/** Labels of GitHub-hosted runners (standard and arm images; larger runners carry names their owner chose). */
const GITHUB_HOSTED = /^(ubuntu|windows|macos)-(latest|\d+(\.\d+)?)(-(arm|arm64|large|xlarge|intel|x64|vs\d+))?$|^ubuntu-slim$/i;
/** Labels of managed, ephemeral runner services (one fresh machine per job): not the persistence risk this rule is about. */
const MANAGED = /^(blacksmith|namespace-profile|nscloud|buildjet|depot-|warp-|ubicloud|cirun|runs-on[=/]|actuated|codspeed-)/i;

/**
 * Names organisations give GitHub's larger hosted runners: an OS image and a size (`ubuntu-latest-8-cores`,
 * `gemini-cli-ubuntu-16-core`, `windows-2022-large`, `github-ubuntu-24.04-x86_64-8`, "Default Larger Runners").
 */
const LARGER_RUNNER = /^github-|larger runners|(?=.*\b(ubuntu|windows|macos)\b).*(\d+-?cores?\b|\d+core\b|\blarge\b|\bxlarge\b|\d+vcpu)/i;

/** A literal `runs-on` label that is neither GitHub-hosted nor a managed service: a self-hosted or larger runner. */
function customLabel(text: string): boolean {
  const label = text.trim();
  return label !== '' && !label.includes('${{') && !GITHUB_HOSTED.test(label) && !MANAGED.test(label) && !LARGER_RUNNER.test(label) && !isLabel(label);
}

type Selection = { node: YScalar; how: string; certain: boolean };

/** The node of `runs-on` that selects a self-hosted runner, with how; `certain` false for custom labels and groups. */
function selfHosted(job: Job): Selection | null {
  const runsOn = job.runsOn;
  if (runsOn === undefined) return null;
  // `runs-on: { group: ..., labels: [...] }`: the labels decide; a group alone may be GitHub-hosted larger runners.
  const labels = runsOn.kind === 'map' ? get(runsOn, 'labels') : runsOn;
  for (const item of asList(labels)) {
    if (item.kind !== 'scalar') continue;
    const how = selfHostedScalar(job, item);
    if (how !== null) return { node: item, how, certain: true };
  }
  // No `self-hosted` label: a runner group, or labels no GitHub-hosted runner has, still route to
  // self-hosted runners (or to the organisation's larger runners, which the workflow cannot tell apart).
  const group = runsOn.kind === 'map' ? getScalar(runsOn, 'group') : undefined;
  if (group !== undefined && typeof group.value === 'string' && customLabel(group.value)) {
    return { node: group, how: `runner group \`${group.value}\``, certain: false };
  }
  for (const item of asList(labels)) {
    if (item.kind !== 'scalar' || typeof item.value !== 'string') continue;
    const values = item.value.includes('${{') ? expandMatrix(job, item.value) : [item.value];
    const custom = (values ?? []).find(customLabel);
    if (custom !== undefined) return { node: item, how: `label \`${custom.trim()}\`, which no GitHub-hosted runner has`, certain: false };
  }
  return null;
}

/** How pull requests reach a job: the `pull_request*` events, and the local caller jobs when it is a reusable workflow. */
interface PullRequestEntry {
  text: string;
  events: string[];
  callers: Job[];
}

/** A `pull_request*` trigger of the workflow, or of a workflow of the repository that calls it (`./` or `$/`). */
function pullRequestEntry(repository: RepositoryModel, workflow: Workflow): PullRequestEntry | null {
  const events = (w: Workflow) => [...new Set(w.triggers.filter((t) => t.name.startsWith('pull_request')).map((t) => t.name))];
  if (hasPullRequestTrigger(workflow)) return { text: 'a workflow triggered by pull requests', events: events(workflow), callers: [] };
  if (!workflow.triggers.some((t) => t.name === 'workflow_call')) return null;
  for (const caller of repository.workflows) {
    if (caller === workflow || !hasPullRequestTrigger(caller)) continue;
    const callers = caller.jobs.filter((j) => {
      const text = j.uses === undefined ? null : scalarText(j.uses);
      return text !== null && localWorkflowPath(text) === workflow.file.path;
    });
    if (callers.length > 0) return { text: `a reusable workflow called by \`${caller.file.path}\`, which pull requests trigger`, events: events(caller), callers };
  }
  return null;
}

/**
 * What stands between a pull request and the job, per way it runs: `author` when only trusted authors' pull
 * requests reach it (a same-repository check, a named or trusted author or actor, a maintainer-only event),
 * `approval` when a maintainer approves a pull request first (a label on a `labeled`-only run, a permission
 * check, an environment whose required reviewers the settings snapshot shows), `none` otherwise (a label check
 * a new push keeps, an environment of unknown strength). The gate analyses of missing-permissions (`gated`).
 */
type Reach = 'none' | 'approval' | 'author' | 'never';
const REACH_ORDER: readonly Reach[] = ['none', 'approval', 'author', 'never'];
const AUTHOR_GUARDS: ReadonlySet<TrustGuardKind> = new Set(['same-repository', 'pr-author', 'actor', 'maintainer-event']);

function pathReach(path: readonly TrustGuard[]): Reach {
  if (path.some((g) => AUTHOR_GUARDS.has(g.kind))) return 'author';
  if (path.some((g) => g.kind === 'label' || g.kind === 'commenter' || (g.kind === 'environment' && g.reviewed === true))) return 'approval';
  return 'none';
}

/** The weakest gate over every way a pull request event runs the job (`never` when no way does). */
function reachOf(job: Job, events: readonly string[]): Reach {
  let worst: Reach = 'never';
  for (const event of events) {
    for (const path of jobTrustOn(job, event)) {
      const reach = pathReach(path);
      if (REACH_ORDER.indexOf(reach) < REACH_ORDER.indexOf(worst)) worst = reach;
    }
  }
  return worst;
}

/** The gate that keeps a fork's pull request off the job: the stronger of the job's own and its callers'. */
function pullRequestGate(job: Job, entry: PullRequestEntry): Reach {
  const own = reachOf(job, entry.events);
  if (entry.callers.length === 0) return own;
  let callers: Reach = 'never';
  for (const caller of entry.callers) {
    const reach = reachOf(caller, entry.events);
    if (REACH_ORDER.indexOf(reach) < REACH_ORDER.indexOf(callers)) callers = reach;
  }
  return REACH_ORDER.indexOf(own) > REACH_ORDER.indexOf(callers) ? own : callers;
}

const APPROVAL_RISK =
  'a maintainer approves the pull request as it is when they label or approve it: commits pushed after their review and before the approval, or a later checkout of a branch that moved, still run on the runner and can persist in it';

export default defineWorkflowRule({
  meta: {
    id: 'self-hosted-runner',
    category: 'CICD-SEC-7',
    title: 'Job runs on a self-hosted runner',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A job\'s `runs-on` selects the `self-hosted` label (as a string, a list item, the `labels:` of a runner group, or a matrix value a leg runs with). Self-hosted runners keep state between jobs and sit inside your network. HIGH when pull requests trigger the workflow (directly, or through a local caller of a reusable workflow), where a fork\'s code can run on them; MEDIUM when every way a pull request reaches the job needs a maintainer\'s approval (a label on a labeled-only run, a member\'s comment, a reviewed environment), LOW when only trusted authors\' pull requests reach it. On pull requests, a runner group or a label no GitHub-hosted runner has is reported MEDIUM: it is a self-hosted runner or a larger runner the workflow cannot tell apart.',
    recommendation:
      'Run untrusted or pull-request jobs on GitHub-hosted runners; keep self-hosted runners for trusted branches, make them ephemeral (one job per runner, e.g. actions-runner-controller), and isolate their network and credentials.',
  },
  create: (context) => ({
    job(job) {
      const hit = selfHosted(job);
      if (hit === null) return;
      const found = pullRequestEntry(context.repository, job.workflow);
      const gate = found === null ? 'never' : pullRequestGate(job, found);
      // Only trusted authors' pull requests reach the job (or none does): as off pull requests.
      const entry = gate === 'author' || gate === 'never' ? null : found;
      const gated = gate === 'author' && found !== null ? ` in ${found.text}, which only trusted authors' pull requests reach (a condition of the job or its caller)` : '';
      if (!hit.certain) {
        // Without the label, the runner may be one of GitHub's larger runners: only worth a finding where a pull request reaches it.
        if (entry === null) return;
        context.report({
          node: hit.node,
          severity: gate === 'approval' ? 'LOW' : 'MEDIUM',
          message:
            gate === 'approval'
              ? `Job \`${job.id}\` runs on a ${hit.how} in ${entry.text}, only after a maintainer's approval (a label, a permission check or a reviewed environment): if it is a self-hosted runner, ${APPROVAL_RISK}. LOW: it may also be a GitHub-hosted larger runner.`
              : `Job \`${job.id}\` runs on a ${hit.how} in ${entry.text}: if it is a self-hosted runner, code from a pull request can run on, and persist in, it. MEDIUM, not HIGH: without the \`self-hosted\` label it may be a GitHub-hosted larger runner.`,
        });
        return;
      }
      if (entry !== null && gate === 'approval') {
        context.report({
          node: hit.node,
          severity: 'MEDIUM',
          message: `Job \`${job.id}\` runs on a self-hosted runner (${hit.how}) in ${entry.text}, only after a maintainer's approval (a label, a permission check or a reviewed environment). MEDIUM, not HIGH: ${APPROVAL_RISK}.`,
        });
        return;
      }
      context.report({
        node: hit.node,
        ...(entry !== null ? { severity: 'HIGH' as const } : {}),
        message:
          entry !== null
            ? `Job \`${job.id}\` runs on a self-hosted runner (${hit.how}) in ${entry.text}: code from a pull request can run on, and persist in, the runner.`
            : `Job \`${job.id}\` runs on a self-hosted runner (${hit.how})${gated}; whatever the job runs can persist in the runner and reach its network.`,
      });
    },
  }),
});
