import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.CORS_ORIGINS = 'https://app.example.test';
});

import { GET, OPTIONS as LIST_OPTIONS } from '../../api/repositories/[repo_id]/rule-overrides/index.js';
import { DELETE, OPTIONS, PUT } from '../../api/repositories/[repo_id]/rule-overrides/[rule_id].js';
import { PUT as PUT_GLOBAL } from '../../api/rule-settings/[rule_id].js';
import { useDatabase } from '../../lib/db/connection.js';
import { effectiveRuleStates } from '../../lib/db/operations.js';
import { CATALOG } from '../../lib/engine/catalog.js';
import { bearer } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { userWithRepositories } from '../support/db-fixtures.js';
import { apiRequest, dispatch, errorOf } from '../support/http.js';

const RULE = CATALOG[0]?.id ?? '';
const ORIGIN = 'https://app.example.test';
let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

type Row = { rule_id: string; enabled: boolean; updated_at: string };

async function owner(): Promise<{ user: string; repo: string; authorization: string }> {
  const user = await t.createUser();
  const { repositories } = await userWithRepositories(t.db, user);
  return { user, repo: repositories[0]?.id ?? '', authorization: await bearer(user) };
}
const list = async (authorization: string, repo: string) =>
  GET(await apiRequest('GET', `/api/repositories/${repo}/rule-overrides`, { authorization }));
const put = async (authorization: string, repo: string, ruleId: string, body: unknown) =>
  PUT(await apiRequest('PUT', `/api/repositories/${repo}/rule-overrides/${ruleId}`, { authorization, body }));
const del = async (authorization: string, repo: string, ruleId: string) =>
  DELETE(await apiRequest('DELETE', `/api/repositories/${repo}/rule-overrides/${ruleId}`, { authorization }));
async function overrides(authorization: string, repo: string): Promise<Row[]> {
  const response = await list(authorization, repo);
  expect(response.status).toBe(200);
  return ((await response.json()) as { overrides: Row[] }).overrides;
}

