import { readdir, readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ROOT, routes } from '../../support/http.js';

interface VercelConfig {
  framework: null;
  outputDirectory: string;
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
  it('serves static files only from an empty output directory, never the project root', async () => {
    expect(config.framework).toBeNull();
    expect(config.outputDirectory).toBe('public');
    // Vercel refuses an empty output directory; robots.txt is all there is, and tells crawlers to stay away.
    expect(await readdir(`${ROOT}public`)).toEqual(['robots.txt']);
    expect(config.rewrites ?? config.routes).toBeUndefined();
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
