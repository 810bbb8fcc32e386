/**
 * `npm run pack:release [-- --out DIR]`: the tarball that is published to npm and attached to the GitHub
 * release. It builds dist/ (scripts/build-cli.ts), then packs dist/, LICENSE, README.md and a package.json
 * made for users: no scripts (the checkout's `prepare` needs the development tools, which a user of the
 * package does not have and does not need), no devDependencies, no install-time settings. Prints the
 * tarball's path.
 *
 * tests/bin/pack.test.ts installs this tarball in an empty directory, offline, and runs it with the machine's
 * Node 20; the release workflow (.github/workflows/release.yml) publishes it with `npm publish <tarball>`.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** The manifest users get: package.json without what only a checkout of the repository uses. */
export function releaseManifest(pkg: Record<string, unknown>): Record<string, unknown> {
  const { scripts: _scripts, devDependencies: _dev, allowScripts: _allow, ...rest } = pkg;
  return rest;
}

/** Builds and packs the release tarball into `out`; returns its absolute path. */
export function packRelease(out: string, options: { build?: boolean } = {}): string {
  if (options.build !== false) execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'scripts/build-cli.ts')], { cwd: ROOT, stdio: ['ignore', 2, 2] }); // its log on stderr: stdout is the tarball's path
  const stage = mkdtempSync(join(tmpdir(), 'chainbreaker-pack-'));
  try {
    const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    writeFileSync(join(stage, 'package.json'), `${JSON.stringify(releaseManifest(pkg), null, 2)}\n`);
    for (const entry of ['dist', 'LICENSE', 'README.md']) cpSync(join(ROOT, entry), join(stage, entry), { recursive: true });
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', out], { cwd: stage, encoding: 'utf8' })) as { filename: string }[];
    const filename = packed[0]?.filename;
    if (filename === undefined) throw new Error('npm pack wrote no tarball');
    return join(out, filename);
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { out: { type: 'string' }, 'no-build': { type: 'boolean' } } });
  console.log(packRelease(resolve(values.out ?? '.'), { build: values['no-build'] !== true }));
}
