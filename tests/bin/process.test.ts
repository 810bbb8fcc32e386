import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { compileCacheDirectory } from '../../lib/cli/compile-cache.js';
import { skipReason } from '../support/skips.js';
import { NO_TIMEOUT, cleanup, only, tempDir } from './support.js';

/*
 * The CLI as a whole process (issue 15): the compile cache of the bundle, the scanning thread's output
 * relayed by the main thread, exit codes. The built bundle (dist/, built by the suite's global setup) in a
 * child process with the Node that runs the tests. The compile cache exists from Node 22.1
 * (module.enableCompileCache): on an older Node, the cache tests are skipped with that reason (CI's Node 24
 * leg runs them) and the CLI is checked to write no cache and run the same.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'chainbreaker.js');

function environment(extra: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  delete env.FORCE_COLOR;
  delete env.NODE_COMPILE_CACHE;
  delete env.NODE_DISABLE_COMPILE_CACHE;
  // In a GitHub Actions job the caches are off (lib/cli/cache-dir.ts): these tests set the environment they test.
  delete env.GITHUB_ACTIONS;
  delete env.CHAINBREAKER_NO_CACHE;
  for (const [key, value] of Object.entries(extra)) {
    if (value === undefined) delete env[key];
    else env[key] = value;
  }
  return env;
}

function run(args: string[], options: { cwd?: string; env?: Record<string, string | undefined> } = {}) {
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd: options.cwd ?? ROOT, encoding: 'utf8', env: environment(options.env ?? {}), timeout: 60_000, maxBuffer: 1 << 28 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Every path under `root`, relative to it, sorted. */
function listing(root: string): string[] {
  const paths: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      paths.push(relative(root, join(dir, entry.name)));
      if (entry.isDirectory()) walk(join(dir, entry.name));
    }
  };
  walk(root);
  return paths.sort();
}

/** A workflow whose `run` interpolates an issue title: script-injection (HIGH), so the default gate fails. */
const INJECTION = `on: issues
permissions:
  contents: write
jobs:
  triage:
    runs-on: ubuntu-latest
    timeout-minutes: 5
    steps:
      - run: echo "\${{ github.event.issue.title }}"
`;

/** `count` workflows, each with two jobs missing a timeout: a report of well over a pipe's buffer. */
function manyWorkflows(count: number): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < count; i++) files[`.github/workflows/w${i}.yml`] = `${NO_TIMEOUT}  other:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make ${i}\n`;
  return files;
}

afterAll(cleanup);

describe('compileCacheDirectory', () => {
  it('is under XDG_CACHE_HOME, else under ~/.cache', () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: '/var/cache/me', HOME: '/home/me' })).toBe(join('/var/cache/me', 'chainbreaker', 'compile-cache'));
    expect(compileCacheDirectory({ HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'compile-cache'));
    expect(compileCacheDirectory({ XDG_CACHE_HOME: '  ', HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'compile-cache'));
  });

  it('never resolves a relative directory against the working directory (often the scanned repository)', () => {
    expect(compileCacheDirectory({ XDG_CACHE_HOME: 'cache', HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'compile-cache'));
    expect(compileCacheDirectory({ XDG_CACHE_HOME: './cache', HOME: 'home' })).toBeNull();
    expect(compileCacheDirectory({ HOME: '' })).toBeNull();
    expect(compileCacheDirectory({})).toBeNull();
  });

  it('is none with NODE_DISABLE_COMPILE_CACHE set', () => {
    expect(compileCacheDirectory({ NODE_DISABLE_COMPILE_CACHE: '1', HOME: '/home/me' })).toBeNull();
    expect(compileCacheDirectory({ NODE_DISABLE_COMPILE_CACHE: '', HOME: '/home/me' })).toBe(join('/home/me', '.cache', 'chainbreaker', 'compile-cache'));
    expect(compileCacheDirectory({ CHAINBREAKER_NO_CACHE: '1', HOME: '/home/me' })).toBeNull();
  });
});

const NO_COMPILE_CACHE = 'enableCompileCache' in (await import('node:module')) ? null : `Node ${process.versions.node} has no compile cache (module.enableCompileCache, Node 22.1+)`;

