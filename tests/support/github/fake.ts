import { randomBytes, type KeyObject } from 'node:crypto';
import { jwtVerify } from 'jose';
import { delay, http, HttpResponse, type HttpHandler } from 'msw';
import type { SettingsSnapshot } from '../../../lib/engine/settings/snapshot.js';
import { executeGraphQL, type GraphQLRequest, type Viewer } from './graphql.js';
import { testAppCredentials } from './keys.js';
import {
  blobOid,
  buildTree,
  defaultSettings,
  fakeOid,
  fileText,
  findNode,
  FULL_PERMISSIONS,
  type FakeAccount,
  type FakeCheckRun,
  type FakeFile,
  type FakeInstallation,
  type FakeRepository,
  type FakeUser,
  type Permissions,
  type TreeNode,
} from './model.js';
import { errorBody, installationBody, listedRepositoryBody, membershipBody, repositoryBody } from './rest.js';

/**
 * A stateful fake of GitHub's REST and GraphQL APIs for msw: installations of one GitHub App (with their
 * accounts and token permissions), repositories (files and settings snapshots), organization memberships
 * and personal tokens. It counts requests per route, injects faults (5xx, delays, rate limits, malformed
 * GraphQL, network errors) and adds a fixed latency to every request. See README.md beside this file.
 */

export interface FakeGitHubOptions {
  /** REST root (default `https://api.github.com`); GraphQL is `<root>/graphql`. */
  baseUrl?: string;
  /** The App whose JWTs are accepted (default: `testAppCredentials()`). */
  app?: { id: number; publicKey: KeyObject; slug?: string };
  /** Added to every request before it is answered (the benchmark uses 50). */
  latencyMs?: number;
  /** The clock that dates tokens (`expires_at`); default `Date.now`. */
  now?: () => number;
}

export interface FakeInstallationInit {
  id: number;
  account: FakeAccount;
  /** The token's permissions (default `FULL_PERMISSIONS`; `members` and `organization_administration` only for organizations). */
  permissions?: Permissions;
  tokenLifetimeMs?: number;
  suspended?: boolean;
}

export interface FakeRepositoryInit {
  /** `owner/name`; the owner is the installation's account when the installation names one. */
  fullName: string;
  installationId?: number;
  id?: number;
  /** Default `public`. */
  visibility?: 'public' | 'private' | 'internal';
  /** Default `main`. */
  defaultBranch?: string;
  files?: Record<string, FakeFile>;
  /**
   * Settings as REST bodies, like tests/fixtures/settings (areas not given take GitHub's defaults for a new
   * repository). Areas named in `unreadable` answer 403 with that reason. `codeowners: true` with no
   * CODEOWNERS among the files adds `.github/CODEOWNERS`.
   */
  settings?: SettingsSnapshot;
  empty?: boolean;
}

export type Fault =
  /** Answer with this status and a GitHub error body. */
  | { kind: 'status'; status: number; message?: string }
  /** Wait this long, then answer normally (a deadline shorter than that makes it a timeout). */
  | { kind: 'delay'; ms: number }
  /** 403 "You have exceeded a secondary rate limit" with `retry-after`. */
  | { kind: 'secondary-rate-limit'; retryAfter: number }
  /** 403 with `x-ratelimit-remaining: 0` (the primary limit), resetting in this many seconds. */
  | { kind: 'rate-limit'; resetInSeconds: number }
  /** 200 with a GraphQL `errors` array (and `data`, null by default). */
  | { kind: 'graphql-errors'; errors?: Array<Record<string, unknown>>; data?: unknown }
  /** 200 with this body verbatim (malformed JSON, a body without `data`, ...). */
  | { kind: 'body'; body: string; contentType?: string }
  /** The connection fails (fetch rejects). */
  | { kind: 'network' };

export interface RecordedRequest {
  method: string;
  /** GitHub's route template: `GET /repos/{owner}/{repo}/hooks`, `POST /graphql`. */
  route: string;
  /** Path and query as sent. */
  url: string;
  /** `owner/name` for repository routes and GraphQL queries about one repository. */
  repository?: string;
  /** GraphQL operation name. */
  operation?: string;
  /** `invalid`: a credential GitHub does not accept (answered 401 whatever the route). */
  auth: 'app' | 'installation' | 'user' | 'app-user' | 'client' | 'none' | 'invalid';
  installationId?: number;
  status?: number;
  /** `performance.now()` when the request arrived and when its answer was ready. */
  startedAt: number;
  endedAt?: number;
}

type Identity =
  | { kind: 'app' }
  | { kind: 'installation'; installation: FakeInstallation }
  | { kind: 'user'; user: FakeUser }
  /** A user-to-server token of the App's user authorization. */
  | { kind: 'app-user'; user: FakeAppUser }
  /** The App's OAuth client credentials (basic authentication). */
  | { kind: 'client' }
  | { kind: 'none' }
  | { kind: 'invalid'; message: string };

interface Context {
  request: Request;
  url: URL;
  params: Record<string, string>;
  identity: Identity;
  record: RecordedRequest;
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  keys: string[];
  handle(context: Context): Promise<Response> | Response;
}

interface FaultRule {
  route: string;
  fault: Fault;
  remaining: number;
  repository: string | undefined;
}

const NOT_ACCESSIBLE = 'Resource not accessible by integration';

/** A GitHub account that can authorize the App (its user authorization), with the repositories it may access. */
export interface FakeAppUser {
  id: number;
  login: string;
  /** Lower-cased `owner/name` of repositories the account has explicit access to (collaborator, team). */
  repositories: Set<string>;
}

/** The App's OAuth client (`GITHUB_APP_CLIENT_ID` / `GITHUB_APP_CLIENT_SECRET` of the tests). */
export const FAKE_OAUTH_CLIENT = { clientId: 'Iv23liTestClient01', clientSecret: 'test-client-secret-0123456789abcdef' } as const;
/** How long GitHub's user-to-server tokens and refresh tokens live. */
const USER_TOKEN_SECONDS = 28_800;
const REFRESH_TOKEN_SECONDS = 15_811_200;

