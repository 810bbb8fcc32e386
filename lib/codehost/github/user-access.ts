import { isObject } from '../../engine/settings/json.js';
import { CodeHostError, UserTokenRefused, type HostedRepository, type InstallationAccount, type UserAccessHost, type UserTokens } from '../port.js';
import { fetchSnapshotWithToken } from './token.js';

/**
 * The GitHub App's user authorization (GitHub's "web application flow" for GitHub Apps) and what a
 * user-to-server token reaches. Plain fetch, no Octokit: a handful of requests, each with its own timeout.
 *
 * - The code is exchanged, and the token refreshed, at `${webUrl}/login/oauth/access_token` with the App's
 *   client id and secret; GitHub answers errors there with status 200 and an `error` field.
 * - `GET /user/installations` and `GET /user/installations/{id}/repositories` list exactly what both the
 *   installation and the person's own access allow (GitHub's intersection), every page.
 * - `DELETE /applications/{client_id}/token` revokes one token (basic authentication with the App's client
 *   credentials).
 *
 * No token, code or client secret enters an error message: errors carry GitHub's status and its `error`
 * code or `message` only.
 */
export interface GitHubUserAccessOptions {
  clientId: string;
  clientSecret: string;
  /** REST root (`https://api.github.com`; Enterprise Server `https://HOST/api/v3`). */
  apiUrl: string;
  /** Web root of the OAuth endpoints (`https://github.com`; Enterprise Server `https://HOST`). */
  webUrl: string;
  fetch?: typeof globalThis.fetch;
  /** Per request (default 10 s). */
  timeoutMs?: number;
  /** Octokit's retries and throttling of a member's snapshot (on by default; tests turn them off). */
  retry?: boolean;
  throttle?: boolean;
}

const PAGE_SIZE = 100;
/** At most this many pages of installations (10,000) and of one installation's repositories (100,000). */
const MAX_INSTALLATION_PAGES = 100;
const MAX_REPOSITORY_PAGES = 1_000;
const DEFAULT_TIMEOUT_MS = 10_000;
/** An answer larger than this is not one of GitHub's (a page of 100 repositories is about 600 KB). */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

