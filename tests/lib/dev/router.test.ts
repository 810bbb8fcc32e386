import { describe, expect, it } from 'vitest';
import { matchRoute, routeOf, type Route } from '../../../lib/dev/router.js';
import { dispatch, errorOf, routes } from '../../support/http.js';

describe('routeOf (Vercel file routing)', () => {
  it.each([
    ['api/health.ts', '/api/health'],
    ['api/openapi.json.ts', '/api/openapi.json'],
    ['api/rule-settings/index.ts', '/api/rule-settings'],
    ['api/rule-settings/[rule_id].ts', '/api/rule-settings/[rule_id]'],
    ['api/repositories/[repo_id]/rule-overrides/index.ts', '/api/repositories/[repo_id]/rule-overrides'],
    ['api/repositories/[repo_id]/rule-overrides/[rule_id].ts', '/api/repositories/[repo_id]/rule-overrides/[rule_id]'],
    ['api/github/callback.mjs', '/api/github/callback'],
    ['api/index.ts', '/api'],
  ])('maps %s to %s', (file, path) => {
    expect(routeOf(file)?.path).toBe(path);
  });

  it.each(['api/_helpers.ts', 'api/_lib/db.ts', 'api/.hidden.ts', 'api/types.d.ts', 'api/readme.md', 'lib/http.ts'])('does not route %s', (file) => {
    expect(routeOf(file)).toBeNull();
  });

  it('maps every file in api/ to the path Vercel serves it at', async () => {
    const all = await routes();
    expect(all.length).toBeGreaterThan(0);
    for (const route of all) {
      const expected = `/${route.file.replace(/\.(ts|mts|cts|js|mjs|cjs)$/, '').replace(/\/index$/, '')}`;
      expect(route.path).toBe(expected);
    }
  });
});

describe('matchRoute', () => {
  const table = ['api/repos.ts', 'api/repos/[id].ts', 'api/repos/sync.ts', 'api/repos/[id]/combos.ts', 'api/rule-settings/index.ts']
    .map(routeOf)
    .filter((r): r is Route => r !== null);

  it('prefers static segments, fills dynamic ones, tolerates one trailing slash', () => {
    expect(matchRoute(table, '/api/repos/sync')?.route.file).toBe('api/repos/sync.ts');
    expect(matchRoute(table, '/api/repos/abc')).toMatchObject({ route: { file: 'api/repos/[id].ts' }, params: { id: 'abc' } });
    expect(matchRoute(table, '/api/repos/a%2Fb/combos')?.params).toEqual({ id: 'a/b' });
    expect(matchRoute(table, '/api/repos/')?.route.file).toBe('api/repos.ts');
    expect(matchRoute(table, '/api/rule-settings')?.route.file).toBe('api/rule-settings/index.ts');
  });

  it('matches nothing else', () => {
    for (const path of ['/api', '/api/repos//combos', '/api/repos/a/b/c', '/api/nope', '/package.json', '/']) {
      expect(matchRoute(table, path)).toBeNull();
    }
  });
});

describe('dispatch (the dev server)', () => {
  it('serves the real handler of a route file', async () => {
    const response = await dispatch(new Request('http://localhost/api/health'));
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('answers unknown paths with a JSON 404', async () => {
    for (const path of ['/api/nope', '/package.json', '/lib/env.ts', '/api/_anything']) {
      const response = await dispatch(new Request(`http://localhost${path}`));
      expect(response.status).toBe(404);
      expect(response.headers.get('x-request-id')).toBeTruthy();
      expect((await errorOf(response)).code).toBe('not_found');
    }
  });

  it('answers a method the file does not export with 405 and Allow', async () => {
    const response = await dispatch(new Request('http://localhost/api/health', { method: 'DELETE' }));
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, OPTIONS');
    expect(response.headers.get('x-request-id')).toBeTruthy();
    expect((await errorOf(response)).code).toBe('method_not_allowed');
  });
});
