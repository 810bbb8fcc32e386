import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { DEFAULT_POOL_V8_FLAGS, DEFAULT_V8_FLAGS, POOL_V8_FLAGS, SCAN_V8_FLAGS, tunesCompiler } from '../../lib/cli/compiler-tuning.js';

/** A flag's name without its value or `no-`: `--regexp-tier-up` of `--no-regexp-tier-up`. */
const flagName = (flag: string) => flag.replace(/=.*$/, '').replace(/^--no-/, '--');

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
    for (const flag of [...SCAN_V8_FLAGS, ...POOL_V8_FLAGS]) expect(options, flag).toContain(`${flagName(flag)} (`);
    // The defaults put back after a scan, and after a scan's pool of threads, are V8's own.
    for (const flag of [...DEFAULT_V8_FLAGS, ...DEFAULT_POOL_V8_FLAGS]) expect(options, flag).toContain(`default: ${flag}\n`);
    for (const flag of [...SCAN_V8_FLAGS, ...POOL_V8_FLAGS]) {
      const set = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString(${JSON.stringify(flag)}); process.stdout.write('ok')`], { encoding: 'utf8' });
      expect(set.stderr, flag).toBe('');
      expect(set.stdout).toBe('ok');
    }
    const unknown = spawnSync(process.execPath, ['-e', `require('node:v8').setFlagsFromString('--no-such-flag-here=1')`], { encoding: 'utf8' });
    expect(unknown.stderr).toContain('unrecognized flag');
  });

  it('have defaults for the same flags', () => {
    expect(DEFAULT_V8_FLAGS.map(flagName)).toEqual(SCAN_V8_FLAGS.map(flagName));
    expect(DEFAULT_POOL_V8_FLAGS.map(flagName)).toEqual(POOL_V8_FLAGS.map(flagName));
    // The pool's flags are not the scan's: they are set and put back on their own.
    expect(POOL_V8_FLAGS.map(flagName).filter((name) => SCAN_V8_FLAGS.map(flagName).includes(name))).toEqual([]);
  });

  // V8 uses a code cache only under the flags it was made with: Node's caches of its built-in modules and the CLI's
  // (lib/cli/code-cache.ts) are made under V8's defaults, hence the flags are set after loading and put back before
  // a cache is written (bin/chainbreaker.ts).
  it.skipIf(!tunesCompiler(process.versions.v8))('make V8 refuse a code cache made without them, and the defaults put back make it usable again', () => {
    const program = `
      const { setFlagsFromString } = require('node:v8');
      const { Script } = require('node:vm');
      const source = 'function f(a) { return a + 1; } f(1);';
      let n = 0;
      // A new file name each time: V8 would otherwise answer from what it compiled before, without the cache.
      const load = (cachedData) => new Script(source, { filename: 'x' + n++ + '.js', cachedData });
      const data = load().createCachedData();
      const states = [load(data).cachedDataRejected];
      for (const flag of ${JSON.stringify(SCAN_V8_FLAGS)}) setFlagsFromString(flag);
      states.push(load(data).cachedDataRejected);
      for (const flag of ${JSON.stringify(DEFAULT_V8_FLAGS)}) setFlagsFromString(flag);
      states.push(load(data).cachedDataRejected);
      process.stdout.write(JSON.stringify(states));`;
    const result = spawnSync(process.execPath, ['-e', program], { encoding: 'utf8' });
    expect(result.stderr).toBe('');
    expect(JSON.parse(result.stdout)).toEqual([false, true, false]);
  });
});
