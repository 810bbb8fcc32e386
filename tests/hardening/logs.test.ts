// The logs: one structured line per request (request id, method, route, status, duration), and no secret in
// any of them. The process is configured as a deployment would be (a GitHub App PEM, a Supabase service key,
// a JWT secret, all in the environment), then requests go through the router: successes, forged tokens,
// GitHub faults on the App adapter built from that environment, a Supabase that fails (and one that echoes
// the credentials it was sent), and 500s whose error texts carry tokens and keys. Everything logged is
// captured twice, through the log sink (`setLogSink`) and as written to stdout/stderr, and searched for
// every secret the process holds or sent over the wire.

import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const secrets = await vi.hoisted(async () => {
  const { generateKeyPairSync, randomBytes } = await import('node:crypto');
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
  const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const serviceKey = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64({ iss: 'supabase', ref: 'logs', role: 'service_role' })}.${randomBytes(32).toString('base64url')}`;
  const jwtSecret = `logs-test-${randomBytes(24).toString('hex')}`;
  const appId = 1043299;
  process.env.GITHUB_APP_ID = String(appId);
  // On one line with literal \n, as environment editors keep a PEM.
  process.env.GITHUB_APP_PRIVATE_KEY = pem.trim().replace(/\n/g, '\\n');
  process.env.SUPABASE_URL = 'https://logs-test.supabase.test';
  process.env.SUPABASE_SERVICE_ROLE_KEY = serviceKey;
  process.env.JWT_SIGNING_SECRET = jwtSecret;
  process.env.LOG_LEVEL = 'info';
  return { pem, publicKey, serviceKey, jwtSecret, appId };
});

import { codeHost, useCodeHost } from '../../lib/codehost/index.js';
import type { CodeHost } from '../../lib/codehost/port.js';
import { useDatabase } from '../../lib/db/connection.js';
import { createDatabase } from '../../lib/db/index.js';
import type { Database } from '../../lib/db/port.js';
import { env } from '../../lib/env.js';
import { NO_ROUTE } from '../../lib/http/endpoint.js';
import { setLogSink, type LogRecord } from '../../lib/http/log.js';
import type { SettingsSnapshot } from '../../lib/engine/settings/snapshot.js';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';
import { signToken } from '../support/auth.js';
import { addGithubIdentity, EXAMPLES_DIR, githubAccount } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { startFakeGitHub, type Fault, type RunningFakeGitHub } from '../support/github/index.js';
import { send } from './support.js';

let t: TestDatabase;
let fake: RunningFakeGitHub;
/** Every credential the process sent to GitHub or Supabase (installation tokens, App JWTs, the service key). */
const sentOnTheWire = new Set<string>();
/** Every `Authorization` value a test request carried. */
const sentToTheApi = new Set<string>();

type PostgrestMode = 'ok' | 'echo' | 'invalid-key' | 'html' | 'network';
let postgrest: PostgrestMode = 'ok';
/** The GitHub App adapter the process built from the environment (its key is the configured PEM). */
let appHost: CodeHost;

beforeAll(async () => {
  t = await openTestDatabase();
  appHost = await codeHost();
  fake = startFakeGitHub({ app: { id: secrets.appId, publicKey: secrets.publicKey } });
  fake.server.events.on('request:start', ({ request }) => {
    for (const name of ['authorization', 'apikey']) {
      const value = request.headers.get(name);
      if (value !== null) sentOnTheWire.add(value.replace(/^(bearer|token)\s+/i, ''));
    }
  });
  // Supabase's REST API (PostgREST) for the service's own Supabase adapter, answering as `postgrest` says.
  fake.server.use(
    http.post('https://logs-test.supabase.test/rest/v1/rpc/:fn', ({ request }) => {
      switch (postgrest) {
        case 'ok':
          return HttpResponse.json([]);
        case 'echo':
          // A failing proxy that quotes the request it got, credentials and all.
          return HttpResponse.json(
            {
              code: 'XX000',
              message: `upstream failed for apikey=${request.headers.get('apikey')} authorization=${request.headers.get('authorization')}`,
              details: `headers: ${JSON.stringify(Object.fromEntries(request.headers))}`,
              hint: null,
            },
            { status: 500 },
          );
        case 'invalid-key':
          return HttpResponse.json({ message: 'Invalid API key', hint: 'Double check your Supabase `anon` or `service_role` API key.' }, { status: 401 });
        case 'html':
          return new HttpResponse('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
        case 'network':
          return HttpResponse.error();
      }
    }),
  );
});
afterAll(async () => {
  fake.close();
  await t.close();
});

interface Sent {
  id: string;
  method: string;
  route: string;
  status: number;
}

/** Sends a request with a known request id and remembers what the log must say about it. */
async function request(sent: Sent[], method: string, url: string, route: string, options: { authorization?: string; body?: unknown } = {}): Promise<Response> {
  const id = `logs-${sent.length}-${Math.random().toString(36).slice(2, 8)}`;
  if (options.authorization !== undefined) sentToTheApi.add(options.authorization);
  const response = await send(method, url, { ...options, headers: { 'x-request-id': id } });
  expect(response.headers.get('x-request-id')).toBe(id);
  sent.push({ id, method, route, status: response.status });
  await response.arrayBuffer();
  return response;
}

/** A code host whose every call fails with an unexpected error quoting `secret`. */
function leakyCodeHost(secret: string): CodeHost {
  const fail = async (): Promise<never> => {
    throw new TypeError(`adapter crashed while holding ${secret}`);
  };
  return { getInstallation: fail, organizationRole: fail, listRepositories: fail, fetchSnapshot: fail };
}

/** The requests every capture runs: the flow, forged tokens, GitHub faults, Supabase failures, 500s. */
async function scenario(): Promise<Sent[]> {
  const sent: Sent[] = [];
  const config = env();
  expect(config.codeHost.kind).toBe('github');
  expect(config.database.kind).toBe('supabase');

  // The database the environment configures (Supabase, with the service key), failing in every way.
  const supabase = await createDatabase(config.database);
  useDatabase(supabase);
  const someone = `Bearer ${await signToken({})}`;
  for (const mode of ['ok', 'echo', 'invalid-key', 'html', 'network'] as const) {
    postgrest = mode;
    await request(sent, 'GET', '/api/rule-settings', '/api/rule-settings', { authorization: someone });
    await request(sent, 'PUT', '/api/rule-settings/pipe-to-shell', '/api/rule-settings/{rule_id}', { authorization: someone, body: { enabled: false } });
  }
  expect(sent.filter((s) => s.status >= 500).length).toBeGreaterThanOrEqual(6);

  // The real database and the GitHub App the environment configures, on the fake GitHub.
  useDatabase(t.db);
  useCodeHost(appHost);
  const { github } = fake;
  const userId = await t.createUser();
  const account = githubAccount();
  await addGithubIdentity(t, userId, account);
  const authorization = `Bearer ${await signToken({ sub: userId })}`;
  const installationId = 8_000_000 + Math.floor(Math.random() * 1e6);
  const org = `org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login: org, id: installationId + 1, type: 'Organization' } });
  github.addMember(org, account, 'active', 'admin');
  const dir = join(EXAMPLES_DIR, 'issue-triage-bot');
  const files = Object.fromEntries((await collectRepositoryFiles(dir)).map((f) => [f.path, f.text]));
  const settings = JSON.parse(await readFile(join(dir, '.chainbreaker/settings.json'), 'utf8')) as SettingsSnapshot;
  github.addRepository({ fullName: `${org}/bot`, installationId, files, settings: { ...settings, rulesets: [] } });

  expect((await request(sent, 'GET', `/api/github/callback?installation_id=${installationId}`, '/api/github/callback', { authorization })).status).toBe(200);
  const listed = await send('GET', '/api/repos', { authorization });
  const repo = ((await listed.json()) as { repositories: { id: string }[] }).repositories[0]?.id ?? '';
  const scan = () => request(sent, 'POST', '/api/scan', '/api/scan', { authorization, body: { repo_id: repo } });
  expect((await scan()).status).toBe(200);
  await request(sent, 'GET', `/api/repositories/${repo}/combos`, '/api/repositories/{repo_id}/combos', { authorization });
  await request(sent, 'GET', '/api/attack-paths', '/api/attack-paths', { authorization });

  // GitHub failing the scan: rate limits, a malformed answer, a repository gone, access refused.
  const faults: Fault[] = [
    { kind: 'secondary-rate-limit', retryAfter: 60 },
    { kind: 'rate-limit', resetInSeconds: 600 },
    { kind: 'body', body: '{"data": {"repository": ' },
    { kind: 'graphql-errors', errors: [{ type: 'NOT_FOUND', path: ['repository'], message: 'Could not resolve to a Repository.' }] },
    { kind: 'status', status: 403, message: 'Resource not accessible by integration' },
  ];
  for (const fault of faults) {
    // The scanned repository's own query (the snapshot): the online audits' query, sent beside it on a
    // rescan, names other repositories, and its failure only makes references unassessed.
    github.fault('POST /graphql', fault, { times: 1, repository: `${org}/bot` });
    expect((await scan()).status, fault.kind).toBeGreaterThanOrEqual(400);
  }
  github.clearFaults();

  // Forged and missing tokens.
  for (const forged of [
    `Bearer ${await signToken({ sub: userId, expiresIn: -10 })}`,
    `Bearer ${await signToken({ sub: userId, secret: 'x'.repeat(40) })}`,
    `Bearer ${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(`{"sub":"${userId}"}`).toString('base64url')}.`,
    'Basic dXNlcjpzM2NyM3Q=',
  ]) {
    expect((await request(sent, 'GET', '/api/attack-paths', '/api/attack-paths', { authorization: forged })).status).toBe(401);
  }
  expect((await request(sent, 'GET', '/api/repos', '/api/repos')).status).toBe(401);

  // 500s whose error texts quote secrets: a driver echoing its connection, a code host crashing with a token.
  const tokenOnTheWire = [...sentOnTheWire].find((value) => value.startsWith('ghs_')) ?? 'ghs_missing';
  const leaky: Database = {
    call: async () => {
      throw new Error(
        `connection to postgres://postgres:hunter2hunter2@db.internal:5432/app failed; key ${config.database.kind === 'supabase' ? config.database.serviceRoleKey : ''}; request had ${authorization}; ${secrets.pem}`,
      );
    },
    close: async () => undefined,
  };
  useDatabase(leaky);
  expect((await request(sent, 'GET', '/api/rule-settings', '/api/rule-settings', { authorization })).status).toBe(500);
  useDatabase(t.db);
  useCodeHost(leakyCodeHost(`token ${tokenOnTheWire} and ${secrets.jwtSecret}`));
  expect((await scan()).status).toBe(500);
  useCodeHost(appHost);

  // What the router answers itself.
  expect((await request(sent, 'GET', `/api/nothing-here/${authorization.slice(7)}`, NO_ROUTE, { authorization })).status).toBe(404);
  expect((await request(sent, 'PATCH', '/api/rules', '/api/rules', { authorization })).status).toBe(405);
  return sent;
}

