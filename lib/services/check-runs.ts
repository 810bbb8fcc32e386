import type { User } from '../auth.js';
import { database } from '../db/connection.js';
import { repositoryCheckRun } from '../db/operations.js';
import type { StoredCheckRun } from '../db/types.js';
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
