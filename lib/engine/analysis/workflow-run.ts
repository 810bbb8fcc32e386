import type { RepositoryModel } from '../model/repository.js';
import type { Workflow } from '../model/workflow.js';
import { asList, get, scalarText } from '../yaml/model.js';

/** Triggers whose runs may carry code or artifacts an outsider chose (a fork's pull request). */
const UNTRUSTED_UPSTREAM_TRIGGERS = /^pull_request/;

/**
 * Whether the runs a `workflow_run` workflow follows may have been started by an outsider's pull request, so their
 * head commit and artifacts are the outsider's: always. `workflows:` matches a completed run by its workflow's name,
 * and a fork's pull request can add a workflow of any name (a file under `.github/workflows/` that runs on
 * `pull_request`, which GitHub runs from the pull request's own merge commit, held back only by the repository's
 * approval setting for fork runs, like every fork run), so a run of that name can be the fork's whatever the
 * repository's own workflow of that name runs on. zizmor's maintainers say the same
 * (https://github.com/uutils/coreutils/pull/6974); `forkAddedNames` tells the descriptions which names only a
 * workflow the fork adds gives it.
 */
export function followsUntrustedRuns(workflow: Workflow): boolean {
  return workflow.triggers.some((t) => t.name === 'workflow_run');
}

/**
 * The names `workflows:` follows whose runs reach a fork's pull request only through a workflow of that name the fork
 * adds: every workflow of the repository of that name is found and none runs on `pull_request*` (as written).
 */
export function forkAddedNames(workflow: Workflow, repository: RepositoryModel): string[] {
  return (followedWorkflows(workflow, repository) ?? []).filter((f) => !f.unknown && f.name !== '' && !f.upstream.some(runsOnPullRequests)).map((f) => f.name);
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
