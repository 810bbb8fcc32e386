// The production adapter, end to end: supabase-js `.rpc()` requests are captured with msw, checked (service
// key headers, named JSON arguments), then executed against the real test database as PostgREST would run
// them (role service_role), and the result or error is answered in PostgREST's format. So the path to
// Supabase is tied to the SQL it calls.

import { delay, http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseError } from '../../../lib/db/errors.js';
import {
  attackPathInputs,
  clearRuleOverride,
  consumeRateLimit,
  effectiveRuleStates,
  getRepository,
  githubIdentity,
  linkInstallation,
  listInstallations,
  listRuleOverrides,
  listRuleSettings,
  recordScan,
  repositoryComboInputs,
  scanContext,
  setRuleOverride,
  setRuleSetting,
  syncRepositories,
  clearRuleSetting,
} from '../../../lib/db/operations.js';
import { kindOfPostgrestFailure, SupabaseDatabase } from '../../../lib/db/supabase.js';
import { openTestDatabase, type TestDatabase } from '../../support/db.js';
import { countsOf, finding, githubId, listing } from '../../support/db-fixtures.js';

const SUPABASE_URL = 'https://project-ref.supabase.test';
const SERVICE_ROLE_KEY = 'service-role-key-for-tests-0123456789';

interface CapturedCall {
  fn: string;
  method: string;
  headers: Headers;
  args: Record<string, unknown>;
}

let t: TestDatabase;
let captured: CapturedCall[] = [];

/** PostgREST's statuses for the SQLSTATEs these tests meet (docs.postgrest.org, "Errors"). */
function postgrestStatus(sqlState: string): number {
  if (sqlState.startsWith('08') || sqlState.startsWith('53')) return 503;
  if (sqlState === '23503' || sqlState === '23505') return 409;
  if (sqlState === '42501') return 403;
  if (sqlState === 'P0001' || sqlState.startsWith('22') || sqlState.startsWith('23')) return 400;
  return 500;
}

const postgrest = http.post(`${SUPABASE_URL}/rest/v1/rpc/:fn`, async ({ request, params }) => {
  const fn = String(params.fn);
  const args = (await request.json()) as Record<string, unknown>;
  captured.push({ fn, method: request.method, headers: request.headers, args });
  try {
    return HttpResponse.json(await t.callAsServiceRole(fn, args));
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return HttpResponse.json({ code, message, details: null, hint: null }, { status: postgrestStatus(code) });
  }
});

const server = setupServer(postgrest);

beforeAll(async () => {
  t = await openTestDatabase();
  server.listen({ onUnhandledRequest: 'error' });
});
afterEach(() => {
  server.resetHandlers();
  captured = [];
});
afterAll(async () => {
  server.close();
  await t.close();
});

const supabase = (options: { timeoutMs?: number } = {}) =>
  new SupabaseDatabase({ url: SUPABASE_URL, serviceRoleKey: SERVICE_ROLE_KEY, ...options });

describe('requests', () => {
  test('POST /rest/v1/rpc/<fn> with the service key and the named arguments as JSON', async () => {
    const db = supabase();
    const user = await t.createUser();
    const installationId = githubId();
    await linkInstallation(db, user, { installationId, accountLogin: 'octo-org', accountType: 'Organization' });
    const [repo] = await syncRepositories(db, user, [listing(installationId)]);
    const findings = [finding({ job: null }), finding({ severity: 'LOW' })];
    await recordScan(db, user, { repositoryId: repo!.id, ruleset: 'owasp', counts: countsOf(findings), findings });

    expect(captured.map((c) => c.fn)).toEqual(['link_installation', 'sync_repositories', 'record_scan']);
    for (const call of captured) {
      expect(call.method).toBe('POST');
      expect(call.headers.get('apikey')).toBe(SERVICE_ROLE_KEY);
      expect(call.headers.get('authorization')).toBe(`Bearer ${SERVICE_ROLE_KEY}`);
      expect(call.headers.get('content-type')).toMatch(/^application\/json/);
    }
    expect(captured[0]!.args).toEqual({
      p_user_id: user,
      p_installation_id: installationId,
      p_account_login: 'octo-org',
      p_account_type: 'Organization',
    });
    expect(captured[2]!.args).toEqual({
      p_user_id: user,
      p_repository_id: repo!.id,
      p_ruleset: 'owasp',
      p_counts: { HIGH: 1, MEDIUM: 0, LOW: 1, INFO: 0 },
      p_findings: findings,
    });
  });
});

