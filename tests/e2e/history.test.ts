// A repository's history in the web client, end to end in headless Chromium against `npm run dev`'s server,
// the local code host serving a repository this test writes: scan, change the workflow (one finding fixed,
// one added), scan again; the Findings view shows both scans, what is new and what was fixed, by fingerprint.

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, buildClient, collectErrors, launchBrowser, screenshot, BROWSER_SKIPPED, SKIP_BROWSER, startDevServer, VIEWPORTS, type DevServer } from './support.js';
import { skipReason } from '../support/skips.js';

const BEFORE = `on: push
permissions: {}
jobs:
  build:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - run: curl -sSL https://example.com/install.sh | sh
`;
// The install piped to a shell is gone (fixed); a new job has no timeout (new). The first job's finding moved
// a line down with the comment, which is neither.
const AFTER = `on: push
permissions: {}
# build with the vendored tool
jobs:
  build:
    runs-on: ubuntu-latest
    timeout-minutes: 10
    steps:
      - run: ./tools/install.sh
  lint:
    name: Lint
    runs-on: ubuntu-latest
    steps:
      - name: Lint
        run: echo lint
`;

describe.skipIf(SKIP_BROWSER)(`history in the web client${skipReason(BROWSER_SKIPPED)}`, { timeout: 120_000 }, () => {
  let server: DevServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  const root = mkdtempSync(join(tmpdir(), 'chainbreaker-history-'));
  const workflow = join(root, 'app/.github/workflows/ci.yml');

  beforeAll(async () => {
    mkdirSync(join(root, 'app/.github/workflows'), { recursive: true });
    writeFileSync(workflow, BEFORE);
    buildClient();
    server = await startDevServer({ codehostDir: root });
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: VIEWPORTS.desktop, baseURL: server.base })).newPage();
    errors = collectErrors(page);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    rmSync(root, { recursive: true, force: true });
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const scanAll = async () => {
    await page.getByRole('button', { name: 'Scan all', exact: true }).click();
    await page.getByText('1 of 1 scanned').waitFor();
    await expect.poll(() => page.locator('table.repos tbody td.status').allTextContents()).toEqual(['Scanned']);
    // The view refreshes its lists after a scan; leaving before they answer makes the client cancel them
    // (net::ERR_ABORTED), which is not an error of the page.
    await page.waitForLoadState('networkidle');
  };

  it('shows the scans over time, what is new since the previous scan and what was fixed', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in as the development user', exact: true }).click();
    await heading('Repositories').waitFor();
    await page.getByRole('button', { name: 'Connect GitHub', exact: true }).click();
    await expect.poll(() => page.locator('table.repos tbody tr').count()).toBe(1);
    await scanAll();

    await page.getByRole('link', { name: 'examples/app', exact: true }).click();
    await heading('Findings').waitFor();
    await page.getByText('One scan so far: scan again to see what changed.').waitFor();

    writeFileSync(workflow, AFTER);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Repositories', exact: true }).click();
    await heading('Repositories').waitFor();
    await scanAll();
    await page.getByRole('link', { name: 'examples/app', exact: true }).click();
    await heading('Findings').waitFor();

    const added = page.locator('[data-changes="new"]');
    const fixed = page.locator('[data-changes="fixed"]');
    await added.waitFor();
    expect(await fixed.locator('li code:first-child').allTextContents()).toEqual(['pipe-to-shell']);
    expect(await added.locator('li code:first-child').allTextContents()).toEqual(['missing-timeout']);
    expect(await fixed.locator('h3').textContent()).toBe('Fixed since the previous scan (1)');
    expect(await added.locator('h3').textContent()).toBe('New since the previous scan (1)');
    expect(await page.locator('svg.trend circle').count()).toBe(2);
    await page.getByText('Scans (2)').click();
    expect(await page.locator('table.scans tbody tr').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await page.locator('section.history').scrollIntoViewIfNeeded();
    await screenshot(page, 'history-1280x800');
    expect(errors).toEqual([]);
  });
});
