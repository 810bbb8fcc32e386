import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { repositoryUrl } from '../../lib/cli/repository-url.js';

// The documentation a user reads: links that resolve, and one repository everywhere, package.json's.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DOCS = ['README.md', 'examples/README.md', '.pre-commit-hooks.yaml', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)];
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

describe('the documentation', () => {
  it('links only to files that exist', () => {
    const broken: string[] = [];
    for (const doc of DOCS) {
      for (const match of read(doc).matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        const target = match[1] ?? '';
        if (/^[a-z]+:/.test(target)) continue;
        if (!existsSync(normalize(join(ROOT, dirname(doc), target)))) broken.push(`${doc}: ${target}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('names the repository of package.json wherever it names this project on GitHub', () => {
    const pkg = JSON.parse(read('package.json')) as { repository?: unknown; homepage?: string; bugs?: { url?: string } };
    const url = repositoryUrl(pkg.repository);
    expect(url).toMatch(/^https:\/\/github\.com\/[^/]+\/chainbreaker$/);
    const slug = url.replace('https://github.com/', '');
    expect(pkg.homepage?.startsWith(url)).toBe(true);
    expect(pkg.bugs?.url).toBe(`${url}/issues`);
    const mentions = DOCS.flatMap((doc) =>
      [...read(doc).matchAll(/(?:github\.com\/|github:|uses: )([\w.-]+\/chainbreaker)\b/g)].map((m) => `${doc}: ${m[1] ?? ''}`),
    );
    expect(mentions.length).toBeGreaterThan(5);
    expect(mentions.filter((m) => !m.endsWith(`: ${slug}`))).toEqual([]);
  });

  it('keeps the README one screen of getting started, without internal history', () => {
    const readme = read('README.md');
    expect(readme.split('\n').length).toBeLessThanOrEqual(200);
    for (const doc of DOCS) expect(read(doc), doc).not.toMatch(/\bissues? \d+\b/i);
  });
});
