// The scan endpoint's budget of sequential round trips to GitHub (design.md: at most 2, 1 with the
// installation token cached, whatever the number of workflows), online audits included: the online facts
// of the previous scan's `uses:` are asked beside the snapshot (lib/online/service.ts, startOnlineAudits),
// so only references added since cost a round trip after it. The fake GitHub knows none of the actions
// used, so nothing reaches the shared fact cache and every scan must ask again.

import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { GET as CALLBACK } from '../../api/github/callback.js';
import { GET as REPOS } from '../../api/repos.js';
import { POST as SCAN } from '../../api/scan.js';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { bearer } from '../support/auth.js';
import { addGithubIdentity, githubAccount } from '../support/codehost.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { startFakeGitHub, testGitHubCodeHost, type FakeGitHub, type RunningFakeGitHub } from '../support/github/index.js';
import { apiRequest } from '../support/http.js';

let t: TestDatabase;
let fake: RunningFakeGitHub;
let github: FakeGitHub;

beforeAll(async () => {
  t = await openTestDatabase();
  useDatabase(t.db);
  // Latency makes "sent while another request was in flight" unambiguous on a busy machine.
  fake = startFakeGitHub({ latencyMs: 300 });
  github = fake.github;
  useCodeHost(testGitHubCodeHost());
});
afterEach(() => github.reset());
afterAll(async () => {
  fake.close();
  await t.close();
});

const PIN = 'c'.repeat(40);
const workflow = (...uses: string[]) =>
  ['on: push', 'permissions: {}', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    timeout-minutes: 5', '    steps:', ...uses.map((u) => `      - uses: ${u}`), ''].join('\n');

type Body = { findings: { rule_id: string; line: number; description: string }[] };

it('asks the online facts beside the snapshot: 2 round trips with the token request, 1 cached, 1 more only for new uses:', async () => {
  const account = githubAccount();
  const userId = await t.createUser();
  await addGithubIdentity(t, userId, account);
  const authorization = await bearer(userId);
  const installationId = 6_100_001;
  const login = `rt-org-${installationId}`;
  github.addInstallation({ id: installationId, account: { login, id: 6_100_002, type: 'Organization' } });
  github.addMember(login, account, 'active', 'admin');
  const files = Object.fromEntries(Array.from({ length: 12 }, (_, i) => [`.github/workflows/w${i}.yml`, workflow(`some-org/act-${i}@v1`, `other-org/tool-${i}@${PIN} # v1.2.3`)]));
  github.addRepository({ fullName: `${login}/app`, installationId, files });
  expect((await CALLBACK(await apiRequest('GET', `/api/github/callback?installation_id=${installationId}`, { authorization }))).status).toBe(200);
  const listed = (await (await REPOS(await apiRequest('GET', '/api/repos', { authorization }))).json()) as { repositories: { id: string }[] };
  const repo = listed.repositories[0]?.id ?? '';

  const scanOnce = async () => {
    github.reset();
    const response = await SCAN(await apiRequest('POST', '/api/scan', { authorization, body: { repo_id: repo } }));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Body;
    return { body, roundTrips: github.roundTrips(), online: github.count((r) => r.operation === 'OnlineAudit'), tokens: github.count('POST /app/installations/{installation_id}/access_tokens') };
  };
  const unassessed = (body: Body) => body.findings.filter((f) => f.rule_id === 'online-audit-incomplete');

  // The first scan of the repository: nothing to read ahead, so the audit asks after the snapshot.
  useCodeHost(testGitHubCodeHost());
  const first = await scanOnce();
  expect(first.tokens).toBe(1);
  expect(first.online).toBe(1);
  expect(first.roundTrips).toBe(3);
  // 12 files, each with two references the fake GitHub does not know: unassessed, never clean.
  expect(unassessed(first.body)).toHaveLength(12);

  // Rescans: the previous scan's references are asked beside the snapshot.
  const cached = await scanOnce();
  expect(cached.tokens).toBe(0);
  expect(cached.online).toBe(1);
  expect(cached.roundTrips).toBe(1);
  expect(cached.body.findings).toEqual(first.body.findings);

  useCodeHost(testGitHubCodeHost());
  const coldToken = await scanOnce();
  expect(coldToken.tokens).toBe(1);
  expect(coldToken.roundTrips).toBe(2);
  expect(coldToken.body.findings).toEqual(first.body.findings);

  // A new uses: since the last scan: one more query after the snapshot, for it alone.
  github.repository(`${login}/app`).files.set('.github/workflows/w0.yml', { text: workflow('some-org/act-0@v1', `other-org/tool-0@${PIN} # v1.2.3`, 'brand-new/action@v2') });
  const changed = await scanOnce();
  expect(changed.online).toBe(2);
  expect(changed.roundTrips).toBe(2);
  expect(unassessed(changed.body).find((f) => f.description.includes('brand-new/action@v2'))).toBeDefined();
  // ...and the scan after that is back to one.
  const again = await scanOnce();
  expect(again.roundTrips).toBe(1);
  expect(again.online).toBe(1);
  expect(again.body.findings).toEqual(changed.body.findings);
});
