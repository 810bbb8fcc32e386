import { nodeAnchor } from '../engine/fingerprint.js';
import { buildAction, buildWorkflow } from '../engine/model/workflow.js';
import type { UsesRef } from '../engine/model/uses.js';
import { classifyPath } from '../engine/scan.js';
import type { RepositoryFile } from '../engine/types.js';
import type { YScalar } from '../engine/yaml/model.js';
import { parseYaml } from '../engine/yaml/parse.js';
import { SourceFile } from '../engine/yaml/source.js';

/** One `uses:` of another repository in a workflow or action file, as the engine's model reads it. */
export interface UsesSite {
  file: SourceFile;
  /** The job it is in (null in an action file). */
  job: string | null;
  node: YScalar;
  ref: Extract<UsesRef, { kind: 'repository' }>;
}

/**
 * Every repository `uses:` of the readable workflow and action files: files in path order (code units), each
 * file's in the model's order (a job's own `uses:`, then its steps). The live rules (advisories, archived
 * flags) share one walk, so a scan parses its files once for them, and only when one of them needs it.
 */
export function repositoryUses(files: readonly RepositoryFile[]): UsesSite[] {
  const sites: UsesSite[] = [];
  for (const f of [...files].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))) {
    const kind = classifyPath(f.path);
    if ((kind !== 'workflow' && kind !== 'action') || f.unreadable !== undefined) continue;
    const parsed = parseYaml(f.text);
    if (!parsed.ok || parsed.root.kind !== 'map') continue;
    const file = new SourceFile(f.path, f.text);
    const add = (job: string | null, node: YScalar | undefined, ref: UsesRef | undefined) => {
      if (node !== undefined && ref?.kind === 'repository') sites.push({ file, job, node, ref });
    };
    if (kind === 'workflow') {
      for (const job of buildWorkflow(file, parsed.root).jobs) {
        add(job.id, job.uses, job.usesRef);
        for (const step of job.steps) add(job.id, step.uses, step.usesRef);
      }
    } else {
      for (const step of buildAction(file, parsed.root).steps) add(null, step.uses, step.usesRef);
    }
  }
  return sites;
}

/** A repository `uses:` where the engine reports a finding on its node: position, job binding and anchor. */
export interface ReportedUse {
  file: string;
  line: number;
  column: number;
  job: string | null;
  /** The engine's anchor for a report on the node: its text (up to 120 characters), whitespace collapsed. */
  anchor: string;
  ref: Extract<UsesRef, { kind: 'repository' }>;
}

/**
 * The `uses:` nodes as the offline rules report them, in the engine's order (file in code units, then line and
 * column): what a live finding needs to carry the offline finding's fingerprint.
 */
export function reportedUses(uses: readonly UsesSite[]): ReportedUse[] {
  const sites = uses.map(({ file, job, node, ref }): ReportedUse => {
    const { line, column } = file.position(node.start);
    return { file: file.path, line, column, job, anchor: nodeAnchor(file.text, node.start, node.end), ref };
  });
  return sites.sort((a, b) => (a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || a.column - b.column));
}
