import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, type CodeHost, type HostedRepository, type InstallationAccount, type UserAccessHost } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { consumeRateLimit, githubIdentity, listInstallations, repositoryOverview, resyncRepositories, syncMemberInstallations } from '../db/operations.js';
import type { Database } from '../db/port.js';
import type { GithubIdentity, Installation, RepositoryOverview, StoredGithubAuthorization } from '../db/types.js';
import { env } from '../env.js';
import { conflict, rateLimited } from '../http/errors.js';
import { checkInstallationUsable, organizationRole } from './installations.js';
import { currentAuthorization, memberRepositories, withUserToken } from './user-access.js';

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
  const [linked, identity, authorization] = await Promise.all([
    listInstallations(db, user.id),
    githubIdentity(db, user.id),
    currentAuthorization(db, user),
    enforceRateLimit(db, user.id),
  ]);
  const host = await codeHost();
  // Members: what GitHub lists for the user's own token becomes their `member` links, before anything else.
  const reached = authorization === null || host.userAccess === undefined ? null : await reachedThroughUser(db, host.userAccess, user, authorization);
  const installations = reached === null ? linked : await listInstallations(db, user.id);
  if (installations.length === 0) return { connected: false, repositories: [] };

  const active = installations.filter((i) => i.suspended !== true);
  if (active.length === 0) {
    const [first] = installations;
    if (first !== undefined) checkInstallationUsable(host, { installationId: first.installation_id, account: first.account_login, suspended: true });
    throw conflict('Every linked installation is suspended.');
  }
  for (const installation of active) {
    checkInstallationUsable(host, { installationId: installation.installation_id, account: installation.account_login, suspended: false });
  }

  const outcomes = await Promise.all(
    active.map((installation): Promise<SyncOutcome> | SyncOutcome => {
      if (installation.access !== 'member') return syncOf(host, installation, identity);
      const repositories = reached?.repositories.get(installation.installation_id);
      return repositories === undefined ? { kind: 'dropped', installationId: installation.installation_id } : { kind: 'listed', installationId: installation.installation_id, repositories };
    }),
  );
  const stored = await resync(db, user.id, outcomes);
  // An owner link that no longer holds, of an installation the user still reaches as a member: it becomes a
  // member link with the repositories GitHub lists for them (the owner link's rows went with it).
  const demoted = outcomes.filter((o) => o.kind === 'dropped' && reached?.repositories.has(o.installationId) === true).map((o) => o.installationId);
  if (demoted.length > 0 && reached !== null && authorization !== null) {
    await syncMemberInstallations(db, user.id, authorization.github_user_id, memberRows(reached));
    const again = await resync(db, user.id, demoted.map((installationId) => ({ kind: 'listed', installationId, repositories: reached.repositories.get(installationId) ?? [] })));
    stored.push(...again);
    stored.sort((a, b) => (a.full_name < b.full_name ? -1 : a.full_name > b.full_name ? 1 : 0));
  }
  const listed = outcomes.filter((o) => o.kind === 'listed');
  return {
    connected: listed.length > 0 || demoted.length > 0 || installations.length > active.length,
    repositories: stored.map((r) => ({ id: r.id, full_name: r.full_name, private: r.private, html_url: r.html_url })),
  };
}

/**
 * The user's stored repositories with their latest scan's open counts (dismissed findings left out), in one
 * database round trip: what the Repositories view lists, with one request whatever the number of
 * repositories. The code host is not asked (`listRepositories` is the sync).
 */
export async function repositoriesOverview(user: User): Promise<{ repositories: RepositoryOverview[] }> {
  return { repositories: await repositoryOverview(await database(), user.id) };
}

function resync(db: Database, userId: string, outcomes: readonly SyncOutcome[]) {
  const listed = outcomes.filter((o) => o.kind === 'listed');
  return resyncRepositories(db, userId, {
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
}

/** Installations whose repositories a member sync lists at once. */
const MEMBER_SYNC_CONCURRENCY = 6;

interface Reached {
  /** Installation id -> the repositories GitHub lists for the user (never empty). */
  repositories: Map<number, HostedRepository[]>;
  accounts: InstallationAccount[];
}

const memberRows = (reached: Reached) => reached.accounts.map((a) => ({ installation_id: a.installationId, account_login: a.account, account_type: a.accountType }));

/**
 * The installations the user reaches through their own GitHub token (`GET /user/installations`) with, for
 * each, exactly the repositories GitHub lists for them (`GET /user/installations/{id}/repositories`, asked
 * afresh: a sync is the user's explicit re-check), stored as their `member` links. An installation that
 * lists no repository for them is not one they reach.
 */
async function reachedThroughUser(db: Database, access: UserAccessHost, user: User, authorization: StoredGithubAuthorization): Promise<Reached> {
  const githubUser = { id: user.id, githubUserId: authorization.github_user_id };
  const lists = await withUserToken(db, access, user, authorization, async (token) => {
    const installations = await access.installations(token);
    // A few installations at a time: GitHub's secondary limits punish many concurrent requests of one token.
    const out: { installation: InstallationAccount; repositories: HostedRepository[] }[] = [];
    for (let i = 0; i < installations.length; i += MEMBER_SYNC_CONCURRENCY) {
      const batch = installations.slice(i, i + MEMBER_SYNC_CONCURRENCY);
      out.push(...(await Promise.all(batch.map(async (installation) => ({ installation, repositories: await memberRepositories(access, token, githubUser, installation.installationId, 0) })))));
    }
    return out;
  });
  const reached: Reached = { repositories: new Map(), accounts: [] };
  for (const { installation, repositories } of lists) {
    if (repositories.length === 0 || reached.repositories.has(installation.installationId)) continue;
    reached.repositories.set(installation.installationId, repositories);
    reached.accounts.push(installation);
  }
  await syncMemberInstallations(db, user.id, authorization.github_user_id, memberRows(reached));
  return reached;
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
      const role = await organizationRole(host, installationId, installation.account_login, login, { userId: identity?.provider_id });
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
