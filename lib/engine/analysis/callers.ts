import type { RepositoryModel } from '../model/repository.js';
import { ScanCache } from '../model/scan-cache.js';
import type { Job, Workflow } from '../model/workflow.js';
import { scalarText } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';

/**
 * The repository path a job's `uses:` names when it calls a reusable workflow of the same repository:
 * `./.github/workflows/x.yml`, or GitHub's self-repository form `$/.github/workflows/x.yml`. Null otherwise.
 */
export function localWorkflowPath(text: string): string | null {
  const value = text.trim();
  const path = value.startsWith('./') ? value.slice(2) : value.startsWith('$/') ? value.slice(2) : null;
  if (path === null || !/^\.github\/workflows\/[^/]+\.ya?ml$/.test(path.split('@')[0] ?? '')) return null;
  return path.split('@')[0] ?? null;
}

/** The workflow of `repository` a call job runs, when it is a local reusable workflow the scan has. */
export function calledLocalWorkflow(repository: RepositoryModel, job: Job): Workflow | undefined {
  const text = job.uses === undefined ? null : scalarText(job.uses);
  const path = text === null ? null : localWorkflowPath(text);
  if (path === null) return undefined;
  return repository.workflows.find((w) => w.file.path === path);
}

const callersCache = new ScanCache<Workflow, Job[]>();

/** The jobs of the repository that call `workflow` as a local reusable workflow (`./` or `$/`). */
export function localCallers(workflow: Workflow, repository: RepositoryModel): Job[] {
  let found = callersCache.get(workflow);
  if (found === undefined) {
    found = workflow.triggers.some((t) => t.name === 'workflow_call') ? flatMap(repository.workflows, (w) => w.jobs.filter((j) => calledLocalWorkflow(repository, j) === workflow)) : [];
    callersCache.set(workflow, found);
  }
  return found;
}
