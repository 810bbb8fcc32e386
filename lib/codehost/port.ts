import type { SettingsSnapshot } from '../engine/settings/snapshot.js';
import type { RepositoryFile } from '../engine/types.js';
import type { GitHubReader } from '../online/client.js';

/**
 * The code host as the service sees it: installations, their repositories, and one repository's scan
 * snapshot. Two adapters implement it: the GitHub App (production) and a local directory (`npm run dev`,
 * tests). Adapters take explicit options and never read the environment.
 */
export interface CodeHost {
  /** The installation's account as the code host reports it. Rejects with CodeHostError 'not_found' for an unknown installation. */
  getInstallation(installationId: number): Promise<InstallationAccount>;
  /**
   * `login`'s role in organization `org` as the installation sees it: `admin` (an owner of the organization),
   * `member` (any other active membership), or null when `login` has no active membership (none, or only a
   * pending invitation). With `userId` (GitHub's numeric user id, as text), the membership counts only when it
   * is that account's: a login can be renamed and taken by someone else, an id cannot.
   */
  organizationRole(installationId: number, org: string, login: string, userId?: string): Promise<OrganizationRole | null>;
  /** Every repository of the given installations (all pages, installations in parallel), in a stable order. */
  listRepositories(installationIds: readonly number[]): Promise<HostedRepository[]>;
  /** What a scan reads: the workflow surface's files and the settings snapshot. */
  fetchSnapshot(repository: RepositoryLocator, options?: FetchOptions): Promise<RepositorySnapshot>;
  /**
   * A reader of GitHub's REST API with the installation's token, for the online audits (lib/online). Only
   * hosts that are GitHub have it; without it a scan runs no online audit.
   */
  onlineReader?(installationId: number, options?: FetchOptions): Promise<GitHubReader>;
  /**
   * What is left of the installation's request budget as the code host last said, or null when unknown
   * (a host without budgets, or no request of this installation yet). Optional: test hosts leave it out.
   */
  budget?(installationId: number): { remaining: number; resetAt: number } | null;
  /**
   * False when asking this host costs no installation's request budget (the local directory host): the
   * callback's per-installation cap on membership checks does not apply. Absent: it costs requests.
   */
  readonly spendsInstallationBudget?: boolean;
  /**
   * The App's user authorization: what a person can reach through their own user-to-server token. Hosts
   * without it (test hosts) offer members nothing beyond the installation callback.
   */
  readonly userAccess?: UserAccessHost;
  /** The App's check runs (GitHub only; the installation needs "Checks: write"). Absent: no pull request check is published. */
  readonly checks?: ChecksHost;
}

/**
 * Check runs on a commit, with the installation's token (lib/services/monitor/pr-check.ts). Bodies are
 * GitHub's (`POST /repos/{owner}/{repo}/check-runs`); failures reject with CodeHostError.
 */
export interface ChecksHost {
  /** The App's check run named `name` on `headSha` with this `externalId`, or null (one request: the check runs of the commit). */
  find(installationId: number, fullName: string, headSha: string, name: string, externalId: string): Promise<CheckRunRef | null>;
  create(installationId: number, fullName: string, body: Readonly<Record<string, unknown>>): Promise<CheckRunRef>;
  update(installationId: number, fullName: string, checkRunId: number, body: Readonly<Record<string, unknown>>): Promise<CheckRunRef>;
  /**
   * The paths a pull request changes (renamed files under both names), with "Pull requests: read"; null when
   * GitHub lists only part of them (it stops at 3,000 files) or no longer knows the pull request.
   */
  pullRequestFiles(installationId: number, fullName: string, pullNumber: number): Promise<string[] | null>;
}

export interface CheckRunRef {
  id: number;
  htmlUrl: string;
  status: string;
  conclusion: string | null;
  /** Annotations the check run holds (each update appends its own). */
  annotationsCount: number;
}

/** Tokens of the App's user authorization; times in epoch ms, null when GitHub gave none (tokens that do not expire). */
export interface UserTokens {
  accessToken: string;
  expiresAt: number | null;
  refreshToken: string | null;
  refreshExpiresAt: number | null;
}

/**
 * The App's user authorization (GitHub's OAuth web flow for GitHub Apps) and what the user-to-server token
 * reaches. Tokens go in and out of these methods only: never into an error message or a log line. A token
 * (or code, or refresh token) GitHub refuses rejects with `UserTokenRefused`; other failures with CodeHostError.
 */
