// The local code host (npm run dev) fakes the App's user authorization: authorizing comes straight back with
// a code, and the development user's GitHub access reaches the one installation and its repositories, so
// the member flow works end to end without GitHub.

import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DELETE as SIGN_OUT, POST as COMPLETE } from '../../api/github/authorization.js';
import { GET as AUTHORIZE } from '../../api/github/authorize.js';
import { GET as REPOS } from '../../api/repos.js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { LOCAL_GITHUB_USER } from '../../lib/codehost/local.js';
import { useDatabase } from '../../lib/db/connection.js';
import { bearer } from '../support/auth.js';
import { addGithubIdentity, EXAMPLES_DIR, examplesCodeHost } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { apiRequest } from '../support/http.js';

let t: TestDatabase;
beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  useCodeHost(examplesCodeHost());
});
afterAll(async () => t.close());

it('the development user authorizes, lists the examples as a member, scans one and signs out', async () => {
  const userId = await t.createUser();
  await addGithubIdentity(t, userId, LOCAL_GITHUB_USER);
  const authorization = await bearer(userId);
  const started = await AUTHORIZE(await apiRequest('GET', '/api/github/authorize', { authorization }));
  expect(started.status).toBe(200);
  const { url } = (await started.json()) as { url: string };
  const back = new URL(url, 'http://localhost');
  expect(back.pathname).toBe('/');
  const done = await COMPLETE(
    await apiRequest('POST', '/api/github/authorization', { authorization, body: { code: back.searchParams.get('code'), state: back.searchParams.get('state') } }),
  );
  expect(done.status).toBe(200);
  expect(await done.json()).toEqual({ github_login: LOCAL_GITHUB_USER.login });

  const listed = (await (await REPOS(await apiRequest('GET', '/api/repos', { authorization }))).json()) as { connected: boolean; repositories: { id: string; full_name: string }[] };
  const examples = (await readdir(EXAMPLES_DIR, { withFileTypes: true })).filter((e) => e.isDirectory()).length;
  expect(listed.connected).toBe(true);
  expect(listed.repositories.length).toBe(examples);
  expect(await t.query('select access from public.installations where user_id = $1', [userId])).toEqual([{ access: 'member' }]);
  const scanned = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: listed.repositories[0]?.id } }));
  expect(scanned.status).toBe(200);

  expect((await SIGN_OUT(await apiRequest('DELETE', '/api/github/authorization', { authorization }))).status).toBe(204);
  expect(await t.query('select 1 from public.installations where user_id = $1', [userId])).toEqual([]);
});
