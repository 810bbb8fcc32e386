import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, type CodeHost, type HostedRepository } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { consumeRateLimit, githubIdentity, listInstallations, resyncRepositories } from '../db/operations.js';
import type { Database } from '../db/port.js';
import type { GithubIdentity, Installation } from '../db/types.js';
import { env } from '../env.js';
import { conflict, rateLimited } from '../http/errors.js';
import { checkInstallationUsable, organizationRole } from './installations.js';

export interface UserRepositories {
  /** False when the user has linked no installation yet (then `repositories` is empty). */
  connected: boolean;
  repositories: { id: string; full_name: string; private: boolean; html_url: string }[];
}

/** The rate-limit bucket of repository syncs (per user; `REPOS_RATE_LIMIT` per `SCAN_RATE_LIMIT_WINDOW_SECONDS`). */
export const REPOS_RATE_LIMIT_BUCKET = 'repos';

/**
 * The user's repositories across every installation they linked: listed by the code host now (installations
 * in parallel), stored in one batch (upserted on the code host's id, so the service-side ids stay stable
 * across syncs and renames) and returned as stored, by full name.
 *
 * The sync follows GitHub, so a missed webhook cannot keep access open: an organization link is kept only
 * while the user is still an owner of the organization (asked at most once per installation, then cached a
 * few minutes), an installation GitHub no longer knows is unlinked, and a repository it no longer lists is
 * removed with its scans. An installation GitHub suspended keeps its rows but is not synced (409 when it is
 * the user's only one); one whose GitHub budget is nearly spent fails the sync with 503 and `Retry-After`.
 * Database round trips: the rate limit, the installations and the identity in parallel, then the sync.
 */
export async function listRepositories(user: User): Promise<UserRepositories> {
  const db = await database();
  const [installations, identity] = await Promise.all([listInstallations(db, user.id), githubIdentity(db, user.id), enforceRateLimit(db, user.id)]);
  if (installations.length === 0) return { connected: false, repositories: [] };

  const host = await codeHost();
  const active = installations.filter((i) => i.suspended !== true);
  if (active.length === 0) {
    const [first] = installations;
    if (first !== undefined) checkInstallationUsable(host, { installationId: first.installation_id, account: first.account_login, suspended: true });
    throw conflict('Every linked installation is suspended.');
  }
  for (const installation of active) {
    checkInstallationUsable(host, { installationId: installation.installation_id, account: installation.account_login, suspended: false });
  }

  const outcomes = await Promise.all(active.map((installation) => syncOf(host, installation, identity)));
  const listed = outcomes.filter((o) => o.kind === 'listed');
  const stored = await resyncRepositories(db, user.id, {
    listed: listed.map((o) => o.installationId),
    dropped: outcomes.filter((o) => o.kind === 'dropped').map((o) => o.installationId),
    repositories: listed.flatMap((o) =>
      o.repositories.map((r) => ({
        github_id: r.githubId,
        installation_id: r.installationId,
        full_name: r.fullName,
        private: r.private,
        html_url: r.htmlUrl,
        default_branch: r.defaultBranch,
      })),
    ),
  });
  return {
    connected: listed.length > 0 || installations.length > active.length,
    repositories: stored.map((r) => ({ id: r.id, full_name: r.full_name, private: r.private, html_url: r.html_url })),
  };
}

type SyncOutcome = { kind: 'listed'; installationId: number; repositories: HostedRepository[] } | { kind: 'dropped'; installationId: number };

/**
 * One installation's part of the sync: `dropped` when the user is no longer entitled to it (an organization
 * they no longer own, or no GitHub identity to check with) or GitHub no longer knows it; else its repositories.
 * Any other failure fails the request, since a partial list would look like repositories had gone.
 */
async function syncOf(host: CodeHost, installation: Installation, identity: GithubIdentity | null): Promise<SyncOutcome> {
  const installationId = installation.installation_id;
  try {
    if (installation.account_type === 'Organization') {
      const login = identity?.login ?? null;
      if (login === null || login === '') return { kind: 'dropped', installationId };
      const role = await organizationRole(host, installationId, installation.account_login, login);
      if (role !== 'admin') return { kind: 'dropped', installationId };
    }
    return { kind: 'listed', installationId, repositories: await host.listRepositories([installationId]) };
  } catch (error) {
    if (error instanceof CodeHostError && error.kind === 'not_found') return { kind: 'dropped', installationId };
    throw error;
  }
}

/** Counts the sync against the user's limit (kept in the database, so it holds across instances); 429 when spent. */
async function enforceRateLimit(db: Database, userId: string): Promise<void> {
  const { max, windowSeconds } = env().reposRateLimit;
  if (max === 0) return;
  const decision = await consumeRateLimit(db, userId, { bucket: REPOS_RATE_LIMIT_BUCKET, limit: max, windowSeconds });
  if (!decision.allowed) throw rateLimited(decision.retry_after_seconds);
}
