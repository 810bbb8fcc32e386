import { App } from '@octokit/app';
import { createPrivateKey, sign, type KeyObject } from 'node:crypto';
import { isObject } from '../../engine/settings/json.js';
import { CodeHostError, type CodeHost, type FetchOptions, type HostedRepository, type InstallationAccount, type RepositoryLocator, type RepositorySnapshot } from '../port.js';
import { bindRequest, DEFAULT_BASE_URL, octokitClass, type ClientOptions, type GitHubOctokit } from './client.js';
import { BudgetBook } from './budget.js';
import { withDeadline, type Deadline } from './deadline.js';
import { fetchReader } from '../../online/client.js';
import { codeHostError, describeFailure } from './errors.js';
import { fetchRepositorySnapshot, OPTIONAL_AREA_RESERVE_MS } from './snapshot.js';
import { createGitHubUserAccess } from './user-access.js';
import { createChecksHost } from './checks.js';

export { fetchSnapshotWithToken, type TokenSnapshotOptions } from './token.js';

/**
 * The GitHub adapter of the code host port: a GitHub App (`GITHUB_APP_ID` + `GITHUB_APP_PRIVATE_KEY`,
 * handed over by lib/env.ts) acting through its installations. Create it once per process: installation
 * tokens are cached in it. Design, request costs and permissions: README.md beside this file.
 */
export interface GitHubCodeHostOptions extends ClientOptions {
  appId: string | number;
  /** The App's private key (PEM, PKCS#1 or PKCS#8). Never logged, never put in an error. */
  privateKey: string;
  /** An installation token with less than this left is renewed before use (default 5 minutes). */
  tokenRefreshMarginMs?: number;
  /** Deadline of the operations the port gives none (installation, membership, listing), in ms (default 20 s). */
  timeoutMs?: number;
  /** The App's OAuth client credentials, for its user authorization (`userAccess`); absent: members have none. */
  oauth?: { clientId: string; clientSecret: string; webUrl: string };
}

export interface GitHubCodeHost extends CodeHost {
  /** REST root the adapter talks to. */
  readonly apiUrl: string;
}

const DEFAULT_TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;
/** `GET /installation/repositories` pages: GitHub's largest, and at most this many (100,000 repositories). */
const PAGE_SIZE = 100;
const MAX_PAGES = 1_000;
const DEFAULT_TIMEOUT_MS = 20_000;

/** What `@octokit/auth-app` answers for `auth({ type: 'installation' })`. */
interface InstallationToken {
  createdAt: string;
  expiresAt: string;
  permissions: Record<string, string>;
}

interface Installation {
  octokit: GitHubOctokit;
  permissions: Readonly<Record<string, string>>;
  /** Whether this call waited for GitHub to issue a token (the cache had none fresh enough). */
  tokenRequested: boolean;
}

