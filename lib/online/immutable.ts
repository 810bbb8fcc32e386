import { parseRefVersion } from '../engine/analysis/action-version.js';
import { findingFingerprint } from '../engine/fingerprint.js';
import { isFullSha } from '../engine/model/uses.js';
import { findingOf } from '../engine/rule.js';
import { WORKFLOW_RULES } from '../engine/rules/index.js';
import type { FindingRecord, RepositoryFile } from '../engine/types.js';
import { repositoryUses, reportedUses, type UsesSite } from './uses.js';

/**
 * `unpinned-action` amended from GitHub's immutable releases: a repository that publishes its releases as
 * immutable makes each release's tag one that can be neither moved nor deleted (REST release object,
 * `immutable: true`), which the workflow cannot show. The online pass asks the release of each distinct
 * `owner/repo@tag` whose tag is a full version (`v1.2.3`, never a major tag such as `v4`, which moves with
 * every release whatever the setting), and for a release GitHub says is immutable gives each `uses:` of that
 * tag a LOW `unpinned-action` finding with the fingerprint, job and position the offline rule gives it. It
 * only amends: the join (lib/engine/suppress.ts `joinExtraRecords`) drops it where the offline rule reported
 * nothing (a trusted owner, the repository's own action), so nothing is ever raised.
 */

/** The cached fact `release:owner/repo@tag`: whether GitHub says the release of that tag is immutable (false when there is none). */
export interface ReleaseFact {
  immutable: boolean;
}

/** A ref worth asking: a full version tag (`v1.2.3`, `1.2.3-rc.1`), the shape a release's own tag has. */
export function isReleaseVersion(ref: string): boolean {
  if (isFullSha(ref)) return false;
  const version = parseRefVersion(ref);
  return version !== null && !version.floating;
}

/** One repository `uses:` at a tag, as the offline `unpinned-action` reports it. */
export interface TagSite {
  file: string;
  /** Lower case `owner/repo`. */
  slug: string;
  ref: string;
  /** As written, for the message: `owner/repo[/path]`. */
  target: string;
  isWorkflow: boolean;
  line: number;
  column: number;
  job: string | null;
  /** The engine's anchor for a report on the node. */
  anchor: string;
}

/** Every repository `uses:` node of the workflow and action files, in the engine's order (file, line, column). */
export function collectTagSites(files: readonly RepositoryFile[], uses: readonly UsesSite[] = repositoryUses(files)): TagSite[] {
  return reportedUses(uses).map(({ ref, ...site }) => ({
    ...site,
    slug: ref.slug,
    ref: ref.ref,
    target: `${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}`,
    isWorkflow: ref.isWorkflow,
  }));
}

/**
 * The amending findings: one LOW `unpinned-action` per `uses:` of a tag whose release GitHub says is immutable,
 * with the offline rule's fingerprint (rule, file, job, anchor, occurrence among the file's uses of that text).
 */
export function liveImmutableFindings(sites: readonly TagSite[], fact: (slug: string, ref: string) => ReleaseFact | undefined): FindingRecord[] {
  const meta = WORKFLOW_RULES.find((r) => r.meta.id === 'unpinned-action')?.meta;
  if (meta === undefined) return [];
  const records: FindingRecord[] = [];
  const seen = new Map<string, number>();
  for (const site of sites) {
    // Every use of one text in a job counts (all reported offline or none: same ref, same owner).
    const identity = `${site.file}\u0000${site.job ?? ''}\u0000${site.anchor}`;
    const occurrence = seen.get(identity) ?? 0;
    seen.set(identity, occurrence + 1);
    if (!isReleaseVersion(site.ref) || fact(site.slug, site.ref)?.immutable !== true) continue;
    const what = site.isWorkflow ? `Reusable workflow \`${site.target}\`` : `Action \`${site.target}\``;
    const finding = findingOf(meta, { file: site.file, line: site.line, column: site.column }, {
      severity: 'LOW',
      message: `${what} is referenced by the tag \`${site.ref}\`, the tag of an immutable release (GitHub says so): its owner can neither move nor delete that tag, so only the release already published runs. LOW: a full commit SHA would still say in the workflow itself which code runs.`,
    });
    records.push({ finding, job: site.job, fingerprint: findingFingerprint('unpinned-action', site.file, site.job, site.anchor, occurrence) });
  }
  return records;
}