describe('every operation through PostgREST against the real schema', () => {
  test('a full flow returns what the SQL functions return', async () => {
    const db = supabase();
    const user = await t.createUser();
    const installationId = githubId();

    const installation = await linkInstallation(db, user, { installationId, accountLogin: 'octocat', accountType: 'User' });
    expect(await listInstallations(db, user)).toEqual([{ ...installation, suspended: false, access: 'link' }]);

    const repos = await syncRepositories(db, user, [listing(installationId, { full_name: 'octocat/b' }), listing(installationId, { full_name: 'octocat/a' })]);
    expect(repos.map((r) => r.full_name)).toEqual(['octocat/a', 'octocat/b']);
    const repo = repos[0]!;
    expect(await getRepository(db, user, repo.id)).toEqual(repo);
    expect(await getRepository(db, await t.createUser(), repo.id)).toBeNull();

    await setRuleSetting(db, user, 'pipe-to-shell', false);
    await setRuleOverride(db, user, repo.id, 'script-injection', false);
    expect((await listRuleSettings(db, user)).map((s) => s.rule_id)).toEqual(['pipe-to-shell']);
    expect((await listRuleOverrides(db, user, repo.id))!.map((s) => s.rule_id)).toEqual(['script-injection']);
    expect(await effectiveRuleStates(db, user, repo.id)).toEqual([
      { rule_id: 'pipe-to-shell', enabled: false, source: 'global' },
      { rule_id: 'script-injection', enabled: false, source: 'override' },
    ]);
    expect(await scanContext(db, user, repo.id)).toEqual({ repository: repo, disabled_rules: ['pipe-to-shell', 'script-injection'], rule_options: {}, rule_severities: {}, action_references: [], dismissed: [] });

    const kept = finding({ rule_id: 'excessive-permissions' });
    const findings = [kept, finding({ rule_id: 'pipe-to-shell' }), finding({ rule_id: 'script-injection' })];
    await recordScan(db, user, { repositoryId: repo.id, ruleset: 'all', counts: countsOf(findings), findings });
    expect(await repositoryComboInputs(db, user, repo.id)).toEqual([kept]);
    const catalog = { rules: { 'excessive-permissions': kept.recommendation, 'pipe-to-shell': '' }, kinds: [{ requires: [['excessive-permissions', 'pipe-to-shell']], rules: ['excessive-permissions', 'pipe-to-shell'] }] };
    expect(await attackPathInputs(db, user, catalog)).toEqual([
      // Then the repository's dismissed fingerprints and its latest scan's commit (none here).
      [repo.id, repo.full_name, repo.html_url, [[kept.file, kept.line, kept.column, kept.severity, kept.rule_id, kept.description, null, kept.job, kept.fingerprint, null]], [], null],
    ]);

    expect(await clearRuleOverride(db, user, repo.id, 'script-injection')).toEqual({ deleted: true });
    expect(await clearRuleSetting(db, user, 'pipe-to-shell')).toEqual({ deleted: true });
    expect(await repositoryComboInputs(db, user, repo.id)).toEqual(findings);

    expect(await githubIdentity(db, user)).toBeNull();
    expect(await consumeRateLimit(db, user, { bucket: 'scan', limit: 1, windowSeconds: 60 })).toMatchObject({ allowed: true });
    expect(await consumeRateLimit(db, user, { bucket: 'scan', limit: 1, windowSeconds: 60 })).toMatchObject({ allowed: false });
  });

  test("github_identity works as service_role, which has no grant on Supabase's auth tables", async () => {
    const user = await t.createUser();
    await t.query(
      `insert into auth.identities (provider_id, user_id, identity_data, provider) values ('583231', $1, '{"user_name": "octocat"}', 'github')`,
      [user],
    );
    expect(await githubIdentity(supabase(), user)).toEqual({ provider_id: '583231', login: 'octocat' });
  });
});

