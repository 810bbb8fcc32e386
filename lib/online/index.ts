/**
 * The online audits (issue 17): facts about the actions a repository uses, asked of GitHub through a
 * budgeted reader and a shared cache. Outside the engine, which stays pure and offline; the findings come
 * out in the engine's shape, bound to the `uses:` they are about.
 */
import type { RepositoryFile } from '../engine/types.js';
import { auditReferences, LIVE_RULES, ONLINE_RULES, type OnlineAuditOptions, type OnlineAuditResult } from './audit.js';
import { collectUses } from './advisories.js';
import { collectArchivedSites } from './archived.js';
import { collectTagSites } from './immutable.js';
import { collectReferences } from './refs.js';
import { repositoryUses, type UsesSite } from './uses.js';

export { auditReferences, LIVE_RULES, ONLINE_RULES, type OnlineAuditOptions, type OnlineAuditResult } from './audit.js';
export { BudgetExhausted, BudgetedReader, fetchReader, GraphQLUnavailable, type GitHubAnswer, type GitHubReader } from './client.js';
export { collectUses, inVulnerableRange, parseRange, releaseAt, type AdvisoryFact, type LiveAdvisory, type Resolved } from './advisories.js';
export { DiskCache, MemoryCache, TTL, defaultCachePath, type FactCache } from './cache.js';
export { collectReferences, type ActionReference } from './refs.js';
export { collectArchivedSites, liveArchivedFindings, type ArchivedSite } from './archived.js';
export { collectTagSites, isReleaseVersion, liveImmutableFindings, type ReleaseFact, type TagSite } from './immutable.js';
export type { ArchivedFact } from './graphql.js';

/** The online findings of one repository's files; nothing (and no request) when every online rule is off. */
export async function auditRepository(files: readonly RepositoryFile[], options: OnlineAuditOptions): Promise<OnlineAuditResult> {
  const enabled = options.isEnabled ?? (() => true);
  // `unpinned-action` is amended online (a tag of an immutable release: lib/online/immutable.ts).
  if (![...ONLINE_RULES, ...LIVE_RULES, 'unpinned-action'].some((id) => enabled(id))) return { records: [], unassessed: 0 };
  // The live rules' walk over the model is parsed once, and only if one of them has something to report.
  let walked: UsesSite[] | undefined;
  const sites = () => (walked ??= repositoryUses(files));
  return auditReferences(
    collectReferences(files),
    options,
    () => collectUses(files, sites()),
    () => collectArchivedSites(files, sites()),
    () => collectTagSites(files, sites()),
  );
}
