import { describe, expect, it } from 'vitest';
import { cacheStep, restoreKeyLines, restoreReadsSave, type CacheUse } from '../../../../lib/engine/analysis/caching.js';
import { buildWorkflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';

/** The cache use of each step of a one-job workflow, each step given as `uses:` then its `with:` lines. */
function uses(...steps: [string, string][]): CacheUse[] {
  const text = [
    'on: push',
    'jobs:',
    '  build:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    ...steps.flatMap(([action, inputs]) => [`      - uses: ${action}`, '        with:', ...inputs.split('\n').map((l) => `          ${l}`)]),
    '',
  ].join('\n');
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  const workflow = buildWorkflow(new SourceFile('.github/workflows/build.yml', text), parsed.root);
  return (workflow.jobs[0]?.steps ?? []).map((s) => cacheStep(s) as CacheUse);
}

const reads = (restore: [string, string], save: [string, string]) => {
  const [r, s] = uses(restore, save);
  return restoreReadsSave(r as CacheUse, s as CacheUse);
};

describe('restoreReadsSave: whether a job writes, in the normal course, the entry a restore takes', () => {
  it('positive: the same setup action and package manager, an actions/cache key of the same shape or under a restore key', () => {
    expect(reads(['actions/setup-node@v4', 'cache: npm'], ['actions/setup-node@v4', 'cache: npm\ncache-dependency-path: app/package-lock.json'])).toBe(true);
    expect(reads(['actions/cache@v4', 'path: ~/.npm\nkey: ${{ runner.os }}-npm-${{ hashFiles(\'a\') }}'], ['actions/cache@v4', 'path: ~/.npm\nkey: ${{ runner.os }}-npm-${{ hashFiles(\'b\') }}'])).toBe(true);
    expect(reads(['actions/cache/restore@v4', 'path: dist\nkey: build-${{ github.sha }}\nrestore-keys: build-'], ['actions/cache/save@v4', 'path: dist\nkey: build-pr-${{ github.sha }}'])).toBe(true);
  });

  it('negative: another package manager or action, another key shape, another path, a key that is one expression, a save-less step', () => {
    expect(reads(['actions/setup-node@v4', 'cache: npm'], ['actions/setup-node@v4', 'cache: yarn'])).toBe(false);
    expect(reads(['actions/setup-node@v4', 'cache: npm'], ['actions/cache@v4', 'path: ~/.npm\nkey: npm-${{ hashFiles(\'a\') }}'])).toBe(false);
    expect(reads(['actions/cache@v4', 'path: ~/.npm\nkey: ${{ runner.os }}-npm-${{ hashFiles(\'a\') }}'], ['actions/cache@v4', 'path: ~/.npm\nkey: ${{ runner.os }}-pip-${{ hashFiles(\'a\') }}'])).toBe(false);
    expect(reads(['actions/cache@v4', 'path: dist\nkey: build-${{ github.sha }}'], ['actions/cache@v4', 'path: out\nkey: build-${{ github.sha }}'])).toBe(false);
    expect(reads(['actions/cache@v4', 'path: dist\nkey: ${{ steps.k.outputs.key }}'], ['actions/cache@v4', 'path: dist\nkey: ${{ steps.j.outputs.key }}'])).toBe(false);
    expect(reads(['actions/cache@v4', 'path: dist\nkey: build-${{ github.sha }}'], ['actions/cache/restore@v4', 'path: dist\nkey: build-${{ github.sha }}'])).toBe(false);
  });

  it("reads the tool's version in the keys of setup-go and setup-python: different literal minor versions never share an entry", () => {
    expect(reads(['actions/setup-go@v5', "go-version: '1.21'"], ['actions/setup-go@v5', 'go-version: 1.23'])).toBe(false);
    expect(reads(['actions/setup-python@v5', "python-version: '3.11'\ncache: pip"], ['actions/setup-python@v5', "python-version: '3.12'\ncache: pip"])).toBe(false);
    // Negative: the same minor (`1.21` and `1.21.x` install the same release line), a version not known (a file, a
    // matrix value, the runner's default), or an action whose key holds no version.
    expect(reads(['actions/setup-go@v5', "go-version: '1.21'"], ['actions/setup-go@v5', "go-version: '1.21.x'"])).toBe(true);
    expect(reads(['actions/setup-go@v5', 'go-version-file: go.mod'], ['actions/setup-go@v5', 'go-version: 1.23'])).toBe(true);
    expect(reads(['actions/setup-go@v5', 'go-version: ${{ matrix.go }}'], ['actions/setup-go@v5', 'go-version: 1.23'])).toBe(true);
    expect(reads(['actions/setup-go@v5', 'cache: true'], ['actions/setup-go@v5', 'go-version: 1.23'])).toBe(true);
    expect(reads(['actions/setup-node@v4', 'node-version: 18\ncache: npm'], ['actions/setup-node@v4', 'node-version: 20\ncache: npm'])).toBe(true);
  });

  describe('on the systems the two steps run on (runner.os per leg, null where not known)', () => {
    const on = (restore: [string, string], save: [string, string], r: (string | null)[], w: (string | null)[]) => {
      const [a, b] = uses(restore, save);
      return restoreReadsSave(a as CacheUse, b as CacheUse, { restore: r, save: w });
    };
    const npm: [string, string] = ['actions/setup-node@v4', 'cache: npm'];
    const cache = (key: string, extra = ''): [string, string] => ['actions/cache@v4', `path: ~/.npm\nkey: ${key}${extra}`];
    const plain = "npm-${{ hashFiles('a') }}";
    const named = "npm-${{ runner.os }}-${{ hashFiles('a') }}";
    const cross = '\nenableCrossOsArchive: true';

    it('positive: a setup action on a common system or one not known; actions/cache between Linux and macOS, or across Windows with enableCrossOsArchive on both', () => {
      expect(on(npm, npm, ['Linux'], ['Linux'])).toBe(true);
      expect(on(npm, npm, ['Linux'], ['Windows', 'Linux'])).toBe(true);
      expect(on(npm, npm, ['Linux'], [null])).toBe(true);
      expect(on(npm, npm, [null], ['Windows'])).toBe(true);
      expect(on(cache(plain), cache(plain), ['Linux'], ['macOS'])).toBe(true);
      expect(on(cache(plain, cross), cache(plain, cross), ['Linux'], ['Windows'])).toBe(true);
      expect(on(cache(named), cache(named), ['macOS'], ['macOS', 'Windows'])).toBe(true);
      // Under a restore key that does not name the system.
      expect(on(cache(named, '\nrestore-keys: npm-'), cache(named), ['Linux'], ['macOS'])).toBe(true);
      // BuildKit's cache is not known to depend on the system.
      expect(on(['docker/build-push-action@v6', 'cache-from: type=gha'], ['docker/build-push-action@v6', 'cache-to: type=gha'], ['Linux'], ['Windows'])).toBe(true);
    });

    it('negative: a setup action whose key names the system on another one; a Windows actions/cache entry without enableCrossOsArchive on both sides; a runner.os key on another system', () => {
      expect(on(npm, npm, ['Linux'], ['Windows'])).toBe(false);
      expect(on(npm, npm, ['Linux'], ['macOS'])).toBe(false);
      expect(on(['actions/setup-go@v5', ''], ['actions/setup-go@v5', ''], ['Linux'], ['Windows', 'macOS'])).toBe(false);
      expect(on(cache(plain), cache(plain), ['Linux'], ['Windows'])).toBe(false);
      expect(on(cache(plain, cross), cache(plain), ['Linux'], ['Windows'])).toBe(false);
      expect(on(cache(named), cache(named), ['Linux'], ['macOS'])).toBe(false);
      expect(on(cache(named, cross), cache(named, cross), ['Linux'], ['Windows'])).toBe(false);
      expect(on(cache(named, '\nrestore-keys: npm-${{ runner.os }}-'), cache(named), ['Linux'], ['macOS'])).toBe(false);
    });
  });

  it('restoreKeyLines: the restore keys with literal text, none for a line that is one expression or another action', () => {
    const [cache, node] = uses(['actions/cache@v4', 'path: dist\nkey: a-${{ github.sha }}\nrestore-keys: |\n  a-${{ runner.os }}-\n  ${{ inputs.prefix }}\n  a-'], ['actions/setup-node@v4', 'cache: npm']);
    expect(restoreKeyLines(cache as CacheUse)).toEqual(['a-${{ runner.os }}-', 'a-']);
    expect(restoreKeyLines(node as CacheUse)).toEqual([]);
  });
});

describe("jdx/mise-action's cache switches (its action.yml: `cache` reads and writes, `cache_save: false` only reads)", () => {
  it('saves by default and with `cache_save: true`; restores only with `cache_save: false`; nothing with `cache: false`', () => {
    const [plain, saving, readOnly, off] = uses(['jdx/mise-action@v3', 'install: true'], ['jdx/mise-action@v3', 'cache_save: true'], ['jdx/mise-action@v3', 'cache_save: false'], ['jdx/mise-action@v3', 'cache: false']);
    expect([plain?.restores, plain?.saves]).toEqual([true, true]);
    expect([saving?.restores, saving?.saves]).toEqual([true, true]);
    expect([readOnly?.restores, readOnly?.saves]).toEqual([true, false]);
    expect(off).toBeNull();
  });
});
