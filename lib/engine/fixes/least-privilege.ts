/**
 * The permissions fix shared by missing-permissions and excessive-permissions: every job that inherits the
 * workflow's token permissions (or grants `write-all`) gets its own least-privilege block, and the workflow
 * level becomes `permissions: {}`. One edit set per workflow, so no job is left without a token it needs.
 */
import type { RepositoryModel } from '../model/repository.js';
import type { Job, Workflow } from '../model/workflow.js';
import { readPermissions } from '../analysis/permissions.js';
import { getPair, type YPair } from '../yaml/model.js';
import { indentUnit, insertAfterPair, insertBeforePair, lineStart, replacePair } from './edit.js';
import { capScopes, declaredScopes, jobNeeds, scopeComments, scopeLines } from './permissions.js';
import type { FixProposal, TextEdit } from './types.js';

function jobGrantsWriteAll(job: Job): boolean {
  return job.permissions !== undefined && readPermissions(job.permissions).kind === 'write-all';
}

export function leastPrivilege(workflow: Workflow, repository: RepositoryModel): FixProposal {
  const text = workflow.file.text;
  const unit = indentUnit(text, workflow.root);
  const workflowPair = getPair(workflow.root, 'permissions');
  // What inheriting jobs had: a cap, so the fix never grants a job more than it already had.
  const inherited = workflowPair === undefined ? null : declaredScopes(workflowPair.value);
  const workflowKind = workflowPair === undefined ? 'absent' : readPermissions(workflowPair.value).kind;
  if (workflowPair !== undefined && inherited === null && workflowKind !== 'write-all' && workflowKind !== 'read-all') {
    return { skipped: 'the workflow-level `permissions:` is not a mapping the fix can read' };
  }
  // The user's comments on the scopes jobs inherit travel with them (`contents: write # releases`).
  const comments = workflowPair === undefined ? {} : scopeComments(text, workflowPair.value);
  const edits: TextEdit[] = [];
  const unknown = new Set<string>();
  for (const job of workflow.jobs) {
    const writeAll = jobGrantsWriteAll(job);
    if (job.permissions !== undefined && !writeAll) continue;
    const needs = jobNeeds(job, repository);
    for (const u of needs.unknown) unknown.add(u);
    const scopes = inherited !== null && !writeAll ? capScopes(needs.scopes, inherited) : workflowKind === 'read-all' && !writeAll ? capScopes(needs.scopes, readAll(needs.scopes)) : needs.scopes;
    // A comment stays with its scope only where the access is what the comment was written for.
    const kept = writeAll || inherited === null ? {} : Object.fromEntries(Object.entries(comments).filter(([scope]) => scopes[scope as keyof typeof scopes] === inherited[scope as keyof typeof inherited]));
    const lines = scopeLines(scopes, needs.why, kept);
    const value = lines ?? '{}';
    let edit: TextEdit | null;
    const own = getPair(job.node, 'permissions');
    if (own !== undefined) edit = replacePair(text, own, 'permissions', value, unit);
    else {
      const anchor: YPair | undefined = getPair(job.node, 'runs-on') ?? getPair(job.node, 'uses') ?? getPair(job.node, 'name');
      edit = anchor !== undefined ? insertAfterPair(text, job.node, anchor, 'permissions', value, unit) : null;
      const first = job.node.pairs[0];
      if (edit === null && first !== undefined) edit = insertBeforePair(text, job.node, first, 'permissions', value, unit);
    }
    if (edit === null) return { skipped: `job \`${job.id}\` is not a block mapping` };
    edits.push(edit);
  }
  if (workflowPair === undefined) {
    const jobs = getPair(workflow.root, 'jobs');
    const edit = jobs === undefined ? null : insertBeforePair(text, workflow.root, jobs, 'permissions', '{}', unit);
    if (edit === null || jobs === undefined) return { skipped: 'the workflow is not a block mapping' };
    const start = lineStart(text, jobs.key.start);
    const blankBefore = start >= 2 && text.slice(lineStart(text, start - 1), start).trim() === '';
    edits.push(blankBefore ? { ...edit, text: `${edit.text}\n` } : edit);
  } else if (workflowKind === 'write-all' || (inherited !== null && Object.values(inherited).includes('write'))) {
    const edit = replacePair(text, workflowPair, 'permissions', '{}', unit);
    if (edit === null) return { skipped: 'the workflow-level `permissions:` is not on its own line' };
    edits.push(edit);
  }
  if (edits.length === 0) return { skipped: 'every job already declares its permissions' };
  if (unknown.size > 0) {
    const list = [...unknown].slice(0, 3).join(', ') + (unknown.size > 3 ? ', …' : '');
    return { edits, safe: false, note: `what ${list} need${unknown.size === 1 ? 's' : ''} is not known` };
  }
  return { edits, safe: true };
}

function readAll(scopes: Record<string, string | undefined>): Record<string, 'read'> {
  return Object.fromEntries(Object.keys(scopes).map((k) => [k, 'read' as const]));
}
