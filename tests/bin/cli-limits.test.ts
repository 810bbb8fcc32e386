// The CLI's scan limits (higher defaults than the service's, a flag each) and its refusal to follow
// symbolic links out of a checkout (a warning on stderr and an unreadable-file finding, never the target).

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import type { Finding } from '../../lib/engine/types.js';
import { CLEAN, cleanup, tempDir } from './support.js';

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main({
    argv,
    stdout: { write: (text: string) => (stdout += text), isTTY: false },
    stderr: { write: (text: string) => (stderr += text) },
    env: {},
    cwd: process.cwd(),
  });
  return { code, stdout, stderr };
}
const findings = (stdout: string) => (JSON.parse(stdout) as { findings: Finding[] }).findings;

afterAll(cleanup);

describe('chainbreaker scan limits', () => {
  it('scans up to --max-files and says what it skipped', async () => {
    const files = Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`.github/workflows/w${i}.yml`, CLEAN]));
    const dir = tempDir(files);
    const limited = await run(['scan', dir, '--format', 'json', '--fail-on', 'none', '--max-files', '2']);
    expect(limited.code).toBe(EXIT.ok);
    const limit = findings(limited.stdout).filter((f) => f.rule_id === 'scan-limit-reached');
    expect(limit).toHaveLength(1);
    expect(limit[0]?.description).toContain('at most 2 files are scanned: 3 files not scanned');
    // The default (2,000 files) is not reached.
    const full = await run(['scan', dir, '--format', 'json', '--fail-on', 'none']);
    expect(findings(full.stdout).some((f) => f.rule_id === 'scan-limit-reached')).toBe(false);
    // --max-findings bounds the report: here to the limit finding alone.
    const noisy = tempDir({ '.github/workflows/ci.yml': 'on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v4\n' });
    expect(findings((await run(['scan', noisy, '--format', 'json', '--fail-on', 'none'])).stdout).length).toBeGreaterThan(1);
    const few = await run(['scan', noisy, '--format', 'json', '--fail-on', 'none', '--max-findings', '1']);
    expect(findings(few.stdout).map((f) => f.rule_id)).toEqual(['scan-limit-reached']);
  });

  it.each(['0', 'abc', '1.5', ''])('refuses --max-files %j with a usage error', async (value) => {
    const result = await run(['scan', tempDir({}), '--max-files', value]);
    expect(result.code).toBe(EXIT.usage);
    expect(result.stderr).toContain('--max-files must be a positive whole number');
  });
});

describe('chainbreaker scan and symbolic links', () => {
  it('never follows a link out of the checkout: a warning, and the file reported unreadable', async () => {
    const outside = tempDir({ 'secret.yml': 'on: push\n# outside-secret\njobs: {}\n' });
    const dir = tempDir({ '.github/workflows/ci.yml': CLEAN });
    symlinkSync(join(outside, 'secret.yml'), join(dir, '.github/workflows/evil.yml'));
    mkdirSync(join(dir, 'x'));
    writeFileSync(join(dir, 'x/readme'), '');
    symlinkSync(outside, join(dir, '.github/actions'));
    const result = await run(['scan', dir, '--format', 'json', '--fail-on', 'none']);
    expect(result.stdout).not.toContain('outside-secret');
    expect(result.stderr).toContain('.github/workflows/evil.yml: it is a symbolic link that leads outside the repository checkout');
    expect(result.stderr).toContain('.github/actions: it is a symbolic link that leads outside');
    expect(findings(result.stdout).find((f) => f.file === '.github/workflows/evil.yml')?.rule_id).toBe('invalid-workflow');
  });
});