export interface UserAccessHost {
  /** Where the browser goes to authorize the App for the user; `state` comes back with the code. */
  authorizeUrl(state: string, redirectUri: string | null): string;
  /** Exchanges the code GitHub redirected with (once; GitHub refuses a second use). */
  exchangeCode(code: string, redirectUri: string | null): Promise<UserTokens>;
  /** New tokens from the refresh token (GitHub rotates it: the old one stops working). */
  refresh(refreshToken: string): Promise<UserTokens>;
  /** Revokes the token at GitHub (sign-out); a token GitHub no longer knows is revoked already. */
  revoke(accessToken: string): Promise<void>;
  /** The GitHub account the token acts for. */
  user(accessToken: string): Promise<{ id: string; login: string }>;
  /** The App's installations the user can reach (`GET /user/installations`, every page). */
  installations(accessToken: string): Promise<InstallationAccount[]>;
  /** The repositories of one installation the user can access (`GET /user/installations/{id}/repositories`, every page). */
  repositories(accessToken: string, installationId: number): Promise<HostedRepository[]>;
  /**
   * What a scan reads, with the user's token: a member's scan sees no more of a repository than they may
   * (settings only an admin may read are reported unreadable, as GitHub refuses them).
   */
  fetchSnapshot(accessToken: string, repository: RepositoryLocator, options?: FetchOptions): Promise<RepositorySnapshot>;
}

/** GitHub refused a user-to-server token (revoked, expired, or the authorization is gone): the user must authorize again. */
export class UserTokenRefused extends Error {
  override name = 'UserTokenRefused';
}

export type OrganizationRole = 'admin' | 'member';

export interface InstallationAccount {
  installationId: number;
  /** Login of the account the App is installed on. */
  account: string;
  /** `User` or `Organization` (the code host's own value). */
  accountType: string;
  /** The account's numeric id on the code host, as text (compared with the user's identity). */
  accountId: string;
}

/** A repository as the code host lists it; the database adds the service-side id. */
export interface HostedRepository {
  githubId: number;
  installationId: number;
  fullName: string;
  private: boolean;
  htmlUrl: string;
  defaultBranch: string;
}

export interface RepositoryLocator {
  installationId: number;
  /** `owner/name`. */
  fullName: string;
  /** The default branch as last synced; the snapshot reports the current one. */
  defaultBranch: string;
  /**
   * Visibility as last synced, when known. A repository known to be private is not asked for the
   * settings only public repositories are assessed on (fork-PR approval, runners): two requests fewer.
   */
  private?: boolean;
  /**
   * Read the files of this commit (40 hex digits) instead of the default branch's head: a push's commit, a
   * pull request's base or head. GitHub keeps every pull request's head commits in the base repository
   * (`refs/pull/<n>/head`), a fork's too, so the base repository's locator reads them; the settings are the
   * repository's own. A host without commits (the local directory) refuses it with 'not_found'.
   */
  ref?: string;
}

export interface FetchOptions {
  /** Abort every code-host request still running at this time (epoch ms), with CodeHostError 'timeout'. */
  deadline?: number;
  /** Read the files only (no settings area is asked for; the snapshot's `settings` are then empty, not to be used). */
  filesOnly?: boolean;
}

export interface RepositorySnapshot {
  /** The engine's input: workflows, local actions, Dependabot config (files the host truncated carry `unreadable`). */
  files: RepositoryFile[];
  settings: SettingsSnapshot;
  defaultBranch: string;
  /** The commit the files were read at (40 hex digits), when the code host knows it; links to the code name it. */
  commitSha?: string;
  /** How many requests the snapshot cost (for the request-budget benchmark and logs). */
  requests: number;
}

export type CodeHostErrorKind = 'not_found' | 'forbidden' | 'rate_limited' | 'unavailable' | 'timeout';

/** A code-host failure. The HTTP layer maps it: not_found 404/403 as the caller decides, the others 502/503. */
export class CodeHostError extends Error {
  override name = 'CodeHostError';
  readonly kind: CodeHostErrorKind;
  /** Seconds the code host asked us to wait, when it said. */
  readonly retryAfter: number | undefined;

  constructor(kind: CodeHostErrorKind, message: string, options: { retryAfter?: number; cause?: unknown } = {}) {
    super(message, { cause: options.cause });
    this.kind = kind;
    this.retryAfter = options.retryAfter;
  }
}
