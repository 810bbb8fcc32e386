import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { User } from '../auth.js';
import { codeHost } from '../codehost/index.js';
import { CodeHostError, UserTokenRefused, type CodeHost, type FetchOptions, type HostedRepository, type RepositoryLocator, type RepositorySnapshot, type UserAccessHost, type UserTokens } from '../codehost/port.js';
import { database } from '../db/connection.js';
import { githubAuthorization, githubIdentity, removeUserRepository, revokeGithubAuthorization, storeGithubAuthorization, unlinkInstallation } from '../db/operations.js';
import type { Database } from '../db/port.js';
import type { StoredGithubAuthorization } from '../db/types.js';
import { env } from '../env.js';
import { conflict, forbidden, invalidRequest, notFound, unauthorized } from '../http/errors.js';

/**
 * Members of an organization through their own GitHub access (issue 30): the GitHub App's user
 * authorization. Why the App's own OAuth flow and not the Supabase GitHub provider: Supabase hands the
 * provider's token to the browser (`provider_token` in the session) and neither stores nor refreshes it, so
 * the service could neither keep it server-side nor renew it; the App's flow lets the API exchange the code
 * with the App's client secret, and the user-to-server token it gets is scoped to what both the App and
 * the person may reach, expires after 8 hours, and comes with a refresh token.
 *
 * The tokens never leave the server: sealed with AES-256-GCM (`GITHUB_TOKEN_ENCRYPTION_KEY`; the user id is
 * the additional data, so a ciphertext moved to another user's row does not open), stored by the API only
 * (no browser role can read the table), refreshed here shortly before they expire, revoked at GitHub on
 * sign-out, and dropped when GitHub says the authorization was revoked (`github_app_authorization`).
 */

const SEALED = /^v1:([A-Za-z0-9_-]{16}):([A-Za-z0-9_-]{1,2700}):([A-Za-z0-9_-]{22})$/;
/** How long the `state` of an authorization stays valid: GitHub's authorize page, then back. */
export const STATE_LIFETIME_MS = 10 * 60_000;
/** A token with less than this left is refreshed before use. */
const REFRESH_MARGIN_MS = 5 * 60_000;

function key(): Buffer {
  const k = env().tokenEncryptionKey;
  if (k === null) throw conflict('Access through your own GitHub account is not configured on this deployment (GITHUB_APP_CLIENT_ID and GITHUB_TOKEN_ENCRYPTION_KEY).');
  return k;
}

/** The token sealed for `userId`'s row. */
export function sealToken(encryptionKey: Buffer, userId: string, token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', encryptionKey, iv);
  cipher.setAAD(Buffer.from(`chainbreaker-github-token:${userId}`));
  const ciphertext = Buffer.concat([cipher.update(token, 'utf8'), cipher.final()]);
  return `v1:${iv.toString('base64url')}:${ciphertext.toString('base64url')}:${cipher.getAuthTag().toString('base64url')}`;
}

