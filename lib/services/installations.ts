import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, type CodeHost, type InstallationAccount, type OrganizationRole } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { consumeInstallationRateLimit, consumeRateLimit, githubIdentity, listInstallations as listStoredInstallations, linkInstallation as storeInstallation, unlinkInstallation as dropInstallation } from '../db/operations.js';
import type { Database } from '../db/port.js';
import type { GithubIdentity, Installation } from '../db/types.js';
import { env } from '../env.js';
import { conflict, forbidden, notFound, rateLimited, upstreamUnavailable } from '../http/errors.js';

export interface LinkedInstallation {
  installation_id: number;
  account: string;
  account_type: string;
}

const NOT_YOURS = 'This installation belongs neither to your GitHub account nor to an organization you own.';
const notOwner = (org: string) =>
  forbidden(
    `Only an owner of the GitHub organization ${org} can connect its installation. As a member, use your own GitHub access ("Use my GitHub access", GET /api/github/authorize) to see the repositories of ${org} you can access.`,
  );

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
  // Before any GitHub call: the callback costs GitHub requests, some of them on the installation's budget.
  await enforceCallbackRateLimit(db, user.id);
  const host = await codeHost();
  const [identity, installation, links] = await Promise.all([
    githubIdentity(db, user.id),
    host.getInstallation(installationId).catch((error: unknown) => {
      // An installation the App cannot see is one the user cannot prove is theirs.
      throw error instanceof CodeHostError && error.kind === 'not_found' ? forbidden(NOT_YOURS) : error;
    }),
    listStoredInstallations(db, user.id),
  ]);
  const entitled = await checkEntitled(db, host, installation, identity, links.some((l) => l.installation_id === installationId));
  const linked = await storeInstallation(db, user.id, {
    installationId,
    accountLogin: installation.account,
    accountType: installation.accountType,
    githubUserId: entitled.provider_id,
  });
  return { installation_id: linked.installation_id, account: linked.account_login, account_type: linked.account_type };
}

/**
 * The identity, when it may link the installation (see `linkInstallation`); else a 403. The membership check
 * is a request on the organization installation's own GitHub budget, so whoever asks cannot spend it: a
 * refusal is remembered `REFUSAL_CACHE_MS` per (installation, login) and answered again without asking, and
 * users not linked to the installation share `INSTALLATION_CHECK_LIMIT` checks an hour of it (429 past it).
 */
async function checkEntitled(db: Database, host: CodeHost, installation: InstallationAccount, identity: GithubIdentity | null, linked: boolean): Promise<GithubIdentity> {
  if (identity === null) throw forbidden(NOT_YOURS);
  switch (installation.accountType) {
    case 'User':
      if (installation.accountId !== identity.provider_id) throw forbidden(NOT_YOURS);
      return identity;
    case 'Organization': {
      if (identity.login === null || identity.login === '') throw forbidden(NOT_YOURS);
      const refused = roles.get(roleKey(installation.installationId, installation.account, identity.login, identity.provider_id));
      let role: OrganizationRole | null;
      if (refused !== undefined && refused.role !== 'admin' && Date.now() - refused.at < REFUSAL_CACHE_MS) {
        role = refused.role;
      } else {
        if (!linked && host.spendsInstallationBudget !== false) await enforceInstallationCheckLimit(db, installation.installationId);
        role = await organizationRole(host, installation.installationId, installation.account, identity.login, { fresh: true, userId: identity.provider_id });
      }
      if (role === null) throw forbidden(NOT_YOURS);
      if (role !== 'admin') throw notOwner(installation.account);
      return identity;
    }
    default:
      throw forbidden(NOT_YOURS);
  }
}

/** How long the callback answers a refused (installation, login) again without asking GitHub. */
export const REFUSAL_CACHE_MS = 60_000;
/** The per-installation bucket of the callback's membership checks for users not linked to it. */
export const INSTALLATION_CHECK_BUCKET = 'membership-check';
const INSTALLATION_CHECK_WINDOW_SECONDS = 3600;
/** The per-user bucket of the installation callback. */
export const CALLBACK_RATE_LIMIT_BUCKET = 'callback';

async function enforceCallbackRateLimit(db: Database, userId: string): Promise<void> {
  const { max, windowSeconds } = env().callbackRateLimit;
  if (max === 0) return;
  const decision = await consumeRateLimit(db, userId, { bucket: CALLBACK_RATE_LIMIT_BUCKET, limit: max, windowSeconds });
  if (!decision.allowed) throw rateLimited(decision.retry_after_seconds);
}

async function enforceInstallationCheckLimit(db: Database, installationId: number): Promise<void> {
  const limit = env().installationCheckLimit;
  if (limit === 0) return;
  const decision = await consumeInstallationRateLimit(db, installationId, { bucket: INSTALLATION_CHECK_BUCKET, limit, windowSeconds: INSTALLATION_CHECK_WINDOW_SECONDS });
  if (!decision.allowed) throw rateLimited(decision.retry_after_seconds);
}

/** How long an organization role read from the code host is trusted by the re-check at sync. */
export const ROLE_CACHE_MS = 5 * 60_000;
/** How long a scan trusts a role read before: a demoted owner's scans stop within this time. */
export const SCAN_ROLE_CACHE_MS = 60_000;
const ROLE_CACHE_ENTRIES = 10_000;
const roles = new Map<string, { role: OrganizationRole | null; at: number }>();

