// Pin resolution against a mocked GitHub GraphQL API (msw), with the shapes GitHub returns for annotated
// tags (Ref -> Tag -> Commit), lightweight tags (Ref -> Commit) and branches; and the lock cache.
import { mkdtempSync, rmSync, writeFileSync, mkdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { emptyLock, parseImage, readLock, resolveActionPins, resolveImageDigests, writeLock } from '../../../lib/fix/pins.js';

const CHECKOUT = '11bb71f1a3ba8b9a42aacd5ac8c14b8b3b8cf8ff';
const SETUP_GO = '3041bf56c941b39c61721a86cd11f3bb1338122a';
const TAG_OBJECT = 'b4ffde65f46336ab88eb53be808477a3936bae11';

const commit = (oid: string) => ({ __typename: 'Commit', oid });
const annotated = (oid: string) => ({ __typename: 'Tag', oid: TAG_OBJECT, target: commit(oid) });

const queries: string[] = [];
const server = setupServer(
  http.post('https://api.github.com/graphql', async ({ request }) => {
    if (request.headers.get('authorization') !== 'bearer test-token') return HttpResponse.json({ message: 'Bad credentials' }, { status: 401 });
    const { query } = (await request.json()) as { query: string };
    queries.push(query);
    const data: Record<string, unknown> = {};
    // r0: actions/checkout@v4, an annotated tag that v4.2.2 shares.
    if (query.includes('r0: repository(owner: "actions", name: "checkout")')) {
      data.r0 = {
        tag: { name: 'v4', target: annotated(CHECKOUT) },
        branch: null,
        versions: { nodes: [{ name: 'v4.2.2', target: annotated(CHECKOUT) }, { name: 'v4.2.1', target: annotated('1'.repeat(40)) }, { name: 'v4', target: annotated(CHECKOUT) }] },
      };
    }
    // r1: actions/setup-go@v5, a lightweight tag.
    if (query.includes('r1: repository(owner: "actions", name: "setup-go")')) {
      data.r1 = { tag: { name: 'v5', target: commit(SETUP_GO) }, branch: null, versions: { nodes: [{ name: 'v5.0.2', target: commit(SETUP_GO) }] } };
    }
    // r2: a ref that does not exist; r3: a repository that does not exist (GitHub answers null and an error).
    if (query.includes('r2:')) data.r2 = { tag: null, branch: null, versions: { nodes: [] } };
    if (query.includes('r3:')) data.r3 = null;
    return HttpResponse.json({ data, ...(query.includes('r3:') ? { errors: [{ type: 'NOT_FOUND', path: ['r3'], message: 'Could not resolve to a Repository' }] } : {}) });
  }),
);
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }));
afterEach(() => {
  server.resetHandlers();
  queries.length = 0;
});
afterAll(() => server.close());

describe('resolveActionPins', () => {
  it('resolves annotated and lightweight tags in one request, with the most specific version', async () => {
    const { pins, problem } = await resolveActionPins(['actions/checkout@v4', 'actions/setup-go@v5', 'actions/checkout@nope', 'ghost/missing@v1'], { token: 'test-token' });
    expect(queries).toHaveLength(1);
    expect(pins.get('actions/checkout@v4')).toEqual({ sha: CHECKOUT, version: 'v4.2.2' });
    expect(pins.get('actions/setup-go@v5')).toEqual({ sha: SETUP_GO, version: 'v5.0.2' });
    expect(pins.has('actions/checkout@nope')).toBe(false);
    expect(pins.has('ghost/missing@v1')).toBe(false);
    expect(problem).toBe('2 refs not found on GitHub');
  });

  it('without a token, or when GitHub refuses, resolves nothing and says why', async () => {
    expect(await resolveActionPins(['actions/checkout@v4'], { token: undefined })).toEqual({ pins: new Map(), problem: 'GITHUB_TOKEN is not set' });
    const refused = await resolveActionPins(['actions/checkout@v4'], { token: 'wrong' });
    expect(refused.pins.size).toBe(0);
    expect(refused.problem).toBe('GitHub answered 401 to the pin lookup');
  });

  it('escapes names in the query (they come from scanned files)', async () => {
    await resolveActionPins(['a"b/c@v1'], { token: 'test-token' });
    expect(queries[0]).toContain('repository(owner: "a\\"b", name: "c")');
  });
});

describe('image digests', () => {
  it('parses Docker Hub and GHCR references, and refuses other registries', () => {
    expect(parseImage('node:22')).toEqual({ registry: 'docker.io', repository: 'library/node', reference: '22' });
    expect(parseImage('ghcr.io/octo/app:1.2')).toEqual({ registry: 'ghcr.io', repository: 'octo/app', reference: '1.2' });
    expect(parseImage('quay.io/x/y:1')).toBeNull();
    expect(parseImage('node@sha256:abc')).toBeNull();
  });

  it('reads the digest from the registry, and reports needs network when it is unreachable', async () => {
    const digest = `sha256:${'a'.repeat(64)}`;
    server.use(
      http.get('https://auth.docker.io/token', () => HttpResponse.json({ token: 't' })),
      http.head('https://registry-1.docker.io/v2/library/node/manifests/22', () => new HttpResponse(null, { headers: { 'docker-content-digest': digest } })),
      http.get('https://ghcr.io/token', () => HttpResponse.error()),
    );
    const result = await resolveImageDigests(['node:22', 'ghcr.io/octo/app:1']);
    expect(result.digests.get('node:22')).toBe(digest);
    expect(result.digests.has('ghcr.io/octo/app:1')).toBe(false);
    expect(result.problem).toMatch(/^ghcr\.io\/octo\/app:1: needs network/);
  });
});

describe('the lock cache', () => {
  const root = mkdtempSync(join(tmpdir(), 'chainbreaker-pins-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('round-trips, sorted', async () => {
    expect(await readLock(root)).toEqual(emptyLock());
    const lock = emptyLock();
    lock.actions.set('z/z@v1', { sha: 'f'.repeat(40), version: null });
    lock.actions.set('actions/checkout@v4', { sha: CHECKOUT, version: 'v4.2.2' });
    await writeLock(root, lock);
    const text = readFileSync(join(root, '.chainbreaker/pins.json'), 'utf8');
    expect(text.indexOf('actions/checkout@v4')).toBeLessThan(text.indexOf('z/z@v1'));
    expect(await readLock(root)).toEqual(lock);
  });

  it('refuses a malformed lock with a one-line reason', async () => {
    mkdirSync(join(root, '.chainbreaker'), { recursive: true });
    writeFileSync(join(root, '.chainbreaker/pins.json'), JSON.stringify({ version: 1, actions: { 'a/b@v1': { sha: 'not-a-sha', version: null } } }));
    await expect(readLock(root)).rejects.toThrow('.chainbreaker/pins.json is not a pins lock (version 1 with actions and images): fix or delete it');
    writeFileSync(join(root, '.chainbreaker/pins.json'), '{');
    await expect(readLock(root)).rejects.toThrow('is not valid JSON');
  });
});
