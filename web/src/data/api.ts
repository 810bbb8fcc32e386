import type { AttackPaths, CheckRun, Combination, Dismissal, DismissalKind, DismissalReason, Dismissals, Installation, InstallationLink, Repository, RepositoryOverview, Rule, RuleSetting, Scan, ScanPage, Severity } from './types.js';
import { withoutBidi } from './text.js';

/** An API error with the contract's error body: `status` and the server's one-line `message`. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Every call of the HTTP API, with the user's bearer token. */
export class Api {
  constructor(
    private readonly token: () => Promise<string | null>,
    private readonly fetcher: Fetch = (input, init) => fetch(input, init),
    private readonly base = '',
    /** Called on a 401: the session is over (expired, or its GitHub authorization was revoked). */
    private readonly onUnauthorized?: (message: string) => void,
  ) {}

  async request<T>(method: string, path: string, body?: unknown): Promise<T> {
    const token = await this.token();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (token !== null) headers.authorization = `Bearer ${token}`;
    if (body !== undefined) headers['content-type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetcher(`${this.base}${path}`, { method, headers, ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
    } catch {
      throw new ApiError(0, 'network', 'The service could not be reached. Check your connection and try again.');
    }
    if (response.status === 204) return undefined as T;
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === '' ? null : withoutBidi(JSON.parse(text) as unknown);
    } catch {
      parsed = null;
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
      if (response.status === 401) this.onUnauthorized?.(error?.message ?? 'Your session ended; sign in again.');
      throw new ApiError(response.status, error?.code ?? 'error', error?.message ?? `The service answered ${response.status}.`);
    }
    return parsed as T;
  }

  /** Every stored repository with its latest scan's open counts, in one request (no code-host sync). */
  overview = () => this.request<{ repositories: RepositoryOverview[] }>('GET', '/api/repositories');
  repos = () => this.request<{ connected: boolean; repositories: Repository[] }>('GET', '/api/repos');
  scan = (repoId: string) => this.request<Scan>('POST', '/api/scan', { repo_id: repoId });
  attackPaths = () => this.request<AttackPaths>('GET', '/api/attack-paths');
  combos = (repoId: string) =>
    this.request<{ combos: Combination[]; critical_count: number; high_count: number }>('GET', `/api/repositories/${encodeURIComponent(repoId)}/combos`);
  link = (installationId: string) =>
    this.request<InstallationLink>('GET', `/api/github/callback?installation_id=${encodeURIComponent(installationId)}`);
  /** The App's user authorization: GitHub's authorize page, then the code it came back with; DELETE on sign-out. */
  authorizeUrl = () => this.request<{ url: string }>('GET', '/api/github/authorize');
  completeAuthorization = (code: string, state: string) => this.request<{ github_login: string }>('POST', '/api/github/authorization', { code, state });
  revokeAuthorization = () => this.request<void>('DELETE', '/api/github/authorization');
  rules = () => this.request<{ rules: Rule[] }>('GET', '/api/rules');
  /**
   * `options` undefined keeps the stored ones, `{}` clears them; the API checks them against the rule's schema (400 with its message).
   * `severity` undefined keeps the stored one, null clears it (the rule's own severity).
   */
  setRuleSetting = (ruleId: string, enabled: boolean, options?: Record<string, unknown>, severity?: Severity | null) =>
    this.request<void>('PUT', `/api/rule-settings/${encodeURIComponent(ruleId)}`, {
      enabled,
      ...(options === undefined ? {} : { options }),
      ...(severity === undefined ? {} : { severity }),
    });
  clearRuleSetting = (ruleId: string) => this.request<void>('DELETE', `/api/rule-settings/${encodeURIComponent(ruleId)}`);
  /** `severity` as in `setRuleSetting`: the repository's severity wins over the global one. */
  setOverride = (repoId: string, ruleId: string, enabled: boolean, severity?: Severity | null) =>
    this.request<void>('PUT', `/api/repositories/${encodeURIComponent(repoId)}/rule-overrides/${encodeURIComponent(ruleId)}`, {
      enabled,
      ...(severity === undefined ? {} : { severity }),
    });
  clearOverride = (repoId: string, ruleId: string) =>
    this.request<void>('DELETE', `/api/repositories/${encodeURIComponent(repoId)}/rule-overrides/${encodeURIComponent(ruleId)}`);

  dismiss = (repoId: string, fingerprint: string, decision: { reason: DismissalReason; comment: string; kind: DismissalKind }) =>
    this.request<Dismissal>('PUT', `/api/repositories/${encodeURIComponent(repoId)}/dismissals/${encodeURIComponent(fingerprint)}`, decision);
  reopen = (repoId: string, fingerprint: string) =>
    this.request<void>('DELETE', `/api/repositories/${encodeURIComponent(repoId)}/dismissals/${encodeURIComponent(fingerprint)}`);

  // Reads that a Supabase-configured client takes from the database instead (see reads.ts).
  installations = () => this.request<{ installations: Installation[] }>('GET', '/api/installations');
  scans = (repoId: string, page: { limit?: number; cursor?: string | null } = {}) => {
    const query = new URLSearchParams();
    if (page.limit !== undefined) query.set('limit', String(page.limit));
    if (page.cursor) query.set('cursor', page.cursor);
    const suffix = query.size > 0 ? `?${query}` : '';
    return this.request<ScanPage>('GET', `/api/repositories/${encodeURIComponent(repoId)}/scans${suffix}`);
  };
  scanById = (scanId: string) => this.request<Scan>('GET', `/api/scans/${encodeURIComponent(scanId)}`);
  ruleSettings = () => this.request<{ settings: RuleSetting[] }>('GET', '/api/rule-settings');
  dismissals = (repoId: string) => this.request<Dismissals>('GET', `/api/repositories/${encodeURIComponent(repoId)}/dismissals`);
  overrides = (repoId: string) => this.request<{ overrides: RuleSetting[] }>('GET', `/api/repositories/${encodeURIComponent(repoId)}/rule-overrides`);
  checkRun = (repoId: string) => this.request<{ check_run: CheckRun | null }>('GET', `/api/repositories/${encodeURIComponent(repoId)}/check-run`);
}
