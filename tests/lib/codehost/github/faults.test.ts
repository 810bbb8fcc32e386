// Code-host faults during a scan: on the critical reads (files through GraphQL, the repository itself) they
// are typed CodeHostErrors, so the API answers 502/503 and records nothing; in an optional settings area
// they become an `unreadable` entry. Retries and throttling are off (as in every test) unless a test turns
// them on to check the production behaviour.

import { afterAll, afterEach, describe, expect, test } from 'vitest';
import type { CodeHostError } from '../../../../lib/codehost/port.js';
import { startFakeGitHub, testGitHubCodeHost } from '../../../support/github/index.js';
import { setup, WORKFLOW } from './support.js';

const { github, close } = startFakeGitHub();
afterAll(close);
afterEach(() => github.reset());

const GRAPHQL = 'POST /graphql';
const REPOSITORY = 'GET /repos/{owner}/{repo}';
const HOOKS = 'GET /repos/{owner}/{repo}/hooks';

function scanSetup() {
  return setup(github, { files: { '.github/workflows/ci.yml': WORKFLOW } });
}

async function failure(promise: Promise<unknown>): Promise<CodeHostError> {
  const error = await promise.then(
    () => {
      throw new Error('expected a CodeHostError');
    },
    (e: unknown) => e,
  );
  expect(error).toMatchObject({ name: 'CodeHostError' });
  return error as CodeHostError;
}

describe('5xx and network errors', () => {
  test.each([GRAPHQL, REPOSITORY])('%s answering 502: unavailable', async (route) => {
    const { host, locator, fullName } = scanSetup();
    github.fault(route, { kind: 'status', status: 502 });
    const error = await failure(host.fetchSnapshot(locator));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toBe(`repository ${fullName}: 502 Bad Gateway`);
  });

  test('the connection failing: unavailable', async () => {
    const { host, locator } = scanSetup();
    github.fault(GRAPHQL, { kind: 'network' });
    expect((await failure(host.fetchSnapshot(locator))).kind).toBe('unavailable');
  });

  test('the token request failing: unavailable, naming the installation', async () => {
    const { host, locator, installationId } = scanSetup();
    github.fault('POST /app/installations/{installation_id}/access_tokens', { kind: 'status', status: 503 });
    const error = await failure(host.fetchSnapshot(locator));
    expect(error).toMatchObject({ kind: 'unavailable', message: `installation ${installationId}: 503 Service Unavailable` });
  });

  test('an optional area answering 500 fails the scan: no snapshot with an area silently unassessed', async () => {
    const { host, locator } = scanSetup();
    github.fault(HOOKS, { kind: 'status', status: 500 }, { times: 1 });
    const error = await failure(host.fetchSnapshot(locator));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toMatch(/hooks: 500 Internal Server Error/);
    // The fault has passed: the next scan is complete.
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.unreadable).toEqual({});
  });

  test('an optional area GitHub refuses (403, 404, 422) is unreadable and the scan completes', async () => {
    const { host, locator } = scanSetup();
    github.fault(HOOKS, { kind: 'status', status: 404 });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.settings.unreadable).toEqual({ hooks: expect.stringMatching(/^404 /) as string });
    expect(snapshot.files).toHaveLength(1);
  });

  test('with retries on (production), a passing 502 is retried and the scan succeeds', async () => {
    const { locator } = scanSetup();
    const host = testGitHubCodeHost({ retry: true, throttle: true });
    github.fault(GRAPHQL, { kind: 'status', status: 502 }, { times: 1 });
    const snapshot = await host.fetchSnapshot(locator);
    expect(snapshot.files).toHaveLength(1);
    expect(github.count(GRAPHQL)).toBe(2);
    expect(snapshot.requests).toBe(1 + 1 + 8);
  });
});

