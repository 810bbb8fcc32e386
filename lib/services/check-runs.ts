import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import { installationCheckPolicy, listInstallations, repositoryCheckRun, setInstallationCheckPolicy } from '../db/operations.js';
import type { CheckPolicy, StoredCheckRun } from '../db/types.js';
import { notFound } from '../http/errors.js';

/**
 * The repository's latest pull request check run (lib/services/monitor/pr-check.ts stores it for every user
 * who has the repository): one row, scoped by the user in the database function; another user's repository
 * is a 404, like one that does not exist.
 */
export async function latestCheckRun(user: User, repositoryId: string): Promise<{ check_run: StoredCheckRun | null }> {
  const found = await repositoryCheckRun(await database(), user.id, repositoryId);
  if (found === null) throw notFound();
  return found;
}

/** The installation's pull request check policy; 404 unless the user linked the installation (either way). */
export async function checkPolicy(user: User, installationId: number): Promise<CheckPolicy> {
  const db = await database();
  const [links, policy] = await Promise.all([listInstallations(db, user.id), installationCheckPolicy(db, installationId)]);
  if (!links.some((i) => i.installation_id === installationId)) throw notFound();
  return policy;
}

/**
 * Sets the installation's check policy. Only a user who linked the installation itself may (the database
 * function checks it: a member's link, another's installation or none is a 404).
 */
export async function setCheckPolicy(user: User, installationId: number, policy: CheckPolicy): Promise<CheckPolicy> {
  return setInstallationCheckPolicy(await database(), user.id, installationId, policy);
}
