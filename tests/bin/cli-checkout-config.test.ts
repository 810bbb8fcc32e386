// The config and the baseline a checkout brings are the repository's (issue 29 item 9): the config is read only
// as a regular file inside the checkout, through no link, bounded; a baseline it names must be a relative path
// inside the checkout (no absolute path, no ..), read the same way; an unknown key like no setting is not
// echoed (the file may not be a config at all). Real symbolic links in temporary directories.

import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../bin/cli.js';
import { CLEAN, cleanup, tempDir } from './support.js';

afterAll(cleanup);

async function run(argv: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await main({ argv, stdout: { write: (t: string) => (stdout += t), isTTY: false }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd: process.cwd() });
  return { code, stdout, stderr };
}

const SECRET = 'API_TOKEN: s3cr3t-do-not-print\n';

describe('a config found in the checkout', () => {
  it('is not read through a symbolic link (to .env, say), and nothing of the target is printed', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': CLEAN, '.env': SECRET });
    symlinkSync(join(dir, '.env'), join(dir, '.chainbreaker.yml'));
    const { code, stderr } = await run(['scan', dir]);
    expect(code).toBe(EXIT.operational);
    expect(stderr).toContain('.chainbreaker.yml is a symbolic link');
    expect(stderr).not.toContain('API_TOKEN');
    expect(stderr).not.toContain('s3cr3t');
  });

  it('is refused as a dangling symbolic link too (the scan looks for no config only when nothing is there)', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': CLEAN });
    symlinkSync(join(dir, 'nowhere.yml'), join(dir, '.chainbreaker.yml'));
    const { code, stderr } = await run(['scan', dir]);
    expect(code).toBe(EXIT.operational);
    expect(stderr).toContain('.chainbreaker.yml is a symbolic link');
  });

  it('is not needed: without one the scan runs with the defaults', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': CLEAN });
    const { code, stderr } = await run(['scan', dir]);
    expect(code).toBe(EXIT.ok);
    expect(stderr).toBe('');
  });

  it('does not echo an unknown key that is like no setting, and still suggests a near one', async () => {
    const odd = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': SECRET });
    const r = await run(['scan', odd]);
    expect(r.code).toBe(EXIT.usage);
    expect(r.stderr).toContain('an unknown key (not shown');
    expect(r.stderr).not.toContain('API_TOKEN');
    const typo = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': 'fail_on: none\n' });
    expect((await run(['scan', typo])).stderr).toContain('unknown key "fail_on" (did you mean "fail-on"?)');
  });

  it('is bounded', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': `# ${'x'.repeat(300 * 1024)}\n` });
    const { code, stderr } = await run(['scan', dir]);
    expect(code).toBe(EXIT.operational);
    expect(stderr).toContain('larger than 262144 bytes');
  });

  it('may name a baseline inside the checkout, not an absolute or .. path, nor one through a link', async () => {
    const inside = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': 'baseline: base/b.json\n', 'base/.keep': '' });
    expect((await run(['baseline', inside, '-o', join(inside, 'base/b.json')])).code).toBe(EXIT.ok);
    expect((await run(['scan', inside])).code).toBe(EXIT.ok);

    for (const named of ['/etc/passwd', '../outside.json', 'base/../../outside.json']) {
      const dir = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': `baseline: ${JSON.stringify(named)}\n` });
      const r = await run(['scan', dir]);
      expect(r.code, named).toBe(EXIT.usage);
      expect(r.stderr).toContain('may name only a path inside the checkout');
    }

    const outside = tempDir({ 'b.json': '{}' });
    const linked = tempDir({ '.github/workflows/ci.yml': CLEAN, '.chainbreaker.yml': 'baseline: base/b.json\n' });
    symlinkSync(outside, join(linked, 'base'));
    const r = await run(['scan', linked]);
    expect(r.code).toBe(EXIT.operational);
    expect(r.stderr).toContain('base is a symbolic link');
  });

  it('--baseline and --config, named by the user, are read where they point (bounded)', async () => {
    const dir = tempDir({ '.github/workflows/ci.yml': CLEAN });
    const elsewhere = tempDir();
    mkdirSync(join(elsewhere, 'cfg'));
    writeFileSync(join(elsewhere, 'cfg/c.yml'), 'fail-on: none\n');
    expect((await run(['baseline', dir, '-o', join(elsewhere, 'b.json')])).code).toBe(EXIT.ok);
    expect((await run(['scan', dir, '--config', join(elsewhere, 'cfg/c.yml'), '--baseline', join(elsewhere, 'b.json')])).code).toBe(EXIT.ok);
  });
});
