import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ROOT, routes } from '../../support/http.js';

interface VercelConfig {
  framework: null;
  buildCommand: string;
  outputDirectory: string;
  cleanUrls: boolean;
  headers: { source: string; headers: { key: string; value: string }[] }[];
  functions: Record<string, { maxDuration: number; memory: number }>;
  rewrites?: unknown;
  routes?: unknown;
}

const config = JSON.parse(await readFile(`${ROOT}vercel.json`, 'utf8')) as VercelConfig;

/** `api/**\/*.ts` as a regular expression (the only glob forms vercel.json uses here). */
const globToRegExp = (glob: string) =>
  new RegExp(
    `^${glob
      .replace(/[.+^${}()|[\]\\]/g, '\\$&')
      .replace(/\*\*\//g, '\0')
      .replace(/\*/g, '[^/]*')
      .replace(/\0/g, '(.*/)?')}$`,
  );

describe('vercel.json', () => {
  it('serves static files only from the built output directory, never the project root', async () => {
    expect(config.framework).toBeNull();
    expect(config.outputDirectory).toBe('public');
    // The web client, rule pages and API viewer are built there on Vercel; robots.txt is the one committed file.
    expect(config.buildCommand).toBe('npm run build:web');
    expect(config.cleanUrls).toBe(true);
    expect(await readdir(`${ROOT}public`)).toContain('robots.txt');
    const ignored = (await readFile(`${ROOT}.gitignore`, 'utf8')).split('\n');
    expect(ignored).toEqual(expect.arrayContaining(['/public/*', '!/public/robots.txt']));
    expect(config.rewrites ?? config.routes).toBeUndefined();
  });

  it('sends the pages with a content security policy that loads nothing from elsewhere', () => {
    const pages = config.headers.find((h) => h.source === '/((?!api/).*)');
    const csp = pages?.headers.find((h) => h.key === 'Content-Security-Policy')?.value ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
  });

  it('configures every route file as a function within the platform limits', async () => {
    const patterns = Object.keys(config.functions).map(globToRegExp);
    for (const route of await routes()) expect(patterns.some((p) => p.test(route.file)), route.file).toBe(true);
    for (const settings of Object.values(config.functions)) {
      expect(settings.maxDuration).toBeLessThanOrEqual(60);
      expect(settings.memory).toBeLessThanOrEqual(2048);
    }
  });
});