/** Everything that must never appear in a log line. */
function forbidden(): { what: string; value: string | RegExp }[] {
  const list: { what: string; value: string | RegExp }[] = [
    // An upstream quoting the header by name is logged with its value cut out, and nothing else says it.
    { what: 'an Authorization header', value: /authorization(?!=(bearer )?\[redacted\])/i },
    { what: 'a bearer credential', value: /bearer\s+[\w-]{8,}/i },
    { what: 'a JWT', value: /eyJ[\w-]+\.[\w-]+/ },
    { what: 'a GitHub token', value: /gh[opsu]_[\w-]{8,}/ },
    { what: 'a PEM header', value: /PRIVATE KEY/ },
    { what: 'the service key', value: secrets.serviceKey },
    { what: "the service key's signature", value: secrets.serviceKey.split('.')[2] ?? '' },
    { what: 'the JWT signing secret', value: secrets.jwtSecret },
    { what: 'the PEM on one line', value: secrets.pem.trim().replace(/\n/g, '\\n') },
    { what: 'the database password', value: 'hunter2hunter2' },
  ];
  for (const line of secrets.pem.split('\n').filter((l) => l.length >= 16 && !l.startsWith('-----'))) list.push({ what: 'a line of the PEM', value: line });
  for (const value of [...sentToTheApi, ...sentOnTheWire]) {
    const token = value.replace(/^(bearer|basic)\s+/i, '');
    if (token.length >= 12) list.push({ what: `a credential sent (${token.slice(0, 6)}…)`, value: token });
    for (const part of token.split('.').filter((p) => p.length >= 16)) list.push({ what: `a part of a credential sent (${part.slice(0, 6)}…)`, value: part });
  }
  return list;
}

