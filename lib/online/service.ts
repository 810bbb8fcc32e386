import type { Database } from '../db/port.js';
import type { ScanResult } from '../engine/scan.js';
import { joinExtraRecords } from '../engine/suppress.js';
import { emptyCounts, type FindingRecord, type RepositoryFile } from '../engine/types.js';
import type { CacheEntry, FactCache } from './cache.js';
import { BudgetedReader, type GitHubReader } from './client.js';
import { DatabaseFactCache } from './db-cache.js';
import { auditRepository } from './index.js';

export interface ServiceOnlineOptions {
  /** The installation's reader; a failure to get one leaves every reference unassessed. */
  reader: () => Promise<GitHubReader> | undefined;
  db: Database;
  files: readonly RepositoryFile[];
  isEnabled: (ruleId: string) => boolean;
  /** No GitHub request starts after this time (epoch ms). */
  deadline: number;
}

/**
 * The service's online pass: the scan's `uses:` references checked with the installation's token, through
 * the cache every user shares, inside the scan's time and 10% of the installation's remaining rate limit.
 * Adds the findings to the engine's result in its order. A failing cache only costs requests; a failing
 * GitHub only makes references unassessed (`online-audit-incomplete`): the scan itself never fails here.
 */
export async function withOnlineAudits(result: ScanResult, options: ServiceOnlineOptions): Promise<void> {
  let reader: GitHubReader;
  try {
    reader = (await options.reader()) ?? unreachable('no reader');
  } catch (error) {
    reader = unreachable(error instanceof Error ? error.message : String(error));
  }
  const { records } = await auditRepository(options.files, {
    reader: new BudgetedReader(reader, { deadline: options.deadline }),
    cache: tolerant(new DatabaseFactCache(options.db)),
    isEnabled: options.isEnabled,
  });
  if (records.length === 0) return;
  // The scan's suppression comments apply; a live known-vulnerable-action finding replaces the offline one.
  const joined = joinExtraRecords(result, options.files, records);
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