export function createGitHubUserAccess(options: GitHubUserAccessOptions): UserAccessHost {
  const apiUrl = options.apiUrl.replace(/\/+$/, '');
  const webUrl = options.webUrl.replace(/\/+$/, '');
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const doFetch = (url: string, init: RequestInit) => (options.fetch ?? globalThis.fetch)(url, { ...init, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });

  async function send(what: string, url: string, init: RequestInit): Promise<{ status: number; headers: Headers; body: unknown }> {
    let response: Response;
    try {
      response = await doFetch(url, init);
    } catch (error) {
      const name = (error as { name?: string }).name;
      throw new CodeHostError(name === 'TimeoutError' || name === 'AbortError' ? 'timeout' : 'unavailable', `${what}: ${name === 'TimeoutError' ? 'no answer in time' : 'network error'}`);
    }
    const length = Number(response.headers.get('content-length') ?? '0');
    if (length > MAX_BODY_BYTES) throw new CodeHostError('unavailable', `${what}: the answer is too large`);
    const text = response.status === 204 ? '' : await response.text();
    if (text.length > MAX_BODY_BYTES) throw new CodeHostError('unavailable', `${what}: the answer is too large`);
    let body: unknown;
    try {
      body = text === '' ? null : JSON.parse(text);
    } catch {
      body = null;
    }
    return { status: response.status, headers: response.headers, body };
  }

  /** A failed REST answer as the caller should see it. */
  function failure(what: string, status: number, headers: Headers, body: unknown): Error {
    const message = isObject(body) && typeof body.message === 'string' ? body.message.replace(/\s+/g, ' ').slice(0, 200) : 'no message';
    if (status === 401) return new UserTokenRefused(`${what}: GitHub refused the user's authorization (${status} ${message})`);
    const retry = Number(headers.get('retry-after'));
    const reset = Number(headers.get('x-ratelimit-reset'));
    const retryAfter = Number.isFinite(retry) && headers.has('retry-after') ? retry : headers.get('x-ratelimit-remaining') === '0' && Number.isFinite(reset) ? Math.max(1, Math.ceil(reset - Date.now() / 1000)) : undefined;
    if ((status === 403 || status === 429) && (retryAfter !== undefined || /rate limit/i.test(message))) {
      return new CodeHostError('rate_limited', `${what}: ${status} ${message}`, retryAfter === undefined ? {} : { retryAfter });
    }
    if (status === 404 || status === 410) return new CodeHostError('not_found', `${what}: ${status} ${message}`);
    if (status === 403) return new CodeHostError('forbidden', `${what}: ${status} ${message}`);
    return new CodeHostError('unavailable', `${what}: ${status} ${message}`);
  }

  async function rest(what: string, token: string, path: string): Promise<unknown> {
    const { status, headers, body } = await send(what, `${apiUrl}${path}`, {
      headers: { accept: 'application/vnd.github+json', authorization: `Bearer ${token}`, 'user-agent': 'chainbreaker', 'x-github-api-version': '2022-11-28' },
    });
    if (status !== 200) throw failure(what, status, headers, body);
    return body;
  }

  /** Every page of a `{total_count, <key>: [...]}` listing: the first page says how many follow, asked for together. */
  async function pages(what: string, token: string, path: string, key: string, maxPages: number): Promise<Record<string, unknown>[]> {
    const page = async (n: number) => {
      const body = await rest(what, token, `${path}?per_page=${PAGE_SIZE}&page=${n}`);
      const items = isObject(body) ? body[key] : undefined;
      if (!isObject(body) || !Array.isArray(items) || typeof body.total_count !== 'number') {
        throw new CodeHostError('unavailable', `${what}: GitHub's answer is not a listing`);
      }
      return { total: body.total_count, items: items.filter(isObject) };
    };
    const first = await page(1);
    const count = Math.min(maxPages, Math.ceil(first.total / PAGE_SIZE));
    const rest_ = await Promise.all(Array.from({ length: Math.max(0, count - 1) }, (_, i) => page(i + 2)));
    return [first, ...rest_].flatMap((p) => p.items);
  }

  async function tokenRequest(what: string, parameters: Record<string, string>): Promise<UserTokens> {
    const { status, headers, body } = await send(what, `${webUrl}/login/oauth/access_token`, {
      method: 'POST',
      headers: { accept: 'application/json', 'content-type': 'application/json', 'user-agent': 'chainbreaker' },
      body: JSON.stringify({ client_id: options.clientId, client_secret: options.clientSecret, ...parameters }),
    });
    if (status !== 200) throw failure(what, status, headers, body);
    if (!isObject(body)) throw new CodeHostError('unavailable', `${what}: GitHub's answer is not JSON`);
    if (typeof body.error === 'string') {
      // bad_verification_code, bad_refresh_token, incorrect_client_credentials, unverified_user_email...
      const code = body.error.replace(/[^a-z_]/g, '').slice(0, 60);
      if (code === 'incorrect_client_credentials' || code === 'redirect_uri_mismatch') throw new CodeHostError('unavailable', `${what}: GitHub says ${code} (the App's OAuth configuration)`);
      throw new UserTokenRefused(`${what}: GitHub says ${code}`);
    }
    if (typeof body.access_token !== 'string' || body.access_token === '' || body.access_token.length > 1000) {
      throw new CodeHostError('unavailable', `${what}: GitHub's answer holds no token`);
    }
    const now = Date.now();
    const seconds = (value: unknown) => (typeof value === 'number' && Number.isFinite(value) && value > 0 ? now + value * 1000 : null);
    return {
      accessToken: body.access_token,
      expiresAt: seconds(body.expires_in),
      refreshToken: typeof body.refresh_token === 'string' && body.refresh_token !== '' && body.refresh_token.length <= 1000 ? body.refresh_token : null,
      refreshExpiresAt: seconds(body.refresh_token_expires_in),
    };
  }

  return {
    authorizeUrl(state, redirectUri) {
      const url = new URL(`${webUrl}/login/oauth/authorize`);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('state', state);
      url.searchParams.set('allow_signup', 'false');
      if (redirectUri !== null) url.searchParams.set('redirect_uri', redirectUri);
      return url.toString();
    },

    exchangeCode(code, redirectUri) {
      return tokenRequest('the authorization code', { code, ...(redirectUri === null ? {} : { redirect_uri: redirectUri }) });
    },

    refresh(refreshToken) {
      return tokenRequest("the user's refresh token", { grant_type: 'refresh_token', refresh_token: refreshToken });
    },

    async revoke(accessToken) {
      const what = "revoking the user's token";
      const basic = Buffer.from(`${options.clientId}:${options.clientSecret}`).toString('base64');
      const { status, headers, body } = await send(what, `${apiUrl}/applications/${encodeURIComponent(options.clientId)}/token`, {
        method: 'DELETE',
        headers: { accept: 'application/vnd.github+json', authorization: `Basic ${basic}`, 'content-type': 'application/json', 'user-agent': 'chainbreaker' },
        body: JSON.stringify({ access_token: accessToken }),
      });
      // 404/422: GitHub no longer knows the token, so it is revoked already.
      if (status === 204 || status === 404 || status === 422) return;
      throw failure(what, status, headers, body);
    },

    async user(accessToken) {
      const body = await rest('the authorized GitHub account', accessToken, '/user');
      if (!isObject(body) || typeof body.login !== 'string' || (typeof body.id !== 'number' && typeof body.id !== 'string')) {
        throw new CodeHostError('unavailable', "the authorized GitHub account: GitHub's answer names no account");
      }
      return { id: String(body.id), login: body.login };
    },

    async installations(accessToken) {
      const items = await pages("the user's installations", accessToken, '/user/installations', 'installations', MAX_INSTALLATION_PAGES);
      const out: InstallationAccount[] = [];
      for (const item of items) {
        const account = item.account;
        const login = isObject(account) ? (account.login ?? account.slug) : undefined;
        if (typeof item.id !== 'number' || !Number.isSafeInteger(item.id) || item.id <= 0 || !isObject(account) || typeof login !== 'string' || login === '') continue;
        out.push({ installationId: item.id, account: login, accountType: typeof account.type === 'string' ? account.type : 'Enterprise', accountId: String(account.id) });
      }
      return out;
    },

    async repositories(accessToken, installationId) {
      const items = await pages(`the user's repositories of installation ${installationId}`, accessToken, `/user/installations/${installationId}/repositories`, 'repositories', MAX_REPOSITORY_PAGES);
      return items
        .filter((r) => typeof r.id === 'number' && typeof r.full_name === 'string')
        .map((r) => ({
          githubId: Number(r.id),
          installationId,
          fullName: String(r.full_name),
          private: r.private === true,
          htmlUrl: String(r.html_url),
          defaultBranch: typeof r.default_branch === 'string' ? r.default_branch : '',
        })) satisfies HostedRepository[];
    },

    fetchSnapshot(accessToken, repository, fetchOptions = {}) {
      // The same requests and mapping as the App's snapshot (and the CLI's --github), with the user's rights.
      return fetchSnapshotWithToken({
        token: accessToken,
        fullName: repository.fullName,
        baseUrl: apiUrl,
        ...(options.fetch === undefined ? {} : { fetch: options.fetch }),
        ...(options.retry === undefined ? {} : { retry: options.retry }),
        ...(options.throttle === undefined ? {} : { throttle: options.throttle }),
        ...(fetchOptions.deadline === undefined ? {} : { deadline: fetchOptions.deadline }),
      });
    },
  };
}
