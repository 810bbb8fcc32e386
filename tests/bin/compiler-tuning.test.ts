import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SCAN_V8_FLAGS, tunesCompiler } from '../../lib/cli/compiler-tuning.js';

describe('the CLI scan’s compiler settings', () => {
  it('apply to the V8 they were measured on (Node 20’s V8 11) only', () => {
    expect(tunesCompiler('11.3.244.8-node.33')).toBe(true);
    expect(tunesCompiler('12.4.254.21-node.33')).toBe(false);
    expect(tunesCompiler('13.6.233.10-node.24')).toBe(false);
    expect(tunesCompiler('10.2.154.26-node.36')).toBe(false);
  });

  // An unknown flag is not an error: V8 prints "unrecognized flag" on standard error, where a scan's user sees it.
  it.skipIf(!tunesCompiler(process.versions.v8))('names flags this V8 knows, with values it accepts', () => {
    const options = spawnSync(process.execPath, ['--v8-options'], { encoding: 'utf8' }).stdout;
    for (const flag of SCAN_V8_FLAGS) expect(options, flag).toContain(`--${flag.slice(2, flag.indexOf('='))} `);
    for (const flag of SCAN_V8_FLAGS) {
      const set = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)}); process.stdout.write('ok')`], { encoding: 'utf8' });
      expect(set.stderr, flag).toBe('');
      expect(set.stdout).toBe('ok');
    }
    const unknown = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString('--no-such-flag-here=1')`], { encoding: 'utf8' });
    expect(unknown.stderr).toContain('unrecognized flag');
  });
});
