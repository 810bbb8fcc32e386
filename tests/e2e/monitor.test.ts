// What the GitHub App's monitoring stored, in the web client, end to end in headless Chromium: the API and
// the built client served in this process (as `npm run dev` serves them), on the test database, with the
// GitHub App adapter talking to the fake GitHub (msw). A push's scan, run by the monitor's push-scan job, shows
// what started it and its commit (short SHA linked to GitHub); the pull request check run it published shows
// its conclusion, linked. axe-core on the view, no console error.

import type { Server } from 'node:http';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { useCodeHost } from '../../lib/codehost/index.js';
import { useDatabase } from '../../lib/db/connection.js';
import { linkInstallation, syncRepositories } from '../../lib/db/operations.js';
import { createRouter, discoverRoutes } from '../../lib/dev/router.js';
import { serve } from '../../lib/dev/node-server.js';
import { PAGE_HEADERS, staticFiles } from '../../lib/dev/static.js';
import { runPullRequestCheck, runPushScan } from '../../lib/services/monitor/index.js';
import { bearer } from '../support/auth.js';
import { openTestDatabase, type TestDatabase } from '../support/db.js';
import { startFakeGitHub, testGitHubCodeHost, type RunningFakeGitHub } from '../support/github/index.js';
import { ROOT } from '../support/http.js';
import { skipReason } from '../support/skips.js';
import { axeViolations, buildClient, BROWSER_SKIPPED, collectErrors, freePort, launchBrowser, screenshot, SKIP_BROWSER, VIEWPORTS } from './support.js';

const CI = 'name: ci\non: push\npermissions: {}\njobs:\n  test:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo ok\n';
const TRIAGE = `name: triage
on:
  issues:
    types: [opened]
permissions:
  contents: write
jobs:
  label:
    runs-on: ubuntu-latest
    steps:
      - run: echo "\${{ github.event.issue.title }}"
        env:
          DEPLOY_KEY: \${{ secrets.DEPLOY_KEY }}
`;

describe.skipIf(SKIP_BROWSER)(`monitoring in the web client${skipReason(BROWSER_SKIPPED)}`, { timeout: 120_000 }, () => {
  let t: TestDatabase;
  let fake: RunningFakeGitHub;
  let server: Server;
  let base = '';
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let repoId = '';
  let sha = '';
  let checkRunUrl = '';

  beforeAll(async () => {
    buildClient();
    t = await openTestDatabase();
    useDatabase(t.db);
    fake = startFakeGitHub();
    const host = testGitHubCodeHost();
    useCodeHost(host);
    const github = fake.github;
    const userId = await t.createUser();
    github.addInstallation({ id: 4_242_001, account: { login: 'octo-monitor', id: 4_242_002, type: 'User' } });
    const repository = github.addRepository({ fullName: 'octo-monitor/widget', installationId: 4_242_001, files: { '.github/workflows/ci.yml': CI } });
    await linkInstallation(t.db, userId, { installationId: 4_242_001, accountLogin: 'octo-monitor', accountType: 'User', githubUserId: '4242002' });
    const [row] = await syncRepositories(t.db, userId, [
      { github_id: repository.id, installation_id: 4_242_001, full_name: repository.fullName, private: false, html_url: `https://github.com/${repository.fullName}`, default_branch: 'main' },
    ]);
    repoId = row!.id;
    // A push to the default branch, then a pull request on top of it, as the queue would run them.
    sha = github.addCommit(repository.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': TRIAGE });
    const ctx = { db: t.db, deadline: Date.now() + 60_000, signal: new AbortController().signal };
    expect(await runPushScan({ kind: 'push-scan', installationId: 4_242_001, repoId: repository.id, sha, deliveryId: 'e2e-push' }, ctx, host)).toEqual({ users: 1, stored: 1 });
    const head = github.addCommit(repository.fullName, { '.github/workflows/ci.yml': CI, '.github/workflows/triage.yml': TRIAGE, '.github/workflows/more.yml': TRIAGE.replace('triage', 'more') });
    const check = await runPullRequestCheck(
      { kind: 'pr-check', installationId: 4_242_001, repoId: repository.id, pullNumber: 7, headSha: head, baseSha: sha, headRepoId: repository.id, deliveryId: 'e2e-pr' },
      ctx,
      host,
    );
    checkRunUrl = check.checkRun?.htmlUrl ?? '';
    expect(checkRunUrl).toMatch(/^https:\/\/github\.com\/octo-monitor\/widget\/runs\/\d+$/);

    // The API and the built client, as `npm run dev` serves them.
    const api = createRouter(ROOT, await discoverRoutes(ROOT));
    const files = staticFiles(join(ROOT, 'public'));
    const clientConfig = { mode: 'embedded', devSignIn: false, connectUrl: null, memberAccess: false, supabaseUrl: null, supabaseAnonKey: null };
    const port = await freePort();
    server = await serve(async (request) => {
      const pathname = new URL(request.url).pathname;
      if (pathname === '/api' || pathname.startsWith('/api/')) return api(request);
      if (pathname === '/config.json') return Response.json(clientConfig, { headers: { 'cache-control': 'no-store', ...PAGE_HEADERS } });
      return (await files(request)) ?? new Response('Not found.\n', { status: 404 });
    }, port, '127.0.0.1');
    base = `http://127.0.0.1:${port}`;

    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: VIEWPORTS.desktop, baseURL: base })).newPage();
    errors = collectErrors(page);
    // Signed in as the user (the token the development sign-in would have kept for the tab).
    const token = (await bearer(userId)).replace(/^Bearer /, '');
    await page.addInitScript((value) => sessionStorage.setItem('chainbreaker.devToken', value), token);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
    fake?.close();
    await t?.close();
  });

  it("shows a push-triggered scan's trigger and commit, and the latest pull request check, linked to GitHub", async () => {
    await page.goto(`/#/repos/${repoId}`);
    await page.getByRole('heading', { level: 1, name: 'Findings', exact: true }).waitFor();
    const origin = page.getByTestId('scan-origin');
    await origin.waitFor();
    expect(await origin.textContent()).toBe(` · push at ${sha.slice(0, 7)}`);
    const commit = origin.getByRole('link', { name: `Commit ${sha.slice(0, 7)} on GitHub` });
    expect(await commit.getAttribute('href')).toBe(`https://github.com/octo-monitor/widget/commit/${sha}`);

    const check = page.getByTestId('check-run');
    await check.waitFor();
    expect(await check.textContent()).toContain('Latest pull request check (#7): failed');
    expect(await check.getByRole('link', { name: 'failed' }).getAttribute('href')).toBe(checkRunUrl);

    await page.getByText('Scans (1)').click();
    expect(await page.getByTestId('scan-trigger').allTextContents()).toEqual(['push']);
    expect(await page.locator('table.scans').getByRole('link', { name: `Commit ${sha.slice(0, 7)} on GitHub` }).count()).toBe(1);

    await expect(await axeViolations(page), 'findings view with a push scan').toEqual([]);
    await screenshot(page, 'monitor-push-scan-1280x800');
    expect(errors).toEqual([]);
  });
});
