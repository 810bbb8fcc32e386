// The CLI's time limit stops work for real (issue 29): the bundle runs `scan` (and the GitHub Action each of its
// runs) in a worker thread; each repository's scan and each checkout's fixes announce their budget, and the
// main thread terminates the worker when one runs GRACE_MS past it (bin/worker-run.ts), exit code 3.

import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import { GRACE_MS, runInWorker } from '../../bin/worker-run.js';
import { CLEAN, cleanup, NO_TIMEOUT, tempDir } from './support.js';

afterAll(cleanup);

function entry(body: string): URL {
  const dir = tempDir();
  const path = join(dir, 'entry.mjs');
  writeFileSync(path, `import { parentPort } from 'node:worker_threads';\n${body}\n`);
  return pathToFileURL(path);
}

async function runEntry(url: URL) {
  let stdout = '';
  let stderr = '';
  const started = Date.now();
  const code = await runInWorker(url, [], { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } });
  return { code, stdout, stderr, ms: Date.now() - started };
}

describe('runInWorker: the CLI watchdog', () => {
  it('terminates a worker whose announced work runs past its budget, with exit code 3', async () => {
    const spinning = entry("parentPort.postMessage({ stdout: 'begun\\n' });\nparentPort.postMessage({ watch: 200 });\nfor (;;) {}");
    const { code, stdout, stderr, ms } = await runEntry(spinning);
    expect(code).toBe(EXIT.operational);
    expect(stdout).toBe('begun\n');
    expect(stderr).toContain('past its time limit of 200 ms (--max-engine-ms)');
    // Without the watchdog it would never return; with it, at the budget plus the grace (and a busy machine's slack).
    expect(ms).toBeGreaterThanOrEqual(200 + GRACE_MS - 50);
    expect(ms).toBeLessThan(200 + GRACE_MS + 15_000);
  });

  it('lets work that ends within its budget finish, with its own exit code', async () => {
    const quick = entry("parentPort.postMessage({ watch: 200 });\nparentPort.postMessage({ watch: null });\nsetTimeout(() => parentPort.postMessage({ exit: 1 }), 2500);");
    const { code, stderr } = await runEntry(quick);
    expect(code).toBe(1);
    expect(stderr).toBe('');
  });
});

describe('the CLI announces its bounded work', () => {
  async function watched(argv: string[]) {
    const calls: (number | null)[] = [];
    const code = await main({ argv, stdout: { write: () => true }, stderr: { write: () => true }, env: {}, cwd: process.cwd(), watch: (ms) => calls.push(ms) });
    return { code, calls };
  }

  it('each repository scan starts with --max-engine-ms and ends with null', async () => {
    const a = tempDir({ '.github/workflows/ci.yml': CLEAN });
    const b = tempDir({ '.github/workflows/ci.yml': CLEAN });
    const { calls } = await watched(['scan', a, b, '--fail-on', 'none', '--max-engine-ms', '5000']);
    expect(calls).toEqual([5000, null, 5000, null]);
  });

  it('the fixes of a checkout are announced too (the network wait for pins is not)', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': NO_TIMEOUT });
    const { code, calls } = await watched(['scan', dir, '--fix=diff', '--max-engine-ms', '7000']);
    expect(code).toBe(EXIT.ok);
    expect(calls).toEqual([7000, null, 7000, null]);
  });
});