// The login last, so that `forgetRoles` finds every key of a login by its suffix.
const roleKey = (installationId: number, org: string, login: string, userId = '') => `${installationId}\0${userId}\0${org.toLowerCase()}\0${login.toLowerCase()}`;

/**
 * `login`'s role in the organization of an installation: from the code host, or from this process's cache
 * when read less than `maxAgeMs` ago (default `ROLE_CACHE_MS`: the sync's re-check; a scan asks with
 * `SCAN_ROLE_CACHE_MS`; linking always asks afresh). The cache is bounded: past `ROLE_CACHE_ENTRIES`, the
 * oldest entries go. The `organization` webhook forgets the roles it reports a change of (`forgetRoles`).
 */
export async function organizationRole(
  host: CodeHost,
  installationId: number,
  org: string,
  login: string,
  options: { fresh?: boolean; now?: number; maxAgeMs?: number; userId?: string } = {},
): Promise<OrganizationRole | null> {
  const key = roleKey(installationId, org, login, options.userId);
  const now = options.now ?? Date.now();
  const cached = roles.get(key);
  if (options.fresh !== true && cached !== undefined && now - cached.at < (options.maxAgeMs ?? ROLE_CACHE_MS)) return cached.role;
  const role = await host.organizationRole(installationId, org, login, options.userId);
  roles.delete(key);
  roles.set(key, { role, at: now });
  for (const oldest of roles.keys()) {
    if (roles.size <= ROLE_CACHE_ENTRIES) break;
    roles.delete(oldest);
  }
  return role;
}

/** Forgets the cached roles of `login` in `org` (every installation): GitHub said they changed. */
export function forgetRoles(org: string, login: string): void {
  const suffix = `\0${org.toLowerCase()}\0${login.toLowerCase()}`;
  for (const key of [...roles.keys()]) if (key.endsWith(suffix)) roles.delete(key);
}

/** Forgets every cached role (tests; a process that must re-check at once). */
export function clearRoleCache(): void {
  roles.clear();
}

/**
 * Throws unless the user is still entitled to the installation a scan reads through: for an organization,
 * its owner (the role read at most `SCAN_ROLE_CACHE_MS` ago, so a demotion or a removal that no webhook told
 * us about ends access within a minute, whoever calls what). When the entitlement no longer holds, the
 * user's link is removed with the repositories it gave them (as the sync would) and the scan is a 404, the
 * answer for a repository the user does not own. A personal installation stays the user's own account.
 */
export async function checkScanEntitlement(
  db: Database,
  host: CodeHost,
  userId: string,
  installationId: number,
  stored: { installations: readonly Installation[]; identity: GithubIdentity | null },
): Promise<void> {
  const installation = stored.installations.find((i) => i.installation_id === installationId);
  // Unlinked meanwhile (another request, a webhook): the repository is no longer the user's.
  if (installation === undefined) throw notFound();
  if (installation.account_type !== 'Organization') return;
  const login = stored.identity?.login ?? null;
  let role: OrganizationRole | null = null;
  if (login !== null && login !== '') {
    try {
      role = await organizationRole(host, installationId, installation.account_login, login, { maxAgeMs: SCAN_ROLE_CACHE_MS, userId: stored.identity?.provider_id });
    } catch (error) {
      // GitHub no longer knows the installation: as the sync does, the link goes.
      if (!(error instanceof CodeHostError && error.kind === 'not_found')) throw error;
    }
  }
  if (role === 'admin') return;
  await dropInstallation(db, userId, installationId);
  throw notFound(
    `You are no longer an owner of the GitHub organization ${installation.account_login}, so its installation was unlinked from your account with its repositories; an organization owner can connect it.`,
  );
}

/**
 * Removes the user's link to an installation and the repositories only that link gave them, with their
 * scans and findings. Idempotent: unlinking an installation that is not linked is done already.
 */
export async function unlinkInstallation(user: User, installationId: number): Promise<void> {
  const db = await database();
  await dropInstallation(db, user.id, installationId);
}

/**
 * Throws unless new code-host work for the installation may start: 409 while GitHub has it suspended (its
 * data stays), 503 with `Retry-After` while its GitHub request budget is under the reserve
 * (`GITHUB_RATE_RESERVE`), so that GitHub never has to refuse us mid-scan.
 */
export function checkInstallationUsable(host: CodeHost, installation: { installationId: number; account: string; suspended: boolean }, now = Date.now()): void {
  if (installation.suspended) {
    throw conflict(
      `GitHub has suspended the Chainbreaker App on ${installation.account}; its data is kept, and scans and syncs resume once an owner of ${installation.account} unsuspends it.`,
    );
  }
  const reserve = env().githubRateReserve;
  const budget = host.budget?.(installation.installationId) ?? null;
  if (reserve > 0 && budget !== null && budget.remaining < reserve && budget.resetAt > now) {
    throw upstreamUnavailable(
      `The GitHub request budget of the installation on ${installation.account} is nearly spent (${budget.remaining} left); try again after it resets.`,
      503,
      (budget.resetAt - now) / 1000,
    );
  }
}

/** The installations linked to the user, by installation id, named as the callback names them. */
export async function listInstallations(user: User): Promise<(LinkedInstallation & { created_at: string })[]> {
  const rows = await listStoredInstallations(await database(), user.id);
  return rows.map((row) => ({ installation_id: row.installation_id, account: row.account_login, account_type: row.account_type, created_at: row.created_at }));
}
