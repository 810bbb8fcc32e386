import { readPermissions } from '../analysis/permissions.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getPair, type YNode, type YScalar } from '../yaml/model.js';
import type { SourceFile } from '../yaml/source.js';

/** The text of a `#` comment at the end of `text` (after whitespace or at its start), or null. */
function commentOf(text: string): string | null {
  const match = /(?:^|\s)#(.*)$/.exec(text);
  return match === null ? null : (match[1] ?? '').trim();
}

/**
 * Whether a comment says something: a bare suppression (`# chainbreaker: ignore[...]`, or another scanner's
 * `# zizmor: ignore[...]`) explains nothing; one followed by a reason does (`# zizmor: ignore[x] publish step`).
 */
function meaningful(comment: string | null): boolean {
  if (comment === null || comment === '') return false;
  const suppression = /^(?:chainbreaker|zizmor)\s*:\s*ignore\[[^\]]*\]\s*(.*)$/i.exec(comment);
  return suppression === null || (suppression[1] ?? '').trim() !== '';
}

/** A meaningful comment after `node` on its line, or (with `above`) alone on the line above it. */
function documented(file: SourceFile, node: YNode, above: boolean): boolean {
  const start = file.position(node.start);
  const end = file.position(node.end);
  const rest = end.line === start.line ? file.lineText(start.line).slice(end.column - 1) : '';
  if (meaningful(commentOf(rest))) return true;
  if (!above || start.line <= 1) return false;
  const line = file.lineText(start.line - 1).trim();
  return line.startsWith('#') && meaningful(line.slice(1).trim());
}

export default defineWorkflowRule({
  meta: {
    id: 'undocumented-permissions',
    category: 'BEST-PRAC-5',
    title: 'Write permission without a comment saying why',
    severity: 'INFO',
    pedantic: true,
    surface: 'workflow',
    description:
      'A `permissions:` entry grants `write` (or `write-all`) without a comment, on its line or alone on the line above it, saying which step needs it: reviewers cannot tell a needed grant from a leftover one, so grants only grow.',
    recommendation:
      'Add a comment to each write scope naming the step or command that needs it (`contents: write  # push the release tag`), and remove the scopes nobody can explain.',
  },
  create: (context) => {
    const check = (node: YNode | undefined, key: YScalar | undefined, file: SourceFile, where: string, job: Job | null) => {
      if (node === undefined) return;
      const permissions = readPermissions(node);
      // Most blocks grant no write: nothing to document, and no comment to look for.
      if (permissions.kind !== 'write-all' && (permissions.kind !== 'scopes' || permissions.writes.length === 0)) return;
      // A comment on the `permissions:` line itself documents the whole block. One above it usually heads a
      // section ("# permissions for the release job") and says nothing about each grant, so it does not count.
      if (key !== undefined && documented(file, key, false)) return;
      if (permissions.kind === 'write-all') {
        if (!documented(file, permissions.node, false)) context.report({ node: permissions.node, job, message: `${where} grants \`write-all\` without a comment saying why.` });
        return;
      }
      if (permissions.kind !== 'scopes') return;
      for (const write of permissions.writes) {
        if (documented(file, write.value, false) || documented(file, write.key, true)) continue;
        context.report({ node: write.key, job, message: `${where} grants \`${write.scope}: write\` without a comment saying which step needs it.`, key: `${job?.id ?? ''}:${write.scope}` });
      }
    };
    return {
      workflow(workflow) {
        check(workflow.permissions, getPair(workflow.root, 'permissions')?.key, workflow.file, 'The workflow', null);
      },
      job(job) {
        check(job.permissions, getPair(job.node, 'permissions')?.key, job.workflow.file, `Job \`${job.id}\``, job);
      },
    };
  },
});
