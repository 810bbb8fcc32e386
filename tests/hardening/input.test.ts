// Hostile input on every endpoint, with a valid token: broken and mistyped JSON, arrays for objects, 3 MB
// bodies, 5,000-character path segments, NUL and encoded traversal in ids, SQL and JSON injection strings,
// malformed installation ids, duplicated parameters. Each is a 4xx with the error body, never a 5xx, and
// nothing stored for the user changes. Endpoints are enumerated from the route files (support.ts).

import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { serve } from '../../lib/dev/node-server.js';
import { createRouter } from '../../lib/dev/router.js';
import { env } from '../../lib/env.js';
import { bearer } from '../support/auth.js';
import { examplesCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { ROOT, routes } from '../support/http.js';
import { endpoints, expectErrorBody, send, storedFor, urlOf, userWithData, validBody, type Endpoint, type Fill } from './support.js';

let t: TestDatabase;
let list: Endpoint[];
let user: Awaited<ReturnType<typeof userWithData>>;
let fill: Fill;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
  list = await endpoints();
  user = await userWithData(t, { scan: true });
  fill = { repo_id: user.repos['issue-triage-bot'] ?? '', rule_id: 'script-injection', installation_id: '1', scan_id: user.scanId, fingerprint: '3f2a9c01d4e5b6' };
});
afterAll(async () => t.close());

interface Case {
  what: string;
  method: string;
  url: string;
  body?: unknown;
  headers?: Record<string, string>;
  /** Expected status; any 4xx when omitted. */
  status?: number;
}

/** Sends every case, checks status and error body, and that nothing stored for the user changed. */
async function expectRefused(cases: readonly Case[]): Promise<void> {
  const before = await storedFor(t, user.userId);
  const codes: Record<number, string> = { 400: 'invalid_request', 404: 'not_found', 405: 'method_not_allowed', 413: 'payload_too_large' };
  for (const c of cases) {
    const response = await send(c.method, c.url, { authorization: user.authorization, body: c.body, headers: c.headers });
    const label = `${c.method} ${c.url.slice(0, 120)}: ${c.what}`;
    expect(response.status, label).toBeGreaterThanOrEqual(400);
    expect(response.status, label).toBeLessThan(500);
    if (c.status !== undefined) expect(response.status, label).toBe(c.status);
    const error = await expectErrorBody(response, codes[response.status] ?? 'unexpected');
    // The error echoes no input back: no injected string, no oversized segment.
    expect(JSON.stringify(error).length, label).toBeLessThan(2_000);
    expect(JSON.stringify(error), label).not.toMatch(/drop table|<script>|\\u0000|passwd/i);
  }
  // Nothing stored but the per-user rate-limit counters (expensive reads and the callback count refused attempts too).
  expect(uncounted(await storedFor(t, user.userId))).toEqual(uncounted(before));
}

const uncounted = ({ rate_limits: _count, rate_limit_rows: _rows, ...rest }: Record<string, unknown>) => rest;

const withPath = (endpoint: Endpoint, values: Partial<Fill>) => urlOf(endpoint, { ...fill, ...values });
const bodyEndpoints = () => list.filter((e) => e.operation.body !== undefined);
const named = (name: string) => list.find((e) => e.name === name) as Endpoint;

const INJECTIONS = [
  "' or '1'='1",
  "'; drop table public.rule_settings; --",
  'script-injection\'--',
  '1; select pg_sleep(10)',
  '$$; drop table public.scans; $$',
  '{"$ne": null}',
  '","enabled":true,"x":"',
  '<script>alert(1)</script>',
  '${jndi:ldap://x}',
  '__proto__',
  'constructor',
  'script-injection\u0000',
  '\u0000',
  'SCRIPT-INJECTION',
  'script‐injection', // a Unicode hyphen
  'ѕcript-injection', // a Cyrillic s
];
const TRAVERSALS = ['%00', 'script-injection%00', '..%2f..%2fetc%2fpasswd', '%2e%2e', '%2e%2e%2f%2e%2e%2f', '..%5c..%5c', '%252e%252e%252f', 'script-injection%2f..%2f..', '.%2e', '%c0%ae%c0%ae'];

