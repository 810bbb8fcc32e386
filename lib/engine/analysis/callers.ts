import type { RepositoryModel } from '../model/repository.js';
import { ScanCache } from '../model/scan-cache.js';
import type { Job, Workflow } from '../model/workflow.js';
import { scalarText } from '../yaml/model.js';

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

/**
 * The workflow of `repository` a call job runs, when it is a local reusable workflow the scan has: `./` or `$/`, or the
 * repository's own name when the scan knows it (`apple/swift-nio/.github/workflows/x.yml@main` in `apple/swift-nio`),
 * whose file at that ref is read as the one the scan has, as a `./` call's file at the caller's commit is.
 */
export function calledLocalWorkflow(repository: RepositoryModel, job: Job): Workflow | undefined {
  const text = job.uses === undefined ? null : scalarText(job.uses);
  const path = text === null ? null : (localWorkflowPath(text) ?? ownNamedWorkflowPath(text, repository.fullName));
  if (path === null) return undefined;
  return repository.workflows.find((w) => w.file.path === path);
}

/** The path of a reusable workflow a call names by the repository's own `owner/name` (lower case), or null. */
function ownNamedWorkflowPath(text: string, fullName: string | null): string | null {
  if (fullName === null) return null;
  const match = /^([\w.-]+\/[\w.-]+)\/(\.github\/workflows\/[^/@\s]+\.ya?ml)@[^\s]+$/.exec(text.trim());
  return match !== null && match[1]?.toLowerCase() === fullName ? (match[2] ?? null) : null;
}

const NO_CALLERS: Job[] = [];

/**
 * The jobs of the repository that call `workflow` as a local reusable workflow (`./` or `$/`): the repository model
 * records them when it resolves each call job (`Workflow.callerJobs`).
 */
export function localCallers(workflow: Workflow): Job[] {
  return workflow.triggers.some((t) => t.name === 'workflow_call') ? (workflow.callerJobs ?? NO_CALLERS) : NO_CALLERS;
}

const jobTokenCache = new ScanCache<Workflow, ReadonlySet<string>>();
const JOB_TOKEN_VALUE = /^\s*\$\{\{\s*(?:secrets\.GITHUB_TOKEN|github\.token)\s*\}\}\s*$/i;

/**
 * The secrets of a reusable workflow (lower-case names) that are the job token its callers hand it: every local
 * caller that passes the secret passes `${{ secrets.GITHUB_TOKEN }}` or `${{ github.token }}`, at least one does,
 * and none passes `secrets: inherit` (which hands the stored secret of that name instead). Such a secret is the
 * calling job's token, with its `permissions:`, not a stored credential.
 */
export function jobTokenSecrets(workflow: Workflow): ReadonlySet<string> {
  let found = jobTokenCache.get(workflow);
  if (found !== undefined) return found;
  const names = new Set<string>();
  const other = new Set<string>();
  const callers = localCallers(workflow);
  for (const caller of callers) {
    const secrets = caller.secrets;
    if (secrets === undefined) continue;
    if (secrets.kind !== 'map') {
      // `secrets: inherit`: every name is the stored secret of that name in this caller's runs.
      jobTokenCache.set(workflow, new Set());
      return new Set();
    }
    for (const pair of secrets.pairs) {
      const name = scalarText(pair.key)?.toLowerCase();
      if (name === undefined) continue;
      const value = pair.value.kind === 'scalar' ? scalarText(pair.value) : null;
      if (value !== null && JOB_TOKEN_VALUE.test(value)) names.add(name);
      else other.add(name);
    }
  }
  for (const name of other) names.delete(name);
  found = names;
  jobTokenCache.set(workflow, found);
  return found;
}
