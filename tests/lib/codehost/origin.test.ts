import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { githubHostOf, headBranch, originDefaultBranch, originRepository, originUrl, repositoryOfUrl } from '../../../lib/codehost/origin.js';

const roots: string[] = [];
function checkout(config: string | null): string {
  const root = mkdtempSync(join(tmpdir(), 'chainbreaker-origin-'));
  roots.push(root);
  if (config !== null) {
    mkdirSync(join(root, '.git'));
    writeFileSync(join(root, '.git', 'config'), config);
  }
  return root;
}
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const CONFIG = `[core]
\trepositoryformatversion = 0
[remote "upstream"]
\turl = https://github.com/someone-else/fork.git
[remote "origin"]
\turl = git@github.com:Acme/app.git
\tfetch = +refs/heads/*:refs/remotes/origin/*
`;

describe('the repository a checkout comes from (origin remote)', () => {
  it('reads the origin remote, not another remote', () => {
    expect(originUrl(CONFIG)).toBe('git@github.com:Acme/app.git');
    expect(originUrl('[remote "upstream"]\n url = https://github.com/a/b\n')).toBeNull();
  });

  it('accepts https, scp-like and ssh URLs on github.com, with or without .git', () => {
    expect(repositoryOfUrl('https://github.com/acme/app')).toBe('acme/app');
    expect(repositoryOfUrl('https://github.com/acme/app.git/')).toBe('acme/app');
    expect(repositoryOfUrl('git@github.com:acme/app.git')).toBe('acme/app');
    expect(repositoryOfUrl('ssh://git@github.com/acme/app.git')).toBe('acme/app');
  });

  it('refuses other hosts, unless GITHUB_API_URL names that host, and malformed paths', () => {
    expect(repositoryOfUrl('https://gitlab.com/acme/app.git')).toBeNull();
    expect(repositoryOfUrl('https://ghe.example.com/acme/app.git')).toBeNull();
    expect(repositoryOfUrl('https://ghe.example.com/acme/app.git', githubHostOf('https://ghe.example.com/api/v3'))).toBe('acme/app');
    expect(repositoryOfUrl('https://github.com/acme/app/extra')).toBeNull();
    expect(repositoryOfUrl('file:///github.com/acme/app')).toBeNull();
    expect(repositoryOfUrl('not a url')).toBeNull();
    expect(githubHostOf('https://api.github.com')).toBe('github.com');
    expect(githubHostOf('')).toBeUndefined();
  });

  it('reads .git/config of a checkout, and gives null without one', async () => {
    expect(await originRepository(checkout(CONFIG))).toBe('Acme/app');
    expect(await originRepository(checkout(null))).toBeNull();
    expect(await originRepository(join(tmpdir(), 'chainbreaker-origin-missing-dir'))).toBeNull();
  });

  it('never follows a .git/config link out of the checkout', async () => {
    const outside = checkout(CONFIG);
    const root = checkout(null);
    mkdirSync(join(root, '.git'));
    symlinkSync(join(outside, '.git', 'config'), join(root, '.git', 'config'));
    expect(await originRepository(root)).toBeNull();
  });

  it('reads a bounded prefix of a huge config', async () => {
    const root = checkout(`${'# padding\n'.repeat(10_000)}${CONFIG}`);
    expect(await originRepository(root)).toBeNull();
  });
});

describe("the default branch a clone recorded for its origin (refs/remotes/origin/HEAD)", () => {
  it('reads the branch of the symbolic ref, and gives null without one', async () => {
    const root = checkout(CONFIG);
    expect(await originDefaultBranch(root)).toBeNull();
    mkdirSync(join(root, '.git', 'refs', 'remotes', 'origin'), { recursive: true });
    writeFileSync(join(root, '.git', 'refs', 'remotes', 'origin', 'HEAD'), 'ref: refs/remotes/origin/develop\n');
    expect(await originDefaultBranch(root)).toBe('develop');
    expect(await originDefaultBranch(checkout(null))).toBeNull();
  });

  it('takes a branch name git accepts and nothing else: a hash, another remote, a path out of the refs, an oversized line', () => {
    expect(headBranch('ref: refs/remotes/origin/release/2.x')).toBe('release/2.x');
    expect(headBranch('4b825dc642cb6eb9a060e54bf8d69288fbee4904')).toBeNull();
    expect(headBranch('ref: refs/remotes/upstream/main')).toBeNull();
    expect(headBranch('ref: refs/remotes/origin/../../heads/main')).toBeNull();
    expect(headBranch('ref: refs/remotes/origin/HEAD')).toBeNull();
    expect(headBranch(`ref: refs/remotes/origin/${'a'.repeat(300)}`)).toBeNull();
  });

  it('never follows a link out of the checkout', async () => {
    const outside = checkout(null);
    writeFileSync(join(outside, 'HEAD'), 'ref: refs/remotes/origin/main\n');
    const root = checkout(CONFIG);
    mkdirSync(join(root, '.git', 'refs', 'remotes', 'origin'), { recursive: true });
    symlinkSync(join(outside, 'HEAD'), join(root, '.git', 'refs', 'remotes', 'origin', 'HEAD'));
    expect(await originDefaultBranch(root)).toBeNull();
  });
});
