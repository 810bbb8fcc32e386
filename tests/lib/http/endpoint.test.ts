import { createHash, randomUUID } from 'node:crypto';
import * as v from 'valibot';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.CORS_ORIGINS = 'https://app.example.test';
});

import { DatabaseError } from '../../../lib/db/errors.js';
import { endpoint, preflight } from '../../../lib/http/endpoint.js';
import { forbidden, HttpError, rateLimited, upstreamUnavailable } from '../../../lib/http/errors.js';
import { setLogSink, userPseudonym, type LogRecord } from '../../../lib/http/log.js';
import { defineOperation } from '../../../lib/http/operation.js';
import { bearer, signToken } from '../../support/auth.js';
import { errorOf } from '../../support/http.js';

const echo = defineOperation({
  operationId: 'echo',
  method: 'PUT',
  path: '/api/things/{thing_id}',
  summary: 'test operation',
  tag: 'test',
  auth: true,
  params: v.object({ thing_id: v.pipe(v.string(), v.uuid()) }),
  query: v.object({ mode: v.optional(v.picklist(['a', 'b'])) }),
  body: v.strictObject({ enabled: v.boolean(), tags: v.optional(v.array(v.string())) }),
  response: v.object({ thing_id: v.string(), enabled: v.boolean(), user: v.string() }),
  errors: [400, 404, 413],
});
const open = defineOperation({
  operationId: 'open',
  method: 'GET',
  path: '/api/open',
  summary: 'public test operation',
  tag: 'test',
  auth: false,
  response: v.object({ ok: v.boolean() }),
  errors: [],
});

const PUT = endpoint(echo, async ({ params, body, user }) => ({ thing_id: params.thing_id, enabled: body.enabled, user: user.id }));
let fault: unknown = null;
const GET = endpoint(open, async () => {
  if (fault !== null) throw fault;
  return { ok: true };
});

const USER = randomUUID();
const THING = randomUUID();
const url = (thing: string = THING, query = '') => `http://localhost/api/things/${thing}?thing_id=${thing}${query}`;
const put = async (body: unknown, init: { headers?: Record<string, string>; url?: string } = {}) =>
  PUT(
    new Request(init.url ?? url(), {
      method: 'PUT',
      headers: { authorization: await bearer(USER), 'content-type': 'application/json', ...init.headers },
      body: typeof body === 'string' ? body : JSON.stringify(body),
    }),
  );

let logs: LogRecord[] = [];
let restoreLogs: () => void = () => undefined;
beforeEach(() => {
  logs = [];
  fault = null;
  restoreLogs = setLogSink((record) => logs.push(record));
});
afterEach(() => restoreLogs());