function expectNoSecrets(text: string): void {
  for (const { what, value } of forbidden()) {
    if (typeof value === 'string') expect(text.includes(value), what).toBe(false);
    else expect(value.test(text), `${what}: …${text.slice(Math.max(0, (value.exec(text)?.index ?? 0) - 100), (value.exec(text)?.index ?? 0) + 100)}…`).toBe(false);
  }
}

/** One request line per request, saying what happened; an error line for every 5xx but the code host's own. */
function expectOneLinePerRequest(records: Record<string, unknown>[], sent: Sent[]): void {
  for (const s of sent) {
    const lines = records.filter((r) => r.msg === 'request' && r.request_id === s.id);
    expect(lines, s.id).toHaveLength(1);
    const line = lines[0]!;
    expect(line).toMatchObject({ level: 'info', method: s.method, route: s.route, status: s.status });
    expect(Object.keys(line).sort()).toEqual(['duration_ms', 'level', 'method', 'msg', 'request_id', 'route', 'status', 'time', 'user']);
    expect(typeof line.duration_ms).toBe('number');
    expect(line.duration_ms as number).toBeGreaterThanOrEqual(0);
    expect(Number.isNaN(Date.parse(line.time as string))).toBe(false);
    if (s.status === 401 || s.route === NO_ROUTE || s.status === 405) expect(line.user).toBeNull();
    if (s.status === 500) expect(records.some((r) => r.level === 'error' && r.request_id === s.id)).toBe(true);
  }
}