export function createGitHubCodeHost(options: GitHubCodeHostOptions): GitHubCodeHost {
  const apiUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  const createJwt = appJwtSigner(options.privateKey);
  const app = new App({
    appId: Number(options.appId),
    privateKey: options.privateKey,
    // Every Octokit of the App (its own and each installation's) signs its JWTs with the key parsed once.
    Octokit: octokitClass(options).defaults((octokitOptions: Record<string, unknown>) => {
      const auth = octokitOptions.auth;
      if (!isObject(auth) || auth.privateKey === undefined) return octokitOptions;
      const { privateKey: _privateKey, ...rest } = auth;
      return { ...octokitOptions, auth: { ...rest, createJwt } };
    }),
    log: { debug: () => {}, info: () => {}, warn: (m: string) => options.log?.warn(m), error: (m: string) => options.log?.error(m) },
  });
  const margin = options.tokenRefreshMarginMs ?? DEFAULT_TOKEN_REFRESH_MARGIN_MS;
  const budgets = new BudgetBook();
  const observe = (installationId: number) => (headers: Headers) => budgets.observe(installationId, headers);
  const timeout = () => Date.now() + (options.timeoutMs ?? DEFAULT_TIMEOUT_MS);

  /**
   * An installation's Octokit and its token's permissions. `@octokit/auth-app` caches tokens in the App
   * (LRU, 59 minutes from issue, ignoring `expires_at`); a token nearer its `expires_at` than `margin` is
   * renewed here, so no operation starts on a token about to expire.
   */
  async function installation(installationId: number, deadline: Deadline): Promise<Installation> {
    const octokit = (await app.getInstallationOctokit(installationId)) as unknown as GitHubOctokit;
    const started = Date.now();
    try {
      let token = (await deadline.race(octokit.auth({ type: 'installation' }))) as InstallationToken;
      if (Date.parse(token.expiresAt) - Date.now() < margin) {
        token = (await deadline.race(octokit.auth({ type: 'installation', refresh: true }))) as InstallationToken;
      }
      return { octokit, permissions: token.permissions, tokenRequested: Date.parse(token.createdAt) >= started };
    } catch (error) {
      throw codeHostError(error, `installation ${installationId}`);
    }
  }

  const userAccess =
    options.oauth === undefined
      ? undefined
      : createGitHubUserAccess({
          ...options.oauth,
          apiUrl,
          ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
          ...(options.retry === undefined ? {} : { retry: options.retry }),
          ...(options.throttle === undefined ? {} : { throttle: options.throttle }),
        });

  const checks = createChecksHost(async (installationId) => {
    // Each check-run request has the operations' default deadline; the installation's token is cached.
    const deadline = timeout();
    const signal = AbortSignal.timeout(Math.max(1, deadline - Date.now()));
    const { octokit } = await withDeadline(deadline, (d) => installation(installationId, d));
    return bindRequest(octokit, signal, options, observe(installationId)).request;
  });

  return {
    apiUrl,
    checks,
    ...(userAccess === undefined ? {} : { userAccess }),

    budget(installationId) {
      return budgets.budget(installationId);
    },

    getInstallation(installationId) {
      return withDeadline(timeout(), async (deadline): Promise<InstallationAccount> => {
        try {
          const { data } = await app.octokit.request('GET /app/installations/{installation_id}', { installation_id: installationId, request: { signal: deadline.signal } });
          const account: unknown = data.account;
          const login = isObject(account) ? (account.login ?? account.slug) : undefined;
          if (!isObject(account) || typeof login !== 'string') throw new CodeHostError('unavailable', `installation ${installationId}: GitHub's answer names no account`);
          return { installationId, account: login, accountType: typeof account.type === 'string' ? account.type : 'Enterprise', accountId: String(account.id) };
        } catch (error) {
          throw codeHostError(error, `installation ${installationId}`);
        }
      });
    },

    /**
     * `GET /orgs/{org}/memberships/{username}` with the installation's token, which needs the organization
     * permission "Members: read". Only an active membership counts: a pending invitation is not one yet.
     * Unlike `GET /orgs/{org}/members/{username}`, it never redirects to the public member list, and it
     * names the role (`admin` for the organization's owners; `member`, `billing_manager`... read as member).
     */
    organizationRole(installationId, org, login, userId) {
      return withDeadline(timeout(), async (deadline) => {
        const { octokit, permissions } = await installation(installationId, deadline);
        if (permissions.members === undefined) {
          throw new CodeHostError('forbidden', `installation ${installationId}: the App has no "Members: read" organization permission, so membership in ${org} cannot be checked`);
        }
        try {
          const { data } = await bindRequest(octokit, deadline.signal, options, observe(installationId)).request('GET /orgs/{org}/memberships/{username}', { org, username: login });
          if (!isObject(data) || data.state !== 'active') return null;
          // The login was looked up; the account it names now must be the one we know by id (renamed logins).
          if (userId !== undefined && !(isObject(data.user) && String(data.user.id) === userId)) return null;
          return data.role === 'admin' ? 'admin' : 'member';
        } catch (error) {
          if (describeFailure(error).kind === 'not_found') return null;
          throw codeHostError(error, `membership of ${login} in ${org}`);
        }
      });
    },

    listRepositories(installationIds) {
      return withDeadline(timeout(), async (deadline) => {
        const ids = [...new Set(installationIds)];
        const lists = await Promise.all(
          ids.map(async (installationId) => {
            const { octokit } = await installation(installationId, deadline);
            const { request } = bindRequest(octokit, deadline.signal, options, observe(installationId));
            const page = async (n: number): Promise<{ total: number; repositories: unknown[] }> => {
              const { data } = await request('GET /installation/repositories', { per_page: PAGE_SIZE, page: n });
              const body: unknown = data;
              // A page that is not GitHub's shape must not read as "no repositories": that would look like they had gone.
              if (!isObject(body) || !Array.isArray(body.repositories) || typeof body.total_count !== 'number') {
                throw new CodeHostError('unavailable', `repositories of installation ${installationId}: GitHub's answer is not a repository list`);
              }
              return { total: body.total_count, repositories: body.repositories };
            };
            try {
              // The first page's total_count tells how many pages follow: they are asked for together, so a
              // listing of any size is two round trips rather than one per page.
              const first = await page(1);
              const pages = Math.min(MAX_PAGES, Math.ceil(first.total / PAGE_SIZE));
              const rest = await Promise.all(Array.from({ length: Math.max(0, pages - 1) }, (_, i) => page(i + 2)));
              return [first, ...rest]
                .flatMap((p) => p.repositories)
                .filter(isObject)
                .map((r) => hostedRepository(installationId, r));
            } catch (error) {
              throw codeHostError(error, `repositories of installation ${installationId}`);
            }
          }),
        );
        return lists.flat().sort((a, b) => a.installationId - b.installationId || compare(a.fullName.toLowerCase(), b.fullName.toLowerCase()) || a.githubId - b.githubId);
      });
    },

    fetchSnapshot(locator: RepositoryLocator, fetchOptions: FetchOptions = {}) {
      return withDeadline(fetchOptions.deadline ?? timeout(), async (deadline): Promise<RepositorySnapshot> => {
        const { octokit, permissions, tokenRequested } = await installation(locator.installationId, deadline);
        const bound = bindRequest(octokit, deadline.signal, options, observe(locator.installationId));
        const target = { ...locator, ...(fetchOptions.filesOnly === true ? { filesOnly: true } : {}) };
        const snapshot = await fetchRepositorySnapshot({ request: bound.request, permissions, apiUrl, optionalSignal: deadline.early(OPTIONAL_AREA_RESERVE_MS) }, target);
        return { ...snapshot, requests: bound.count + (tokenRequested ? 1 : 0) };
      });
    },

    /** The installation's token (already cached by the snapshot that came before) on a plain fetch reader. */
    onlineReader(installationId, fetchOptions: FetchOptions = {}) {
      return withDeadline(fetchOptions.deadline ?? timeout(), async (deadline) => {
        const { octokit } = await installation(installationId, deadline);
        const { token } = (await deadline.race(octokit.auth({ type: 'installation' }))) as { token: string };
        return fetchReader({ token, baseUrl: apiUrl, fetch: options.fetch });
      });
    },
  };
}

