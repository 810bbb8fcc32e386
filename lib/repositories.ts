import type { User } from './auth.js';
import { codeHost } from './codehost/index.js';
import { database } from './database.js';
import { listInstallations, syncRepositories } from './db/operations.js';

export interface UserRepositories {
  /** False when the user has linked no installation yet (then `repositories` is empty). */
  connected: boolean;
  repositories: { id: string; full_name: string; private: boolean; html_url: string }[];
}

/**
 * The user's repositories across every installation they linked: listed by the code host now, stored in one
 * batch (upserted on the code host's id, so the service-side ids stay stable across syncs) and returned as
 * stored, by full name. Database round trips: the installations, then the sync (none without installations
 * or repositories).
 */
export async function listRepositories(user: User): Promise<UserRepositories> {
  const db = await database();
  const installations = await listInstallations(db, user.id);
  if (installations.length === 0) return { connected: false, repositories: [] };

  const host = await codeHost();
  const hosted = await host.listRepositories(installations.map((installation) => installation.installation_id));
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
