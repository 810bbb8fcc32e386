// The checkout reader reads only inside the checkout: symbolic links that stay inside are followed, links that
// leave it (a file, a directory on the way, a local action's directory) are refused and reported, never read.

import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { collectRepositoryFiles, OUTSIDE_CHECKOUT, readBounded } from '../../../lib/codehost/checkout.js';
import { createLocalCodeHost } from '../../../lib/codehost/local.js';
import { scanRepository } from '../../../lib/engine/scan.js';

const WORKFLOW = 'on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';
const SECRET = 'on: push\n# the outside secret\njobs: {}\n';

let base: string;
/** A directory outside every checkout, holding what a link must never reveal. */
let outside: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), 'chainbreaker-checkout-'));
  outside = join(base, 'outside');
  await mkdir(join(outside, 'workflows'), { recursive: true });
  await mkdir(join(outside, 'action'), { recursive: true });
  await writeFile(join(outside, 'workflows/stolen.yml'), SECRET);
  await writeFile(join(outside, 'secret.yml'), SECRET);
  await writeFile(join(outside, 'action/action.yml'), `name: x\nruns:\n  using: composite\n  steps: []\n# the outside secret\n`);
  await writeFile(join(outside, 'settings.json'), JSON.stringify({ repository: { private: true, default_branch: 'outside-secret' } }));
});
afterAll(async () => rm(base, { recursive: true, force: true }));

async function checkout(name: string): Promise<string> {
  const root = join(base, 'repos', name);
  await mkdir(root, { recursive: true });
  return root;
}

describe('collectRepositoryFiles and symbolic links', () => {
  it('refuses a .github directory that links outside the checkout, reporting it', async () => {
    const root = await checkout('github-dir');
    await symlink(outside, join(root, '.github'));
    const warnings: string[] = [];
    const files = await collectRepositoryFiles(root, { warnings });
    expect(files.map((f) => f.text).join('')).not.toContain('outside secret');
    expect(files).toEqual([]);
    expect(warnings).toEqual([`.github/workflows: ${OUTSIDE_CHECKOUT}.`]);
  });

  it('refuses a workflow file that links outside, as an unreadable file the engine reports', async () => {
    const root = await checkout('file-link');
    await mkdir(join(root, '.github/workflows'), { recursive: true });
    await writeFile(join(root, '.github/workflows/ci.yml'), WORKFLOW);
    await symlink(join(outside, 'secret.yml'), join(root, '.github/workflows/evil.yml'));
    const warnings: string[] = [];
    const files = await collectRepositoryFiles(root, { warnings });
    expect(files).toEqual([
      { path: '.github/workflows/ci.yml', text: WORKFLOW },
      { path: '.github/workflows/evil.yml', text: '', unreadable: OUTSIDE_CHECKOUT },
    ]);
    expect(warnings).toEqual([`.github/workflows/evil.yml: ${OUTSIDE_CHECKOUT}.`]);
    const finding = scanRepository(files).findings.find((f) => f.file === '.github/workflows/evil.yml');
    expect(finding?.description).toContain('symbolic link that leads outside');
  });

  it("refuses a local action whose directory links outside (uses: ./evil)", async () => {
    const root = await checkout('action-link');
    await mkdir(join(root, '.github/workflows'), { recursive: true });
    const uses = 'on: push\npermissions: {}\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ./evil\n';
    await writeFile(join(root, '.github/workflows/ci.yml'), uses);
    await symlink(join(outside, 'action'), join(root, 'evil'));
    await mkdir(join(root, '.github/actions'), { recursive: true });
    await symlink(join(outside, 'action'), join(root, '.github/actions/also-evil'));
    const warnings: string[] = [];
    const files = await collectRepositoryFiles(root, { warnings });
    expect(files.map((f) => f.text).join('')).not.toContain('outside secret');
    expect(files.map((f) => f.path)).toEqual(['.github/workflows/ci.yml']);
    expect(warnings.sort()).toEqual([`.github/actions/also-evil: ${OUTSIDE_CHECKOUT}.`, `evil: ${OUTSIDE_CHECKOUT}.`]);
  });

  it('follows links that stay inside the checkout', async () => {
    const root = await checkout('inside-link');
    await mkdir(join(root, 'ci'), { recursive: true });
    await writeFile(join(root, 'ci/build.yml'), WORKFLOW);
    await mkdir(join(root, '.github'), { recursive: true });
    await symlink(join(root, 'ci'), join(root, '.github/workflows'));
    const warnings: string[] = [];
    expect(await collectRepositoryFiles(root, { warnings })).toEqual([{ path: '.github/workflows/build.yml', text: WORKFLOW }]);
    expect(warnings).toEqual([]);
  });

  it('reads a checkout that is itself reached through a link', async () => {
    const root = await checkout('real');
    await mkdir(join(root, '.github/workflows'), { recursive: true });
    await writeFile(join(root, '.github/workflows/ci.yml'), WORKFLOW);
    const alias = join(base, 'alias');
    await symlink(root, alias);
    expect(await collectRepositoryFiles(alias)).toEqual([{ path: '.github/workflows/ci.yml', text: WORKFLOW }]);
  });
});

describe('the local code host and symbolic links', () => {
  it('never reads a settings snapshot or CODEOWNERS through a link that leaves the repository', async () => {
    const dir = join(base, 'host');
    await mkdir(join(dir, 'repo/.github'), { recursive: true });
    await symlink(outside, join(dir, 'repo/.chainbreaker'));
    await symlink(join(outside, 'secret.yml'), join(dir, 'repo/CODEOWNERS'));
    const host = createLocalCodeHost({ dir, account: 'acme' });
    const [listed] = await host.listRepositories([1]);
    expect(listed?.defaultBranch).toBe('main');
    const snapshot = await host.fetchSnapshot({ installationId: 1, fullName: 'acme/repo', defaultBranch: 'main' });
    expect(JSON.stringify(snapshot)).not.toContain('outside-secret');
    expect(snapshot.settings.codeowners).toBe(false);
  });
});

describe('readBounded', () => {
  it('reads a file whole, whatever its size below the limit, and stops one byte past the limit', async () => {
    const dir = await checkout('bounded');
    const multiByte = `# ${'é'.repeat(3000)}\non: push\n`;
    await writeFile(join(dir, 'small.yml'), multiByte);
    await writeFile(join(dir, 'empty.yml'), '');
    await writeFile(join(dir, 'large.yml'), 'x'.repeat(5000));
    expect(await readBounded(join(dir, 'small.yml'))).toBe(multiByte);
    expect(await readBounded(join(dir, 'empty.yml'))).toBe('');
    expect(await readBounded(join(dir, 'large.yml'), 4097)).toBe('x'.repeat(4097));
    expect(await readBounded(join(dir, 'large.yml'), 5000)).toBe('x'.repeat(5000));
  });
});
