// Shared by the hardening tests: every endpoint of the API enumerated from the route files and the operation
// table (so a new endpoint is covered without touching the tests), a user who owns data, a snapshot of
// everything stored for a user, and a database / code host that count the calls they get.

import { pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { expect } from 'vitest';
import { operations } from '../../lib/api/operations.js';
import type { CodeHost } from '../../lib/codehost/port.js';
import { recordScan } from '../../lib/db/operations.js';
import type { Database } from '../../lib/db/port.js';
import { exportedMethods } from '../../lib/dev/router.js';
import type { Operation } from '../../lib/http/operation.js';
import { bearer } from '../support/auth.js';
import { githubUser } from '../support/codehost.js';
import type { TestDatabase } from '../support/db.js';
import { apiRequest, dispatch, ROOT, routes } from '../support/http.js';

/** One method of one route file, with the operation that declares it. */
export interface Endpoint {
  method: string;
  /** OpenAPI template, `/api/rule-settings/{rule_id}`. */
  path: string;
  operation: Operation;
  /** `GET /api/rule-settings/{rule_id}`, for test names. */
  name: string;
}

/**
 * Every method every file under `api/` exports (OPTIONS aside: CORS preflights carry no credentials by
 * design), matched with its entry in the operation table. A route file or method the table does not declare
 * fails here, so a new endpoint cannot slip past the hardening tests.
 */
export async function endpoints(): Promise<Endpoint[]> {
  const declared = Object.values(operations as Record<string, Operation>);
  const found: Endpoint[] = [];
  for (const route of await routes()) {
    const module = (await import(pathToFileURL(join(ROOT, route.file)).href)) as Record<string, unknown>;
    const path = route.path.replace(/\[([A-Za-z_][A-Za-z0-9_]*)\]/g, '{$1}');
    for (const method of exportedMethods(module).filter((m) => m !== 'OPTIONS')) {
      const operation = declared.find((o) => o.path === path && o.method === method);
      expect(operation, `${method} ${path} (${route.file}) has no entry in lib/api/operations.ts`).toBeDefined();
      if (operation !== undefined) found.push({ method, path, operation, name: `${method} ${path}` });
    }
  }
  expect(found.length).toBe(declared.length);
  return found;
}

/**
 * The endpoints that need a token: all but the health check, the OpenAPI document, GitHub's webhooks
 * (authenticated by their signature instead: tests/hardening/webhooks.test.ts) and Vercel's cron jobs (by
 * CRON_SECRET: tests/hardening/cron.test.ts).
 */
export async function authenticatedEndpoints(): Promise<Endpoint[]> {
  const all = await endpoints();
  expect(all.filter((e) => !e.operation.auth).map((e) => e.name).sort()).toEqual(['GET /api/cron/drain', 'GET /api/cron/recheck', 'GET /api/health', 'GET /api/openapi.json', 'POST /api/github/webhooks']);
  return all.filter((e) => e.operation.auth);
}

/** Values for an endpoint's path parameters and query; a body that would be valid. */
export interface Fill {
  repo_id: string;
  rule_id: string;
  installation_id: string;
  /** A scan of the user (`userWithData` records one). */
  scan_id: string;
  /** A finding's or an attack path's fingerprint (triage). */
  fingerprint: string;
}

/** The concrete URL of an endpoint (path parameters in the path, as a client sends them). */
export function urlOf(endpoint: Endpoint, fill: Fill): string {
  const path = endpoint.path.replace(/\{(\w+)\}/g, (_, name: keyof Fill) => encodeURIComponent(fill[name]));
  // The query parameters the endpoint requires that a fill names (the callback's installation_id).
  const names = Object.keys(endpoint.operation.query?.entries ?? {}).filter((name): name is keyof Fill => name in fill);
  const query = names.map((name) => `${name}=${encodeURIComponent(fill[name])}`).join('&');
  return query === '' ? path : `${path}?${query}`;
}

/** A body the endpoint accepts (undefined for endpoints without one). */
export function validBody(endpoint: Endpoint, fill: Fill): unknown {
  if (endpoint.operation.body === undefined) return undefined;
  if (endpoint.path === '/api/github/authorization') return { code: 'local-authorization-code', state: 'not-a-state-of-this-session' };
  if (endpoint.path === '/api/scan') return { repo_id: fill.repo_id };
  if (endpoint.path.includes('/dismissals/')) return { reason: 'accepted_risk', comment: 'reviewed' };
  if (endpoint.path.endsWith('/check-policy')) return { fail_on_high: false };
  return { enabled: false };
}

/** Sends a request through the router, as `npm run dev` (and Vercel's file routing) would. */
export async function send(
  method: string,
  url: string,
  options: { authorization?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Response> {
  return dispatch(await apiRequest(method, url, options));
}

/**
 * A user with a GitHub identity who linked the local installation and synced the example repositories; with
 * `scan`, also one (empty) scan of hardened-service recorded directly (no scan rate limit spent), else scanId ''.
 */
export async function userWithData(
  t: TestDatabase,
  options: { scan?: boolean } = {},
): Promise<{ userId: string; authorization: string; repos: Record<string, string>; scanId: string }> {
  const { userId } = await githubUser(t);
  const authorization = await bearer(userId);
  expect((await send('GET', '/api/github/callback?installation_id=1', { authorization })).status).toBe(200);
  const listed = (await (await send('GET', '/api/repos', { authorization })).json()) as { repositories: { id: string; full_name: string }[] };
  const repos = Object.fromEntries(listed.repositories.map((r) => [r.full_name.replace(/^examples\//, ''), r.id]));
  if (options.scan !== true) return { userId, authorization, repos, scanId: '' };
  const counts = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  const { scan_id: scanId } = await recordScan(t.db, userId, { repositoryId: repos['hardened-service'] ?? '', ruleset: 'all', counts, findings: [] });
  return { userId, authorization, repos, scanId };
}

const USER_TABLES = ['installations', 'repositories', 'scans', 'findings', 'rule_settings', 'rule_overrides', 'dismissals', 'dismissal_events', 'rate_limits'] as const;

/**
 * Everything stored for a user: the rows of every table, and the last change of the rows that are updated in
 * place (a re-link, a re-sync, a setting flipped, a rate-limit counter), so an update shows as well as an
 * insert or a delete.
 */
export async function storedFor(t: TestDatabase, userId: string): Promise<Record<string, unknown>> {
  const counts = USER_TABLES.map((table) => `(select count(*)::int from public.${table} where user_id = $1) as ${table}`);
  const [row] = await t.query<Record<string, unknown>>(
    `select ${counts.join(', ')},
       (select json_agg(json_build_object('a', account_login, 't', account_type) order by installation_id) from public.installations where user_id = $1) as installation_rows,
       (select max(updated_at)::text from public.repositories where user_id = $1) as repositories_updated,
       (select json_agg(json_build_object('r', rule_id, 'e', enabled, 'u', updated_at) order by rule_id) from public.rule_settings where user_id = $1) as setting_rows,
       (select json_agg(json_build_object('r', rule_id, 'e', enabled, 'u', updated_at) order by repository_id, rule_id) from public.rule_overrides where user_id = $1) as override_rows,
       (select json_agg(json_build_object('b', bucket, 'u', used) order by bucket) from public.rate_limits where user_id = $1) as rate_limit_rows`,
    [userId],
  );
  return row ?? {};
}

/** Wraps a database, recording the server functions called through it. */
export function countingDatabase(db: Database): Database & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    call: (fn, args) => {
      calls.push(fn);
      return db.call(fn, args);
    },
    close: async () => undefined,
  };
}

/** Wraps a code host, recording the operations called on it. */
export function countingCodeHost(host: CodeHost): CodeHost & { calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    getInstallation: (...args) => (calls.push('getInstallation'), host.getInstallation(...args)),
    organizationRole: (...args) => (calls.push('organizationRole'), host.organizationRole(...args)),
    listRepositories: (...args) => (calls.push('listRepositories'), host.listRepositories(...args)),
    fetchSnapshot: (...args) => (calls.push('fetchSnapshot'), host.fetchSnapshot(...args)),
  };
}

/** The error body's shape: exactly `{error: {code, message, details?}}`, nothing else. */
export async function expectErrorBody(response: Response, code: string): Promise<{ code: string; message: string; details?: unknown }> {
  expect(response.headers.get('content-type')).toContain('application/json');
  expect(response.headers.get('x-request-id')).toBeTruthy();
  const body = (await response.json()) as { error: { code: string; message: string; details?: unknown } };
  expect(Object.keys(body)).toEqual(['error']);
  expect(Object.keys(body.error).filter((k) => !['code', 'message', 'details'].includes(k))).toEqual([]);
  expect(body.error.code).toBe(code);
  expect(typeof body.error.message).toBe('string');
  return body.error;
}
