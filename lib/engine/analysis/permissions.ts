import type { RepositoryModel } from '../model/repository.js';
import type { Job, Workflow } from '../model/workflow.js';
import { keyText, scalarText, type YNode, type YScalar } from '../yaml/model.js';

/** A `<scope>: write` entry of a `permissions:` mapping. */
export interface WriteScope {
  scope: string;
  key: YScalar;
  value: YScalar;
}

/** What a `permissions:` value grants, as far as the rules need to know. */
export type Permissions =
  | { kind: 'read-all' | 'write-all'; node: YScalar }
  /** A mapping (possibly empty, `{}`); `writes` lists its `write` scopes in file order. */
  | { kind: 'scopes'; writes: WriteScope[] }
  /** An expression, an empty value or anything GitHub would reject: the rules make no claim about it. */
  | { kind: 'other' };

/** Reads a workflow- or job-level `permissions:` value. */
export function readPermissions(node: YNode): Permissions {
  if (node.kind === 'scalar') {
    const text = typeof node.value === 'string' ? node.value.trim().toLowerCase() : null;
    if (text === 'read-all' || text === 'write-all') return { kind: text, node };
    return { kind: 'other' };
  }
  if (node.kind === 'seq') return { kind: 'other' };
  const writes: WriteScope[] = [];
  for (const pair of node.pairs) {
    const value = pair.value;
    if (value.kind === 'scalar' && typeof value.value === 'string' && value.value.trim().toLowerCase() === 'write') {
      writes.push({ scope: keyText(pair.key).toLowerCase(), key: pair.key, value });
    }
  }
  return { kind: 'scopes', writes };
}

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

/** True when every job of `workflow` runs with a token its own `permissions:` (workflow or job level) decides. */
export function declaresOwnPermissions(workflow: Workflow): boolean {
  return workflow.permissions !== undefined || (workflow.jobs.length > 0 && workflow.jobs.every((j) => j.permissions !== undefined));
}
