import { readPermissions } from '../analysis/permissions.js';
import type { Job } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getPair, type YNode, type YScalar } from '../yaml/model.js';
import type { SourceFile } from '../yaml/source.js';

const COMMENT = /(?:^|\s)#(?!\s*chainbreaker:)/;

/** A comment (not a suppression) after `node` on its line, or alone on the line above it. */
function documented(file: SourceFile, node: YNode): boolean {
  const start = file.position(node.start);
  const end = file.position(node.end);
  const rest = end.line === start.line ? file.lineText(start.line).slice(end.column - 1) : '';
  if (COMMENT.test(rest)) return true;
  const above = start.line > 1 ? file.lineText(start.line - 1).trim() : '';
  return above.startsWith('#') && COMMENT.test(above);
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
      'A `permissions:` entry grants `write` (or `write-all`) without a comment, on its line or the line above, saying which step needs it: reviewers cannot tell a needed grant from a leftover one, so grants only grow.',
    recommendation:
      'Add a comment to each write scope naming the step or command that needs it (`contents: write  # push the release tag`), and remove the scopes nobody can explain.',
  },
  create: (context) => {
    const check = (node: YNode | undefined, key: YScalar | undefined, file: SourceFile, where: string, job: Job | null) => {
      if (node === undefined) return;
      const permissions = readPermissions(node);
      // Most blocks grant no write: nothing to document, and no comment to look for.
      if (permissions.kind !== 'write-all' && (permissions.kind !== 'scopes' || permissions.writes.length === 0)) return;
      // A comment on (or above) the `permissions:` key documents the whole block.
      if (key !== undefined && documented(file, key)) return;
      if (permissions.kind === 'write-all') {
        if (!documented(file, permissions.node)) context.report({ node: permissions.node, job, message: `${where} grants \`write-all\` without a comment saying why.` });
        return;
      }
      if (permissions.kind !== 'scopes') return;
      for (const write of permissions.writes) {
        if (documented(file, write.value) || documented(file, write.key)) continue;
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