describe('logs', () => {
  it('through the log sink: one line per request, and no token, key, secret or Authorization header', async () => {
    const records: LogRecord[] = [];
    const restore = setLogSink((record) => records.push(record));
    let sent: Sent[];
    try {
      sent = await scenario();
    } finally {
      restore();
    }
    expect(sent.length).toBeGreaterThan(25);
    expect(sentOnTheWire.size).toBeGreaterThanOrEqual(3);
    expectOneLinePerRequest(records as unknown as Record<string, unknown>[], sent);
    const text = JSON.stringify(records);
    expectNoSecrets(text);
    // The error lines keep what is useful, with the secrets cut out.
    const errors = records.filter((r) => r.level === 'error').map((r) => JSON.stringify(r));
    expect(errors.some((line) => line.includes('upstream failed for apikey=[redacted]'))).toBe(true);
    expect(errors.some((line) => line.includes('postgres://[redacted]@db.internal:5432/app'))).toBe(true);
    expect(errors.some((line) => line.includes('adapter crashed while holding token [redacted]'))).toBe(true);
  });

  it('as written to stdout and stderr: JSON lines, the same guarantees', async () => {
    const written: string[] = [];
    const capture = (chunk: unknown) => {
      written.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk as Uint8Array).toString('utf8'));
      return true;
    };
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(capture);
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(capture);
    let sent: Sent[];
    try {
      sent = await scenario();
    } finally {
      stdout.mockRestore();
      stderr.mockRestore();
    }
    const text = written.join('');
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    const records = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expectOneLinePerRequest(records, sent);
    expect(records.filter((r) => r.msg === 'request')).toHaveLength(sent.length + 1); // + the listing in the flow
    expectNoSecrets(text);
  });
});