export class FakeGitHub {
  readonly baseUrl: string;
  latencyMs: number;
  /** Entries a recursive tree lists before GitHub cuts it (`truncated: true`); GitHub's limit is 100,000. */
  treeLimit = 100_000;
  readonly requests: RecordedRequest[] = [];
  readonly app: { id: number; publicKey: KeyObject; slug: string };
  private readonly now: () => number;
  private readonly installations = new Map<number, FakeInstallation>();
  private readonly repositories = new Map<string, FakeRepository>();
  private readonly memberships = new Map<string, { state: string; role: string; id: number }>();
  private readonly users = new Map<string, FakeUser>();
  private readonly tokens = new Map<string, { installationId: number; expiresAt: number }>();
  private readonly faults: FaultRule[] = [];
  private readonly routes: Route[];
  private readonly appUsers = new Map<string, FakeAppUser>();
  private readonly codes = new Map<string, string>();
  private readonly appUserTokens = new Map<string, { login: string; expiresAt: number }>();
  private readonly refreshTokens = new Map<string, string>();
  /** The web root of the OAuth endpoints (`https://github.com` for the public API). */
  readonly webUrl: string;
  private nextId = 700_000_000;
  private readonly runs = new Map<number, FakeCheckRun>();

  constructor(options: FakeGitHubOptions = {}) {
    this.baseUrl = (options.baseUrl ?? 'https://api.github.com').replace(/\/+$/, '');
    this.webUrl = this.baseUrl === 'https://api.github.com' ? 'https://github.com' : this.baseUrl.replace(/\/api\/v3$/, '');
    this.latencyMs = options.latencyMs ?? 0;
    this.now = options.now ?? Date.now;
    const app = options.app ?? { id: testAppCredentials().appId, publicKey: testAppCredentials().publicKey };
    this.app = { slug: 'chainbreaker', ...app };
    this.routes = this.defineRoutes();
  }

  // --- State -------------------------------------------------------------------------------------

  addInstallation(init: FakeInstallationInit): FakeInstallation {
    const organizationOnly = ['members', 'organization_administration'];
    const permissions =
      init.permissions ?? Object.fromEntries(Object.entries(FULL_PERMISSIONS).filter(([key]) => init.account.type === 'Organization' || !organizationOnly.includes(key)));
    const installation: FakeInstallation = {
      id: init.id,
      account: init.account,
      permissions: { ...permissions },
      tokenLifetimeMs: init.tokenLifetimeMs ?? 60 * 60_000,
      suspended: init.suspended ?? false,
    };
    this.installations.set(init.id, installation);
    return installation;
  }

  addRepository(init: FakeRepositoryInit): FakeRepository {
    const [ownerLogin = '', name = ''] = init.fullName.split('/');
    const installation = init.installationId === undefined ? undefined : this.installations.get(init.installationId);
    const owner = installation?.account.login === ownerLogin ? installation.account : { login: ownerLogin, id: this.id(), type: 'Organization' as const };
    const files = new Map(Object.entries(init.files ?? {}));
    const settings: SettingsSnapshot = { ...defaultSettings(), ...init.settings };
    if (settings.codeowners === true && !['CODEOWNERS', '.github/CODEOWNERS', 'docs/CODEOWNERS'].some((p) => files.has(p))) {
      files.set('.github/CODEOWNERS', '* @acme/maintainers\n');
    }
    const repository: FakeRepository = {
      id: init.id ?? this.id(),
      owner,
      name,
      fullName: init.fullName,
      installationId: init.installationId ?? null,
      visibility: init.visibility ?? 'public',
      defaultBranch: init.defaultBranch ?? 'main',
      empty: init.empty ?? false,
      files,
      settings,
      createdAt: '2023-01-17T08:05:12Z',
      commits: new Map(),
    };
    this.repositories.set(init.fullName.toLowerCase(), repository);
    return repository;
  }

  /** The repository's mutable state (rename its default branch, change files or settings). */
  repository(fullName: string): FakeRepository {
    const repository = this.repositories.get(fullName.toLowerCase());
    if (repository === undefined) throw new Error(`no fake repository ${fullName}`);
    return repository;
  }

  /**
   * A commit of the repository with these files (a push's commit, a pull request's base or head, a fork's
   * head included: GitHub keeps pull requests' head commits in the base repository); returns its SHA.
   * `sha` names it (40 hex digits); by default one is made from the repository and the files.
   */
  addCommit(fullName: string, files: Record<string, FakeFile>, sha?: string): string {
    const repository = this.repository(fullName);
    const id = sha ?? fakeOid(`commit:${repository.fullName}:${repository.commits.size}:${JSON.stringify(files)}`);
    repository.commits.set(id, new Map(Object.entries(files)));
    return id;
  }

  /**
   * The files pull request `number` of `fullName` changes (`GET .../pulls/{n}/files`): a path, or a rename with
   * its previous name. A pull request without any is unknown to the fake (404, as GitHub answers for one).
   */
  setPullRequestFiles(fullName: string, number: number, files: readonly (string | { filename: string; previous_filename: string })[]): void {
    this.pullFiles.set(`${fullName.toLowerCase()}#${number}`, files.map((f) => (typeof f === 'string' ? { filename: f } : f)));
  }

  private readonly pullFiles = new Map<string, { filename: string; previous_filename?: string }[]>();

  /** The check runs of a repository (`owner/name`), oldest first; of every repository without one. */
  checkRuns(fullName?: string): FakeCheckRun[] {
    return [...this.runs.values()].filter((r) => fullName === undefined || r.repository === fullName.toLowerCase());
  }

  installation(id: number): FakeInstallation {
    const installation = this.installations.get(id);
    if (installation === undefined) throw new Error(`no fake installation ${id}`);
    return installation;
  }

  /**
   * `member`: a login, or an account with GitHub's numeric id (as a test identity has it). A bare login is the
   * App user or token user of that login when there is one, else an account the fake makes up once.
   */
  addMember(org: string, member: string | { login: string; id: string | number }, state: 'active' | 'pending' = 'active', role: 'member' | 'admin' = 'member'): void {
    const login = typeof member === 'string' ? member : member.login;
    const id = typeof member === 'string' ? this.accountId(login) : Number(member.id);
    this.memberships.set(`${org.toLowerCase()}/${login.toLowerCase()}`, { state, role, id });
  }

  private readonly madeUpIds = new Map<string, number>();

  private accountId(login: string): number {
    const key = login.toLowerCase();
    const known = [...this.appUsers.values(), ...this.users.values()].find((u) => u.login.toLowerCase() === key);
    if (known !== undefined) return known.id;
    let id = this.madeUpIds.get(key);
    if (id === undefined) this.madeUpIds.set(key, (id = this.id()));
    return id;
  }