/** The token, or null when the ciphertext is not one sealed for this user with this key. */
export function openToken(encryptionKey: Buffer, userId: string, sealed: string): string | null {
  const parts = SEALED.exec(sealed);
  if (parts === null) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', encryptionKey, Buffer.from(parts[1] ?? '', 'base64url'));
    decipher.setAAD(Buffer.from(`chainbreaker-github-token:${userId}`));
    decipher.setAuthTag(Buffer.from(parts[3] ?? '', 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(parts[2] ?? '', 'base64url')), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

const stateKey = (encryptionKey: Buffer) => createHash('sha256').update('chainbreaker-oauth-state\0').update(encryptionKey).digest();
const userTag = (userId: string) => createHash('sha256').update(`chainbreaker-oauth-user:${userId}`).digest('base64url').slice(0, 22);

/** The `state` of an authorization: bound to the user and to a time, signed, so a code only completes the flow its user started. */
export function createState(encryptionKey: Buffer, userId: string, now = Date.now()): string {
  const payload = `${userTag(userId)}.${Math.floor((now + STATE_LIFETIME_MS) / 1000)}.${randomBytes(12).toString('base64url')}`;
  return `${payload}.${createHmac('sha256', stateKey(encryptionKey)).update(payload).digest('base64url')}`;
}

export function verifyState(encryptionKey: Buffer, userId: string, state: string, now = Date.now()): boolean {
  const match = /^([A-Za-z0-9_-]{22})\.(\d{1,12})\.([A-Za-z0-9_-]{16})\.([A-Za-z0-9_-]{43})$/.exec(state);
  if (match === null) return false;
  const payload = `${match[1]}.${match[2]}.${match[3]}`;
  // Compared as text: base64url has several spellings of the same bytes (the last character's spare bits).
  const expected = Buffer.from(createHmac('sha256', stateKey(encryptionKey)).update(payload).digest('base64url'));
  const given = Buffer.from(match[4] ?? '');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return match[1] === userTag(userId) && Number(match[2]) * 1000 > now;
}

async function accessHost(): Promise<{ host: CodeHost; access: UserAccessHost }> {
  const host = await codeHost();
  if (host.userAccess === undefined) throw conflict('Access through your own GitHub account is not configured on this deployment (GITHUB_APP_CLIENT_ID and GITHUB_APP_CLIENT_SECRET).');
  return { host, access: host.userAccess };
}

/** `GET /api/github/authorize`: where to send the browser to authorize the App for the user. */
export async function startAuthorization(user: User): Promise<{ url: string }> {
  const k = key();
  const { access } = await accessHost();
  return { url: access.authorizeUrl(createState(k, user.id), null) };
}

/**
 * `POST /api/github/authorization`: completes the flow with the code GitHub redirected with. The state must
 * be one this user started less than `STATE_LIFETIME_MS` ago; the token must act for the GitHub account the
 * user signed in with (numeric ids), else it is revoked at once and nothing is stored (403).
 */
export async function completeAuthorization(user: User, input: { code: string; state: string }): Promise<{ github_login: string }> {
  const k = key();
  if (!verifyState(k, user.id, input.state)) throw invalidRequest('The authorization state is not one this session started, or it expired; start again.');
  const { access } = await accessHost();
  const db = await database();
  const [identity, tokens] = await Promise.all([
    githubIdentity(db, user.id),
    access.exchangeCode(input.code, null).catch((error: unknown) => {
      throw error instanceof UserTokenRefused ? invalidRequest('GitHub refused the authorization code (used already, or expired); start again.') : error;
    }),
  ]);
  const account = await access.user(tokens.accessToken);
  if (identity === null || identity.provider_id !== account.id) {
    await access.revoke(tokens.accessToken).catch(() => undefined);
    throw forbidden('The GitHub account you authorized is not the one you signed in with; sign in with that account, or authorize with yours.');
  }
  await store(db, k, user.id, account, tokens);
  return { github_login: account.login };
}

async function store(db: Database, k: Buffer, userId: string, account: { id: string; login: string }, tokens: UserTokens): Promise<void> {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  await storeGithubAuthorization(db, userId, {
    githubUserId: account.id,
    githubLogin: account.login.slice(0, 100),
    accessToken: sealToken(k, userId, tokens.accessToken),
    accessExpiresAt: iso(tokens.expiresAt),
    refreshToken: tokens.refreshToken === null ? null : sealToken(k, userId, tokens.refreshToken),
    refreshExpiresAt: iso(tokens.refreshExpiresAt),
  });
}

/**
 * `DELETE /api/github/authorization` (the web client calls it on sign-out): the token is revoked at GitHub
 * (best effort: a GitHub failure does not keep it stored), the stored tokens go, and so do the installations
 * the user reached only as a member, with their repositories and scans. Idempotent.
 */
export async function signOut(user: User): Promise<void> {
  const db = await database();
  const stored = await githubAuthorization(db, user.id);
  if (stored === null) return;
  const k = env().tokenEncryptionKey;
  const token = k === null || stored.access_token === null ? null : openToken(k, user.id, stored.access_token);
  if (token !== null) {
    const host = await codeHost();
    await host.userAccess?.revoke(token).catch(() => undefined);
  }
  await revokeGithubAuthorization(db, user.id);
}

const revokedError = () =>
  unauthorized('Your GitHub authorization was revoked or has expired; sign in again.', 'Bearer error="invalid_token", error_description="GitHub authorization revoked"');

/**
 * What a request may do through the user's GitHub access: `null` when they never authorized the App (they
 * reach only the installations they linked); a 401 when the authorization was revoked after this session
 * began (GitHub's `github_app_authorization` webhook, or sign-out elsewhere), which signs the web client out.
 */
export async function currentAuthorization(db: Database, user: User): Promise<StoredGithubAuthorization | null> {
  const stored = await githubAuthorization(db, user.id);
  if (stored === null) return null;
  if (stored.revoked_at !== null) {
    const revokedAt = Date.parse(stored.revoked_at) / 1000;
    if (user.issuedAt === undefined || user.issuedAt <= revokedAt) throw revokedError();
    return null;
  }
  return stored;
}

const refreshing = new Map<string, Promise<string>>();

/**
 * The user's access token, refreshed first when it expires within `REFRESH_MARGIN_MS` (one refresh per user
 * per process at a time: GitHub rotates the refresh token, so a second refresh with the old one would fail;
 * a refresh that another instance won is read back from the database). A token GitHub will not renew ends
 * the authorization (as a revocation does) and the request is a 401.
 */
export async function accessToken(db: Database, access: UserAccessHost, user: User, stored: StoredGithubAuthorization, force = false): Promise<string> {
  const k = key();
  const current = stored.access_token === null ? null : openToken(k, user.id, stored.access_token);
  const expiresAt = stored.access_expires_at === null ? null : Date.parse(stored.access_expires_at);
  if (!force && current !== null && (expiresAt === null || expiresAt - Date.now() > REFRESH_MARGIN_MS)) return current;
  const running = refreshing.get(user.id);
  if (running !== undefined) return running;
  const refresh = (async () => {
    const refreshToken = stored.refresh_token === null ? null : openToken(k, user.id, stored.refresh_token);
    if (refreshToken === null || (stored.refresh_expires_at !== null && Date.parse(stored.refresh_expires_at) <= Date.now())) {
      await revokeGithubAuthorization(db, user.id);
      throw revokedError();
    }
    try {
      const tokens = await access.refresh(refreshToken);
      await store(db, k, user.id, { id: stored.github_user_id, login: stored.github_login }, tokens);
      return tokens.accessToken;
    } catch (error) {
      if (!(error instanceof UserTokenRefused)) throw error;
      // Another instance may have refreshed first (the old refresh token is spent then): read its result.
      const again = await githubAuthorization(db, user.id);
      if (again !== null && again.access_token !== null && again.access_token !== stored.access_token) {
        const token = openToken(k, user.id, again.access_token);
        if (token !== null) return token;
      }
      await revokeGithubAuthorization(db, user.id);
      throw revokedError();
    }
  })();
  refreshing.set(user.id, refresh);
  try {
    return await refresh;
  } finally {
    refreshing.delete(user.id);
  }
}

/** Runs `fn` with the user's token; a token GitHub refuses ends the authorization and is a 401. */
export async function withUserToken<T>(db: Database, access: UserAccessHost, user: User, stored: StoredGithubAuthorization, fn: (token: string) => Promise<T>): Promise<T> {
  const attempt = async (force: boolean) => fn(await accessToken(db, access, user, stored, force));
  try {
    return await attempt(false);
  } catch (error) {
    if (!(error instanceof UserTokenRefused)) throw error;
  }
  // Refused before its recorded expiry (GitHub expired or rotated it early): one refresh, then once more.
  // A revoked authorization's refresh token is refused too, which ends it (accessToken).
  try {
    return await attempt(true);
  } catch (error) {
    if (error instanceof UserTokenRefused) {
      await revokeGithubAuthorization(db, user.id);
      throw revokedError();
    }
    throw error;
  }
}

// --- What a member can reach, cached briefly ------------------------------------------------------------

/** How long a scan trusts the user's repository listing of an installation: removal takes effect within this. */
export const MEMBER_ACCESS_CACHE_MS = 60_000;
const MEMBER_CACHE_ENTRIES = 10_000;
const listings = new Map<string, { at: number; githubUserId: string; repositories: Promise<HostedRepository[]> }>();
const listingKey = (userId: string, installationId: number) => `${userId}\0${installationId}`;

/**
 * The repositories of an installation the user can access, as GitHub lists them for their token: from this
 * process's cache when read less than `maxAgeMs` ago (a scan), else asked afresh (a sync asks with 0).
 * A 404 (the user no longer reaches the installation) is an empty list.
 */
export function memberRepositories(
  access: UserAccessHost,
  token: string,
  user: { id: string; githubUserId: string },
  installationId: number,
  maxAgeMs: number,
  now = Date.now(),
): Promise<HostedRepository[]> {
  const cacheKey = listingKey(user.id, installationId);
  const cached = listings.get(cacheKey);
  if (cached !== undefined && now - cached.at < maxAgeMs) return cached.repositories;
  const repositories = access.repositories(token, installationId).catch((error: unknown) => {
    listings.delete(cacheKey);
    if (error instanceof CodeHostError && error.kind === 'not_found') return [];
    throw error;
  });
  listings.delete(cacheKey);
  listings.set(cacheKey, { at: now, githubUserId: user.githubUserId, repositories });
  for (const oldest of listings.keys()) {
    if (listings.size <= MEMBER_CACHE_ENTRIES) break;
    listings.delete(oldest);
  }
  return repositories;
}

/**
 * Forgets cached listings: of one installation (an `installation_repositories` or `membership` delivery),
 * of one GitHub account (`organization` membership changes, a revoked authorization), or all.
 */
export function forgetMemberAccess(filter: { installationId?: number; githubUserId?: string } = {}): void {
  for (const [cacheKey, entry] of [...listings]) {
    const installationId = Number(cacheKey.split('\0')[1]);
    if (filter.installationId !== undefined && filter.installationId !== installationId) continue;
    if (filter.githubUserId !== undefined && filter.githubUserId !== entry.githubUserId) continue;
    listings.delete(cacheKey);
  }
}

/**
 * Throws unless the user may still scan a repository they reach as a member: GitHub must still list it for
 * their token (the listing trusted at most `MEMBER_ACCESS_CACHE_MS`; the `organization`, `membership` and
 * `installation_repositories` webhooks forget it earlier). When it no longer does, the repository goes from
 * the user's rows with its scans, and the scan is a 404; without an authorization the member link goes.
 */
export async function checkMemberScanEntitlement(
  db: Database,
  host: CodeHost,
  user: User,
  repository: { id: string; github_id: number; installation_id: number; full_name: string },
): Promise<void> {
  const stored = await currentAuthorization(db, user);
  if (stored === null || host.userAccess === undefined) {
    await unlinkInstallation(db, user.id, repository.installation_id);
    throw notFound('This repository came through your GitHub authorization, which is gone; authorize again to reach it.');
  }
  const access = host.userAccess;
  const listed = await withUserToken(db, access, user, stored, (token) =>
    memberRepositories(access, token, { id: user.id, githubUserId: stored.github_user_id }, repository.installation_id, MEMBER_ACCESS_CACHE_MS),
  );
  if (listed.some((r) => r.githubId === repository.github_id)) return;
  await removeUserRepository(db, user.id, repository.id);
  throw notFound(`GitHub no longer lets you access ${repository.full_name}, so it was removed from your repositories with its scans.`);
}

/**
 * A member repository's scan snapshot, read with the user's own token: the scan sees no more than the member
 * may (settings GitHub shows only to admins are reported unreadable), and spends the user's GitHub budget,
 * not the installation's. Without an authorization it is a 404, as the entitlement check says.
 */
export async function memberSnapshot(db: Database, host: CodeHost, user: User, locator: RepositoryLocator, options: FetchOptions): Promise<RepositorySnapshot> {
  const stored = await currentAuthorization(db, user);
  if (stored === null || host.userAccess === undefined) throw notFound('This repository came through your GitHub authorization, which is gone; authorize again to reach it.');
  const access = host.userAccess;
  return withUserToken(db, access, user, stored, (token) => access.fetchSnapshot(token, locator, options));
}
