// `scan --jobs N` (and `baseline`): several repositories scanned on a pool of worker threads (bin/scan-pool.ts), read
// and merged in order by the thread that runs the CLI (bin/cli.ts, readScan). The report must be the one a single
// thread writes, whatever finishes first; a repository past --max-engine-ms, or a thread that dies, fails the command
// (exit 3, one line, nothing reported).

import { spawnSync } from 'node:child_process';
import { readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main, type CliIO, type ScanPool } from '../../bin/cli.js';
import { startScanPool } from '../../bin/scan-pool.js';
import { GRACE_MS, workerFailure } from '../../bin/worker-run.js';
import { scanForReport, type RepositoryReport } from '../../lib/engine/report.js';
import { cleanup, tempDir } from './support.js';

afterAll(cleanup);

type PoolFactory = NonNullable<CliIO['scanPool']>;

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'chainbreaker.js');
const GOLDEN = join(ROOT, 'tests', 'fixtures', 'golden', 'err');
const golden = (name: string) => readFileSync(join(GOLDEN, name), 'utf8');

/**
 * Repositories with findings and attack paths (the golden attacks), a repository read from a checkout directory of
 * the fixtures, a single workflow file (reported under its own path), and a checkout with nothing to scan (a warning).
 */
function repositories(): string[] {
  return [
    tempDir({ '.github/workflows/a.yml': golden('pwn-request.yml'), '.github/workflows/b.yml': golden('supply-chain.yml') }),
    join(GOLDEN, 'injection-composite-input'),
    tempDir({ '.github/workflows/ci.yml': golden('secrets-exposure.yml'), '.github/workflows/s.yml': golden('suppressions.yml') }),
    join(tempDir({ 'release.yml': golden('release-cache.yml') }), 'release.yml'),
    tempDir({ 'README.md': 'nothing to scan\n' }),
    tempDir({ '.github/workflows/x.yml': golden('artifact-poisoning.yml') }),
    join(GOLDEN, 'dependabot'),
    tempDir({ '.github/workflows/y.yml': golden('github-script-injection.yml'), '.github/workflows/z.yml': golden('runner-hardening.yml') }),
  ];
}

async function run(argv: string[], scanPool?: PoolFactory) {
  let stdout = '';
  let stderr = '';
  const started = Date.now();
  const code = await main({
    argv,
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: ROOT,
    ...(scanPool === undefined ? {} : { scanPool }),
  });
  return { code, stdout, stderr, ms: Date.now() - started };
}