describe('rule overrides (11-13)', () => {
  it('starts sparse, upserts with PUT, reads back, clears idempotently with DELETE', async () => {
    const { repo, authorization } = await owner();
    expect(await overrides(authorization, repo)).toEqual([]);

    const created = await put(authorization, repo, RULE, { enabled: false });
    expect(created.status).toBe(204);
    expect(created.headers.get('cache-control')).toBe('no-store');
    expect(await overrides(authorization, repo)).toEqual([{ rule_id: RULE, enabled: false, updated_at: expect.any(String) }]);
    expect((await put(authorization, repo, RULE, { enabled: true })).status).toBe(204);
    expect((await overrides(authorization, repo)).map((r) => r.enabled)).toEqual([true]);

    for (let i = 0; i < 2; i += 1) expect((await del(authorization, repo, RULE)).status).toBe(204);
    expect(await overrides(authorization, repo)).toEqual([]);
  });

  it('takes precedence over the global preference; clearing it inherits the global one', async () => {
    const { user, repo, authorization } = await owner();
    await PUT_GLOBAL(await apiRequest('PUT', `/api/rule-settings/${RULE}`, { authorization, body: { enabled: false } }));
    await put(authorization, repo, RULE, { enabled: true });
    expect((await effectiveRuleStates(t.db, user, repo))?.find((s) => s.rule_id === RULE)).toMatchObject({ enabled: true, source: 'override' });
    await del(authorization, repo, RULE);
    expect((await effectiveRuleStates(t.db, user, repo))?.find((s) => s.rule_id === RULE)).toMatchObject({ enabled: false, source: 'global' });
  });

  it("answers 404 for another user's repository on every method, and changes nothing", async () => {
    const alice = await owner();
    const bob = await owner();
    await put(alice.authorization, alice.repo, RULE, { enabled: false });
    const responses = [
      await list(bob.authorization, alice.repo),
      await put(bob.authorization, alice.repo, RULE, { enabled: true }),
      await del(bob.authorization, alice.repo, RULE),
    ];
    for (const response of responses) {
      expect(response.status).toBe(404);
      expect(await errorOf(response)).toEqual({ code: 'not_found', message: 'Not found.' });
    }
    expect((await overrides(alice.authorization, alice.repo)).map((r) => r.enabled)).toEqual([false]);
    expect(await overrides(bob.authorization, bob.repo)).toEqual([]);
  });

  it('answers 404 for a repository that does not exist and for a malformed id', async () => {
    const { authorization } = await owner();
    for (const repo of [randomUUID(), 'not-a-uuid', '1', `${randomUUID()}x`, 'x'.repeat(5000)]) {
      for (const response of [await list(authorization, repo), await put(authorization, repo, RULE, { enabled: true }), await del(authorization, repo, RULE)]) {
        expect(response.status, repo.slice(0, 40)).toBe(404);
        expect((await errorOf(response)).code).toBe('not_found');
      }
    }
  });

  it('answers 400 for an unknown rule, and for a bad body, writing nothing', async () => {
    const { repo, authorization } = await owner();
    const unknown = await put(authorization, repo, 'no-such-rule', { enabled: false });
    expect(unknown.status).toBe(400);
    expect(await errorOf(unknown)).toMatchObject({ code: 'invalid_request', details: [{ location: 'path', path: ['rule_id'] }] });
    expect((await del(authorization, repo, 'no-such-rule')).status).toBe(400);
    const badBody = await put(authorization, repo, RULE, { enabled: 1 });
    expect(badBody.status).toBe(400);
    expect(await errorOf(badBody)).toMatchObject({ details: [{ location: 'body', path: ['enabled'] }] });
    expect(await overrides(authorization, repo)).toEqual([]);
  });

  it('answers 401 without a token, before revealing whether the repository exists', async () => {
    const { repo } = await owner();
    for (const response of [await list('', repo), await put('Bearer x', repo, RULE, { enabled: true }), await del('Basic Zm9vOmJhcg==', 'not-a-uuid', RULE)]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
    }
  });

  it('answers 405 with Allow, through the router', async () => {
    const { repo, authorization } = await owner();
    const post = await dispatch(await apiRequest('POST', `/api/repositories/${repo}/rule-overrides`, { authorization, body: {} }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, OPTIONS');
    const patch = await dispatch(await apiRequest('PATCH', `/api/repositories/${repo}/rule-overrides/${RULE}`, { authorization, body: {} }));
    expect(patch.status).toBe(405);
    expect(patch.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
  });

  it('serves the real handlers through the router with the path segments as parameters', async () => {
    const { repo, authorization } = await owner();
    const url = `http://localhost/api/repositories/${repo}/rule-overrides/${RULE}`;
    const response = await dispatch(new Request(url, { method: 'PUT', headers: { authorization }, body: '{"enabled":false}' }));
    expect(response.status).toBe(204);
    expect((await overrides(authorization, repo)).map((r) => r.rule_id)).toEqual([RULE]);
  });

  describe('CORS', () => {
    it('answers a preflight from the allowed origin', async () => {
      const { repo } = await owner();
      const response = await OPTIONS(
        await apiRequest('OPTIONS', `/api/repositories/${repo}/rule-overrides/${RULE}`, {
          headers: { origin: ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization,content-type' },
        }),
      );
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-allow-methods')).toBe('PUT, DELETE, OPTIONS');
      expect(response.headers.get('x-request-id')).toBeTruthy();
      const listPreflight = await LIST_OPTIONS(await apiRequest('OPTIONS', `/api/repositories/${repo}/rule-overrides`, { headers: { origin: ORIGIN } }));
      expect(listPreflight.headers.get('access-control-allow-methods')).toBe('GET, OPTIONS');
    });

    it('grants an allowed origin on the actual response and nothing to others', async () => {
      const { repo, authorization } = await owner();
      const allowed = await GET(await apiRequest('GET', `/api/repositories/${repo}/rule-overrides`, { authorization, headers: { origin: ORIGIN } }));
      expect(allowed.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(allowed.headers.get('vary')).toContain('Origin');
      const denied = await GET(await apiRequest('GET', `/api/repositories/${repo}/rule-overrides`, { authorization, headers: { origin: 'https://evil.example' } }));
      expect(denied.headers.get('access-control-allow-origin')).toBeNull();
      const deniedPreflight = await OPTIONS(
        await apiRequest('OPTIONS', `/api/repositories/${repo}/rule-overrides/${RULE}`, {
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'DELETE' },
        }),
      );
      expect(deniedPreflight.headers.get('access-control-allow-origin')).toBeNull();
      expect(deniedPreflight.headers.get('access-control-allow-methods')).toBeNull();
    });
  });
});
