import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GET, OPTIONS as LIST_OPTIONS } from '../../api/rule-settings/index.js';
import { DELETE, OPTIONS, PUT } from '../../api/rule-settings/[rule_id].js';
import { useDatabase } from '../../lib/db/connection.js';
import type { Database } from '../../lib/db/port.js';
import { CATALOG } from '../../lib/engine/catalog.js';
import { setLogSink, type LogRecord } from '../../lib/http/log.js';
import { bearer, signToken } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest, dispatch, errorOf } from '../support/http.js';

const RULE = CATALOG[0]?.id ?? '';
const OTHER_RULE = CATALOG[1]?.id ?? '';
let t: TestDatabase;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
});
afterAll(async () => t.close());

async function settingsOf(userId: string): Promise<{ rule_id: string; enabled: boolean; updated_at: string }[]> {
  const response = await GET(await apiRequest('GET', '/api/rule-settings', { authorization: await bearer(userId) }));
  expect(response.status).toBe(200);
  return ((await response.json()) as { settings: { rule_id: string; enabled: boolean; updated_at: string }[] }).settings;
}

const put = async (userId: string, ruleId: string, body: unknown) =>
  PUT(await apiRequest('PUT', `/api/rule-settings/${ruleId}`, { authorization: await bearer(userId), body }));
const del = async (userId: string, ruleId: string) =>
  DELETE(await apiRequest('DELETE', `/api/rule-settings/${ruleId}`, { authorization: await bearer(userId) }));

