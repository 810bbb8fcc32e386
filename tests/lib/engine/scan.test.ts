import { describe, expect, it } from 'vitest';
import { findingFingerprint, nodeAnchor } from '../../../lib/engine/fingerprint.js';
import { inertActionPath, scanRepository } from '../../../lib/engine/scan.js';
import type { RepositoryFile } from '../../../lib/engine/types.js';
import type { WorkflowRuleContext } from '../../../lib/engine/rule.js';
import { resolveRuleOptions } from '../../../lib/engine/rule-options.js';
import { WORKFLOW_VISITORS } from '../../../lib/engine/rules/index.js';

const ONLY_UNPINNED = { isEnabled: (id: string) => id === 'unpinned-action' };

function workflow(steps: number): string {
  return ['on: push', 'permissions: {}', 'jobs:', '  build:', '    runs-on: ubuntu-latest', '    steps:', ...Array.from({ length: steps }, () => '      - uses: some-org/some-action@v1')].join('\n') + '\n';
}

describe('the collector (scanRepository): occurrences and duplicates', () => {
  it('numbers findings of one identity within their file, from 0 again in the next file', () => {
    const files: RepositoryFile[] = [
      { path: '.github/workflows/a.yml', text: workflow(2) },
      { path: '.github/workflows/b.yml', text: workflow(1) },
    ];
    const { records } = scanRepository(files, ONLY_UNPINNED);
    expect(records.map((r) => [r.finding.file, r.finding.line])).toEqual([
      ['.github/workflows/a.yml', 7],
      ['.github/workflows/a.yml', 8],
      ['.github/workflows/b.yml', 7],
    ]);
    const text = files[0]!.text;
    const start = text.indexOf('some-org/some-action@v1');
    const anchor = nodeAnchor(text, start, start + 'some-org/some-action@v1'.length);
    expect(records.map((r) => r.fingerprint)).toEqual([
      findingFingerprint('unpinned-action', '.github/workflows/a.yml', 'build', anchor, 0),
      findingFingerprint('unpinned-action', '.github/workflows/a.yml', 'build', anchor, 1),
      findingFingerprint('unpinned-action', '.github/workflows/b.yml', 'build', anchor, 0),
    ]);
  });

  it('keeps one finding per position and rule, and counts only what it keeps', () => {
    // The same file listed twice: every finding is reported twice at the same place.
    const text = workflow(2);
    const once = scanRepository([{ path: '.github/workflows/a.yml', text }], ONLY_UNPINNED);
    const twice = scanRepository(
      [
        { path: '.github/workflows/a.yml', text },
        { path: '.github/workflows/a.yml', text },
      ],
      ONLY_UNPINNED,
    );
    expect(once.findings).toHaveLength(2);
    expect(twice.findings).toEqual(once.findings);
    expect(twice.records.map((r) => r.fingerprint)).toEqual(once.records.map((r) => r.fingerprint));
    expect(twice.counts).toEqual(once.counts);
  });
});

describe('rule options across scans (defaults are kept per rule list)', () => {
  const files: RepositoryFile[] = [{ path: '.github/workflows/a.yml', text: workflow(1) }];
  const forbidden = (options: Parameters<typeof scanRepository>[1]) => scanRepository(files, options).findings.filter((f) => f.rule_id === 'forbidden-uses').length;

  it('applies the options a scan gives, and the defaults again in the next scan without them', () => {
    const deny = { ruleOptions: { 'forbidden-uses': { deny: ['some-org/*'] } } };
    expect(forbidden(deny)).toBe(1);
    expect(forbidden({})).toBe(0);
    expect(forbidden(deny)).toBe(1);
    expect(forbidden({})).toBe(0);
  });

  it('rejects invalid options even after scans without options', () => {
    expect(forbidden({})).toBe(0);
    expect(() => forbidden({ ruleOptions: { 'forbidden-uses': { deny: 'some-org/*' } } })).toThrow(/forbidden-uses/);
  });
});

describe('rule visitors (the walk reads their hooks from their own enumerable keys)', () => {
  const HOOKS = ['invalidFile', 'workflow', 'job', 'step', 'action', 'dependabot', 'done'] as const;
  const context = (id: string) =>
    ({ repository: null, owner: null, taint: null, runs: null, options: resolveRuleOptions(id, undefined), report: () => undefined }) as unknown as WorkflowRuleContext;

  it('every rule makes an object literal whose hooks are functions it enumerates', () => {
    for (const rule of WORKFLOW_VISITORS) {
      const visitor = rule.create(context(rule.meta.id));
      expect(Object.getPrototypeOf(visitor), rule.meta.id).toBe(Object.prototype);
      const keys: string[] = [];
      for (const key in visitor) keys.push(key);
      const hooks = HOOKS.filter((h) => visitor[h] !== undefined);
      for (const hook of hooks) {
        expect(keys, `${rule.meta.id}.${hook}`).toContain(hook);
        expect(typeof visitor[hook], `${rule.meta.id}.${hook}`).toBe('function');
      }
    }
  });

});

describe('action files of vendored code and test fixtures', () => {
  const action = 'name: x\ninputs:\n  name: { required: true }\nruns:\n  using: composite\n  steps:\n    - shell: bash\n      run: echo "${{ inputs.name }}"\n';
  const caller = (path: string) => ({ path: '.github/workflows/ci.yml', text: `on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - uses: ./${path}\n        with:\n          name: \${{ github.event.head_commit.message }}\n` });
  const filesOf = (result: ReturnType<typeof scanRepository>) => [...new Set(result.findings.map((f) => f.file))];

  it('are not scanned when nothing in the repository calls them (a nested .github, vendor, testdata, fixtures)', () => {
    const paths = ['lib/wamr-2.4/.github/actions/install/action.yml', 'vendor/tool/action.yml', 'pkg/runner/testdata/composite/action.yml', 'test/__fixtures__/a/action.yml'];
    expect(inertActionPath('lib/wamr-2.4/.github/actions/install')).toBe(true);
    expect(filesOf(scanRepository(paths.map((path) => ({ path, text: action }))))).toEqual([]);
  });

  it('negative: the root .github, a published action in a subdirectory, and a called fixture are scanned', () => {
    expect(inertActionPath('.github/actions/setup')).toBe(false);
    expect(inertActionPath('tools/format')).toBe(false);
    const own = scanRepository([{ path: '.github/actions/setup/action.yml', text: action }, { path: 'tools/format/action.yml', text: action }]);
    expect(filesOf(own)).toEqual(['.github/actions/setup/action.yml', 'tools/format/action.yml']);
    const called = scanRepository([{ path: 'pkg/runner/testdata/composite/action.yml', text: action }, caller('pkg/runner/testdata/composite')]);
    expect(filesOf(called)).toContain('pkg/runner/testdata/composite/action.yml');
  });
});
