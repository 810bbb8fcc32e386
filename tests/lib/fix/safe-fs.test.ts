// `scan --fix` never follows a link out of (or within) the checkout (issue 29 item 7): `.chainbreaker` or its
// pins.json as a symbolic link is refused for reading and writing, a fixed workflow reached through a link is
// not written (and nothing is, when one is refused), reads are bounded, writes replace the file by rename.
// Real symbolic links in temporary directories.

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { EXIT, main } from '../../../bin/cli.js';
import { emptyLock, LOCK_PATH, readLock, writeLock } from '../../../lib/fix/pins.js';
import { readInside, RefusedPath, writeInside } from '../../../lib/fix/safe-fs.js';

const roots: string[] = [];
function temp(): string {
  const dir = mkdtempSync(join(tmpdir(), 'chainbreaker-safe-fs-'));
  roots.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of roots) rmSync(dir, { recursive: true, force: true });
});

const LOCK = `${JSON.stringify({ version: 1, actions: {}, images: {} })}\n`;
/** A workflow `--fix` changes (missing-timeout gets `timeout-minutes`). */
const FIXABLE = 'on: push\npermissions:\n  contents: read\njobs:\n  build:\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';

async function fix(dir: string) {
  let stderr = '';
  const code = await main({ argv: ['scan', dir, '--fix=unsafe', '--fail-on', 'none'], stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, env: {}, cwd: process.cwd() });
  return { code, stderr };
}

describe('the pins lock (.chainbreaker/pins.json)', () => {
  it('is read and written when it is a plain file in a plain directory, replaced whole', async () => {
    const root = temp();
    await writeLock(root, { actions: new Map([['actions/checkout@v4', { sha: 'a'.repeat(40), version: 'v4.2.2' }]]), images: new Map() } as never);
    expect(statSync(join(root, '.chainbreaker')).isDirectory()).toBe(true);
    expect((await readLock(root)).actions.size).toBe(1);
    await writeLock(root, emptyLock());
    expect((await readLock(root)).actions.size).toBe(0);
    // No temporary file is left behind.
    expect(readdirSync(join(root, '.chainbreaker'))).toEqual(['pins.json']);
  });

  it('refuses a .chainbreaker that is a symbolic link, for reading and for writing, and writes nothing through it', async () => {
    const root = temp();
    const outside = temp();
    writeFileSync(join(outside, 'pins.json'), LOCK);
    symlinkSync(outside, join(root, '.chainbreaker'));
    await expect(readLock(root)).rejects.toThrow(/\.chainbreaker is a symbolic link/);
    await expect(writeLock(root, emptyLock())).rejects.toThrow(/symbolic link/);
    expect(readFileSync(join(outside, 'pins.json'), 'utf8')).toBe(LOCK);
    expect(readdirSync(outside)).toEqual(['pins.json']);
  });

  it('refuses a pins.json that is a symbolic link, even to a file inside the checkout', async () => {
    const root = temp();
    mkdirSync(join(root, '.chainbreaker'));
    writeFileSync(join(root, 'elsewhere.json'), LOCK);
    symlinkSync(join(root, 'elsewhere.json'), join(root, LOCK_PATH));
    await expect(readLock(root)).rejects.toThrow(/pins\.json is a symbolic link/);
    await expect(writeLock(root, emptyLock())).rejects.toThrow(/pins\.json is a symbolic link/);
    expect(readFileSync(join(root, 'elsewhere.json'), 'utf8')).toBe(LOCK);
  });

  it('reads at most its bound', async () => {
    const root = temp();
    mkdirSync(join(root, '.chainbreaker'));
    writeFileSync(join(root, LOCK_PATH), ' '.repeat(1_000_001));
    await expect(readLock(root)).rejects.toThrow(/larger than 1000000 bytes/);
  });
});

describe('readInside and writeInside', () => {
  it('refuse .. and absolute-looking paths, and a directory on the way that is a link', async () => {
    const root = temp();
    const outside = temp();
    await expect(writeInside(root, '../x', 'x')).rejects.toBeInstanceOf(RefusedPath);
    await expect(writeInside(root, '/etc/x', 'x')).rejects.toBeInstanceOf(RefusedPath);
    symlinkSync(outside, join(root, 'linked'));
    await expect(writeInside(root, 'linked/x', 'x', true)).rejects.toThrow(/linked is a symbolic link/);
    await expect(readInside(root, 'linked/x', 10)).rejects.toThrow(/symbolic link/);
    expect(readdirSync(outside)).toEqual([]);
    expect(await readInside(root, 'missing/x', 10)).toBeNull();
  });
});

describe('scan --fix', () => {
  it('fixes a workflow that is a plain file', async () => {
    const root = temp();
    mkdirSync(join(root, '.github/workflows'), { recursive: true });
    writeFileSync(join(root, '.github/workflows/ci.yml'), FIXABLE);
    const { code } = await fix(root);
    expect(code).toBe(EXIT.ok);
    expect(readFileSync(join(root, '.github/workflows/ci.yml'), 'utf8')).toContain('timeout-minutes');
    expect(readdirSync(join(root, '.github/workflows'))).toEqual(['ci.yml']);
  });

  it('does not write a workflow reached through a symbolic link (nor any other file), and says why', async () => {
    const root = temp();
    mkdirSync(join(root, 'real'), { recursive: true });
    mkdirSync(join(root, '.github/workflows'), { recursive: true });
    writeFileSync(join(root, 'real/ci.yml'), FIXABLE);
    writeFileSync(join(root, '.github/workflows/plain.yml'), FIXABLE);
    symlinkSync(join(root, 'real/ci.yml'), join(root, '.github/workflows/ci.yml'));
    const { code, stderr } = await fix(root);
    expect(code).toBe(EXIT.operational);
    expect(stderr).toContain('.github/workflows/ci.yml is a symbolic link');
    expect(readFileSync(join(root, 'real/ci.yml'), 'utf8')).toBe(FIXABLE);
    expect(readFileSync(join(root, '.github/workflows/plain.yml'), 'utf8')).toBe(FIXABLE);
  });

  it('refuses a checkout whose .chainbreaker links outside it', async () => {
    const root = temp();
    const outside = temp();
    writeFileSync(join(outside, 'pins.json'), LOCK);
    mkdirSync(join(root, '.github/workflows'), { recursive: true });
    writeFileSync(join(root, '.github/workflows/ci.yml'), FIXABLE);
    symlinkSync(outside, join(root, '.chainbreaker'));
    const { code, stderr } = await fix(root);
    expect(code).toBe(EXIT.operational);
    expect(stderr).toContain('.chainbreaker is a symbolic link');
    expect(readFileSync(join(outside, 'pins.json'), 'utf8')).toBe(LOCK);
  });
});
