import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, type CodeHost, type InstallationAccount } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { githubIdentity, listInstallations as listStoredInstallations, linkInstallation as storeInstallation } from '../db/operations.js';
import type { GithubIdentity } from '../db/types.js';
import { forbidden } from '../http/errors.js';

export interface LinkedInstallation {
  installation_id: number;
  account: string;
  account_type: string;
}

const NOT_YOURS = 'This installation belongs neither to your GitHub account nor to an organization you are a member of.';

/**
 * Links a code-host App installation to the user, after checking that it is theirs: a personal installation
 * must be on the user's own GitHub account (numeric ids compared, since logins can be renamed), an
 * organization installation needs the user's GitHub login to be a member of the organization. The user's
 * GitHub account comes from the auth server's identities (`githubIdentity`), never from user metadata, which
 * users can edit. Anything else (no GitHub identity, an unknown installation, another kind of account) is a
 * 403 and nothing is stored. Database round trips: the identity (in parallel with the code host's answer),
 * then the link.
 */
export async function linkInstallation(user: User, installationId: number): Promise<LinkedInstallation> {
  const db = await database();
  const host = await codeHost();
  const [identity, installation] = await Promise.all([
    githubIdentity(db, user.id),
    host.getInstallation(installationId).catch((error: unknown) => {
      // An installation the App cannot see is one the user cannot prove is theirs.
      throw error instanceof CodeHostError && error.kind === 'not_found' ? forbidden(NOT_YOURS) : error;
    }),
  ]);
  if (!(await belongsTo(host, installation, identity))) throw forbidden(NOT_YOURS);
  const linked = await storeInstallation(db, user.id, {
    installationId,
    accountLogin: installation.account,
    accountType: installation.accountType,
  });
  return { installation_id: linked.installation_id, account: linked.account_login, account_type: linked.account_type };
}

async function belongsTo(host: CodeHost, installation: InstallationAccount, identity: GithubIdentity | null): Promise<boolean> {
  if (identity === null) return false;
  switch (installation.accountType) {
    case 'User':
      return installation.accountId === identity.provider_id;
    case 'Organization':
      return (
        identity.login !== null &&
        identity.login !== '' &&
        (await host.isOrganizationMember(installation.installationId, installation.account, identity.login))
      );
    default:
      return false;
  }
}

/** The installations linked to the user, by installation id, named as the callback names them. */
export async function listInstallations(user: User): Promise<(LinkedInstallation & { created_at: string })[]> {
  const rows = await listStoredInstallations(await database(), user.id);
  return rows.map((row) => ({ installation_id: row.installation_id, account: row.account_login, account_type: row.account_type, created_at: row.created_at }));
}
