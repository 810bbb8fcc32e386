import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { packRelease } from '../../scripts/pack-release.js';
import { skipReason } from '../support/skips.js';
import { NO_TIMEOUT, cleanup, tempDir } from './support.js';

/*
 * The published package: the release tarball (scripts/pack-release.ts, what the release workflow publishes to
 * npm and attaches to the GitHub release; dist/ comes from the suite's global setup), installed from the
 * tarball into an empty project with no network, and run there with `npx chainbreaker` and with the machine's
 * own Node (20 here), the oldest the package supports. Installing from the Git repository, which builds the
 * bundle with the development tools (`prepare`), is scripts/test-git-install.sh, which CI runs.
 */

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

/** The first `node` on PATH that is not a node_modules/.bin shim (the machine's, not the project's Node 24). */
function systemNode(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || dir.includes(`node_modules${sep}.bin`)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}

afterAll(cleanup);

describe('the release tarball', () => {
  const out = tempDir();
  const tarball = packRelease(out, { build: false });
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n').filter((l) => l !== '');
  const manifest = JSON.parse(execFileSync('tar', ['-xzOf', tarball, 'package/package.json'], { encoding: 'utf8' })) as Record<string, unknown>;

  it('ships only what runs: the bundle, the rule docs, the licence, the README and a manifest for users', () => {
    const paths = listing.map((p) => p.replace(/^package\//, ''));
    expect(paths).toContain('dist/chainbreaker.js');
    expect(paths).toContain('dist/action.js');
    expect(paths).toContain('dist/rules/missing-timeout.md');
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('README.md');
    expect(paths).toContain('package.json');
    // Nothing else: no sources, tests, examples or scripts.
    expect(paths.filter((p) => !/^(dist\/|LICENSE$|README\.md$|package\.json$)/.test(p))).toEqual([]);
    // No script (the checkout's `prepare` needs the development tools), no devDependencies, no dependencies.
    expect(manifest.scripts).toBeUndefined();
    expect(manifest.devDependencies).toBeUndefined();
    expect(manifest.dependencies).toBeUndefined();
    expect(manifest.bin).toEqual({ chainbreaker: 'dist/chainbreaker.js' });
    // Where the code, the issues and the docs are: the links the CLI derives come from `repository`.
    expect(manifest.repository).toMatchObject({ type: 'git', url: expect.stringMatching(/^git\+https:\/\/github\.com\/[^/]+\/chainbreaker\.git$/) });
    expect(manifest.homepage).toEqual(expect.stringMatching(/^https:\/\/github\.com\//));
    expect(manifest.bugs).toMatchObject({ url: expect.stringMatching(/^https:\/\/github\.com\/.+\/issues$/) });
  });

  it('ships rule docs that link the repository files they name at the release tag, never a bare path', () => {
    const docs = listing.filter((p) => /^package\/dist\/rules\/.+\.md$/.test(p));
    expect(docs.length).toBeGreaterThan(80);
    const text = docs.map((p) => execFileSync('tar', ['-xzOf', tarball, p], { encoding: 'utf8' })).join('\n');
    expect(text.match(/(?<!\[)`(?:lib|bin|scripts)\/[\w./-]+`/g) ?? []).toEqual([]);
    const version = String(manifest.version);
    expect(text).toContain(`/blob/v${version}/lib/engine/data/installers.ts)`);
  });

  it('installs in an empty directory with no network and scans, with npx and with the machine’s Node', () => {
    const app = join(out, 'app');
    mkdirSync(join(app, '.github/workflows'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true }\n');
    writeFileSync(join(app, '.github/workflows/ci.yml'), NO_TIMEOUT);
    const install = spawnSync(npm, ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app, encoding: 'utf8', timeout: 120_000 });
    expect(install.status, install.stderr).toBe(0);
    // The package has no runtime dependency: only itself is installed.
    expect(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['chainbreaker']);
    const scan = spawnSync(npm, ['exec', '--offline', '--', 'chainbreaker', 'scan', '.', '--format', 'json', '--fail-on', 'low'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    expect(scan.status, scan.stderr).toBe(1);
    expect((JSON.parse(scan.stdout) as { findings: { rule_id: string }[] }).findings.map((f) => f.rule_id)).toContain('missing-timeout');

    const doc = spawnSync(npm, ['exec', '--offline', '--', 'chainbreaker', 'rules', 'missing-timeout'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    expect(doc.status, doc.stderr).toBe(0);
    expect(doc.stdout).toMatch(/^# missing-timeout/m);
  }, 180_000);

  const machine = systemNode();
  const machineSkip = machine === null ? 'no node on PATH outside node_modules/.bin' : null;
  it.skipIf(machineSkip !== null)(`runs on the machine’s own Node${skipReason(machineSkip)}`, () => {
    const app = join(out, 'app-machine');
    mkdirSync(join(app, '.github/workflows'), { recursive: true });
    writeFileSync(join(app, '.github/workflows/ci.yml'), NO_TIMEOUT);
    const install = spawnSync(npm, ['install', '--offline', '--no-audit', '--no-fund', '--no-save', tarball], { cwd: app, encoding: 'utf8', timeout: 120_000 });
    expect(install.status, install.stderr).toBe(0);
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env.FORCE_COLOR;
    const scan = spawnSync(machine ?? 'node', [join(app, 'node_modules/chainbreaker/dist/chainbreaker.js'), 'scan', '.', '--verbose'], { cwd: app, encoding: 'utf8', env, timeout: 60_000 });
    expect(scan.stderr).toBe('');
    expect(scan.status).toBe(0);
    expect(scan.stdout).toContain('Docs: chainbreaker rules missing-timeout');
  }, 180_000);
});
