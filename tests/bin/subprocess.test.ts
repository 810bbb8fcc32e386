import { spawnSync } from 'node:child_process';
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CATALOG } from '../../lib/engine/catalog.js';
import { NO_TIMEOUT, cleanup, only, tempDir } from './support.js';

/*
 * The installed command as a user runs it: the bundle `npm run build` writes (dist/chainbreaker.js, built
 * by the suite's global setup) in a real process, with the Node that runs the tests (CI runs them on Node 20,
 * the oldest the published CLI supports, and on production's Node) and with the machine's own `node` on PATH
 * when that is another one.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = join(ROOT, 'dist', 'chainbreaker.js');

function executable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The first `node` on PATH that is not a node_modules/.bin shim. */
function systemNode(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || dir.includes(`node_modules${sep}.bin`)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    if (executable(candidate)) return candidate;
  }
  return null;
}

function major(node: string): number {
  const result = spawnSync(node, ['--version'], { encoding: 'utf8' });
  return Number(/^v(\d+)/.exec(result.stdout)?.[1] ?? 0);
}

const machineNode = systemNode();
const runtimes: { name: string; node: string | null; skip: string | null }[] = [{ name: `the Node that runs the tests (${process.version})`, node: process.execPath, skip: null }];
if (machineNode !== null && realpathSync(machineNode) !== realpathSync(process.execPath)) {
  runtimes.push({ name: 'the system node', node: machineNode, skip: major(machineNode) < 20 ? `the system node is older than 20 (${machineNode})` : null });
}

afterAll(cleanup);

for (const runtime of runtimes) {
  describe.skipIf(runtime.skip !== null)(`dist/chainbreaker.js on ${runtime.name}${runtime.skip === null ? '' : ` (skipped: ${runtime.skip})`}`, () => {
    const run = (args: string[], cwd = ROOT) => {
      const env = { ...process.env };
      delete env.FORCE_COLOR;
      const result = spawnSync(runtime.node ?? 'node', [BIN, ...args], { cwd, encoding: 'utf8', env, timeout: 60_000 });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    };

    it('prints its version and lists the rules', () => {
      expect(run(['--version'])).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
      const rules = run(['rules', '--format', 'json']);
      expect(rules.code).toBe(0);
      expect((JSON.parse(rules.stdout) as { rules: unknown[] }).rules).toHaveLength(CATALOG.length);
    });

    it('exits 1 with JSON findings at or above --fail-on, 0 below it', () => {
      const repo = tempDir({ '.github/workflows/x.yml': NO_TIMEOUT });
      const failing = run(['scan', repo, '--format', 'json', '--fail-on', 'low', ...only('missing-timeout')]);
      expect(failing.stderr).toBe('');
      expect(failing.code).toBe(1);
      const report = JSON.parse(failing.stdout) as { findings: { file: string; line: number; rule_id: string }[]; counts: Record<string, number>; combinations: unknown[] };
      expect(report.findings.map((f) => `${f.file}:${f.line} ${f.rule_id}`)).toEqual(['.github/workflows/x.yml:5 missing-timeout']);
      expect(report.combinations).toEqual([]);
      expect(run(['scan', '.', '--fail-on', 'medium', ...only('missing-timeout')], repo).code).toBe(0);
    });

    it('exits 2 on a usage error and 3 on an unreadable path', () => {
      const usage = run(['scan', '--format', 'xml']);
      expect(usage.code).toBe(2);
      expect(usage.stderr).toContain('--format must be one of');
      const missing = run(['scan', join(tempDir(), 'nope')]);
      expect(missing.code).toBe(3);
      expect(missing.stderr).toContain('no such file or directory');
    });
  });
}
