// What we ask of every workflow (docs/deployment.md), checked on our own: each rule here is one line of a
// maintainer's review, independent of the scanner, so a scanner regression cannot quietly wave our pipeline
// through. `workflowPolicyProblems` returns one line per breach, empty when the file complies.

import { parse } from 'yaml';

type YamlMap = Record<string, unknown>;

const isMap = (value: unknown): value is YamlMap => typeof value === 'object' && value !== null && !Array.isArray(value);

/** `owner/repo[/path]@<40 hex> # vX[.Y[.Z]]`: a commit pin with the release it is, for reviewers and Dependabot. */
const PINNED_USES = /^\s*(?:-\s+)?uses:\s*[\w.-]+\/[\w./-]+@[0-9a-f]{40}\s+#\s*v\d+(?:\.\d+){0,2}\s*$/;
/** A local action or reusable workflow of this repository: pinned by being in the same commit. */
const LOCAL_USES = /^\s*(?:-\s+)?uses:\s*\.\/[\w./-]*\s*(?:#.*)?$/;

export function workflowPolicyProblems(name: string, text: string): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, index) => {
    if (!/^\s*(?:-\s+)?uses:/.test(line)) return;
    if (!PINNED_USES.test(line) && !LOCAL_USES.test(line)) {
      problems.push(`${name}:${index + 1}: \`${line.trim()}\` is not pinned to a commit SHA with a # vX.Y.Z comment`);
    }
  });

  const doc: unknown = parse(text);
  if (!isMap(doc)) return [...problems, `${name}: not a workflow (no mapping at the top)`];
  const topPermissions = doc.permissions;
  if (!isMap(topPermissions) || Object.keys(topPermissions).length !== 0) {
    problems.push(`${name}: the top-level permissions must be {} (each job grants its own)`);
  }
  if (!isMap(doc.concurrency) || typeof doc.concurrency.group !== 'string') {
    problems.push(`${name}: no workflow-level concurrency group`);
  }
  const jobs = isMap(doc.jobs) ? doc.jobs : {};
  if (Object.keys(jobs).length === 0) problems.push(`${name}: no jobs`);
  for (const [id, job] of Object.entries(jobs)) {
    if (!isMap(job)) continue;
    if (!('permissions' in job)) problems.push(`${name}: job ${id} has no permissions of its own`);
    const callsWorkflow = typeof job.uses === 'string';
    if (!callsWorkflow && typeof job['timeout-minutes'] !== 'number') problems.push(`${name}: job ${id} has no timeout-minutes`);
    const steps = Array.isArray(job.steps) ? job.steps : [];
    steps.forEach((step: unknown, index) => {
      if (!isMap(step)) return;
      const where = `${name}: job ${id}, step ${index + 1}`;
      if (typeof step.uses === 'string' && step.uses.startsWith('actions/checkout@')) {
        const persist = isMap(step.with) ? step.with['persist-credentials'] : undefined;
        if (persist !== false) problems.push(`${where}: actions/checkout without persist-credentials: false`);
      }
      // No expression at all in a script: values reach scripts through env:, where the shell treats them as data.
      if (typeof step.run === 'string' && step.run.includes('${{')) problems.push(`${where}: an expression in run:`);
      const script = isMap(step.with) ? step.with.script : undefined;
      if (typeof script === 'string' && script.includes('${{')) problems.push(`${where}: an expression in a github-script script`);
    });
  }
  return problems;
}

/** Every `uses:` of the files, as `action@sha # version` lines, to check that each action has one pin. */
export function pinsByAction(texts: readonly string[]): Record<string, Set<string>> {
  const pins: Record<string, Set<string>> = {};
  for (const text of texts) {
    for (const match of text.matchAll(/uses:\s*([\w.-]+\/[\w.-]+)[\w./-]*@([0-9a-f]{40})\s+#\s*(v[\d.]+)/g)) {
      const [, action = '', sha = '', version = ''] = match;
      (pins[action] ??= new Set()).add(`${sha} ${version}`);
    }
  }
  return pins;
}
