// The browser tests' harness: builds the web client, starts `npm run dev`'s server on a free loopback port
// with a fresh in-memory database, and drives Debian's Chromium with playwright-core (no browser download).

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { ROOT } from '../support/http.js';
import { SLOW_SKIPPED } from '../support/skips.js';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const HAVE_CHROMIUM = existsSync(CHROMIUM);
/**
 * Why the browser tests are skipped, or null: on a developer's machine without Chromium (`apt-get install
 * chromium`), or with SKIP_SLOW_TESTS=1; in CI (`CI` set) they always run, and a missing browser fails them,
 * since .ci/run installs it.
 */
export const BROWSER_SKIPPED: string | null = process.env.CI
  ? null
  : !HAVE_CHROMIUM
    ? `no Chromium at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`
    : SLOW_SKIPPED;
export const SKIP_BROWSER = BROWSER_SKIPPED !== null;
export const SCREENSHOTS = join(ROOT, 'test-results/screenshots');

export const VIEWPORTS = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address !== null ? address.port : 0));
    });
  });
}

export function buildClient(): void {
  const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-web.ts'], { cwd: ROOT, encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`npm run build:web failed:\n${result.stdout}\n${result.stderr}`);
}

export interface DevServer {
  base: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** `scripts/dev.ts` on a free port, the embedded database in memory (or `dataDir`), the example repositories (or `codehostDir`) as code host. */
export async function startDevServer(options: { codehostDir?: string; dataDir?: string; backgroundDrain?: boolean } = {}): Promise<DevServer> {
  const port = await freePort();
  // A database of the test's making (the scale fixture's) instead of a fresh one in memory.
  const env: Record<string, string | undefined> = { ...process.env, PORT: String(port), PGLITE_DATA_DIR: options.dataDir ?? 'memory://', LOG_LEVEL: 'silent' };
  for (const name of ['DATABASE_URL', 'SUPABASE_URL', 'SUPABASE_SERVICE_ROLE_KEY', 'JWT_SIGNING_SECRET', 'GITHUB_APP_ID', 'GITHUB_APP_PRIVATE_KEY', 'NODE_ENV', 'VERCEL_ENV', 'CODEHOST_DIR']) delete env[name];
  // Repositories of the test's own making instead of examples/ (the local code host serves each folder).
  if (options.codehostDir !== undefined) env.CODEHOST_DIR = options.codehostDir;
  if (options.backgroundDrain === false) env.DEV_BACKGROUND_DRAIN = '0';
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/dev.ts'], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the dev server did not start in 120 s:\n${output}`)), 120_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Development user')) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the dev server exited with ${code}:\n${output}`));
    });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    process: child,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 5000).unref();
      }),
  };
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Everything the page reports as an error: console errors, uncaught exceptions, failed requests (not reads it cancelled). */
export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => errors.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? '';
    // A read the client cancels itself when the view changes (its lists refresh after a scan, the user moves
    // on) ends as net::ERR_ABORTED: not a failure of the page. A cancelled write would be, so only GETs pass.
    if (request.method() === 'GET' && reason === 'net::ERR_ABORTED') return;
    errors.push(`request failed: ${request.method()} ${request.url()} ${reason}`);
  });
  return errors;
}

let axeSource: Promise<string> | undefined;
/** axe-core's serious and critical violations on the page as it is now, as `rule: target` lines. */
export async function axeViolations(page: Page): Promise<string[]> {
  axeSource ??= readFile(join(ROOT, 'node_modules/axe-core/axe.min.js'), 'utf8');
  // Evaluated through the DevTools protocol, which the page's content security policy does not govern (a
  // <script> tag would be refused, as it should be).
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(await axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (context: Document) => Promise<{ violations: { id: string; impact: string | null; nodes: { target: unknown[] }[] }[] }> } }).axe;
    const result = await axe.run(document);
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, targets: v.nodes.map((n) => JSON.stringify(n.target)) }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.impact} ${v.id}: ${v.targets.slice(0, 3).join(', ')}`);
}

export async function screenshot(page: Page, name: string): Promise<void> {
  await mkdir(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: false });
}
