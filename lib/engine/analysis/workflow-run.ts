import type { RepositoryModel } from '../model/repository.js';
import type { Workflow } from '../model/workflow.js';
import { asList, get, scalarText } from '../yaml/model.js';

/** Triggers whose runs may carry code or artifacts an outsider chose (a fork's pull request). */
const UNTRUSTED_UPSTREAM_TRIGGERS = /^pull_request/;

/** The head of the run a `workflow_run` follows, named in a value: its commit, branch, repository or pull requests. */
export const WORKFLOW_RUN_HEAD = /\bgithub\.event\.workflow_run\.(?:head_sha|head_branch|head_commit\.id|head_repository\.|pull_requests)/;

/** At most this many `workflow_run` hops are followed upstream; a longer chain is taken as untrusted. */
const MAX_HOPS = 8;

/**
 * Whether the runs a `workflow_run` workflow follows may have been started by an outsider's pull request,
 * so their head commit and artifacts are the outsider's. False only when every workflow named in
 * `workflows:` is found in the repository and none of them runs on `pull_request*` or follows, through
 * `workflow_run` in turn, runs that do: artifacts of the repository's own `push`, `schedule` and
 * `workflow_dispatch` runs (and of runs that follow only those) are what collaborators' code produced.
 */
export function followsUntrustedRuns(workflow: Workflow, repository: RepositoryModel, seen: ReadonlySet<Workflow> = new Set()): boolean {
  if (seen.size > MAX_HOPS) return true;
  const followed = followedWorkflows(workflow, repository);
  if (followed === null) return false;
  for (const { upstream, unknown } of followed) {
    if (unknown) return true;
    if (upstream.some(runsOnPullRequests)) return true;
    // A follower of a follower: untrusted when what it follows is (a cycle adds nothing new).
    const inner = new Set([...seen, workflow]);
    if (upstream.some((w) => !inner.has(w) && w.triggers.some((t) => t.name === 'workflow_run') && followsUntrustedRuns(w, repository, inner))) return true;
  }
  return false;
}

/** True when a workflow runs on `pull_request*` events, whose runs a fork's pull request can start. */
export function runsOnPullRequests(workflow: Workflow): boolean {
  return workflow.triggers.some((t) => UNTRUSTED_UPSTREAM_TRIGGERS.test(t.name));
}

/**
 * The workflows a `workflow_run` workflow follows, one entry per name in its `workflows:` (as written), with the
 * repository's workflows of that name; `unknown` when the name cannot be resolved (no workflow of it here, or a
 * pattern), and a single unknown entry when `workflows:` names none or a computed one. Null without `workflow_run`.
 */
export function followedWorkflows(workflow: Workflow, repository: RepositoryModel): { name: string; upstream: Workflow[]; unknown: boolean }[] | null {
  const trigger = workflow.triggers.find((t) => t.name === 'workflow_run');
  if (trigger === undefined) return null;
  const names = asList(get(trigger.config, 'workflows')).map(scalarText);
  if (names.length === 0 || names.some((n) => n === null)) return [{ name: '', upstream: [], unknown: true }];
  return (names as string[]).map((name) => {
    // `workflows:` names a workflow by its `name:` (a workflow without one is named by its path); a file name
    // alone (`ci.yml`) is read as that file too, as other scanners do.
    const upstream = repository.workflows.filter((w) => (w.name ?? w.file.path) === name || w.file.path === name || (!name.includes('/') && w.file.path.endsWith(`/${name}`)));
    // A reusable workflow (only `workflow_call`) never runs on its own, so it triggers nothing; its callers'
    // runs are named after the callers.
    return { name, upstream, unknown: upstream.length === 0 || /[*?[]/.test(name) };
  });
}
