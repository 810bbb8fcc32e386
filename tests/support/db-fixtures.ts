// Builders for the data tests: findings, repository listings, and a user with a linked installation and
// synced repositories.

import { randomInt } from 'node:crypto';
import type { Database } from '../../lib/db/port.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import type { Repository, RepositoryListing, Severity, SeverityCounts, StoredFinding } from '../../lib/db/types.js';

export function finding(overrides: Partial<StoredFinding> = {}): StoredFinding {
  return {
    file: '.github/workflows/ci.yml',
    line: 12,
    column: 9,
    severity: 'HIGH',
    category: 'CICD-SEC-4',
    rule_id: 'script-injection',
    title: 'Untrusted input in a run step',
    description: 'github.event.issue.title flows into a shell script.',
    recommendation: 'Pass it through an environment variable.',
    job: 'build',
    fingerprint: `fp-${randomInt(1e9)}`,
    ...overrides,
  };
}

export function countsOf(findings: readonly StoredFinding[]): SeverityCounts {
  const counts: SeverityCounts = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) counts[f.severity as Severity] += 1;
  return counts;
}

/** A fresh code-host id: unique enough across the files that share a server database. */
export function githubId(): number {
  return randomInt(1, 2 ** 47);
}

export function listing(installationId: number, overrides: Partial<RepositoryListing> = {}): RepositoryListing {
  const id = overrides.github_id ?? githubId();
  const name = overrides.full_name ?? `octo-org/repo-${id}`;
  return {
    github_id: id,
    installation_id: installationId,
    full_name: name,
    private: false,
    html_url: `https://github.com/${name}`,
    default_branch: 'main',
    ...overrides,
  };
}

/**
 * Links a new installation to the user and syncs `count` repositories through it. A personal installation
 * (on the account `octo-org`): an organization's would be re-checked at scan time against the code host's
 * owners (tests/api/installations.test.ts).
 */
export async function userWithRepositories(
  db: Database,
  userId: string,
  count = 1,
): Promise<{ installationId: number; repositories: Repository[] }> {
  const installationId = githubId();
  await linkInstallation(db, userId, { installationId, accountLogin: 'octo-org', accountType: 'User' });
  const listings = Array.from({ length: count }, (_, i) => listing(installationId, { full_name: `octo-org/repo-${String(i).padStart(3, '0')}` }));
  return { installationId, repositories: await syncRepositories(db, userId, listings) };
}