/**
 * The App's JWT signer, as `@octokit/auth-app`'s `createJwt` option. The key is parsed once, here: a
 * malformed key fails at construction (cold start) instead of at the first scan, and no JWT re-imports it.
 * Left to itself, auth-app parses the PEM and imports it through WebCrypto for every JWT, and a key import
 * fails ("asn1 encoding routines::too long") when unrelated work left an entry in OpenSSL's error queue,
 * as msw's error paths do in tests.
 */
function appJwtSigner(privateKey: string): (appId: string | number, timeDifference?: number) => Promise<{ jwt: string; expiresAt: string }> {
  const key: KeyObject = createPrivateKey(privateKey);
  const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return async (appId, timeDifference = 0) => {
    // Issued 30 s in the past against clock drift and valid 10 minutes (GitHub's maximum), as auth-app does.
    const issuedAt = Math.floor(Date.now() / 1000) + timeDifference - 30;
    const expiresAt = issuedAt + 600;
    const input = `${encode({ alg: 'RS256', typ: 'JWT' })}.${encode({ iat: issuedAt, exp: expiresAt, iss: Number(appId) })}`;
    const signature = sign('sha256', Buffer.from(input), key).toString('base64url');
    return { jwt: `${input}.${signature}`, expiresAt: new Date(expiresAt * 1000).toISOString() };
  };
}

function hostedRepository(installationId: number, r: Record<string, unknown>): HostedRepository {
  return {
    githubId: Number(r.id),
    installationId,
    fullName: String(r.full_name),
    private: r.private === true,
    htmlUrl: String(r.html_url),
    defaultBranch: typeof r.default_branch === 'string' ? r.default_branch : '',
  };
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