describe('hostile JSON bodies', () => {
  const broken = ['', ' ', '{', '{"enabled":}', "{'enabled': true}", '{"enabled": true,}', '{"enabled": true} x', 'enabled=true', 'true', 'null', '0', '"x"', '{"enabled": NaN}', '{"enabled": 1e999}', '{"enabled": tru', '\u0000'];
  const mistyped = (endpoint: Endpoint): unknown[] =>
    endpoint.path === '/api/scan'
      ? [
          {},
          { repo_id: 1 },
          { repo_id: null },
          { repo_id: [fill.repo_id] },
          { repo_id: { id: fill.repo_id } },
          { repo_id: true },
          { repo_id: fill.repo_id, ruleset: ['all'] },
          { repo_id: fill.repo_id, ruleset: 'ALL' },
          { repo_id: fill.repo_id, ruleset: '' },
          { repo_id: `${fill.repo_id}\u0000` },
          { repo_id: ` ${fill.repo_id}` },
          { repo_id: fill.repo_id.replace(/-/g, '') },
          { repo_id: fill.repo_id, admin: true },
          { repo_id: fill.repo_id, user_id: randomUUID() },
          ...INJECTIONS.map((repo_id) => ({ repo_id })),
          ...INJECTIONS.map((ruleset) => ({ repo_id: fill.repo_id, ruleset })),
        ]
      : endpoint.path.includes('/dismissals/')
      ? [
          {},
          { reason: null },
          { reason: ['accepted_risk'] },
          { reason: 'ACCEPTED_RISK' },
          { reason: 'accepted_risk', comment: 1 },
          { reason: 'accepted_risk', comment: 'x'.repeat(1001) },
          { reason: 'accepted_risk', kind: 'scan' },
          { reason: 'accepted_risk', user_id: randomUUID() },
          { reason: 'accepted_risk', dismissed_by: randomUUID() },
          ...INJECTIONS.map((reason) => ({ reason })),
          ...INJECTIONS.map((kind) => ({ reason: 'wont_fix', kind })),
        ]
      : [
          {},
          { enabled: 'true' },
          { enabled: 'false' },
          { enabled: 1 },
          { enabled: 0 },
          { enabled: null },
          { enabled: [true] },
          { enabled: { value: true } },
          { enabled: true, rule_id: 'pipe-to-shell' },
          { enabled: true, user_id: randomUUID() },
          { enabled: true, repository_id: randomUUID() },
          ...INJECTIONS.map((enabled) => ({ enabled })),
        ];
  const hostileShapes = (endpoint: Endpoint): string[] => {
    const valid = JSON.stringify(validBody(endpoint, fill));
    return [
      `[${valid}]`,
      '[]',
      `[${valid}, ${valid}]`,
      `{"__proto__": ${valid}}`,
      `{"__proto__": {"enabled": true}, ${valid.slice(1)}`,
      `{"constructor": {"prototype": {"enabled": true}}, ${valid.slice(1)}`,
      `{"x": ${'['.repeat(20_000)}${']'.repeat(20_000)}, ${valid.slice(1)}`,
      `${'['.repeat(30_000)}${']'.repeat(30_000)}`,
      `{"pad": "${'\\u0000'.repeat(1000)}", ${valid.slice(1)}`,
    ];
  };

  it('answers broken JSON with 400 on every endpoint with a body', async () => {
    const cases = bodyEndpoints().flatMap((e) => broken.map((body) => ({ what: JSON.stringify(body), method: e.method, url: urlOf(e, fill), body, status: 400 })));
    await expectRefused(cases);
  });

  it('answers wrong types, unknown keys and injection strings with 400 and the issue', async () => {
    const cases = bodyEndpoints().flatMap((e) => mistyped(e).map((body) => ({ what: JSON.stringify(body), method: e.method, url: urlOf(e, fill), body, status: 400 })));
    expect(cases.length).toBeGreaterThan(50);
    await expectRefused(cases);
  });

  it('answers arrays for objects, prototype keys and deep nesting with 400, and pollutes nothing', async () => {
    const cases = bodyEndpoints().flatMap((e) => hostileShapes(e).map((body) => ({ what: body.slice(0, 60), method: e.method, url: urlOf(e, fill), body, status: 400 })));
    await expectRefused(cases);
    expect(({} as Record<string, unknown>).enabled).toBeUndefined();
    expect(Object.prototype).not.toHaveProperty('enabled');
  });

  it('answers a 3 MB body with 413 on every endpoint, declared or streamed', async () => {
    const size = 3 * 1024 * 1024;
    // The webhook endpoint takes larger bodies (GitHub's deliveries): past its own limit for it.
    const declared = list.map((e) => ({
      what: '3 MB declared by Content-Length',
      method: e.method,
      url: urlOf(e, fill),
      headers: { 'content-length': String(Math.max(size, (e.operation.rawBody?.limitBytes ?? 0) + 1)) },
      status: 413,
    }));
    const sent = bodyEndpoints().map((e) => ({
      what: '3 MB of JSON',
      method: e.method,
      url: urlOf(e, fill),
      body: JSON.stringify({ ...(validBody(e, fill) as object), pad: 'x'.repeat(size) }),
      status: 413,
    }));
    await expectRefused([...declared, ...sent]);

    // Streamed with no Content-Length: cut off at the limit, not read to the end.
    for (const e of bodyEndpoints()) {
      let pulled = 0;
      const stream = new ReadableStream<Uint8Array>({
        pull(controller) {
          pulled += 1;
          controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
          if (pulled * 64 * 1024 >= size) controller.close();
        },
      });
      const url = new URL(urlOf(e, fill), 'http://localhost');
      for (const [name, value] of Object.entries(paramsOf(e, fill))) url.searchParams.set(name, value);
      const handler = await handlerOf(e);
      const response = await handler(
        new Request(url, { method: e.method, headers: { authorization: user.authorization }, body: stream, duplex: 'half' } as RequestInit),
      );
      expect(response.status, e.name).toBe(413);
      expect(pulled * 64 * 1024, e.name).toBeLessThanOrEqual(env().bodyLimitBytes + 3 * 64 * 1024);
    }
  });
});