describe('timeouts', () => {
  test('a request still running at the deadline is aborted: timeout, at the deadline', async () => {
    const { host, locator } = scanSetup();
    await host.fetchSnapshot(locator);
    github.fault(GRAPHQL, { kind: 'delay', ms: 20_000 });
    const started = Date.now();
    const error = await failure(host.fetchSnapshot(locator, { deadline: Date.now() + 300 }));
    expect(error.kind).toBe('timeout');
    // Far below the fault's delay: aborted at the deadline, not answered late (room for a loaded machine).
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  test('a slow token request is bounded by the deadline too', async () => {
    const { host, locator } = scanSetup();
    github.fault('POST /app/installations/{installation_id}/access_tokens', { kind: 'delay', ms: 5_000 });
    expect((await failure(host.fetchSnapshot(locator, { deadline: Date.now() + 300 }))).kind).toBe('timeout');
  });

  test('an optional area still running shortly before the deadline is given up: timeout, before the deadline', async () => {
    const { host, locator } = scanSetup();
    await host.fetchSnapshot(locator);
    github.fault(HOOKS, { kind: 'delay', ms: 20_000 });
    const started = Date.now();
    const error = await failure(host.fetchSnapshot(locator, { deadline: Date.now() + 2_400 }));
    expect(error.kind).toBe('timeout');
    // The area was given up (its own message), not the whole read at the deadline; how long before the
    // deadline depends on the machine's load, so the bound is the fault's delay, which was not waited for.
    expect(error.message).toMatch(/hooks: no answer in time/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('rate limits', () => {
  test.each([GRAPHQL, REPOSITORY])('a secondary rate limit on %s: rate_limited with GitHub\'s retry-after', async (route) => {
    const { host, locator } = scanSetup();
    github.fault(route, { kind: 'secondary-rate-limit', retryAfter: 60 });
    const error = await failure(host.fetchSnapshot(locator));
    expect(error).toMatchObject({ kind: 'rate_limited', retryAfter: 60 });
    expect(error.message).toMatch(/403 You have exceeded a secondary rate limit/);
  });

  test('the primary rate limit: rate_limited until the reset', async () => {
    const { host, locator } = scanSetup();
    github.fault(REPOSITORY, { kind: 'rate-limit', resetInSeconds: 1200 });
    const error = await failure(host.fetchSnapshot(locator));
    expect(error.kind).toBe('rate_limited');
    expect(error.retryAfter).toBeGreaterThanOrEqual(1199);
    expect(error.retryAfter).toBeLessThanOrEqual(1201);
  });

  test('GraphQL\'s own rate limit (200 with RATE_LIMITED)', async () => {
    const { host, locator } = scanSetup();
    github.fault(GRAPHQL, { kind: 'graphql-errors', errors: [{ type: 'RATE_LIMITED', message: 'API rate limit exceeded for installation ID 1.' }] });
    expect((await failure(host.fetchSnapshot(locator))).kind).toBe('rate_limited');
  });

  test('a rate limit on an optional area fails the scan with the retry-after', async () => {
    const { host, locator } = scanSetup();
    github.fault(HOOKS, { kind: 'secondary-rate-limit', retryAfter: 30 });
    expect(await failure(host.fetchSnapshot(locator))).toMatchObject({ kind: 'rate_limited', retryAfter: 30 });
  });

  test('with throttling on (production), a short secondary limit is waited out once', async () => {
    const { locator } = scanSetup();
    const host = testGitHubCodeHost({ throttle: true });
    github.fault(GRAPHQL, { kind: 'secondary-rate-limit', retryAfter: 1 }, { times: 1 });
    expect((await host.fetchSnapshot(locator)).files).toHaveLength(1);
    github.fault(GRAPHQL, { kind: 'secondary-rate-limit', retryAfter: 60 });
    expect(await failure(host.fetchSnapshot(locator))).toMatchObject({ kind: 'rate_limited', retryAfter: 60 });
  });
});

describe('malformed GraphQL answers', () => {
  test.each([
    ['an errors array without data', { kind: 'graphql-errors' as const }],
    ['a body without data', { kind: 'body' as const, body: '{}' }],
    ['a body that is not JSON', { kind: 'body' as const, body: '<html>unicorn</html>' }],
    ['data without the repository', { kind: 'body' as const, body: '{"data":{}}' }],
    ['a repository without its visibility', { kind: 'body' as const, body: '{"data":{"repository":{"defaultBranchRef":null}}}' }],
  ])('%s: unavailable', async (_, fault) => {
    const { host, locator } = scanSetup();
    github.fault(GRAPHQL, fault);
    expect((await failure(host.fetchSnapshot(locator))).kind).toBe('unavailable');
  });

  test('an error inside the files is not a partial scan', async () => {
    const { host, locator } = scanSetup();
    github.fault(GRAPHQL, {
      kind: 'graphql-errors',
      data: { repository: { visibility: 'PUBLIC', workflows: null } },
      errors: [{ type: 'SERVICE_UNAVAILABLE', path: ['repository', 'workflows'], message: 'Timeout on validation of query' }],
    });
    expect((await failure(host.fetchSnapshot(locator))).kind).toBe('unavailable');
  });

  test('a repository that is gone: not_found', async () => {
    const { host, locator } = scanSetup();
    const error = await failure(host.fetchSnapshot({ ...locator, fullName: `${locator.fullName}-deleted` }));
    expect(error.kind).toBe('not_found');
  });
});