  /** The account behind a login is now another one (a renamed login taken over): same login, a new id. */
  reassignLogin(org: string, login: string): void {
    const membership = this.memberships.get(`${org.toLowerCase()}/${login.toLowerCase()}`);
    if (membership !== undefined) membership.id = this.id();
  }

  /** The account leaves the organization (or its invitation is withdrawn). */
  removeMember(org: string, login: string): void {
    this.memberships.delete(`${org.toLowerCase()}/${login.toLowerCase()}`);
  }

  /** A personal token: read access to every repository, or an owner's rights (admin everywhere) with `admin`. */
  addUserToken(token: string, user: { login: string; id?: number; admin?: boolean }): void {
    this.users.set(token, { login: user.login, id: user.id ?? this.id(), admin: user.admin ?? false });
  }

  // --- The App's user authorization --------------------------------------------------------------

  /** An account that can authorize the App; `repositories`: those it has explicit access to. */
  addAppUser(login: string, options: { id?: number; repositories?: readonly string[] } = {}): FakeAppUser {
    const user: FakeAppUser = { id: options.id ?? this.id(), login, repositories: new Set((options.repositories ?? []).map((r) => r.toLowerCase())) };
    this.appUsers.set(login.toLowerCase(), user);
    return user;
  }

  /** Gives or takes the account's access to a repository (a team it joined or left, a collaborator added or removed). */
  setRepositoryAccess(login: string, fullName: string, access: boolean): void {
    const user = this.appUsers.get(login.toLowerCase());
    if (user === undefined) throw new Error(`no app user ${login}`);
    if (access) user.repositories.add(fullName.toLowerCase());
    else user.repositories.delete(fullName.toLowerCase());
  }

  /** The code GitHub's redirect carries after `login` authorized the App (single use, as on GitHub). */
  authorizationCode(login: string): string {
    const code = randomBytes(10).toString('hex');
    this.codes.set(code, login.toLowerCase());
    return code;
  }

  /** The user revoked the App's authorization (Settings > Applications): every token of theirs stops working. */
  revokeAppUser(login: string): void {
    for (const [token, entry] of [...this.appUserTokens]) if (entry.login === login.toLowerCase()) this.appUserTokens.delete(token);
    for (const [token, owner] of [...this.refreshTokens]) if (owner === login.toLowerCase()) this.refreshTokens.delete(token);
  }

  /** Makes the account's user-to-server tokens expire now (their refresh tokens still work). */
  expireAppUserTokens(login: string): void {
    for (const entry of this.appUserTokens.values()) if (entry.login === login.toLowerCase()) entry.expiresAt = this.now() - 1;
  }

  /** Live user-to-server tokens of the account (tests assert they never leak). */
  appUserTokensOf(login: string): string[] {
    return [...this.appUserTokens].filter(([, entry]) => entry.login === login.toLowerCase()).map(([token]) => token);
  }

  private issueAppUserTokens(login: string): Record<string, unknown> {
    const accessToken = `ghu_${randomBytes(18).toString('base64url')}`;
    const refreshToken = `ghr_${randomBytes(36).toString('base64url')}`;
    this.appUserTokens.set(accessToken, { login, expiresAt: this.now() + USER_TOKEN_SECONDS * 1000 });
    this.refreshTokens.set(refreshToken, login);
    return { access_token: accessToken, expires_in: USER_TOKEN_SECONDS, refresh_token: refreshToken, refresh_token_expires_in: REFRESH_TOKEN_SECONDS, scope: '', token_type: 'bearer' };
  }

  /** Installations the account reaches: its own account's, an organization it is an active member of, or one with a repository it may access. */
  private reachableInstallations(user: FakeAppUser): FakeInstallation[] {
    return [...this.installations.values()].filter((installation) => this.userRepositories(user, installation).length > 0 || this.isAccountOwner(user, installation));
  }

  private isAccountOwner(user: FakeAppUser, installation: FakeInstallation): boolean {
    if (installation.account.type === 'User') return installation.account.id === user.id;
    return this.memberships.get(`${installation.account.login.toLowerCase()}/${user.login.toLowerCase()}`)?.role === 'admin';
  }

  /** What both the installation and the account's access allow (GitHub's `/user/installations/{id}/repositories`). */
  private userRepositories(user: FakeAppUser, installation: FakeInstallation): FakeRepository[] {
    const all = this.isAccountOwner(user, installation);
    return [...this.repositories.values()].filter((r) => r.installationId === installation.id && (all || user.repositories.has(r.fullName.toLowerCase()))).sort((a, b) => a.id - b.id);
  }

  // --- Faults and counting -----------------------------------------------------------------------

  /** Makes requests of `route` (a route template, see `RecordedRequest.route`, or `*`) fail `times` times (default: always). */
  fault(route: string, fault: Fault, options: { times?: number; repository?: string } = {}): void {
    this.faults.push({ route, fault, remaining: options.times ?? Infinity, repository: options.repository?.toLowerCase() });
  }

  clearFaults(): void {
    this.faults.length = 0;
  }

  /** Requests so far, of one route or matching a predicate. */
  count(filter?: string | ((request: RecordedRequest) => boolean)): number {
    if (filter === undefined) return this.requests.length;
    return this.requests.filter(typeof filter === 'string' ? (r) => r.route === filter : filter).length;
  }

  /** Routes requested so far, in order. */
  routesRequested(): string[] {
    return this.requests.map((r) => r.route);
  }

  /**
   * Sequential round trips among the recorded requests (or those matching `filter`): the longest chain of
   * requests each sent after the previous one was answered. Requests sent together count once, so with
   * some latency (`latencyMs`) this is the depth of the client's critical path, independent of timing noise.
   */
  roundTrips(filter?: (request: RecordedRequest) => boolean): number {
    const requests = this.requests.filter((r) => r.endedAt !== undefined && (filter === undefined || filter(r))).sort((a, b) => a.startedAt - b.startedAt);
    const depth = new Map<RecordedRequest, number>();
    for (const request of requests) {
      const before = requests.filter((r) => depth.has(r) && (r.endedAt ?? Infinity) <= request.startedAt).map((r) => depth.get(r) ?? 0);
      depth.set(request, 1 + Math.max(0, ...before));
    }
    return Math.max(0, ...depth.values());
  }

  private readonly budgets = new Map<number, { remaining: number; resetInSeconds: number }>();

