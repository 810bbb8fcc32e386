import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, type CodeHost, type HostedRepository } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { listInstallations, syncRepositories } from '../db/operations.js';

export interface UserRepositories {
  /** False when the user has linked no installation yet (then `repositories` is empty). */
  connected: boolean;
  repositories: { id: string; full_name: string; private: boolean; html_url: string }[];
}

/**
 * The user's repositories across every installation they linked: listed by the code host now (installations
 * in parallel), stored in one batch (upserted on the code host's id, so the service-side ids stay stable
 * across syncs and renames) and returned as stored, by full name. Database round trips: the installations,
 * then the sync (none without installations or repositories).
 */
export async function listRepositories(user: User): Promise<UserRepositories> {
  const db = await database();
  const installations = await listInstallations(db, user.id);
  if (installations.length === 0) return { connected: false, repositories: [] };

  const host = await codeHost();
  const lists = await Promise.all(installations.map((installation) => repositoriesOf(host, installation.installation_id)));
  const hosted = lists.flat();
  if (hosted.length === 0) return { connected: true, repositories: [] };
  const stored = await syncRepositories(
    db,
    user.id,
    hosted.map((r) => ({
      github_id: r.githubId,
      installation_id: r.installationId,
      full_name: r.fullName,
      private: r.private,
      html_url: r.htmlUrl,
      default_branch: r.defaultBranch,
    })),
  );
  return {
    connected: true,
    repositories: stored.map((r) => ({ id: r.id, full_name: r.full_name, private: r.private, html_url: r.html_url })),
  };
}

/**
 * One installation's repositories. An installation the code host no longer knows (the App was uninstalled
 * from that account) has none: the user's other installations still list. Any other failure fails the
 * request, since a partial list would look like repositories had gone.
 */
async function repositoriesOf(host: CodeHost, installationId: number): Promise<HostedRepository[]> {
  try {
    return await host.listRepositories([installationId]);
  } catch (error) {
    if (error instanceof CodeHostError && error.kind === 'not_found') return [];
    throw error;
  }
}
