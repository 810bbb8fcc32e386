import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { NO_TIMEOUT, cleanup, tempDir } from './support.js';

/*
 * The published package: `npm pack` (scripts skipped: the suite's global setup already built dist/, and a
 * rebuild would race the other CLI tests), installed from the tarball into an empty project with no
 * network, and run with `npx chainbreaker scan .` there.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

afterAll(cleanup);

describe('npm pack', () => {
  it('ships only what runs, installs in an empty directory and scans with npx', () => {
    const out = tempDir();
    const packed = JSON.parse(execFileSync(npm, ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: ROOT, encoding: 'utf8' })) as {
      filename: string;
      files: { path: string }[];
    }[];
    const paths = packed[0]?.files.map((f) => f.path) ?? [];
    expect(paths).toContain('dist/chainbreaker.js');
    expect(paths).toContain('dist/action.js');
    expect(paths).toContain('dist/rules/missing-timeout.md');
    expect(paths).toContain('LICENSE');
    expect(paths).toContain('README.md');
    expect(paths).toContain('package.json');
    // Nothing else: no sources, tests, examples or scripts.
    expect(paths.filter((p) => !/^(dist\/|LICENSE$|README\.md$|package\.json$)/.test(p))).toEqual([]);

    const app = join(out, 'app');
    mkdirSync(join(app, '.github/workflows'), { recursive: true });
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "private": true }\n');
    writeFileSync(join(app, '.github/workflows/ci.yml'), NO_TIMEOUT);
    const install = spawnSync(npm, ['install', '--offline', '--no-audit', '--no-fund', join(out, packed[0]?.filename ?? '')], { cwd: app, encoding: 'utf8', timeout: 120_000 });
    expect(install.status, install.stderr).toBe(0);
    // The package has no runtime dependency: only itself is installed.
    expect(readdirSync(join(app, 'node_modules')).filter((n) => !n.startsWith('.'))).toEqual(['chainbreaker']);
    const scan = spawnSync(npm, ['exec', '--offline', '--', 'chainbreaker', 'scan', '.', '--format', 'json', '--fail-on', 'low'], { cwd: app, encoding: 'utf8', timeout: 60_000 });
    expect(scan.status, scan.stderr).toBe(1);
    expect((JSON.parse(scan.stdout) as { findings: { rule_id: string }[] }).findings.map((f) => f.rule_id)).toContain('missing-timeout');
  }, 180_000);
});