  /** Every answer to the installation's token carries GitHub's rate-limit headers with this budget left. */
  setRateBudget(installationId: number, remaining: number, resetInSeconds = 600): void {
    this.budgets.set(installationId, { remaining, resetInSeconds });
  }

  /** Forgets recorded requests and faults (the state stays). */
  reset(): void {
    this.requests.length = 0;
    this.clearFaults();
    this.treeLimit = 100_000;
  }

  /** msw handlers for the REST root and GraphQL (on Enterprise Server, `https://HOST/api/graphql`). */
  get handlers(): HttpHandler[] {
    const handlers = [
      http.all(`${this.baseUrl}/*`, ({ request }) => this.dispatch(request)),
      http.post(`${this.webUrl}/login/oauth/access_token`, ({ request }) => this.oauthToken(request)),
    ];
    if (/\/api\/v3$/.test(this.baseUrl)) {
      handlers.push(http.post(this.baseUrl.replace(/\/api\/v3$/, '/api/graphql'), ({ request }) => this.dispatch(request, '/graphql')));
    }
    return handlers;
  }

  /** `POST {webUrl}/login/oauth/access_token`: errors are 200 with `error`, as GitHub answers them. */
  private async oauthToken(request: Request): Promise<Response> {
    const record: RecordedRequest = { method: 'POST', route: 'POST /login/oauth/access_token', url: '/login/oauth/access_token', auth: 'client', startedAt: performance.now() };
    this.requests.push(record);
    const injected = await this.injected({ request, url: new URL(request.url), params: {}, identity: { kind: 'client' }, record });
    const answer = (body: Record<string, unknown>) => {
      record.status = 200;
      record.endedAt = performance.now();
      return injected ?? json(body);
    };
    const body = (await request.json().catch(() => ({}))) as Record<string, unknown>;
    if (body.client_id !== FAKE_OAUTH_CLIENT.clientId || body.client_secret !== FAKE_OAUTH_CLIENT.clientSecret) {
      return answer({ error: 'incorrect_client_credentials', error_description: 'The client_id and/or client_secret passed are incorrect.' });
    }
    if (body.grant_type === 'refresh_token') {
      const login = typeof body.refresh_token === 'string' ? this.refreshTokens.get(body.refresh_token) : undefined;
      if (login === undefined) return answer({ error: 'bad_refresh_token', error_description: 'The refresh token passed is incorrect or expired.' });
      this.refreshTokens.delete(body.refresh_token as string);
      return answer(this.issueAppUserTokens(login));
    }
    const login = typeof body.code === 'string' ? this.codes.get(body.code) : undefined;
    if (login === undefined) return answer({ error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' });
    this.codes.delete(body.code as string);
    return answer(this.issueAppUserTokens(login));
  }

  // --- Dispatch ----------------------------------------------------------------------------------

  private async dispatch(request: Request, routePath?: string): Promise<Response | undefined> {
    const url = new URL(request.url);
    const path = routePath ?? (url.pathname.slice(new URL(this.baseUrl).pathname.replace(/\/$/, '').length) || '/');
    for (const route of this.routes) {
      if (route.method !== request.method) continue;
      const match = route.pattern.exec(path);
      if (match === null) continue;
      const params = Object.fromEntries(route.keys.map((key, i) => [key, decodeURIComponent(match[i + 1] ?? '')]));
      const record: RecordedRequest = { method: request.method, route: `${route.method} ${route.template}`, url: path + url.search, auth: 'none', startedAt: performance.now() };
      if (params.owner !== undefined && params.repo !== undefined) record.repository = `${params.owner}/${params.repo}`;
      this.requests.push(record);
      if (this.latencyMs > 0) await delay(this.latencyMs);
      const identity = await this.identify(request);
      record.auth = identity.kind;
      if (identity.kind === 'installation') record.installationId = identity.installation.id;
      const context: Context = { request, url, params, identity, record };
      const response = (await this.injected(context)) ?? (identity.kind === 'invalid' ? unauthorized(identity.message) : await route.handle(context));
      const budget = identity.kind === 'installation' ? this.budgets.get(identity.installation.id) : undefined;
      if (budget !== undefined && !response.headers.has('x-ratelimit-remaining')) {
        response.headers.set('x-ratelimit-limit', '5000');
        response.headers.set('x-ratelimit-remaining', String(budget.remaining));
        response.headers.set('x-ratelimit-reset', String(Math.ceil(this.now() / 1000) + budget.resetInSeconds));
        response.headers.set('x-ratelimit-resource', route.template === '/graphql' ? 'graphql' : 'core');
      }
      record.status = response.status;
      record.endedAt = performance.now();
      return response;
    }
    return undefined;
  }

  private async injected(context: Context): Promise<Response | undefined> {
    let repository = context.record.repository?.toLowerCase();
    if (context.record.route === 'POST /graphql') {
      const body = (await context.request.clone().json().catch(() => ({}))) as GraphQLRequest;
      const variables = body.variables ?? {};
      if (typeof variables.owner === 'string' && typeof variables.name === 'string') repository = `${variables.owner}/${variables.name}`.toLowerCase();
      context.record.repository = repository;
      context.record.operation = body.operationName ?? /^\s*query\s+(\w+)/.exec(body.query ?? '')?.[1];
    }
    const rule = this.faults.find((f) => (f.route === '*' || f.route === context.record.route) && f.remaining > 0 && (f.repository === undefined || f.repository === repository));
    if (rule === undefined) return undefined;
    rule.remaining--;
    const fault = rule.fault;
    switch (fault.kind) {
      case 'status':
        return json(errorBody(fault.message ?? statusText(fault.status), fault.status), fault.status);
      case 'delay':
        await delay(fault.ms);
        return undefined;
      case 'secondary-rate-limit':
        return json(
          errorBody('You have exceeded a secondary rate limit. Please wait a few minutes before you try again.', 403, 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api'),
          403,
          { 'retry-after': String(fault.retryAfter) },
        );
      case 'rate-limit': {
        const reset = Math.ceil(this.now() / 1000) + fault.resetInSeconds;
        const message = `API rate limit exceeded for installation ID ${context.identity.kind === 'installation' ? context.identity.installation.id : 0}.`;
        return json(errorBody(message, 403, 'https://docs.github.com/rest/overview/rate-limits-for-the-rest-api'), 403, {
          'x-ratelimit-limit': '5000',
          'x-ratelimit-remaining': '0',
          'x-ratelimit-used': '5000',
          'x-ratelimit-reset': String(reset),
          'x-ratelimit-resource': 'core',
        });
      }
      case 'graphql-errors':
        return json({ data: fault.data ?? null, errors: fault.errors ?? [{ message: 'Something went wrong while executing your query. Please include `8F2C:3A1D:1B4E2F:1C2D3E:65F0A1B2` when reporting this issue.' }] });
      case 'body':
        return new HttpResponse(fault.body, { status: 200, headers: { 'content-type': fault.contentType ?? 'application/json; charset=utf-8' } });
      case 'network':
        return HttpResponse.error();
    }
  }

  private async identify(request: Request): Promise<Identity> {
    const header = request.headers.get('authorization') ?? '';
    const [scheme = '', credential = ''] = header.split(/\s+/, 2);
    if (credential === '') return { kind: 'none' };
    if (/^bearer$/i.test(scheme) && credential.split('.').length === 3) {
      try {
        const { payload } = await jwtVerify(credential, this.app.publicKey, { algorithms: ['RS256'] });
        if (String(payload.iss) === String(this.app.id)) return { kind: 'app' };
      } catch {
        // refused below
      }
      return { kind: 'invalid', message: 'A JSON web token could not be decoded' };
    }
    if (/^basic$/i.test(scheme)) {
      const [id, secret] = Buffer.from(credential, 'base64').toString('utf8').split(':', 2);
      return id === FAKE_OAUTH_CLIENT.clientId && secret === FAKE_OAUTH_CLIENT.clientSecret ? { kind: 'client' } : { kind: 'invalid', message: 'Bad credentials' };
    }
    const appUserToken = this.appUserTokens.get(credential);
    if (appUserToken !== undefined) {
      const user = this.appUsers.get(appUserToken.login);
      if (appUserToken.expiresAt > this.now() && user !== undefined) return { kind: 'app-user', user };
      return { kind: 'invalid', message: 'Bad credentials' };
    }
    const token = this.tokens.get(credential);
    if (token !== undefined && token.expiresAt > this.now()) {
      const installation = this.installations.get(token.installationId);
      if (installation !== undefined) return { kind: 'installation', installation };
    }
    const user = this.users.get(credential);
    return user === undefined ? { kind: 'invalid', message: 'Bad credentials' } : { kind: 'user', user };
  }

  // --- Access ------------------------------------------------------------------------------------

  /** A user-to-server token: the account's own access (public repositories, its grants, all of an account it owns). */
  private appUserAccess(user: FakeAppUser, repository: FakeRepository): { read: boolean; admin: boolean } {
    const installation = repository.installationId === null ? undefined : this.installations.get(repository.installationId);
    const admin = installation !== undefined && this.isAccountOwner(user, installation);
    return { read: admin || repository.visibility === 'public' || user.repositories.has(repository.fullName.toLowerCase()), admin };
  }

  private canSee(identity: Identity, repository: FakeRepository): boolean {
    if (identity.kind === 'installation') return repository.installationId === identity.installation.id;
    if (identity.kind === 'app-user') return this.appUserAccess(identity.user, repository).read;
    if (identity.kind === 'user') return true;
    return identity.kind === 'none' && repository.visibility === 'public';
  }

  private can(identity: Identity, repository: FakeRepository, permission: string): boolean {
    if (!this.canSee(identity, repository)) return false;
    if (identity.kind === 'installation') return identity.installation.permissions[permission] !== undefined;
    if (identity.kind === 'app-user') return this.appUserAccess(identity.user, repository).admin || permission === 'metadata' || permission === 'contents' || permission === 'actions';
    // Environments (`actions`) are readable by anyone who can read the repository, as on GitHub.
    if (identity.kind === 'user') return identity.user.admin || permission === 'metadata' || permission === 'contents' || permission === 'actions';
    return permission === 'metadata' || permission === 'contents' || permission === 'actions';
  }

  private viewer(identity: Identity): Viewer {
    return {
      canSee: (r) => this.canSee(identity, r),
      can: (r, permission) => this.can(identity, r, permission),
      canEditRulesets: (r, sourceType) => {
        if (sourceType === 'Enterprise') return false;
        if (identity.kind === 'user') return identity.user.admin;
        if (identity.kind === 'app-user') return this.appUserAccess(identity.user, r).admin;
        if (identity.kind !== 'installation' || !this.canSee(identity, r)) return false;
        const key = sourceType === 'Organization' ? 'organization_administration' : 'administration';
        return identity.installation.permissions[key] !== undefined;
      },
      refusal: identity.kind === 'installation' ? NOT_ACCESSIBLE : 'Must have admin rights to Repository.',
      viewerCanAdminister: (r) =>
        identity.kind === 'user'
          ? identity.user.admin
          : identity.kind === 'app-user'
            ? this.appUserAccess(identity.user, r).admin
            : identity.kind === 'installation' && this.canSee(identity, r) && identity.installation.permissions.administration === 'write',
    };
  }

  // --- Routes ------------------------------------------------------------------------------------

  private defineRoutes(): Route[] {
    const routes: Route[] = [];
    const route = (method: string, template: string, handle: Route['handle']) => {
      const keys: string[] = [];
      const source = template.replace(/\{(\w+)\}/g, (_, key: string) => {
        keys.push(key);
        return key === 'path' ? '(.*)' : '([^/]+)';
      });
      routes.push({ method, template, pattern: new RegExp(`^${source}$`), keys, handle });
    };
    const api = this.baseUrl;

    route('POST', '/app/installations/{installation_id}/access_tokens', ({ identity, params }) => {
      if (identity.kind !== 'app') return unauthorized('A JSON web token could not be decoded');
      const installation = this.installations.get(Number(params.installation_id));
      if (installation === undefined) return notFound();
      if (installation.suspended) return json(errorBody('This installation has been suspended', 403), 403);
      const token = `ghs_${randomBytes(18).toString('base64url')}`;
      const expiresAt = this.now() + installation.tokenLifetimeMs;
      this.tokens.set(token, { installationId: installation.id, expiresAt });
      return json({ token, expires_at: new Date(expiresAt).toISOString().replace(/\.\d{3}Z$/, 'Z'), permissions: installation.permissions, repository_selection: 'all' }, 201);
    });

    route('GET', '/app/installations/{installation_id}', ({ identity, params }) => {
      if (identity.kind !== 'app') return unauthorized('A JSON web token could not be decoded');
      const installation = this.installations.get(Number(params.installation_id));
      return installation === undefined ? notFound() : json(installationBody(api, installation, this.app.id, this.app.slug));
    });

    route('GET', '/installation/repositories', ({ identity, url }) => {
      if (identity.kind !== 'installation') return unauthorized();
      const repositories = [...this.repositories.values()].filter((r) => r.installationId === identity.installation.id).sort((a, b) => a.id - b.id);
      const { items, headers } = page(repositories, url);
      return json({ total_count: repositories.length, repository_selection: 'all', repositories: items.map((r) => listedRepositoryBody(api, r)) }, 200, headers);
    });

    route('GET', '/user', ({ identity }) => {
      if (identity.kind === 'app-user') return json({ login: identity.user.login, id: identity.user.id, node_id: `U_${identity.user.id}`, type: 'User', site_admin: false });
      if (identity.kind === 'user') return json({ login: identity.user.login, id: identity.user.id, type: 'User', site_admin: false });
      return json(errorBody('Requires authentication', 401), 401);
    });

    route('GET', '/user/installations', ({ identity, url }) => {
      if (identity.kind !== 'app-user') return json(errorBody('Requires authentication', 401), 401);
      const installations = this.reachableInstallations(identity.user).sort((a, b) => a.id - b.id);
      const { items, headers } = page(installations, url);
      return json({ total_count: installations.length, installations: items.map((i) => installationBody(api, i, this.app.id, this.app.slug)) }, 200, headers);
    });

    route('GET', '/user/installations/{installation_id}/repositories', ({ identity, params, url }) => {
      if (identity.kind !== 'app-user') return json(errorBody('Requires authentication', 401), 401);
      const installation = this.installations.get(Number(params.installation_id));
      if (installation === undefined || !this.reachableInstallations(identity.user).includes(installation)) return notFound();
      const repositories = this.userRepositories(identity.user, installation);
      const { items, headers } = page(repositories, url);
      return json({ total_count: repositories.length, repository_selection: 'all', repositories: items.map((r) => listedRepositoryBody(api, r)) }, 200, headers);
    });

    route('DELETE', '/applications/{client_id}/token', async ({ identity, params, request }) => {
      if (identity.kind !== 'client' || params.client_id !== FAKE_OAUTH_CLIENT.clientId) return json(errorBody('Requires authentication', 401), 401);
      const body = (await request.json().catch(() => ({}))) as { access_token?: unknown };
      if (typeof body.access_token !== 'string' || !this.appUserTokens.has(body.access_token)) return notFound();
      this.appUserTokens.delete(body.access_token);
      return new HttpResponse(null, { status: 204 });
    });

    route('GET', '/orgs/{org}/memberships/{username}', ({ identity, params }) => {
      if (identity.kind === 'none') return unauthorized();
      const org = [...this.installations.values()].find((i) => i.account.type === 'Organization' && i.account.login.toLowerCase() === params.org?.toLowerCase())?.account;
      if (org === undefined) return notFound();
      if (identity.kind === 'installation' && (identity.installation.account.id !== org.id || identity.installation.permissions.members === undefined)) {
        return json(errorBody(NOT_ACCESSIBLE, 403), 403);
      }
      const membership = this.memberships.get(`${params.org?.toLowerCase()}/${params.username?.toLowerCase()}`);
      if (membership === undefined) return notFound();
      return json(membershipBody(api, org, { login: params.username ?? '', id: membership.id }, membership.state, membership.role));
    });

    route('POST', '/graphql', async ({ identity, request }) => {
      if (identity.kind === 'none') return json({ message: 'This endpoint requires you to be authenticated.', documentation_url: 'https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql' }, 401);
      const body = (await request.json()) as GraphQLRequest;
      return json(await executeGraphQL(body, (fullName) => this.repositories.get(fullName.toLowerCase()), this.viewer(identity)));
    });

    // Repository routes: the repository must be visible to the caller (else 404, as GitHub hides it).
    const repo = (template: string, handle: (context: Context, repository: FakeRepository) => Response | Promise<Response>, method = 'GET') =>
      route(method, `/repos/{owner}/{repo}${template}`, (context) => {
        const repository = this.repositories.get(`${context.params.owner}/${context.params.repo}`.toLowerCase());
        if (repository === undefined || !this.canSee(context.identity, repository)) return notFound();
        return handle(context, repository);
      });
    /** An area of the settings: 403 without the permission or when the snapshot declares it unreadable. */
    const area = (template: string, name: keyof SettingsSnapshot, permission: string, answer: (value: unknown, context: Context, repository: FakeRepository) => Response) =>
      repo(template, (context, repository) => {
        const declared = repository.settings.unreadable?.[name];
        if (declared !== undefined) return json(errorBody(declared.replace(/^\d{3}\s+/, ''), 403), 403);
        if (!this.can(context.identity, repository, permission)) return forbidden(context.identity);
        return answer(repository.settings[name], context, repository);
      });

    repo('', ({ identity }, repository) => {
      const admin = this.can(identity, repository, 'administration');
      const permissions = identity.kind === 'user' ? { admin, maintain: admin, push: admin, triage: admin, pull: true } : undefined;
      return json(repositoryBody(api, repository, { admin, permissions }));
    });
    area('/actions/permissions', 'actions_permissions', 'administration', (value) => json(value));
    area('/actions/permissions/workflow', 'workflow_permissions', 'administration', (value) => json(value));
    area('/actions/permissions/fork-pr-contributor-approval', 'fork_pr_approval', 'administration', (value, _context, repository) =>
      repository.visibility === 'public' ? json(value) : json(errorBody('Fork pull request contributor approval is only available for public repositories', 422), 422),
    );
    area('/actions/runners', 'runners', 'administration', (value, { url }) => {
      const runners = isRecord(value) && Array.isArray(value.runners) ? value.runners : [];
      const { items, headers } = page(runners, url);
      return json({ total_count: isRecord(value) && typeof value.total_count === 'number' ? value.total_count : runners.length, runners: items }, 200, headers);
    });
    area('/hooks', 'hooks', 'repository_hooks', (value, { url }) => {
      const { items, headers } = page(Array.isArray(value) ? value : [], url);
      return json(items, 200, headers);
    });
    area('/vulnerability-alerts', 'vulnerability_alerts', 'administration', (value) => (value === true ? new HttpResponse(null, { status: 204 }) : notFound()));
    area('/branches/{branch}/protection', 'branch_protection', 'administration', (value, { params }, repository) =>
      params.branch === repository.defaultBranch && isRecord(value) ? json(value) : json(errorBody('Branch not protected', 404), 404),
    );
    area('/rules/branches/{branch}', 'branch_rules', 'metadata', (value, { params, url }, repository) => {
      const { items, headers } = page(params.branch === repository.defaultBranch && Array.isArray(value) ? value : [], url);
      return json(items, 200, headers);
    });
    repo('/rulesets/{ruleset_id}', ({ identity, params }, repository) => {
      const body = (repository.settings.rulesets ?? []).filter(isRecord).find((r) => String(r.id) === params.ruleset_id);
      if (body === undefined) return notFound();
      const copy: Record<string, unknown> = { ...body };
      if (!this.viewer(identity).canEditRulesets(repository, String(body.source_type ?? 'Repository'))) delete copy.bypass_actors;
      return json(copy);
    });
    // GitHub's recursive tree: entries in git's order (a directory before its contents), `truncated` past
    // `treeLimit` entries (GitHub: 100,000 or 7 MB). A symbolic link is a blob of mode 120000.
    repo('/git/trees/{tree_sha}', ({ identity, params, url }, repository) => {
      if (!this.can(identity, repository, 'contents')) return forbidden(identity);
      if (repository.empty) return json(errorBody('Git Repository is empty.', 409), 409);
      const commit = repository.commits.get(params.tree_sha ?? '');
      const root = buildTree(commit ?? repository.files);
      const rootSha = fakeOid(`tree:${repository.fullName}${commit === undefined ? '' : `@${params.tree_sha}`}`);
      if (commit === undefined && params.tree_sha !== 'HEAD' && params.tree_sha !== repository.defaultBranch && params.tree_sha !== rootSha) return notFound();
      const recursive = url.searchParams.has('recursive');
      const entries: Record<string, unknown>[] = [];
      let truncated = false;
      const visit = (node: TreeNode & { kind: 'tree' }) => {
        for (const [name, child] of [...node.entries.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
          if (entries.length >= this.treeLimit) {
            truncated = true;
            return;
          }
          const sha = child.kind === 'tree' ? fakeOid(`tree:${child.path}`) : blobOid(fileText(child.file));
          const link = `${api}/repos/${repository.fullName}/git/${child.kind === 'tree' ? 'trees' : 'blobs'}/${sha}`;
          if (child.kind === 'tree') {
            entries.push({ path: recursive ? child.path : name, mode: '040000', type: 'tree', sha, url: link });
            if (recursive) visit(child);
          } else {
            const symlink = typeof child.file !== 'string' && child.file.symlink === true;
            entries.push({ path: recursive ? child.path : name, mode: symlink ? '120000' : '100644', type: 'blob', sha, size: Buffer.byteLength(fileText(child.file)), url: link });
          }
        }
      };
      visit(root);
      return json({ sha: rootSha, url: `${api}/repos/${repository.fullName}/git/trees/${rootSha}`, tree: entries, truncated });
    });
    repo('/contents/{path}', ({ identity, params }, repository) => {
      if (!this.can(identity, repository, 'contents')) return forbidden(identity);
      const node = findNode(buildTree(repository.files), params.path ?? '');
      if (node === null) return notFound();
      const link = (p: string) => `${api}/repos/${repository.fullName}/contents/${p}?ref=${repository.defaultBranch}`;
      if (node.kind === 'tree') {
        return json(
          [...node.entries.entries()].map(([name, child]) => ({
            name,
            path: child.path,
            type: child.kind === 'tree' ? 'dir' : typeof child.file !== 'string' && child.file.symlink === true ? 'symlink' : 'file',
            size: child.kind === 'tree' ? 0 : Buffer.byteLength(fileText(child.file)),
            url: link(child.path),
          })),
        );
      }
      const text = fileText(node.file);
      return json({ type: 'file', encoding: 'base64', size: Buffer.byteLength(text), name: node.path.split('/').pop(), path: node.path, content: Buffer.from(text).toString('base64'), url: link(node.path) });
    });

    // Check runs (the App's checks: write permission). Annotations: at most 50 per request, appended by
    // each update, as on GitHub; `output` needs `title` and `summary` when it is given.
    const checkRunBody = (run: FakeCheckRun, repository: FakeRepository) => ({
      id: run.id,
      name: run.name,
      head_sha: run.head_sha,
      external_id: run.external_id ?? '',
      status: run.status,
      conclusion: run.conclusion,
      url: `${api}/repos/${repository.fullName}/check-runs/${run.id}`,
      html_url: `${this.webUrl}/${repository.fullName}/runs/${run.id}`,
      details_url: null,
      output: { title: run.output.title, summary: run.output.summary, text: run.output.text, annotations_count: run.annotations.length, annotations_url: `${api}/repos/${repository.fullName}/check-runs/${run.id}/annotations` },
      app: { id: run.appId, slug: this.app.slug },
      pull_requests: [],
    });
    const checkRunInput = (body: Record<string, unknown>, creating: boolean): string | null => {
      if (creating && (typeof body.name !== 'string' || body.name === '' || typeof body.head_sha !== 'string' || !/^[0-9a-f]{40}$/.test(body.head_sha))) return 'name and head_sha are required';
      if (body.status !== undefined && !['queued', 'in_progress', 'completed'].includes(String(body.status))) return 'status is not one of queued, in_progress, completed';
      if (body.conclusion !== undefined && !['success', 'failure', 'neutral', 'cancelled', 'skipped', 'timed_out', 'action_required'].includes(String(body.conclusion))) return 'conclusion is invalid';
      if (body.status === 'completed' && body.conclusion === undefined) return 'conclusion is required when status is completed';
      if (body.output === undefined) return null;
      if (!isRecord(body.output) || typeof body.output.title !== 'string' || typeof body.output.summary !== 'string') return 'output needs title and summary';
      if (body.output.title.length > 255 || body.output.summary.length > 65_535 || (typeof body.output.text === 'string' && body.output.text.length > 65_535)) return 'output is too long';
      const annotations = body.output.annotations;
      if (annotations === undefined) return null;
      if (!Array.isArray(annotations) || annotations.length > 50) return 'at most 50 annotations per request';
      for (const a of annotations) {
        if (!isRecord(a) || typeof a.path !== 'string' || typeof a.start_line !== 'number' || typeof a.end_line !== 'number' || typeof a.message !== 'string') return 'an annotation needs path, start_line, end_line and message';
        if (!['notice', 'warning', 'failure'].includes(String(a.annotation_level))) return 'annotation_level is not one of notice, warning, failure';
        if (a.message.length > 65_535 || (typeof a.title === 'string' && a.title.length > 255)) return 'an annotation is too long';
      }
      return null;
    };
    const applyOutput = (run: FakeCheckRun, body: Record<string, unknown>) => {
      if (typeof body.status === 'string') run.status = body.status;
      if (typeof body.conclusion === 'string') {
        run.conclusion = body.conclusion;
        run.status = 'completed';
      }
      if (typeof body.external_id === 'string') run.external_id = body.external_id;
      if (isRecord(body.output)) {
        run.output = { title: String(body.output.title), summary: String(body.output.summary), text: typeof body.output.text === 'string' ? body.output.text : null };
        if (Array.isArray(body.output.annotations)) run.annotations.push(...body.output.annotations.filter(isRecord));
      }
      run.bodies.push(body);
    };
    repo(
      '/check-runs',
      async ({ identity, request }, repository) => {
        if (identity.kind !== 'installation') return json(errorBody('You must authenticate via a GitHub App.', 403), 403);
        if (identity.installation.permissions.checks !== 'write') return forbidden(identity);
        const body = (await request.json().catch(() => null)) as unknown;
        if (!isRecord(body)) return json(errorBody('Problems parsing JSON', 400), 400);
        const invalid = checkRunInput(body, true);
        if (invalid !== null) return json(errorBody(`Invalid request. ${invalid}`, 422), 422);
        const run: FakeCheckRun = {
          id: this.id(),
          repository: repository.fullName.toLowerCase(),
          name: String(body.name),
          head_sha: String(body.head_sha),
          external_id: null,
          status: 'queued',
          conclusion: null,
          appId: this.app.id,
          output: { title: null, summary: null, text: null },
          annotations: [],
          bodies: [],
        };
        applyOutput(run, body);
        this.runs.set(run.id, run);
        return json(checkRunBody(run, repository), 201);
      },
      'POST',
    );
    repo(
      '/check-runs/{check_run_id}',
      async ({ identity, params, request }, repository) => {
        if (identity.kind !== 'installation') return json(errorBody('You must authenticate via a GitHub App.', 403), 403);
        if (identity.installation.permissions.checks !== 'write') return forbidden(identity);
        const run = this.runs.get(Number(params.check_run_id));
        if (run === undefined || run.repository !== repository.fullName.toLowerCase()) return notFound();
        const body = (await request.json().catch(() => null)) as unknown;
        if (!isRecord(body)) return json(errorBody('Problems parsing JSON', 400), 400);
        const invalid = checkRunInput(body, false);
        if (invalid !== null) return json(errorBody(`Invalid request. ${invalid}`, 422), 422);
        applyOutput(run, body);
        return json(checkRunBody(run, repository));
      },
      'PATCH',
    );
    repo('/pulls/{pull_number}/files', ({ identity, params, url }, repository) => {
      if (!this.can(identity, repository, 'pull_requests')) return forbidden(identity);
      const files = this.pullFiles.get(`${repository.fullName.toLowerCase()}#${params.pull_number}`);
      if (files === undefined) return notFound();
      const { items, headers } = page(files, url);
      return json(
        items.map((f, i) => ({ sha: fakeOid(`${f.filename}:${i}`), filename: f.filename, status: f.previous_filename === undefined ? 'modified' : 'renamed', additions: 1, deletions: 1, changes: 2, ...(f.previous_filename === undefined ? {} : { previous_filename: f.previous_filename }) })),
        200,
        headers,
      );
    });
    repo('/commits/{ref}/check-runs', ({ identity, params, url }, repository) => {
      if (!this.can(identity, repository, 'checks')) return forbidden(identity);
      const name = url.searchParams.get('check_name');
      const appId = url.searchParams.get('app_id');
      const runs = this.checkRuns(repository.fullName).filter((r) => r.head_sha === params.ref && (name === null || r.name === name) && (appId === null || String(r.appId) === appId));
      const { items, headers } = page(runs, url);
      return json({ total_count: runs.length, check_runs: items.map((r) => checkRunBody(r, repository)) }, 200, headers);
    });
    return routes;
  }

  private id(): number {
    return this.nextId++;
  }
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return HttpResponse.json(body as Record<string, unknown>, {
    status,
    headers: { 'x-github-api-version-selected': '2022-11-28', 'x-ratelimit-limit': '5000', 'x-ratelimit-remaining': '4999', ...headers },
  });
}

function notFound(): Response {
  return json(errorBody('Not Found', 404), 404);
}

function unauthorized(message = 'Bad credentials'): Response {
  return json(errorBody(message, 401), 401);
}

/** GitHub's refusal: Apps without the permission get 403; users without admin rights too (with another message). */
function forbidden(identity: Identity): Response {
  return json(errorBody(identity.kind === 'installation' ? NOT_ACCESSIBLE : 'Must have admin rights to Repository.', 403), 403);
}

/** One page (`per_page`, default 30, at most 100; `page` from 1) with GitHub's Link header. */
function page<T>(items: readonly T[], url: URL): { items: T[]; headers: Record<string, string> } {
  const perPage = Math.min(100, Math.max(1, Number(url.searchParams.get('per_page') ?? 30) || 30));
  const current = Math.max(1, Number(url.searchParams.get('page') ?? 1) || 1);
  const last = Math.max(1, Math.ceil(items.length / perPage));
  const at = (n: number) => {
    const next = new URL(url);
    next.searchParams.set('per_page', String(perPage));
    next.searchParams.set('page', String(n));
    return next.toString();
  };
  const links: string[] = [];
  if (current < last) links.push(`<${at(current + 1)}>; rel="next"`, `<${at(last)}>; rel="last"`);
  if (current > 1) links.push(`<${at(1)}>; rel="first"`, `<${at(current - 1)}>; rel="prev"`);
  return { items: items.slice((current - 1) * perPage, current * perPage), headers: links.length > 0 ? { link: links.join(', ') } : {} };
}

function statusText(status: number): string {
  return { 500: 'Internal Server Error', 502: 'Bad Gateway', 503: 'Service Unavailable', 504: 'Gateway Timeout' }[status] ?? `Error ${status}`;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