describe('rule settings (8-10)', () => {
  it('starts sparse, upserts with PUT, reads back with updated_at, clears with DELETE', async () => {
    const user = await t.createUser();
    expect(await settingsOf(user)).toEqual([]);

    const first = await put(user, RULE, { enabled: false });
    expect(first.status).toBe(204);
    expect(await first.text()).toBe('');
    expect(first.headers.get('cache-control')).toBe('no-store');
    expect(first.headers.get('x-request-id')).toBeTruthy();
    const [row] = await settingsOf(user);
    expect(row).toEqual({ rule_id: RULE, enabled: false, updated_at: expect.any(String) });
    expect(Number.isNaN(Date.parse(row?.updated_at ?? ''))).toBe(false);

    expect((await put(user, RULE, { enabled: true })).status).toBe(204);
    expect((await put(user, OTHER_RULE, { enabled: false })).status).toBe(204);
    const rows = await settingsOf(user);
    expect(rows.map(({ rule_id, enabled }) => ({ rule_id, enabled }))).toEqual(
      [
        { rule_id: RULE, enabled: true },
        { rule_id: OTHER_RULE, enabled: false },
      ].sort((a, b) => a.rule_id.localeCompare(b.rule_id)),
    );

    const cleared = await del(user, RULE);
    expect(cleared.status).toBe(204);
    expect((await settingsOf(user)).map((r) => r.rule_id)).toEqual([OTHER_RULE]);
  });

  it('answers DELETE with 204 when there is no row', async () => {
    const user = await t.createUser();
    expect((await del(user, RULE)).status).toBe(204);
    expect((await del(user, RULE)).status).toBe(204);
    expect(await settingsOf(user)).toEqual([]);
  });

  it('keeps users apart', async () => {
    const alice = await t.createUser();
    const bob = await t.createUser();
    await put(alice, RULE, { enabled: false });
    expect(await settingsOf(bob)).toEqual([]);
    await del(bob, RULE);
    expect((await settingsOf(alice)).map((r) => r.rule_id)).toEqual([RULE]);
  });

  it.each([
    ['unknown', 'no-such-rule'],
    ['upper case', RULE.toUpperCase()],
    ['traversal', '..%2F..%2Fetc%2Fpasswd'],
    ['NUL', 'script-injection%00'],
    ['SQL', "x'%3B%20drop%20table%20rule_settings%3B--"],
    ['very long', 'a'.repeat(5000)],
  ])('rejects an %s rule id with 400 on PUT and DELETE, writing nothing', async (_what, ruleId) => {
    const user = await t.createUser();
    for (const response of [await put(user, ruleId, { enabled: false }), await del(user, ruleId)]) {
      expect(response.status).toBe(400);
      expect(await errorOf(response)).toMatchObject({ code: 'invalid_request', details: [{ location: 'path', path: ['rule_id'] }] });
    }
    expect(await settingsOf(user)).toEqual([]);
  });

  it.each([
    ['a string', { enabled: 'false' }, [['enabled']]],
    ['missing enabled', {}, [['enabled']]],
    ['an extra key', { enabled: true, user_id: 'someone-else' }, [['user_id']]],
    ['an array', [{ enabled: true }], [[]]],
  ])('rejects a body with %s with 400 and the issue paths', async (_what, body, paths) => {
    const user = await t.createUser();
    const response = await put(user, RULE, body);
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect((error.details as { location: string; path: unknown[] }[]).map((d) => d.path)).toEqual(paths);
    expect(await settingsOf(user)).toEqual([]);
  });

  it('says what is wrong in the style of the other messages: a missing key is required, an unknown rule id gets the closest one', async () => {
    const user = await t.createUser();
    const missing = await errorOf(await put(user, RULE, {}));
    expect(missing.details).toEqual([{ location: 'body', path: ['enabled'], message: 'is required' }]);
    const extra = await errorOf(await put(user, RULE, { enabled: true, user_id: 'x' }));
    expect(extra.details).toEqual([{ location: 'body', path: ['user_id'], message: 'is not a known key' }]);
    const typo = await errorOf(await put(user, 'unpined-action', { enabled: false }));
    expect(typo.details).toEqual([{ location: 'path', path: ['rule_id'], message: 'not a rule of the catalog (did you mean "unpinned-action"?)' }]);
  });

  it('rejects broken JSON with 400 and an oversized body with 413', async () => {
    const user = await t.createUser();
    expect((await put(user, RULE, '{"enabled":')).status).toBe(400);
    const big = await put(user, RULE, JSON.stringify({ enabled: true, pad: 'x'.repeat(3 * 1024 * 1024) }));
    expect(big.status).toBe(413);
    expect((await errorOf(big)).code).toBe('payload_too_large');
    expect(await settingsOf(user)).toEqual([]);
  });

  it('requires a valid token on every method', async () => {
    const expired = `Bearer ${await signToken({ expiresIn: -5 })}`;
    const requests = [
      GET(await apiRequest('GET', '/api/rule-settings')),
      PUT(await apiRequest('PUT', `/api/rule-settings/${RULE}`, { body: { enabled: false } })),
      DELETE(await apiRequest('DELETE', `/api/rule-settings/${RULE}`, { authorization: expired })),
      GET(await apiRequest('GET', '/api/rule-settings', { authorization: 'Bearer abc.def.ghi' })),
    ];
    const [missing, missingPut, expiredDelete, garbage] = await Promise.all(requests);
    for (const response of [missing, missingPut]) {
      expect(response?.status).toBe(401);
      expect(response?.headers.get('www-authenticate')).toBe('Bearer');
    }
    for (const response of [expiredDelete, garbage]) {
      expect(response?.status).toBe(401);
      expect(response?.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
      expect(response?.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('answers 405 with Allow for methods the files do not export', async () => {
    const user = await t.createUser();
    const authorization = await bearer(user);
    const post = await dispatch(await apiRequest('POST', '/api/rule-settings', { authorization, body: { enabled: true } }));
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toBe('GET, OPTIONS');
    const get = await dispatch(await apiRequest('GET', `/api/rule-settings/${RULE}`, { authorization }));
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
    expect((await errorOf(get)).code).toBe('method_not_allowed');
  });

  it('answers OPTIONS with the methods of each file', async () => {
    expect((await LIST_OPTIONS(await apiRequest('OPTIONS', '/api/rule-settings'))).headers.get('allow')).toBe('GET, OPTIONS');
    expect((await OPTIONS(await apiRequest('OPTIONS', `/api/rule-settings/${RULE}`))).headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
  });

  it('answers a database failure with a 500 that holds only the request id', async () => {
    const records: LogRecord[] = [];
    const restore = setLogSink((record) => records.push(record));
    const broken: Database = {
      call: async () => {
        throw new Error('could not connect to server at 10.1.2.3 with password s3cr3t');
      },
      close: async () => undefined,
    };
    useDatabase(broken);
    try {
      const user = await t.createUser();
      const response = await GET(await apiRequest('GET', '/api/rule-settings', { authorization: await bearer(user), headers: { 'x-request-id': 'forced-500' } }));
      expect(response.status).toBe(500);
      expect(response.headers.get('x-request-id')).toBe('forced-500');
      expect(await response.json()).toEqual({ error: { code: 'internal', message: 'Internal server error.', details: { request_id: 'forced-500' } } });
      expect(records.find((r) => r.level === 'error')).toMatchObject({ request_id: 'forced-500', error: { message: expect.stringContaining('10.1.2.3') } });
    } finally {
      restore();
      useDatabase(t.db);
    }
  });
});
