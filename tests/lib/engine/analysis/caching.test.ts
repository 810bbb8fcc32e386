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

  it('restoreKeyLines: the restore keys with literal text, none for a line that is one expression or another action', () => {
    const [cache, node] = uses(['actions/cache@v4', 'path: dist\nkey: a-${{ github.sha }}\nrestore-keys: |\n  a-${{ runner.os }}-\n  ${{ inputs.prefix }}\n  a-'], ['actions/setup-node@v4', 'cache: npm']);
    expect(restoreKeyLines(cache as CacheUse)).toEqual(['a-${{ runner.os }}-', 'a-']);
    expect(restoreKeyLines(node as CacheUse)).toEqual([]);
  });
});