/** Path parameters as Vercel passes them to a handler (query parameters). */
function paramsOf(endpoint: Endpoint, values: Fill): Record<string, string> {
  const names = [...endpoint.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as keyof Fill);
  return Object.fromEntries(names.map((n) => [n, values[n]]));
}

async function handlerOf(endpoint: Endpoint): Promise<(request: Request) => Promise<Response>> {
  const route = (await routes()).find((r) => r.path.replace(/\[(\w+)\]/g, '{$1}') === endpoint.path);
  const module = (await import(new URL(route?.file ?? '', `file://${ROOT}`).href)) as Record<string, (request: Request) => Promise<Response>>;
  return module[endpoint.method] as (request: Request) => Promise<Response>;
}

describe('hostile path segments', () => {
  const long = 'a'.repeat(5_000);

  it('answers a 5,000-character segment with 404 (repository) or 400 (rule), and unknown long paths with 404', async () => {
    const cases: Case[] = [];
    for (const e of list) {
      if (e.path.includes('{repo_id}')) cases.push({ what: 'long repo_id', method: e.method, url: withPath(e, { repo_id: long }), body: validBody(e, fill), status: 404 });
      if (e.path.includes('{rule_id}')) cases.push({ what: 'long rule_id', method: e.method, url: withPath(e, { rule_id: long }), body: validBody(e, fill), status: 400 });
      if (e.path.includes('{fingerprint}')) cases.push({ what: 'long fingerprint', method: e.method, url: withPath(e, { fingerprint: long }), body: validBody(e, fill), status: 404 });
      // 404, or 405 where the longer path is another route's.
      cases.push({ what: 'long extra segment', method: e.method, url: `${e.path.replace(/\{\w+\}/g, 'x')}/${long}`, body: validBody(e, fill) });
    }
    await expectRefused(cases);
  });

  it('answers NUL, encoded traversal and injection in rule ids with 400, and in repository ids with 404', async () => {
    const cases: Case[] = [];
    for (const e of list) {
      for (const raw of TRAVERSALS) {
        // Already encoded: put into the URL as is. URLs resolve `%2e%2e` like `..`, so some of these name
        // another path (404) before any handler sees them.
        if (e.path.includes('{rule_id}')) {
          cases.push({ what: raw, method: e.method, url: e.path.replace('{repo_id}', fill.repo_id).replace('{rule_id}', raw), body: validBody(e, fill), status: /%2e/i.test(raw) ? undefined : 400 });
        }
        if (e.path.includes('{repo_id}')) {
          cases.push({ what: raw, method: e.method, url: e.path.replace('{repo_id}', raw).replace('{rule_id}', fill.rule_id).replace('{fingerprint}', fill.fingerprint), body: validBody(e, fill), status: 404 });
        }
        if (e.path.includes('{fingerprint}')) {
          cases.push({ what: raw, method: e.method, url: e.path.replace('{repo_id}', fill.repo_id).replace('{fingerprint}', raw), body: validBody(e, fill), status: /%2e/i.test(raw) ? undefined : 404 });
        }
      }
      for (const value of INJECTIONS) {
        if (e.path.includes('{rule_id}')) cases.push({ what: value, method: e.method, url: withPath(e, { rule_id: value }), body: validBody(e, fill), status: 400 });
        if (e.path.includes('{repo_id}')) cases.push({ what: value, method: e.method, url: withPath(e, { repo_id: value }), body: validBody(e, fill), status: 404 });
        if (e.path.includes('{fingerprint}')) cases.push({ what: value, method: e.method, url: withPath(e, { fingerprint: value }), body: validBody(e, fill), status: 404 });
      }
    }
    expect(cases.length).toBeGreaterThan(100);
    await expectRefused(cases);
  });

  it('answers a repository id that is a UUID but not the user’s, in any spelling, with 404', async () => {
    const cases: Case[] = [];
    for (const e of list.filter((x) => x.path.includes('{repo_id}'))) {
      for (const repo_id of [randomUUID(), '00000000-0000-0000-0000-000000000000', 'ffffffff-ffff-ffff-ffff-ffffffffffff']) {
        cases.push({ what: repo_id, method: e.method, url: withPath(e, { repo_id }), body: validBody(e, fill), status: 404 });
      }
    }
    await expectRefused(cases);
  });
});