function runBundle(args: string[], cwd = ROOT, extraEnv: Record<string, string> = {}) {
  const env: Record<string, string | undefined> = { ...process.env, COLUMNS: '100', ...extraEnv };
  delete env.FORCE_COLOR;
  delete env.NO_COLOR;
  const result = spawnSync(process.execPath, [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 120_000 });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A pool worker entry of the test's own (in the pool protocol: `ready`, then a reply per repository). */
function entry(body: string): URL {
  const path = join(tempDir(), 'pool-entry.mjs');
  writeFileSync(path, `import { parentPort } from 'node:worker_threads';\nparentPort.postMessage({ ready: true });\n${body}\n`);
  return pathToFileURL(path);
}

describe('scan --jobs: the same report from one thread and from a pool (the bundle)', () => {
  const repos = repositories();

  it.each(['json', 'sarif', 'text'])('--format %s: byte-identical with --jobs 1, --jobs 2, --jobs 5 and the default', (format) => {
    const args = ['scan', ...repos, '--format', format, '--fail-on', 'medium'];
    const one = runBundle([...args, '--jobs', '1']);
    expect(one.code, one.stderr).toBe(EXIT.findings);
    expect(one.stdout.length).toBeGreaterThan(1000);
    // The warning about the checkout with nothing to scan, in its place.
    expect(one.stderr).toContain(`no workflow, action or Dependabot file found in ${repos[4]}`);
    for (const jobs of [['--jobs', '2'], ['--jobs', '5'], []]) {
      const many = runBundle([...args, ...jobs]);
      expect({ code: many.code, stderr: many.stderr }, jobs.join(' ')).toEqual({ code: one.code, stderr: one.stderr });
      // Not toEqual on the whole text: a difference is shown where it starts.
      expect(many.stdout === one.stdout, `${format} ${jobs.join(' ') || 'default'} differs from --jobs 1`).toBe(true);
    }
    if (format === 'json') {
      const report = JSON.parse(one.stdout) as { findings: { file: string }[]; combinations: unknown[] };
      expect(report.combinations.length).toBeGreaterThan(0);
      // Repositories in the order given: the first finding is the first repository's, the last the last's.
      expect(report.findings[0]?.file.startsWith(repos[0]!)).toBe(true);
      expect(report.findings.at(-1)?.file.startsWith(repos.at(-1)!)).toBe(true);
      expect(report.findings.some((f) => f.file === repos[3])).toBe(true);
    }
  });

  it('baseline writes the same file with --jobs 1 and --jobs 3', () => {
    const [first, second] = [tempDir(), tempDir()];
    const one = runBundle(['baseline', ...repos, '--jobs', '1', '-o', 'baseline.json'], first);
    const three = runBundle(['baseline', ...repos, '--jobs', '3', '-o', 'baseline.json'], second);
    expect(one.code, one.stderr).toBe(EXIT.ok);
    expect(three.code, three.stderr).toBe(EXIT.ok);
    expect(three.stderr).toBe(one.stderr);
    expect(readFileSync(join(second, 'baseline.json'), 'utf8')).toBe(readFileSync(join(first, 'baseline.json'), 'utf8'));
    expect(one.stderr).toMatch(/recorded [1-9]\d* findings/);
  });

  it('the threads of a pool write their code cache; the scanning thread writes none when a pool scanned', () => {
    const cache = tempDir();
    const env = { XDG_CACHE_HOME: cache, GITHUB_ACTIONS: '', CHAINBREAKER_NO_CACHE: '' };
    const dir = join(cache, 'chainbreaker', 'code-cache');
    const files = () => readdirSync(dir).filter((f) => f.endsWith('.bin')).sort();
    expect(runBundle(['scan', repos[0]!, repos[1]!, '--jobs', '2', '--fail-on', 'none'], ROOT, env).code).toBe(EXIT.ok);
    // The scanning thread ran none of the engine: a cache of its own would leave the engine out of later scans.
    expect(files().map((f) => f.replace(/-[0-9a-f]+\.bin$/, ''))).toEqual(['scan-pool']);
    const written = statSync(join(dir, files()[0]!)).mtimeMs;
    // Read back (accepted), not written again.
    expect(runBundle(['scan', repos[2]!, repos[5]!, '--jobs', '2', '--fail-on', 'none'], ROOT, env).code).toBe(EXIT.ok);
    expect(statSync(join(dir, files()[0]!)).mtimeMs).toBe(written);
    // A scan in one thread writes the scan's cache.
    expect(runBundle(['scan', repos[0]!, '--fail-on', 'none'], ROOT, env).code).toBe(EXIT.ok);
    expect(files().map((f) => f.replace(/-[0-9a-f]+\.bin$/, ''))).toEqual(['scan', 'scan-pool']);
  });

  it('with --settings: the snapshots go to the threads with their repositories', () => {
    const weak = join(ROOT, 'tests', 'fixtures', 'settings', 'weak.json');
    const args = ['scan', repos[0]!, repos[1]!, '--settings', weak, '--settings', weak, '--format', 'json', '--fail-on', 'none'];
    const one = runBundle([...args, '--jobs', '1']);
    const two = runBundle([...args, '--jobs', '2']);
    expect(one.code, one.stderr).toBe(EXIT.ok);
    expect((JSON.parse(one.stdout) as { findings: { file: string }[] }).findings.filter((f) => f.file.endsWith('<repository settings>')).length).toBeGreaterThan(0);
    expect({ code: two.code, stderr: two.stderr }).toEqual({ code: one.code, stderr: one.stderr });
    expect(two.stdout === one.stdout).toBe(true);
  });

  it('a repository that cannot be read still fails the command with exit 3', () => {
    const result = runBundle(['scan', repos[0]!, repos[1]!, join(tempDir(), 'missing'), repos[2]!, '--jobs', '2', '--format', 'json']);
    expect(result.code).toBe(EXIT.operational);
    expect(result.stdout).toBe('');
    expect(result.stderr).toMatch(/^chainbreaker: cannot read .*missing: no such file or directory\n$/);
  });
});

describe('the pool of the bundle in-process: the worker threads scan, the CLI merges', () => {
  it('scans every repository on the pool of threads, and the report is the one of a single thread', async () => {
    const repos = repositories();
    const argv = ['scan', ...repos, '--format', 'json', '--fail-on', 'none'];
    const sizes: number[] = [];
    let scanned = 0;
    const pooled = await run(argv.concat('--jobs', '3'), (settings) => {
      sizes.push(settings.size);
      const pool = startScanPool(pathToFileURL(BIN), settings);
      return { ...pool, scan: (repository) => (scanned++, pool.scan(repository)) };
    });
    const single = await run(argv);
    expect(pooled.code).toBe(EXIT.ok);
    expect(sizes).toEqual([3]);
    // The checkout with nothing to scan is scanned too (it may hold no file, it is still a repository).
    expect(scanned).toBe(repos.length);
    expect(pooled.stderr).toBe(single.stderr);
    expect(pooled.stdout === single.stdout).toBe(true);
  });
});

describe('the order of the report is the order of the repositories', () => {
  /** A pool in this thread whose first repositories take longest: parts come back in reverse order. */
  function reversingPool(log: { finished: string[]; maxInFlight: number; terminated: boolean }): PoolFactory {
    return ({ options }): ScanPool => {
      let inFlight = 0;
      let submitted = 0;
      return {
        scan(repository) {
          const delay = Math.max(0, 60 - 10 * submitted++);
          inFlight++;
          log.maxInFlight = Math.max(log.maxInFlight, inFlight);
          return new Promise<RepositoryReport>((resolve) => {
            setTimeout(() => {
              inFlight--;
              log.finished.push(repository.name);
              resolve(scanForReport(repository, options));
            }, delay);
          });
        },
        close: async () => undefined,
        terminate: async () => {
          log.terminated = true;
        },
      };
    };
  }

  it('merges in input order when later repositories finish first, with at most two per thread in flight', async () => {
    const repos = repositories();
    const argv = ['scan', ...repos, '--format', 'json', '--fail-on', 'none', '--jobs', '2'];
    const log = { finished: [] as string[], maxInFlight: 0, terminated: false };
    const pooled = await run(argv, reversingPool(log));
    const single = await run(argv.slice(0, -2));
    // Later repositories did finish first...
    expect(log.finished.indexOf(repos[1]!)).toBeLessThan(log.finished.indexOf(repos[0]!));
    // ...and the report is still the single thread's, repositories in their order.
    expect(pooled.code).toBe(EXIT.ok);
    expect(pooled.stdout === single.stdout).toBe(true);
    expect(pooled.stderr).toBe(single.stderr);
    // Read ahead at most 2 x 2 repositories.
    expect(log.maxInFlight).toBeGreaterThan(1);
    expect(log.maxInFlight).toBeLessThanOrEqual(4);
    expect(log.terminated).toBe(false);
  });

  it('no pool for one repository or --jobs 1, and never more threads than repositories', async () => {
    const repos = repositories();
    const sizes: number[] = [];
    const log = { finished: [] as string[], maxInFlight: 0, terminated: false };
    const pool = reversingPool(log);
    const counting: PoolFactory = (settings) => {
      sizes.push(settings.size);
      return pool(settings);
    };
    await run(['scan', repos[0]!, '--jobs', '4', '--fail-on', 'none'], counting);
    await run(['scan', ...repos, '--jobs', '1', '--fail-on', 'none'], counting);
    expect(sizes).toEqual([]);
    await run(['scan', repos[0]!, repos[1]!, repos[2]!, '--jobs', '16', '--fail-on', 'none'], counting);
    expect(sizes).toEqual([3]);
  });

  it('a repository that cannot be read stops the pool at once', async () => {
    const repos = repositories();
    const log = { finished: [] as string[], maxInFlight: 0, terminated: false };
    const result = await run(['scan', repos[0]!, repos[1]!, join(tempDir(), 'missing'), '--jobs', '2', '--format', 'json'], reversingPool(log));
    expect(result.code).toBe(EXIT.operational);
    expect(result.stdout).toBe('');
    expect(log.terminated).toBe(true);
  });
});

describe('the pool fails the command: a repository past its budget, a thread that dies', () => {
  it('terminates a thread still scanning GRACE_MS past --max-engine-ms: exit 3, the watchdog message, nothing reported', async () => {
    const spinning = entry("parentPort.on('message', (m) => { if ('scan' in m) for (;;) {} else process.exit(0); });");
    const repos = repositories();
    const result = await run(['scan', repos[0]!, repos[1]!, repos[2]!, '--max-engine-ms', '200', '--format', 'json'], (settings) => startScanPool(spinning, settings));
    expect(result.code).toBe(EXIT.operational);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(`chainbreaker: stopped: the scan ran ${200 + GRACE_MS} ms, past its time limit of 200 ms (--max-engine-ms); nothing was reported\n`);
    expect(result.ms).toBeGreaterThanOrEqual(200 + GRACE_MS - 50);
    expect(result.ms).toBeLessThan(200 + GRACE_MS + 15_000);
  });

  it('a thread that exits or throws fails the command with one line, exit 3', async () => {
    const repos = repositories();
    const exiting = entry("parentPort.on('message', () => process.exit(7));");
    const exited = await run(['scan', repos[0]!, repos[1]!, '--format', 'json'], (settings) => startScanPool(exiting, settings));
    expect(exited).toMatchObject({ code: EXIT.operational, stdout: '', stderr: 'chainbreaker: a scanning thread stopped unexpectedly (exit code 7)\n' });
    const throwing = entry("parentPort.on('message', () => { throw new Error('engine broke'); });");
    const thrown = await run(['scan', repos[0]!, repos[1]!, '--format', 'json'], (settings) => startScanPool(throwing, settings));
    expect(thrown).toMatchObject({ code: EXIT.operational, stdout: '', stderr: 'chainbreaker: engine broke\n' });
    const failing = entry("parentPort.on('message', (m) => parentPort.postMessage({ failed: m.scan, message: 'cannot scan' }));");
    const failed = await run(['scan', repos[0]!, repos[1]!, '--format', 'json'], (settings) => startScanPool(failing, settings));
    expect(failed).toMatchObject({ code: EXIT.operational, stdout: '', stderr: 'chainbreaker: cannot scan\n' });
  });

  it('says a thread out of memory ran out of memory', () => {
    const error = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), { code: 'ERR_WORKER_OUT_OF_MEMORY' });
    expect(workerFailure(error)).toBe('the scan ran out of memory (scan fewer repositories at once, or lower --max-bytes)');
    expect(workerFailure(new Error('boom'))).toBe('boom');
  });
});

describe('--jobs values', () => {
  it.each([['0'], ['x'], ['1.5'], ['']])('refuses --jobs %j with a one-line usage error', async (value) => {
    for (const command of ['scan', 'baseline']) {
      const result = await run([command, tempDir(), '--jobs', value]);
      expect(result.code).toBe(EXIT.usage);
      expect(result.stderr).toBe(`chainbreaker: --jobs must be a positive whole number (got "${value}"); run "chainbreaker --help" for usage\n`);
    }
  });

  it('refuses more than 16 scanning threads: each is an isolate of its own', async () => {
    const result = await run(['scan', tempDir(), '--jobs', '17']);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toBe('chainbreaker: --jobs: at most 16 scanning threads (got 17); run "chainbreaker --help" for usage\n');
  });

  it('refuses --jobs -1 in one line too', async () => {
    const result = await run(['scan', tempDir(), '--jobs', '-1']);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr.split('\n')).toHaveLength(2);
    expect(result.stderr).toContain('--jobs is followed by an option, not a value');
  });

  it('is documented in scan --help', async () => {
    const help = await run(['scan', '--help']);
    expect(help.stdout).toMatch(/--jobs N +scan up to N repositories at once/);
  });
});