describe.runIf(NO_COMPILE_CACHE !== null)(`without a compile cache (Node before 22.1)${skipReason(NO_COMPILE_CACHE === null ? `Node ${process.versions.node} has a compile cache: the tests below cover it` : null)}`, () => {
  it('writes no compile cache (only the code cache of the CLI body) and scans the same', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const cache = tempDir();
    const result = run(['scan', repo, '--format', 'json', '--fail-on', 'none'], { env: { XDG_CACHE_HOME: cache } });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(readdirSync(join(cache, 'chainbreaker'))).toEqual(['code-cache']);
    expect(run(['scan', repo, '--format', 'json', '--fail-on', 'none'], { env: { XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' } })).toEqual(result);
  });
});

describe.skipIf(NO_COMPILE_CACHE !== null)(`the compile cache${skipReason(NO_COMPILE_CACHE)}`, () => {
  it('is written to the user cache directory, never into the scanned repository, and changes no output', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const cache = tempDir();
    const before = listing(repo);
    const first = run(['scan', '.', '--format', 'json', '--fail-on', 'none'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(listing(repo)).toEqual(before);
    const written = listing(join(cache, 'chainbreaker', 'compile-cache'));
    expect(written.length).toBeGreaterThan(1); // the cache of each loaded chunk, under a directory per Node version
    // A second run reads the cache and reports the same.
    const second = run(['scan', '.', '--format', 'json', '--fail-on', 'none'], { cwd: repo, env: { XDG_CACHE_HOME: cache } });
    expect(second).toEqual(first);
    expect(listing(repo)).toEqual(before);
  });

  it('is not written where a relative XDG_CACHE_HOME points from the scanned repository', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const home = tempDir();
    const before = listing(repo);
    const result = run(['scan', '.', '--format', 'json', '--fail-on', 'none'], { cwd: repo, env: { XDG_CACHE_HOME: 'cache', HOME: home } });
    expect(result.code).toBe(0);
    expect(listing(repo)).toEqual(before);
    expect(existsSync(join(home, '.cache', 'chainbreaker', 'compile-cache'))).toBe(true);
  });

  it('is off with NODE_DISABLE_COMPILE_CACHE, and a cache that cannot be written is no error', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const cache = tempDir();
    const off = run(['scan', repo, '--format', 'json', '--fail-on', 'none'], { env: { XDG_CACHE_HOME: cache, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(off.code).toBe(0);
    expect(readdirSync(join(cache, 'chainbreaker'))).toEqual(['code-cache']);
    const none = tempDir();
    expect(run(['scan', repo, '--format', 'json', '--fail-on', 'none'], { env: { XDG_CACHE_HOME: none, CHAINBREAKER_NO_CACHE: '1' } })).toEqual(off);
    expect(readdirSync(none)).toEqual([]);
    // The cache directory's place is a file: nothing can be written there.
    const blocked = tempDir({ chainbreaker: 'not a directory' });
    const result = run(['scan', repo, '--format', 'json', '--fail-on', 'none'], { env: { XDG_CACHE_HOME: blocked } });
    expect(result).toEqual(off);
  });
});

describe('the code cache of the CLI body (dist/cli.cjs, every Node)', () => {
  const scan = (repo: string, env: Record<string, string | undefined>) => run(['scan', repo, '--format', 'json', '--fail-on', 'none'], { env });
  const files = (cache: string) => readdirSync(join(cache, 'chainbreaker', 'code-cache')).sort();

  it('is written by the first scan, reused unchanged by the next, with one cache for scans and one for other commands', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const cache = tempDir();
    const before = listing(repo);
    const first = scan(repo, { XDG_CACHE_HOME: cache });
    expect(first.code).toBe(0);
    expect(first.stderr).toBe('');
    expect(listing(repo)).toEqual(before);
    const written = files(cache);
    expect(written).toHaveLength(1);
    expect(written[0]).toMatch(/^scan-[0-9a-f]{32}\.bin$/);
    const file = join(cache, 'chainbreaker', 'code-cache', written[0] ?? '');
    const bytes = readFileSync(file);
    expect(bytes.length).toBeGreaterThan(100_000); // the bytecode of the functions the scan ran, not only the top level
    expect(scan(repo, { XDG_CACHE_HOME: cache })).toEqual(first);
    expect(readFileSync(file)).toEqual(bytes);
    expect(files(cache)).toEqual(written);
    const rules = run(['rules', '--format', 'json'], { env: { XDG_CACHE_HOME: cache } });
    expect(rules.code).toBe(0);
    expect(files(cache).filter((name) => name.startsWith('cli-'))).toHaveLength(1);
  });

  it('is replaced when corrupt or refused by V8, and the scan reports the same', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const cache = tempDir();
    const first = scan(repo, { XDG_CACHE_HOME: cache });
    const file = join(cache, 'chainbreaker', 'code-cache', files(cache)[0] ?? '');
    const good = readFileSync(file);
    const corrupt = Buffer.from(good);
    corrupt.fill(0, 40, 4096);
    writeFileSync(file, corrupt);
    expect(scan(repo, { XDG_CACHE_HOME: cache })).toEqual(first);
    const replaced = readFileSync(file);
    expect(replaced.equals(corrupt)).toBe(false);
    expect(replaced.subarray(0, 32)).toEqual(createHash('sha256').update(replaced.subarray(32)).digest());
    // Right digest, wrong data: V8 rejects it.
    const junk = Buffer.alloc(4096, 1);
    writeFileSync(file, Buffer.concat([createHash('sha256').update(junk).digest(), junk]));
    expect(scan(repo, { XDG_CACHE_HOME: cache })).toEqual(first);
    expect(readFileSync(file).length).toBeGreaterThan(100_000);
  });

  it('is no error where it cannot be written, and off with CHAINBREAKER_NO_CACHE=1', () => {
    const repo = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const off = tempDir();
    const result = scan(repo, { XDG_CACHE_HOME: off, CHAINBREAKER_NO_CACHE: '1' });
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(readdirSync(off)).toEqual([]);
    const blocked = tempDir({ chainbreaker: 'not a directory' });
    expect(scan(repo, { XDG_CACHE_HOME: blocked })).toEqual(result);
    expect(readFileSync(join(blocked, 'chainbreaker'), 'utf8')).toBe('not a directory');
  });
});

describe('output of the scanning thread', () => {
  it('writes a report larger than a pipe buffer completely to a pipe, the same as to --output', () => {
    const repo = tempDir(manyWorkflows(300));
    const piped = run(['scan', repo, '--format', 'json', '--fail-on', 'none', ...only('missing-timeout')]);
    expect(piped.code).toBe(0);
    expect(piped.stdout.length).toBeGreaterThan(3 * 64 * 1024); // a Linux pipe holds 64 KB
    const file = join(tempDir(), 'report.json');
    expect(run(['scan', repo, '--format', 'json', '--fail-on', 'none', '--output', file, ...only('missing-timeout')]).code).toBe(0);
    expect(piped.stdout).toBe(readFileSync(file, 'utf8'));
    expect((JSON.parse(piped.stdout) as { findings: unknown[] }).findings).toHaveLength(600);
  });

  it('keeps its exit code when standard output is closed early, without a crash', async () => {
    const repo = tempDir({ ...manyWorkflows(100), '.github/workflows/triage.yml': INJECTION });
    const child = spawn(process.execPath, [BIN, 'scan', repo, '--format', 'json'], { env: environment({}), stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader goes away before the report is written (`chainbreaker scan | head -c 0`).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((done) => child.on('close', (status) => done(status)));
    expect(stderr).toBe('');
    expect(code).toBe(1); // script-injection is HIGH: the default --fail-on high
  });

  it('relays standard error in order with the report, and the exit code of each outcome', () => {
    const suppressed = `${NO_TIMEOUT.replace('on: push', 'on: push # chainbreaker: ignore[missing-timeout]')}`;
    const repo = tempDir({ '.github/workflows/ci.yml': suppressed });
    const result = run(['scan', repo, '--format', 'json', '--fail-on', 'low', ...only('missing-timeout')]);
    expect(result.stderr).toBe('chainbreaker: .github/workflows/ci.yml:1: suppression comment ignore[missing-timeout] matched no finding\n');
    expect((JSON.parse(result.stdout) as { findings: { line: number }[] }).findings.map((f) => f.line)).toEqual([5]);
    expect(result.code).toBe(1);
    expect(run(['scan', repo, '--format', 'json', '--fail-on', 'none', ...only('missing-timeout')]).code).toBe(0);
    expect(run(['scan', repo, '--format', 'xml']).code).toBe(2);
    expect(run(['scan', join(repo, 'missing')]).code).toBe(3);
    const baseline = join(tempDir(), 'baseline.json');
    const recorded = run(['baseline', repo, '-o', baseline, ...only('missing-timeout')]);
    expect(recorded).toMatchObject({ code: 0, stdout: '' });
    expect(recorded.stderr).toContain('recorded 1 finding in');
  });
});