describe('hostile query strings', () => {
  const callback = () => named('GET /api/github/callback');
  const INSTALLATION_IDS = [
    '99999999999999999999999999',
    '9007199254740993',
    '18446744073709551616',
    '-1',
    '0',
    '-0',
    '1.5',
    '1.0',
    '1e3',
    '1E3',
    '0x10',
    '0b1',
    '0o7',
    '01',
    ' 1',
    '1 ',
    '+1',
    '１',
    '١',
    '1%00',
    '1;drop table public.installations',
    "1' or '1'='1",
    '[1]',
    '{"$gt":0}',
    'NaN',
    'Infinity',
    '',
    'null',
    'true',
    '1,2',
  ];

  it('answers malformed installation ids with 400 and the issue', async () => {
    const cases: Case[] = INSTALLATION_IDS.map((id) => ({
      what: id,
      method: 'GET',
      url: `/api/github/callback?installation_id=${id.includes('%') ? id : encodeURIComponent(id)}`,
      status: 400,
    }));
    cases.push({ what: 'missing', method: 'GET', url: '/api/github/callback', status: 400 });
    cases.push({ what: 'array syntax', method: 'GET', url: '/api/github/callback?installation_id[]=1', status: 400 });
    cases.push({ what: 'another name', method: 'GET', url: '/api/github/callback?installationId=1', status: 400 });
    expect(callback()).toBeDefined();
    await expectRefused(cases);
  });

  it('answers a valid but unknown installation id with 403, not 5xx', async () => {
    const before = await storedFor(t, user.userId);
    for (const id of ['2', '9007199254740991', '4294967296']) {
      const response = await send('GET', `/api/github/callback?installation_id=${id}`, { authorization: user.authorization });
      expect(response.status, id).toBe(403);
      await expectErrorBody(response, 'forbidden');
    }
    // Nothing stored but the callback's own counter (CALLBACK_RATE_LIMIT counts refused attempts too).
    expect(uncounted(await storedFor(t, user.userId))).toEqual(uncounted(before));
  });

  it('answers a duplicated parameter with 400 (query) or 404 (path), never picking one', async () => {
    const other = await userWithData(t);
    const cases: Case[] = [
      { what: 'two installation ids', method: 'GET', url: '/api/github/callback?installation_id=1&installation_id=2', status: 400 },
      { what: 'the same id twice', method: 'GET', url: '/api/github/callback?installation_id=1&installation_id=1', status: 400 },
    ];
    for (const e of list) {
      if (e.path.includes('{repo_id}')) {
        cases.push({ what: 'repo_id in the query too', method: e.method, url: `${withPath(e, {})}?repo_id=${other.repos['issue-triage-bot']}`, body: validBody(e, fill), status: 404 });
        cases.push({ what: 'repo_id in the query twice', method: e.method, url: `${withPath(e, {})}?repo_id=${fill.repo_id}&repo_id=${fill.repo_id}`, body: validBody(e, fill), status: 404 });
      }
      if (e.path.includes('{rule_id}')) {
        cases.push({ what: 'rule_id in the query too', method: e.method, url: `${withPath(e, {})}?rule_id=pipe-to-shell`, body: validBody(e, fill), status: 404 });
      }
    }
    await expectRefused(cases);
  });
});