describe('endpoint', () => {
  it('authenticates, validates and answers 200 JSON with the handler result', async () => {
    const response = await put({ enabled: true });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ thing_id: THING, enabled: true, user: USER });
  });

  it('reports every schema issue with its location and path', async () => {
    const response = await put({ enabled: 'yes', tags: ['ok', 7], extra: 1 }, { url: url(THING, '&mode=c') });
    expect(response.status).toBe(400);
    const error = await errorOf(response);
    expect(error.code).toBe('invalid_request');
    expect(error.message).toBe('The query string is invalid.');
    expect(error.details).toEqual([{ location: 'query', path: ['mode'], message: expect.any(String) }]);

    const body = await errorOf(await put({ enabled: 'yes', tags: ['ok', 7], extra: 1 }));
    expect(body.message).toBe('The request body is invalid.');
    expect((body.details as { path: unknown[] }[]).map((d) => d.path)).toEqual([['enabled'], ['tags', 1], ['extra']]);
  });

  it.each([
    ['not JSON', '{"enabled": tru', 'The request body is not valid JSON.'],
    ['empty', '', 'A JSON request body is required.'],
    ['an array', '[true]', 'The request body is invalid.'],
    ['null', 'null', 'The request body is invalid.'],
  ])('answers a body that is %s with 400', async (_what, body, message) => {
    const response = await put(body);
    expect(response.status).toBe(400);
    expect((await errorOf(response)).message).toBe(message);
  });

  it('answers invalid UTF-8 with 400', async () => {
    const response = await PUT(
      new Request(url(), { method: 'PUT', headers: { authorization: await bearer(USER) }, body: new Uint8Array([0x7b, 0xff, 0x7d]) }),
    );
    expect(response.status).toBe(400);
  });

  it('answers a malformed path id with 404, not 400', async () => {
    const response = await put({ enabled: true }, { url: url('not-a-uuid') });
    expect(response.status).toBe(404);
    expect(await errorOf(response)).toEqual({ code: 'not_found', message: 'Not found.' });
  });

  it('answers 413 on a declared Content-Length over the limit, before reading or authenticating', async () => {
    const response = await PUT(
      new Request(url(), { method: 'PUT', headers: { 'content-length': String(64 * 1024 + 1) }, body: 'x' }),
    );
    expect(response.status).toBe(413);
    expect((await errorOf(response)).code).toBe('payload_too_large');
  });

  it('answers 413 on a streamed body over the limit without Content-Length', async () => {
    let pulled = 0;
    const chunk = new Uint8Array(16 * 1024).fill(0x20);
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += 1;
        controller.enqueue(chunk);
        if (pulled > 1000) controller.close();
      },
    });
    const request = new Request(url(), { method: 'PUT', headers: { authorization: await bearer(USER) }, body: stream, duplex: 'half' } as RequestInit);
    expect(request.headers.get('content-length')).toBeNull();
    const response = await PUT(request);
    expect(response.status).toBe(413);
    expect(pulled).toBeLessThan(10);
  });

  it('answers 401 before looking at the input, with the challenge and no-store', async () => {
    const missing = await PUT(new Request(url('bad'), { method: 'PUT', body: 'not json' }));
    expect(missing.status).toBe(401);
    expect(missing.headers.get('www-authenticate')).toBe('Bearer');
    expect(missing.headers.get('cache-control')).toBe('no-store');
    const expired = await PUT(
      new Request(url(), { method: 'PUT', headers: { authorization: `Bearer ${await signToken({ sub: USER, expiresIn: -60 })}` }, body: '{}' }),
    );
    expect(expired.status).toBe(401);
    expect(expired.headers.get('www-authenticate')).toBe('Bearer error="invalid_token"');
    expect(await errorOf(expired)).toEqual({ code: 'unauthorized', message: 'The access token has expired.' });
  });

  it('sets cache-control: no-store on authenticated operations only', async () => {
    expect((await put({ enabled: true })).headers.get('cache-control')).toBe('no-store');
    expect((await GET(new Request('http://localhost/api/open'))).headers.get('cache-control')).toBeNull();
  });

  describe('x-request-id', () => {
    it('keeps a sane incoming id and replaces anything else', async () => {
      const kept = await GET(new Request('http://localhost/api/open', { headers: { 'x-request-id': 'edge-1234.abc:9' } }));
      expect(kept.headers.get('x-request-id')).toBe('edge-1234.abc:9');
      for (const insane of ['a b', 'x'.repeat(200), '<script>', '-leading-dash']) {
        const replaced = await GET(new Request('http://localhost/api/open', { headers: { 'x-request-id': insane } }));
        expect(replaced.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
      }
    });

    it('is on successes, errors and preflights alike', async () => {
      const responses = [
        await GET(new Request('http://localhost/api/open')),
        await put({ enabled: 'no' }),
        await PUT(new Request(url(), { method: 'PUT' })),
        await preflight('/api/open')(new Request('http://localhost/api/open', { method: 'OPTIONS' })),
      ];
      for (const response of responses) expect(response.headers.get('x-request-id')).toBeTruthy();
    });
  });

  describe('errors', () => {
    it('keeps an HttpError status, body and headers', async () => {
      fault = rateLimited(30);
      const response = await GET(new Request('http://localhost/api/open'));
      expect(response.status).toBe(429);
      expect(response.headers.get('retry-after')).toBe('30');
      expect(await errorOf(response)).toEqual({ code: 'rate_limited', message: 'Too many requests; try again later.' });
    });

    it.each([
      ['forbidden', forbidden(), 403, 'forbidden', null],
      ['a code-host error', upstreamUnavailable('GitHub answered 500.', 502), 502, 'upstream_unavailable', null],
      ['a code-host outage', upstreamUnavailable('GitHub is unreachable.', 503, 20), 503, 'upstream_unavailable', '20'],
    ])('answers %s with its status and code', async (_what, error, status, code, retryAfter) => {
      fault = error;
      const response = await GET(new Request('http://localhost/api/open'));
      expect(response.status).toBe(status);
      expect(response.headers.get('retry-after')).toBe(retryAfter);
      expect((await errorOf(response)).code).toBe(code);
    });

    it.each([
      ['not_found', 404, 'not_found'],
      ['conflict', 503, 'upstream_unavailable'],
      ['unavailable', 503, 'upstream_unavailable'],
      ['internal', 500, 'internal'],
    ] as const)('maps DatabaseError %s to %i', async (kind, status, code) => {
      fault = new DatabaseError(kind, 'set_rule_override', { sqlState: 'XX000', cause: new Error('relation "secret_table" does not exist') });
      const response = await GET(new Request('http://localhost/api/open'));
      expect(response.status).toBe(status);
      const text = await response.clone().text();
      expect(text).not.toContain('secret_table');
      expect(text).not.toContain('set_rule_override');
      expect((await errorOf(response)).code).toBe(code);
      // Outages and internal errors reach the log with their cause; a missing repository does not.
      const logged = logs.find((record) => record.level === 'error');
      expect(logged !== undefined).toBe(status >= 500);
      if (logged !== undefined) expect(logged).toMatchObject({ error: { cause: { message: 'relation "secret_table" does not exist' } } });
    });

    it('answers anything unexpected with a 500 holding only the request id, and logs the details', async () => {
      fault = new Error('connect ECONNREFUSED 10.0.0.7:5432 password=hunter2');
      const response = await GET(
        new Request('http://localhost/api/open', { headers: { 'x-request-id': 'req-500-test', authorization: 'Bearer secret-token' } }),
      );
      expect(response.status).toBe(500);
      const text = await response.text();
      expect(JSON.parse(text)).toEqual({ error: { code: 'internal', message: 'Internal server error.', details: { request_id: 'req-500-test' } } });
      expect(text).not.toMatch(/ECONNREFUSED|hunter2|10\.0\.0\.7|stack|at /);

      const errorLog = logs.find((record) => record.level === 'error');
      expect(errorLog).toMatchObject({ request_id: 'req-500-test', error: { name: 'Error', message: fault instanceof Error ? fault.message : '' } });
      expect(JSON.stringify(errorLog)).toContain('"stack"');
      expect(JSON.stringify(logs)).not.toContain('secret-token');
    });

    it('answers a thrown non-Error the same way', async () => {
      fault = 'a string';
      expect((await GET(new Request('http://localhost/api/open'))).status).toBe(500);
      fault = new HttpError(418, 'forbidden', 'custom');
      expect((await GET(new Request('http://localhost/api/open'))).status).toBe(418);
    });
  });

  describe('CORS', () => {
    const ORIGIN = 'https://app.example.test';

    it('grants an allowed origin on actual responses, with Vary: Origin', async () => {
      const response = await put({ enabled: true }, { headers: { origin: ORIGIN } });
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-expose-headers')).toContain('x-request-id');
      expect(response.headers.get('vary')).toContain('Origin');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
    });

    it('grants nothing to another origin', async () => {
      const response = await put({ enabled: true }, { headers: { origin: 'https://evil.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBeNull();
      expect(response.headers.get('vary')).toContain('Origin');
    });

    it('answers a preflight from an allowed origin', async () => {
      const response = await preflight('/api/rule-settings/{rule_id}')(
        new Request('http://localhost/api/rule-settings/x', {
          method: 'OPTIONS',
          headers: { origin: ORIGIN, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type' },
        }),
      );
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
      expect(response.headers.get('access-control-allow-methods')).toBe('PUT, DELETE, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toContain('authorization');
      expect(response.headers.get('access-control-max-age')).toBe('600');
      expect(response.headers.get('allow')).toBe('PUT, DELETE, OPTIONS');
      expect(response.headers.get('vary')).toContain('Origin');
    });

    it('answers a preflight from another origin without any grant', async () => {
      const response = await preflight('/api/rule-settings/{rule_id}')(
        new Request('http://localhost/api/rule-settings/x', {
          method: 'OPTIONS',
          headers: { origin: 'https://evil.example', 'access-control-request-method': 'PUT' },
        }),
      );
      expect(response.status).toBe(204);
      expect([...response.headers.keys()].filter((name) => name.startsWith('access-control-'))).toEqual([]);
    });
  });

  describe('request log', () => {
    it('writes one line per request with id, method, route, status, duration and a user pseudonym', async () => {
      const token = await bearer(USER);
      await PUT(new Request(url(), { method: 'PUT', headers: { authorization: token, 'x-request-id': 'log-test-1' }, body: '{"enabled":true}' }));
      expect(logs).toHaveLength(1);
      const [record] = logs;
      expect(record).toMatchObject({ level: 'info', msg: 'request', request_id: 'log-test-1', method: 'PUT', route: '/api/things/{thing_id}', status: 200 });
      expect(record).toHaveProperty('duration_ms', expect.any(Number));
      const user = (record as { user: string }).user;
      expect(user).toMatch(/^[0-9a-f]{16}$/);
      // Keyed (an HMAC with a deployment secret), not a bare hash anyone could compute from a known user id.
      expect(user).not.toBe(createHash('sha256').update(`chainbreaker-user:${USER}`).digest('hex').slice(0, 16));
      expect(user).toBe(userPseudonym(USER));
      const line = JSON.stringify(logs);
      expect(line).not.toContain(USER);
      expect(line).not.toContain(token.slice(7));
      expect(line.toLowerCase()).not.toContain('authorization');
    });

    it('logs no user before authentication succeeds', async () => {
      await PUT(new Request(url(), { method: 'PUT', headers: { authorization: 'Bearer forged.token.here' }, body: '{}' }));
      expect(logs).toEqual([expect.objectContaining({ status: 401, user: null })]);
      expect(JSON.stringify(logs)).not.toContain('forged.token.here');
    });
  });
});