describe('errors', () => {
  async function failure(promise: Promise<unknown>): Promise<DatabaseError> {
    const error = await promise.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseError);
    return error as DatabaseError;
  }

  test('a repository the user does not own is not_found, with a message that reveals nothing', async () => {
    const owner = await t.createUser();
    const installationId = githubId();
    await linkInstallation(t.db, owner, { installationId, accountLogin: 'octo', accountType: 'User' });
    const [repo] = await syncRepositories(t.db, owner, [listing(installationId)]);
    const error = await failure(setRuleOverride(supabase(), await t.createUser(), repo!.id, 'pipe-to-shell', false));
    expect(error).toMatchObject({ kind: 'not_found', sqlState: 'P0002', fn: 'set_rule_override', message: 'Not found' });
    expect(error.message).not.toContain(SERVICE_ROLE_KEY);
  });

  test('a constraint violation inside the database is internal', async () => {
    const error = await failure(setRuleSetting(supabase(), await t.createUser(), 'Not A Rule', false));
    expect(error).toMatchObject({ kind: 'internal', sqlState: '23514', message: 'Database error' });
  });

  test.each([
    ['the network fails', () => HttpResponse.error(), 'unavailable'],
    ['a gateway answers 503 with HTML', () => new HttpResponse('<html>Service Unavailable</html>', { status: 503 }), 'unavailable'],
    [
      'PostgREST cannot reach the database',
      () => HttpResponse.json({ code: 'PGRST001', message: 'Database client error', details: null, hint: null }, { status: 503 }),
      'unavailable',
    ],
    [
      'the function is missing from the schema cache',
      () => HttpResponse.json({ code: 'PGRST202', message: 'Could not find the function', details: null, hint: null }, { status: 404 }),
      'internal',
    ],
    [
      'a statement times out',
      () => HttpResponse.json({ code: '57014', message: 'canceling statement due to statement timeout', details: null, hint: null }, { status: 500 }),
      'unavailable',
    ],
    [
      'a serialization failure aborts the transaction',
      () => HttpResponse.json({ code: '40001', message: 'could not serialize access', details: null, hint: null }, { status: 500 }),
      'conflict',
    ],
  ] as const)('%s: %s', async (_case, respond, kind) => {
    server.use(http.post(`${SUPABASE_URL}/rest/v1/rpc/:fn`, respond));
    expect((await failure(listRuleSettings(supabase(), await t.createUser()))).kind).toBe(kind);
  });

  test('a call that outlasts the timeout is aborted as unavailable', async () => {
    server.use(
      http.post(`${SUPABASE_URL}/rest/v1/rpc/:fn`, async () => {
        await delay(20_000);
        return HttpResponse.json([]);
      }),
    );
    const started = performance.now();
    const error = await failure(listRuleSettings(supabase({ timeoutMs: 100 }), await t.createUser()));
    expect(error.kind).toBe('unavailable');
    // Far below the answer's delay: the call was aborted, not answered late (with room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(10_000);
  });
});

test.each([
  [undefined, 0, 'unavailable'],
  ['PGRST003', 504, 'unavailable'],
  ['PGRST301', 401, 'internal'],
  ['P0002', 400, 'not_found'],
  ['23505', 409, 'conflict'],
  ['08006', 503, 'unavailable'],
  ['42883', 404, 'internal'],
  [undefined, 429, 'unavailable'],
  [undefined, 400, 'internal'],
] as const)('kindOfPostgrestFailure(%s, %i) is %s', (code, status, kind) => {
  expect(kindOfPostgrestFailure(code, status)).toBe(kind);
});