describe('through the HTTP server (npm run dev)', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = await serve(createRouter(ROOT, await routes()), 0);
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('answers raw hostile requests with 4xx and the error body', async () => {
    const before = await storedFor(t, user.userId);
    const authorization = await bearer(user.userId);
    const requests: [string, RequestInit & { duplex?: 'half' }, number][] = [
      [`/api/rule-settings/${'a'.repeat(5_000)}`, { method: 'PUT', body: '{"enabled":false}' }, 400],
      ['/api/rule-settings/script-injection%00', { method: 'PUT', body: '{"enabled":false}' }, 400],
      ['/api/rule-settings/..%2f..%2fhealth', { method: 'DELETE' }, 400],
      [`/api/repositories/${fill.repo_id}/rule-overrides/%2e%2e`, { method: 'DELETE' }, 404],
      [`/api/repositories/${fill.repo_id}/rule-overrides/script-injection%2f..`, { method: 'DELETE' }, 400],
      ['/api/repositories/%2e%2e/combos', { method: 'GET' }, 404],
      ['/api/scan', { method: 'POST', body: 'x'.repeat(3 * 1024 * 1024) }, 413],
      [
        '/api/scan',
        {
          method: 'POST',
          body: new ReadableStream({
            start(controller) {
              for (let i = 0; i < 48; i += 1) controller.enqueue(new Uint8Array(64 * 1024).fill(0x20));
              controller.close();
            },
          }),
          duplex: 'half',
        },
        413,
      ],
      ['/api/scan', { method: 'POST', body: '{"repo_id":' }, 400],
      ['/api/github/callback?installation_id=1&installation_id=2', { method: 'GET' }, 400],
      ['/api/github/callback?installation_id=0x1', { method: 'GET' }, 400],
    ];
    for (const [path, init, status] of requests) {
      const response = await fetch(`${base}${path}`, { ...init, headers: { authorization, 'content-type': 'application/json' } });
      expect(response.status, path.slice(0, 80)).toBe(status);
      await expectErrorBody(response, { 400: 'invalid_request', 404: 'not_found', 413: 'payload_too_large' }[status] ?? '');
    }
    expect(await storedFor(t, user.userId)).toEqual(before);
  });
});
