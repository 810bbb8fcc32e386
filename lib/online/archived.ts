import { archivedAction } from '../engine/data/archived-actions.js';
import { findingFingerprint } from '../engine/fingerprint.js';
import { findingOf } from '../engine/rule.js';
import { WORKFLOW_RULES } from '../engine/rules/index.js';
import type { FindingRecord, RepositoryFile } from '../engine/types.js';
import type { ArchivedFact } from './graphql.js';
import { repositoryUses, reportedUses, type UsesSite } from './uses.js';

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
export function collectArchivedSites(files: readonly RepositoryFile[], uses: readonly UsesSite[] = repositoryUses(files)): ArchivedSite[] {
  return reportedUses(uses).map(({ ref, ...site }) => ({ ...site, slug: ref.slug, owner: ref.owner, repo: ref.repo }));
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
    const identity = `${site.file}\u0000${site.job ?? ''}\u0000${site.anchor}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    records.push({ finding, job: site.job, fingerprint: findingFingerprint('archived-action', site.file, site.job, site.anchor, occurrence) });
  }
  return records;
}

