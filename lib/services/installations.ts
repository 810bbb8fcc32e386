import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, type CodeHost, type InstallationAccount } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { githubIdentity, linkInstallation as storeInstallation } from '../db/operations.js';
import type { GithubIdentity } from '../db/types.js';
import { forbidden } from '../http/errors.js';

export interface LinkedInstallation {
  installation_id: number;
  account: string;
  account_type: string;
}

const NOT_YOURS = 'This installation belongs neither to your GitHub account nor to an organization you own.';
const notOwner = (org: string) =>
  forbidden(`Only an owner of the GitHub organization ${org} can connect its installation; ask an organization owner to connect it.`);

/**
 * Links a code-host App installation to the user, after checking that it is theirs: a personal installation
 * must be on the user's own GitHub account (numeric ids compared, since logins can be renamed), an
 * organization installation needs the user's GitHub login to be an owner of the organization (an active
 * membership with role `admin`): linking shows every repository the installation covers, private ones and
 * their admin-only settings included, which a plain member may not be entitled to see. The user's
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
  await checkEntitled(host, installation, identity);
  const linked = await storeInstallation(db, user.id, {
    installationId,
    accountLogin: installation.account,
    accountType: installation.accountType,
  });
  return { installation_id: linked.installation_id, account: linked.account_login, account_type: linked.account_type };
}

/** Throws a 403 unless the identity may link the installation (see `linkInstallation`). */
async function checkEntitled(host: CodeHost, installation: InstallationAccount, identity: GithubIdentity | null): Promise<void> {
  if (identity === null) throw forbidden(NOT_YOURS);
  switch (installation.accountType) {
    case 'User':
      if (installation.accountId !== identity.provider_id) throw forbidden(NOT_YOURS);
      return;
    case 'Organization': {
      if (identity.login === null || identity.login === '') throw forbidden(NOT_YOURS);
      const role = await host.organizationRole(installation.installationId, installation.account, identity.login);
      if (role === null) throw forbidden(NOT_YOURS);
      if (role !== 'admin') throw notOwner(installation.account);
      return;
    }
    default:
      throw forbidden(NOT_YOURS);
  }
}
