// The web client end to end, in a real headless Chromium against `npm run dev`'s server (the embedded
// database and the example repositories): sign in, connect, list, scan all, see a CRITICAL attack path
// drawn, open a rule page, turn a rule off and watch its path disappear, set and clear a per-repository
// override. Every view is checked with axe-core (no serious or critical violation), walked with the keyboard,
// and photographed at 1280x800 and 390x844 into test-results/screenshots (git-ignored). No console errors.

import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import {
  axeViolations,
  buildClient,
  collectErrors,
  launchBrowser,
  screenshot,
  BROWSER_SKIPPED,
  SKIP_BROWSER,
  startDevServer,
  VIEWPORTS,
  type DevServer,
} from './support.js';
import { exampleNames, scanExample, type JsonReport } from '../../scripts/gen-examples.js';
import { skipReason } from '../support/skips.js';

const EXAMPLES = ['examples/hardened-service', 'examples/issue-triage-bot', 'examples/release-pipeline'];
// The example attack path the test breaks: repository-takeover (in issue-triage-bot) is broken by default-token-write.
const TAKEOVER = 'article.combo[data-combo="repository-takeover"]';

// Skipped only without Chromium on a developer's machine (see SKIP_BROWSER); CI installs it and runs these.
describe.skipIf(SKIP_BROWSER)(`the web client in Chromium${skipReason(BROWSER_SKIPPED)}`, { timeout: 120_000 }, () => {
  let server: DevServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let errors: string[];

  beforeAll(async () => {
    buildClient();
    server = await startDevServer();
    browser = await launchBrowser();
    context = await browser.newContext({ viewport: VIEWPORTS.desktop, baseURL: server.base });
    page = await context.newPage();
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
  const expectAccessible = async (view: string) => expect(await axeViolations(page), view).toEqual([]);
  const photograph = async (name: string) => {
    await screenshot(page, `${name}-1280x800`);
    await page.setViewportSize(VIEWPORTS.phone);
    await page.waitForTimeout(150); // the chain re-flows on resize
    await screenshot(page, `${name}-390x844`);
    await page.setViewportSize(VIEWPORTS.desktop);
  };
  /** The names of what Tab reaches, in order, starting from the top of the page. */
  const tabStops = async (count: number): Promise<string[]> => {
    // From the top: focus the first element of the page (the skip link), as the first Tab would.
    await page.locator('a.skip').focus();
    const stops: string[] = [await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '')];
    for (let i = 0; i < count; i += 1) {
      await page.keyboard.press('Tab');
      stops.push(
        await page.evaluate(() => {
          const el = document.activeElement;
          if (!el || el === document.body) return '';
          // An SVG link is named by its text elements (its <desc> describes it).
          const svgText = el instanceof SVGElement ? [...el.querySelectorAll('text')].map((t) => t.textContent).join(' ') : null;
          return (el.getAttribute('aria-label') ?? svgText ?? el.textContent ?? '').trim().replace(/\s+/g, ' ');
        }),
      );
    }
    return stops;
  };

  it('signs in as the development user, connects the example installation and lists the repositories', async () => {
    await page.goto('/');
    const signIn = page.getByRole('button', { name: 'Sign in as the development user', exact: true });
    await signIn.waitFor();
    await expectAccessible('sign-in');
    await photograph('sign-in');
    await signIn.click();
    await heading('Repositories').waitFor();
    await page.getByText('No GitHub account is connected yet').waitFor();
    await expectAccessible('repositories (not connected)');

    await page.getByRole('button', { name: 'Connect GitHub', exact: true }).click();
    await page.getByText('Connected the GitHub organization examples (installation 1).').waitFor();
    const rows = page.locator('table.repos tbody tr');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await page.locator('table.repos tbody th a').allTextContents()).toEqual(EXAMPLES);
    await expect.poll(() => page.locator('table.repos tbody td:nth-child(2)').allTextContents()).toEqual(['Never', 'Never', 'Never']);

    // The App's user authorization, faked by the local code host: GitHub's authorize page comes straight
    // back with a code and state, which the client completes; the same repositories, and the code leaves the address.
    await page.getByRole('button', { name: 'Use my GitHub access', exact: true }).click();
    await page.getByText('Your GitHub access (chainbreaker-dev) now lists every repository').waitFor();
    expect(new URL(page.url()).search).toBe('');
    await expect.poll(() => page.locator('table.repos tbody th a').allTextContents()).toEqual(EXAMPLES);
  });

  it('scans all repositories, three at a time, with a progress bar and per-row status', async () => {
    const started: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST' && request.url().endsWith('/api/scan')) started.push(request.url());
    });
    await page.getByRole('button', { name: 'Scan all', exact: true }).click();
    await page.getByText('3 of 3 scanned').waitFor();
    expect(started).toHaveLength(3);
    expect(await page.locator('table.repos tbody td.status').allTextContents()).toEqual(['Scanned', 'Scanned', 'Scanned']);
    expect(await page.locator('progress').getAttribute('value')).toBe('3');
    // Last scan times replace "Never"; counts are shown per row.
    expect(await page.locator('table.repos tbody td:nth-child(2)').allTextContents()).not.toContain('Never');
    await expect.poll(() => page.locator('table.repos tbody .counts').count()).toBe(3);
    await expectAccessible('repositories');
    // The header has "Use my GitHub access" before "Sign out": one tab stop more before the view's controls.
    // Past the search, filters, export and pager: the rows' Scan buttons.
    const stops = await tabStops(30);
    expect(stops).toContain('Scan all');
    expect(stops).toContain('Scan examples/issue-triage-bot');
    await photograph('repositories');
  });

  it('reports for each example what the CLI’s JSON and POST /api/scan report: the same findings, counts and attack paths', async () => {
    const token = await page.evaluate(() => sessionStorage.getItem('chainbreaker.devToken'));
    const api = async (path: string, init: RequestInit = {}) =>
      (await fetch(`${server.base}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' } })).json();
    const { repositories } = (await api('/api/repos')) as { repositories: { id: string; full_name: string }[] };
    // A settings finding is shown as the settings page it is about, not as `<repository settings>:0:0`.
    const key = (f: { rule_id: string; severity: string; file: string; line: number; column: number }) =>
      `${f.severity} ${f.rule_id} ${f.file === '<repository settings>' ? 'Repository settings' : `${f.file}:${f.line}:${f.column}`}`;
    for (const name of exampleNames()) {
      const cli = await scanExample(name);
      const repo = repositories.find((r) => r.full_name === `examples/${name}`);
      expect(repo, name).toBeDefined();
      const scanned = (await api('/api/scan', { method: 'POST', body: JSON.stringify({ repo_id: repo?.id }) })) as JsonReport;
      expect(scanned.counts, name).toEqual(cli.counts);
      expect(scanned.findings.map(key).sort(), name).toEqual(cli.findings.map(key).sort());
      expect(scanned.findings.map((f) => f.description).sort(), name).toEqual(cli.findings.map((f) => f.description).sort());
      const { combos } = (await api(`/api/repositories/${repo?.id ?? ''}/combos`)) as { combos: { id: string; severity: string }[] };
      expect(combos.map((c) => `${c.severity} ${c.id}`).sort(), name).toEqual(cli.combinations.map((c) => `${c.severity} ${c.id}`).sort());

      // The web client shows that scan: one entry per finding, under its severity and rule.
      await page.goto(`/#/repos/${encodeURIComponent(repo?.id ?? '')}`);
      await heading('Findings').waitFor();
      await page.locator('.summary').waitFor();
      await expect.poll(() => page.locator('ul.findings > li').count(), { message: name }).toBe(cli.findings.length);
      const shown = await page.locator('section.sev-group').evaluateAll((sections) =>
        sections.flatMap((section) => {
          const severity = section.querySelector('h2')?.id.replace(/^sev-/, '') ?? '';
          return [...section.querySelectorAll('article.rule-group')].flatMap((group) => {
            const rule = group.querySelector('h3 code')?.textContent ?? '';
            return [...group.querySelectorAll('.where')].map((where) => `${severity} ${rule} ${where.textContent?.trim() ?? ''}`);
          });
        }),
      );
      expect(shown.sort(), name).toEqual(cli.findings.map(key).sort());
    }
    await go('Repositories', 'Repositories');
  });

  it('shows a repository’s findings grouped by severity and rule, with counts that match the API, and filters them', async () => {
    await page.getByRole('link', { name: 'examples/issue-triage-bot', exact: true }).click();
    await heading('Findings').waitFor();
    await page.locator('.summary .counts').waitFor();
    const token = await page.evaluate(() => sessionStorage.getItem('chainbreaker.devToken'));
    const api = async (path: string) => (await fetch(`${server.base}${path}`, { headers: { authorization: `Bearer ${token}` } })).json();
    const repoId = decodeURIComponent(new URL(page.url()).hash.split('/')[2] ?? '');
    const { scans } = (await api(`/api/repositories/${repoId}/scans?limit=1`)) as { scans: { scan_id: string; counts: Record<string, number> }[] };
    const latest = scans[0];
    expect(latest).toBeDefined();
    const badges = await page.locator('.summary .counts .badge').allTextContents();
    // The badges go HIGH to INFO; the API's counts object is read by key (its key order is not part of the contract).
    expect(badges).toEqual(['HIGH', 'MEDIUM', 'LOW', 'INFO'].map((sev) => `${latest?.counts[sev]} ${sev}`));
    const total = Object.values(latest?.counts ?? {}).reduce((a, b) => a + b, 0);
    expect(await page.locator('ul.findings > li').count()).toBe(total);
    expect(await page.locator('ul.findings > li code.where').first().textContent()).toMatch(/^\.github\/workflows\/.+:\d+:\d+$/);

    await page.getByLabel('Severity').selectOption('HIGH');
    expect(await page.locator('ul.findings > li').count()).toBe(latest?.counts.HIGH);
    await page.getByLabel('Severity').selectOption('');
    await page.getByLabel('Rule').selectOption('script-injection');
    const shown = await page.locator('ul.findings > li').count();
    expect(shown).toBeGreaterThan(0);
    expect(await page.locator('.rule-group h3 code').allTextContents()).toEqual(['script-injection']);
    await page.getByLabel('Rule').selectOption('');

    // The stored scan carries each finding's fix (findings.fix): the Findings view, which reads the stored
    // scan, shows the checkout's diff with a Copy button that copies exactly that diff.
    const stored = (await api(`/api/scans/${latest?.scan_id ?? ''}`)) as { findings: { rule_id: string; fix?: { diff?: string } }[] };
    const diff = stored.findings.find((f) => f.rule_id === 'persisted-credentials')?.fix?.diff ?? '';
    expect(diff).toContain('+          persist-credentials: false');
    await page.getByLabel('Rule').selectOption('persisted-credentials');
    const fix = page.locator('ul.findings > li .fix').first();
    await fix.waitFor();
    expect(await fix.locator('pre code').textContent()).toBe(diff);
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await fix.getByRole('button', { name: 'Copy' }).click();
    await fix.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(diff);
    await page.getByLabel('Rule').selectOption('');
    await expectAccessible('findings');
    await photograph('findings');
  });

  it('draws the attack paths as chains, most severe first, with the breaking stage marked and linked', async () => {
    await go('Attack paths', 'Attack paths');
    const combos = page.locator('article.combo');
    await expect.poll(() => combos.count()).toBeGreaterThan(0);
    const severities = await combos.locator('header .badge').allTextContents();
    expect(severities[0]).toBe('CRITICAL');
    const rank = (s: string) => ['CRITICAL', 'HIGH', 'MEDIUM'].indexOf(s);
    expect(severities.every((s) => rank(s) >= 0)).toBe(true);
    expect([...severities].sort((a, b) => rank(a) - rank(b))).toEqual(severities);
    // release-pipeline's paths enter through someone else's action on a tag: MEDIUM, after the CRITICAL ones.
    expect(severities).toContain('MEDIUM');

    const takeover = page.locator(TAKEOVER);
    expect(await takeover.count()).toBe(1);
    const nodes = takeover.locator('svg a.node');
    expect(await nodes.count()).toBeGreaterThanOrEqual(3);
    expect(await takeover.locator('svg a.node.break').count()).toBe(1);
    expect(await takeover.locator('svg a.node.break').textContent()).toContain('break here');
    expect(await takeover.locator('svg a.node.break').textContent()).toContain('default-token-write');
    expect(await takeover.locator('svg polyline.edge').count()).toBe((await takeover.locator('svg .node').count()) - 1);
    await expectAccessible('attack paths');
    // The README's image (docs/attack-paths.png) is this view at desktop size: `npm run docs:screenshot` runs
    // these tests with UPDATE_DOCS_SCREENSHOT=1, which writes it there too.
    await screenshot(page, 'readme-attack-paths');
    if (process.env.UPDATE_DOCS_SCREENSHOT === '1') await page.screenshot({ path: fileURLToPath(new URL('../../docs/attack-paths.png', import.meta.url)), fullPage: false });
    await photograph('attack-paths');
    const stops = await tabStops(30);
    expect(stops.some((s) => /^(✂ break here )?1\. [a-z-]+ /.test(s)), JSON.stringify(stops)).toBe(true);

    // A node links to its finding.
    await takeover.locator('svg a.node.break').click();
    await heading('Findings').waitFor();
    await expect.poll(() => page.locator('.rule-group h3 code').allTextContents()).toEqual(['default-token-write']);
  });

  it('opens a rule page rendered from the rule’s doc', async () => {
    await go('Attack paths', 'Attack paths');
    await page.getByRole('link', { name: '(default-token-write)' }).first().click();
    await page.waitForURL('**/rules/default-token-write');
    expect(await page.locator('h1').textContent()).toMatch(/^default-token-write/);
    expect(await page.locator('article h2').count()).toBeGreaterThan(0);
    await expectAccessible('rule page');
    await photograph('rule-page');
    await page.goBack();
    await heading('Attack paths').waitFor();
  });

  it('turns a rule off globally and the attack path disappears at once; on again, it is back', async () => {
    await go('Rule settings', 'Rule settings');
    const toggle = page.getByRole('switch', { name: 'default-token-write', exact: true });
    expect(await toggle.isChecked()).toBe(true);
    await expectAccessible('rule settings');
    await photograph('rule-settings');
    await toggle.uncheck();
    await page.getByText('Saved: default-token-write off for every repository.').waitFor({ state: 'attached' });

    await go('Attack paths', 'Attack paths');
    await page.locator('p.summary').waitFor();
    expect(await page.locator(TAKEOVER).count()).toBe(0);

    await go('Rule settings', 'Rule settings');
    await page.getByRole('switch', { name: 'default-token-write', exact: true }).check();
    await page.getByText('Saved: default-token-write on for every repository.').waitFor({ state: 'attached' });
    await go('Attack paths', 'Attack paths');
    await page.locator(TAKEOVER).waitFor();
  });

  it('sets a per-repository override, and clearing it (inherit) restores the global state', async () => {
    await go('Rule settings', 'Rule settings');
    const scope = page.getByLabel('Applies to');
    await scope.selectOption({ label: 'examples/issue-triage-bot' });
    const override = page.getByRole('combobox', { name: 'default-token-write in this repository' });
    await expect.poll(() => override.inputValue()).toBe('inherit');
    await override.selectOption('off');
    await page.getByText('Saved: default-token-write off in examples/issue-triage-bot.').waitFor({ state: 'attached' });
    await expectAccessible('rule settings (repository)');

    await go('Attack paths', 'Attack paths');
    await page.locator('p.summary').waitFor();
    expect(await page.locator(TAKEOVER).count()).toBe(0);

    await go('Rule settings', 'Rule settings');
    await page.getByLabel('Applies to').selectOption({ label: 'examples/issue-triage-bot' });
    const again = page.getByRole('combobox', { name: 'default-token-write in this repository' });
    await expect.poll(() => again.inputValue()).toBe('off');
    await again.selectOption('inherit');
    await page.getByText('Saved: default-token-write inherits the global setting in examples/issue-triage-bot.').waitFor({ state: 'attached' });
    await go('Attack paths', 'Attack paths');
    await page.locator(TAKEOVER).waitFor();
  });

  it('sets a rule’s severity globally and per repository; the next scan re-rates its findings, and the Findings view says by which setting', async () => {
    await go('Rule settings', 'Rule settings');
    const globalSeverity = page.getByRole('combobox', { name: 'script-injection severity', exact: true });
    await expect.poll(() => globalSeverity.inputValue()).toBe('');
    await globalSeverity.selectOption('LOW');
    await page.getByText('Saved: script-injection at LOW in every repository.').waitFor({ state: 'attached' });
    await page.getByLabel('Applies to').selectOption({ label: 'examples/issue-triage-bot' });
    const repoSeverity = page.getByRole('combobox', { name: 'script-injection severity in this repository', exact: true });
    await expect.poll(() => repoSeverity.inputValue()).toBe('');
    expect(await repoSeverity.locator('option[value=""]').textContent()).toBe('Inherit (LOW)');
    await repoSeverity.selectOption('MEDIUM');
    await page.getByText('Saved: script-injection at MEDIUM in examples/issue-triage-bot.').waitFor({ state: 'attached' });
    await expectAccessible('rule settings (severity)');

    // A scan applies it (the settings re-rate findings when they are found, as the CLI's config does).
    const token = await page.evaluate(() => sessionStorage.getItem('chainbreaker.devToken'));
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const { repositories } = (await (await fetch(`${server.base}/api/repos`, { headers })).json()) as { repositories: { id: string; full_name: string }[] };
    const repoId = repositories.find((r) => r.full_name === 'examples/issue-triage-bot')?.id ?? '';
    const scanned = await fetch(`${server.base}/api/scan`, { method: 'POST', headers, body: JSON.stringify({ repo_id: repoId }) });
    expect(scanned.status).toBe(200);
    const { findings } = (await scanned.json()) as { findings: { rule_id: string; severity: string }[] };
    expect(new Set(findings.filter((f) => f.rule_id === 'script-injection').map((f) => f.severity))).toEqual(new Set(['MEDIUM']));

    await page.evaluate((hash) => (location.hash = hash), `#/repos/${encodeURIComponent(repoId)}?rule=script-injection`);
    await heading('Findings').waitFor();
    const group = page.locator('section.sev-group', { has: page.locator('.rule-group h3 code', { hasText: 'script-injection' }) });
    await expect.poll(() => group.locator('h2 .badge').textContent()).toBe('MEDIUM');
    expect(await group.getByTestId('rerated').textContent()).toBe('Rated MEDIUM by your setting for this repository');
    await expectAccessible('findings (re-rated)');
    await screenshot(page, 'findings-rerated-1280x800');

    // Back to the rule's own severity: the override goes (Inherit), then the global severity.
    await go('Rule settings', 'Rule settings');
    await page.getByLabel('Applies to').selectOption({ label: 'examples/issue-triage-bot' });
    const state = page.getByRole('combobox', { name: 'script-injection in this repository', exact: true });
    // The override (On, recorded with the severity) is read before it is changed.
    await expect.poll(() => state.inputValue()).toBe('on');
    await state.selectOption('inherit');
    await page.getByText('Saved: script-injection inherits the global setting in examples/issue-triage-bot.').waitFor({ state: 'attached' });
    await expect.poll(() => page.getByRole('combobox', { name: 'script-injection severity in this repository', exact: true }).inputValue()).toBe('');
    await page.getByLabel('Applies to').selectOption({ label: 'All repositories (global)' });
    await page.getByRole('combobox', { name: 'script-injection severity', exact: true }).selectOption('');
    await page.getByText('Saved: script-injection at its own severity.').waitFor({ state: 'attached' });
    const settings = (await (await fetch(`${server.base}/api/rule-settings`, { headers })).json()) as { settings: { rule_id: string; severity?: string }[] };
    expect(settings.settings.find((s) => s.rule_id === 'script-injection')?.severity).toBeUndefined();
    expect(((await (await fetch(`${server.base}/api/repositories/${repoId}/rule-overrides`, { headers })).json()) as { overrides: unknown[] }).overrides).toEqual([]);
    expect((await fetch(`${server.base}/api/scan`, { method: 'POST', headers, body: JSON.stringify({ repo_id: repoId }) })).status).toBe(200);
  });

  it('shows the OpenAPI document in the bundled viewer', async () => {
    await page.goto('/docs/api');
    await page.locator('.swagger-ui .opblock').first().waitFor();
    expect(await page.locator('.swagger-ui .opblock').count()).toBeGreaterThanOrEqual(16);
    await photograph('api-docs');
  });

  it('logged no console error, page error or failed request on the way', () => {
    expect(errors).toEqual([]);
  });
});

describe('the dev-only sign-in route', () => {
  it('is documented as absent from api/ (no deployment has it)', async () => {
    const { readdir } = await import('node:fs/promises');
    const files = await readdir(new URL('../../api/', import.meta.url), { recursive: true });
    expect(files.filter((f) => /dev|token/i.test(String(f)))).toEqual([]);
  });
});
