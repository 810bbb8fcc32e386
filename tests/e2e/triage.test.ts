// Triage in the web client, end to end in headless Chromium against `npm run dev`'s server (the embedded
// database and the example repositories): dismiss a finding -> the counts and the attack paths change ->
// a reload keeps it (and the Dismissed filter, which is in the URL) -> reopen brings both back; then the
// same for an attack path dismissed on its own. axe-core on each state, screenshots, no console error.

import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, buildClient, collectErrors, launchBrowser, screenshot, BROWSER_SKIPPED, SKIP_BROWSER, startDevServer, VIEWPORTS, type DevServer } from './support.js';
import { skipReason } from '../support/skips.js';

// issue-triage-bot's script injection is the entry of its injection-token-theft attack path.
const PATH = 'article.combo[data-combo="injection-token-theft"]';
const INJECTION_GROUP = 'article.rule-group:has(code:text-is("script-injection"))';

describe.skipIf(SKIP_BROWSER)(`triage in the web client${skipReason(BROWSER_SKIPPED)}`, { timeout: 120_000 }, () => {
  let server: DevServer;
  let browser: Browser;
  let page: Page;
  let errors: string[];
  let findingsUrl = '';
  let baseline = '';

  beforeAll(async () => {
    buildClient();
    server = await startDevServer();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: VIEWPORTS.desktop, baseURL: server.base })).newPage();
    errors = collectErrors(page);
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const go = async (link: string, title: string) => {
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: link, exact: true }).click();
    await heading(title).waitFor();
  };
  const highCount = async () => Number((await page.locator('.summary .counts .sev-high').textContent())?.split(' ')[0]);
  const openFindings = async () => {
    await go('Repositories', 'Repositories');
    await page.getByRole('link', { name: 'examples/issue-triage-bot', exact: true }).click();
    await heading('Findings').waitFor();
    await page.locator('.summary .counts').waitFor();
  };

  it('signs in, connects and scans the examples', async () => {
    await page.goto('/');
    await page.getByRole('button', { name: 'Sign in as the development user', exact: true }).click();
    await heading('Repositories').waitFor();
    await page.getByRole('button', { name: 'Connect GitHub', exact: true }).click();
    await expect.poll(() => page.locator('table.repos tbody tr').count()).toBe(3);
    await page.getByRole('button', { name: 'Scan all', exact: true }).click();
    await page.getByText('3 of 3 scanned').waitFor();
    await go('Attack paths', 'Attack paths');
    await expect.poll(() => page.locator(PATH).count()).toBe(1);
  });

  it('dismisses a finding: it leaves the counts and its attack path, and a reload keeps it', async () => {
    await openFindings();
    findingsUrl = page.url();
    const high = await highCount();
    expect(high).toBeGreaterThan(0);
    await page.locator(`${INJECTION_GROUP} button`, { hasText: 'Dismiss…' }).first().click();
    const form = page.locator('form.dismiss-form');
    await form.getByLabel('Reason').selectOption('accepted_risk');
    await form.getByLabel('Why (optional)').fill('Only maintainers can open issues here');
    await expect(await axeViolations(page), 'dismiss form').toEqual([]);
    await screenshot(page, 'triage-dismiss-form-1280x800');
    await form.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await page.getByText(/1 dismissed/).waitFor();
    expect(await highCount()).toBe(high - 1);
    expect(await page.locator(INJECTION_GROUP).count()).toBe(0);

    // The attack path it entered is gone.
    await go('Attack paths', 'Attack paths');
    await page.locator('.summary').waitFor();
    expect(await page.locator(PATH).count()).toBe(0);

    // A reload keeps the decision; the Dismissed filter lists it with who, when and why, and stays in the URL.
    await page.goto(findingsUrl);
    await page.getByText(/1 dismissed/).waitFor();
    await page.reload();
    await heading('Findings').waitFor();
    await page.getByText(/1 dismissed/).waitFor();
    expect(await highCount()).toBe(high - 1);
    await page.getByLabel('Status').selectOption('dismissed');
    expect(page.url()).toContain('status=dismissed');
    await page.locator(INJECTION_GROUP).waitFor();
    const note = page.locator(`${INJECTION_GROUP} .dismissal`);
    expect(await note.textContent()).toMatch(/Dismissed: Accepted risk by you, .*Only maintainers can open issues here/);
    await page.reload();
    await page.locator(INJECTION_GROUP).waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('dismissed');
    await expect(await axeViolations(page), 'dismissed findings').toEqual([]);

    // The decision downloads as a baseline file the CLI reads, with its reason and comment.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download dismissals as a baseline' }).click()]);
    expect(download.suggestedFilename()).toBe('chainbreaker-baseline.json');
    baseline = await readFile((await download.path()) ?? '', 'utf8');
    const file = JSON.parse(baseline) as { version: number; findings: { rule_id: string; reason: string; comment: string }[] };
    expect(file.version).toBe(1);
    expect(file.findings.map((f) => [f.rule_id, f.reason, f.comment])).toEqual([['script-injection', 'accepted_risk', 'Only maintainers can open issues here']]);
    await screenshot(page, 'triage-dismissed-1280x800');
    await page.setViewportSize(VIEWPORTS.phone);
    await screenshot(page, 'triage-dismissed-390x844');
    await page.setViewportSize(VIEWPORTS.desktop);
  });

  it('reopens it: the counts and the attack path come back', async () => {
    await page.locator(`${INJECTION_GROUP} button`, { hasText: 'Reopen' }).click();
    await page.getByText(/0 dismissed/).waitFor();
    await page.getByLabel('Status').selectOption('open');
    await page.locator(INJECTION_GROUP).waitFor();
    const high = await highCount();
    await page.reload();
    await page.getByText(/0 dismissed/).waitFor();
    expect(await highCount()).toBe(high);

    // Importing the downloaded baseline dismisses it again, with the same reason; then it is reopened.
    await page.getByLabel('Import a baseline…').setInputFiles({ name: 'team-baseline.json', mimeType: 'application/json', buffer: Buffer.from(baseline) });
    await page.getByText('Imported 1 decision from team-baseline.json.').waitFor();
    await page.getByText(/1 dismissed/).waitFor();
    expect(await highCount()).toBe(high - 1);
    await page.getByLabel('Status').selectOption('dismissed');
    expect(await page.locator(`${INJECTION_GROUP} .dismissal`).textContent()).toContain('Accepted risk');
    await page.locator(`${INJECTION_GROUP} button`, { hasText: 'Reopen' }).click();
    await page.getByText(/0 dismissed/).waitFor();

    await go('Attack paths', 'Attack paths');
    await expect.poll(() => page.locator(PATH).count()).toBe(1);
  });

  it('dismisses an attack path on its own, lists it under Dismissed, and reopens it', async () => {
    const total = async () => Number((await page.locator('p.summary').textContent())?.match(/^(\d+)/)?.[1]);
    const before = await total();
    await page.locator(PATH).getByRole('button', { name: /^Dismiss the attack path/ }).click();
    const form = page.locator(`${PATH} form.dismiss-form`);
    await form.getByLabel('Reason').selectOption('wont_fix');
    await form.getByRole('button', { name: 'Dismiss', exact: true }).click();
    await expect.poll(() => page.locator(PATH).count()).toBe(0);
    expect(await total()).toBe(before - 1);
    await page.getByRole('button', { name: 'Show dismissed attack paths' }).click();
    const listed = page.locator('.dismissed-list li[data-combo="injection-token-theft"]');
    expect(await listed.textContent()).toContain("Dismissed: Won't fix");
    await expect(await axeViolations(page), 'attack paths with dismissed').toEqual([]);
    await screenshot(page, 'triage-attack-paths-1280x800');
    // Shown dismissed paths are part of the view's address: a reload keeps them shown.
    expect(page.url()).toContain('dismissed=show');
    await page.reload();
    await heading('Attack paths').waitFor();
    await page.getByRole('heading', { name: 'Dismissed (1)' }).waitFor();
    await page.getByRole('button', { name: 'Hide dismissed attack paths' }).waitFor();
    await listed.getByRole('button', { name: /^Reopen/ }).click();
    await expect.poll(() => page.locator(PATH).count()).toBe(1);
    expect(await total()).toBe(before);
    expect(errors).toEqual([]);
  });

  it('links each finding to its file and line at the scanned commit, and a settings finding to its settings page with the gh api fix', async () => {
    // The local code host has file: URLs and no commit; GitHub's answers are simulated for this page.
    const sha = 'c0ffee0000000000000000000000000000000001';
    await page.route('**/api/repos', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { repositories: { full_name: string; html_url: string }[] };
      for (const r of body.repositories) r.html_url = `https://github.com/${r.full_name}`;
      await route.fulfill({ response, json: body });
    });
    // The stored list the Findings view names the repository from, likewise.
    await page.route('**/api/repositories', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { repositories: { full_name: string; html_url: string }[] };
      for (const r of body.repositories) r.html_url = `https://github.com/${r.full_name}`;
      await route.fulfill({ response, json: body });
    });
    await page.route('**/api/scans/*', async (route) => {
      const response = await route.fetch();
      await route.fulfill({ response, json: { ...((await response.json()) as object), commit_sha: sha } });
    });
    await page.goto(findingsUrl);
    await page.locator(INJECTION_GROUP).waitFor();
    await page.reload();
    await page.locator(`${INJECTION_GROUP} a.where`).first().waitFor();
    const where = page.locator(`${INJECTION_GROUP} a.where`).first();
    expect(await where.getAttribute('href')).toBe(`https://github.com/examples/issue-triage-bot/blob/${sha}/.github/workflows/triage.yml#L17`);
    expect(await where.getAttribute('rel')).toContain('noopener');
    const settings = page.locator('article.rule-group:has(code:text-is("actions-can-approve-prs"))');
    expect(await settings.locator('a.where').getAttribute('href')).toBe('https://github.com/examples/issue-triage-bot/settings/actions');
    expect(await settings.locator('.fix pre').textContent()).toBe(
      `echo '{"can_approve_pull_request_reviews":false}' | gh api --method PUT '/repos/examples/issue-triage-bot/actions/permissions/workflow' --input -`,
    );
    await expect(await axeViolations(page), 'findings with links').toEqual([]);
    await settings.scrollIntoViewIfNeeded();
    await screenshot(page, 'links-settings-finding-1280x800');

    // Each stage of an attack path links to its finding in the code at the repository's scanned commit.
    await page.route('**/api/attack-paths', async (route) => {
      const response = await route.fetch();
      const body = (await response.json()) as { repos: { full_name: string; html_url: string; commit_sha?: string }[] };
      for (const r of body.repos) Object.assign(r, { html_url: `https://github.com/${r.full_name}`, commit_sha: sha });
      await route.fulfill({ response, json: body });
    });
    await go('Attack paths', 'Attack paths');
    const stage = page.locator(`${PATH} ol.stages-in-code a`).first();
    expect(await stage.getAttribute('href')).toBe(`https://github.com/examples/issue-triage-bot/blob/${sha}/.github/workflows/triage.yml#L17`);
    await expect(await axeViolations(page), 'attack paths with links').toEqual([]);
    await page.locator(PATH).scrollIntoViewIfNeeded();
    await screenshot(page, 'links-attack-path-1280x800');
    await page.unrouteAll();
    expect(errors).toEqual([]);
  });
});
