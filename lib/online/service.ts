import type { Database } from '../db/port.js';
import type { ScanResult } from '../engine/scan.js';
import { joinExtraRecords } from '../engine/suppress.js';
import { emptyCounts, type FindingRecord, type RepositoryFile } from '../engine/types.js';
import type { CacheEntry, FactCache } from './cache.js';
import { prefetchFacts, type Facts } from './audit.js';
import { BudgetedReader, GraphQLUnavailable, type GitHubReader } from './client.js';
import { DatabaseFactCache } from './db-cache.js';
import { auditRepository } from './index.js';
import { collectReferences, referenceKeys, referencesOfKeys } from './refs.js';

export interface ServiceOnlineOptions {
  /** The installation's reader; a failure to get one leaves every reference unassessed. */
  reader: () => Promise<GitHubReader> | undefined;
  db: Database;
  files: readonly RepositoryFile[];
  isEnabled: (ruleId: string) => boolean;
  /** No GitHub request starts after this time (epoch ms). */
  deadline: number;
}

export interface OnlineStart {
  /** The installation's reader; a failure to get one leaves every reference unassessed. */
  reader: () => Promise<GitHubReader | undefined> | undefined;
  db: Database;
  /** The repository's references at its previous scan (`referenceKeys`): asked about while the snapshot is fetched. */
  previous: readonly unknown[];
  isEnabled: (ruleId: string) => boolean;
  /** No request of the read-ahead starts after this time (epoch ms): the snapshot's deadline. */
  deadline: number;
}

export interface OnlinePass {
  /**
   * The audit of the snapshot's files, from what the read-ahead gathered: GitHub is asked only about
   * references the previous scan did not have (none when they did not change). Adds the findings to the
   * engine's result; returns the references' keys, for the next scan.
   */
  finish(result: ScanResult, files: readonly RepositoryFile[], deadline: number): Promise<string[]>;
}

/**
 * The service's online pass, started before the snapshot: the installation's reader (`reader` may wait for
 * the caller's checks; the token request is shared with the snapshot's), and the facts the previous scan's references need, from the shared cache
 * and one batched GraphQL round, in parallel with the snapshot. The round trip the audit would add after
 * the snapshot is then only spent when the repository's `uses:` changed (or on its first scan). One budget
 * (10% of the installation's remaining rate limits) covers both parts. Never throws.
 */
export function startOnlineAudits(options: OnlineStart): OnlinePass {
  const cache = tolerant(new DatabaseFactCache(options.db));
  // The reader is asked for now, and each request waits for it: the cache lookup starts at once, while
  // the caller checks the installation and the token is fetched.
  const inner = readerOf(options.reader);
  const budgeted = new BudgetedReader(
    {
      get: async (path) => (await inner).get(path),
      graphql: async (query, variables) => {
        const reader = await inner;
        if (reader.graphql === undefined) throw new GraphQLUnavailable('this reader has no GraphQL');
        return reader.graphql(query, variables);
      },
    },
    { deadline: options.deadline },
  );
  const previous = referencesOfKeys(options.previous);
  const ahead: Promise<Facts | undefined> = previous.length === 0 ? Promise.resolve(undefined) : prefetchFacts(previous, { reader: budgeted, cache, isEnabled: options.isEnabled }).catch(() => undefined);
  return {
    async finish(result, files, deadline) {
      budgeted.setDeadline(deadline);
      const facts = await ahead;
      await audit(result, files, { reader: budgeted, cache, isEnabled: options.isEnabled, ...(facts === undefined ? {} : { facts }) });
      return referenceKeys(collectReferences(files));
    },
  };
}

/**
 * The service's online pass after the snapshot, with nothing read ahead: the scan's `uses:` references
 * checked with the installation's token, through the cache every user shares, inside the scan's time and
 * 10% of the installation's remaining rate limit. Adds the findings to the engine's result in its order. A
 * failing cache only costs requests; a failing GitHub only makes references unassessed
 * (`online-audit-incomplete`): the scan itself never fails here.
 */
export async function withOnlineAudits(result: ScanResult, options: ServiceOnlineOptions): Promise<void> {
  await startOnlineAudits({ reader: options.reader, db: options.db, previous: [], isEnabled: options.isEnabled, deadline: options.deadline }).finish(result, options.files, options.deadline);
}

async function readerOf(reader: () => Promise<GitHubReader | undefined> | undefined): Promise<GitHubReader> {
  try {
    return (await reader()) ?? unreachable('no reader');
  } catch (error) {
    return unreachable(error instanceof Error ? error.message : String(error));
  }
}

async function audit(result: ScanResult, files: readonly RepositoryFile[], options: { reader: GitHubReader; cache: FactCache; isEnabled: (ruleId: string) => boolean; facts?: Facts }): Promise<void> {
  const { records } = await auditRepository(files, options);
  if (records.length === 0) return;
  // The scan's suppression comments apply; a live known-vulnerable-action finding replaces the offline one.
  const joined = joinExtraRecords(result, files, records);
  const merged: FindingRecord[] = joined.records.sort(
    (a, b) => compare(a.finding.file, b.finding.file) || a.finding.line - b.finding.line || a.finding.column - b.finding.column || compare(a.finding.rule_id, b.finding.rule_id),
  );
  result.records = merged;
  result.findings = merged.map((r) => r.finding);
  result.suppressed = joined.suppressed;
  result.unusedSuppressions = joined.unusedSuppressions;
  result.counts = emptyCounts();
  for (const r of merged) result.counts[r.finding.severity]++;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function unreachable(reason: string): GitHubReader {
  return { get: () => Promise.reject(new Error(reason)) };
}

/** The shared cache, where a database failure reads as a miss and a failed write is dropped. */
function tolerant(cache: FactCache): FactCache {
  return {
    get: (keys) => cache.get(keys).catch(() => new Map<string, unknown>()),
    set: (entries: readonly CacheEntry[]) => cache.set(entries).catch(() => undefined),
  };
}
