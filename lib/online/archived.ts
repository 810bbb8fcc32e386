import { archivedAction } from '../engine/data/archived-actions.js';
import { hash53 } from '../engine/fingerprint.js';
import { actionSlug, type UsesRef } from '../engine/model/uses.js';
import { buildAction, buildWorkflow } from '../engine/model/workflow.js';
import { findingOf } from '../engine/rule.js';
import { WORKFLOW_RULES } from '../engine/rules/index.js';
import { classifyPath } from '../engine/scan.js';
import type { FindingRecord, RepositoryFile } from '../engine/types.js';
import type { YScalar } from '../engine/yaml/model.js';
import { parseYaml } from '../engine/yaml/parse.js';
import { SourceFile } from '../engine/yaml/source.js';
import type { ArchivedFact } from './graphql.js';

/**
 * `archived-action` live: GitHub's `isArchived` for the action repositories the built-in snapshot does not
 * list (asked on the repository alias the batched query already has, so it costs no request of its own).
 *
 * How it joins the offline rule: the snapshot stays authoritative where it has an entry (it names the
 * replacement, and a repository unarchived since keeps its offline finding). For a repository it lacks that
 * GitHub says is archived, each `uses:` gets the finding the offline rule would give it if the snapshot had
 * the entry: same node position, job binding and anchor, so the same fingerprint (a baseline or a later
 * snapshot that adds the repository does not see a new finding).
 */

/** One `uses:` of another repository, as the offline rule reports it. */
export interface ArchivedSite {
  file: string;
  /** Lower case `owner/repo`. */
  slug: string;
  /** As written, for the message. */
  owner: string;
  repo: string;
  line: number;
  column: number;
  job: string | null;
  /** The engine's anchor for a report on the node: its text (up to 120 characters), whitespace collapsed. */
  anchor: string;
}

/** Every repository `uses:` node of the workflow and action files, in the engine's order (file, line, column). */
export function collectArchivedSites(files: readonly RepositoryFile[]): ArchivedSite[] {
  const sites: ArchivedSite[] = [];
  for (const f of [...files].sort((a, b) => compare(a.path, b.path))) {
    const kind = classifyPath(f.path);
    if ((kind !== 'workflow' && kind !== 'action') || f.unreadable !== undefined) continue;
    const parsed = parseYaml(f.text);
    if (!parsed.ok || parsed.root.kind !== 'map') continue;
    const file = new SourceFile(f.path, f.text);
    const nodes: { job: string | null; node: YScalar; ref: UsesRef | undefined }[] = [];
    if (kind === 'workflow') {
      for (const job of buildWorkflow(file, parsed.root).jobs) {
        if (job.uses !== undefined) nodes.push({ job: job.id, node: job.uses, ref: job.usesRef });
        for (const step of job.steps) if (step.uses !== undefined) nodes.push({ job: job.id, node: step.uses, ref: step.usesRef });
      }
    } else {
      for (const step of buildAction(file, parsed.root).steps) if (step.uses !== undefined) nodes.push({ job: null, node: step.uses, ref: step.usesRef });
    }
    const here: ArchivedSite[] = [];
    for (const { job, node, ref } of nodes) {
      if (ref?.kind !== 'repository') continue;
      const { line, column } = file.position(node.start);
      const anchor = f.text.slice(node.start, Math.min(Math.max(node.end, node.start + 1), node.start + 120)).replace(/\s+/g, ' ').trim();
      here.push({ file: f.path, slug: actionSlug(ref), owner: ref.owner, repo: ref.repo, line, column, job, anchor });
    }
    sites.push(...here.sort((a, b) => a.line - b.line || a.column - b.column));
  }
  return sites;
}

/**
 * The live findings: one per `uses:` of a repository GitHub says is archived and the snapshot does not
 * list, with the offline rule's fingerprint (rule, file, job, anchor, occurrence).
 */
export function liveArchivedFindings(
  sites: readonly ArchivedSite[],
  facts: (slug: string) => ArchivedFact | undefined,
  /** The snapshot's entry for a repository (it decides where it has one); a parameter for the tests. */
  snapshot: (slug: string) => unknown = archivedAction,
): FindingRecord[] {
  const meta = WORKFLOW_RULES.find((r) => r.meta.id === 'archived-action')?.meta;
  if (meta === undefined) return [];
  const records: FindingRecord[] = [];
  const seen = new Map<string, number>();
  for (const site of sites) {
    if (snapshot(site.slug) !== undefined) continue;
    const fact = facts(site.slug);
    if (fact?.archived !== true) continue;
    const since = fact.archivedAt === null ? '' : ` (since ${fact.archivedAt.slice(0, 10)}, GitHub says)`;
    const finding = findingOf(meta, { file: site.file, line: site.line, column: site.column }, {
      message: `\`${site.owner}/${site.repo}\` is archived${since}: it receives no fixes, security fixes included.`,
    });
    const identity = `archived-action\u0000${site.file}\u0000${site.job ?? ''}\u0000${site.anchor}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    records.push({ finding, job: site.job, fingerprint: hash53(`${identity}\u0000${occurrence}`) });
  }
  return records;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
