import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { scanRepository } from '../../../lib/engine/scan.js';
import { SuppressionIndex, parseDirective } from '../../../lib/engine/suppress.js';
import { SourceFile } from '../../../lib/engine/yaml/source.js';

// The matcher this module replaced (a regular expression run per finding over its line and the line above),
// kept as the oracle: on ordinary comments the linear parser must agree with it.
const OLD_DIRECTIVE = /#\s*chainbreaker:\s*ignore(?:\[([^\]]*)\])?/i;
function oldDirective(line: string): Set<string> | 'all' | null {
  const match = OLD_DIRECTIVE.exec(line);
  if (match === null) return null;
  const list = match[1];
  if (list === undefined) return 'all';
  return new Set(list.split(',').map((id) => id.trim()).filter((id) => id !== ''));
}
function oldIsSuppressed(file: SourceFile, line: number, ruleId: string): boolean {
  if (line < 1) return false;
  const here = oldDirective(file.lineText(line));
  if (here === 'all' || here?.has(ruleId)) return true;
  if (line === 1) return false;
  const above = file.lineText(line - 1);
  if (!above.trimStart().startsWith('#')) return false;
  const previous = oldDirective(above);
  return previous === 'all' || previous?.has(ruleId) === true;
}

const RULES = ['missing-timeout', 'unpinned-action', 'script-injection'];

/** Lines made of the pieces ordinary comments are made of, so directives (and near misses) are common. */
const piece = fc.constantFrom(
  '#',
  '# ',
  'chainbreaker:',
  'ChainBreaker:',
  'chainbreaker',
  ' ignore',
  'ignore',
  'IGNORE',
  '[',
  ']',
  ',',
  ' ',
  '\t',
  '\r',
  'run: make',
  '  - uses: actions/checkout@v3',
  ...RULES,
);
const line = fc.array(piece, { maxLength: 12 }).map((parts) => parts.join(''));
const text = fc.array(line, { minLength: 1, maxLength: 8 }).map((lines) => lines.join('\n'));

describe('suppression comments', () => {
  it('the linear parser agrees with the old regular expression on ordinary comments (property)', () => {
    fc.assert(
      fc.property(text, fc.constantFrom(...RULES), (source, rule) => {
        const file = new SourceFile('.github/workflows/ci.yml', source);
        const index = new SuppressionIndex(file);
        const lines = source.split('\n').length;
        for (let n = 0; n <= lines + 1; n++) expect(index.match(n, rule)).toBe(oldIsSuppressed(file, n, rule));
      }),
      { numRuns: 2000 },
    );
  });

  it('parses one directive per line: the first, with its rule list', () => {
    expect(parseDirective('run: x # chainbreaker: ignore[a, b] # chainbreaker: ignore')).toEqual(['a', 'b']);
    expect(parseDirective('#chainbreaker:ignore')).toBe('all');
    expect(parseDirective('# chainbreaker: ignore[a')).toBe('all');
    expect(parseDirective('# chainbreaker: ignored')).toBe('all');
    expect(parseDirective('# chainbreaker ignore')).toBeNull();
    expect(parseDirective('plain text')).toBeNull();
  });

  it('matches a 1 MB hostile comment line above a thousand findings in linear time', () => {
    const hostile = `# ${'#   '.repeat(250_000)}`;
    const steps = Array.from({ length: 1000 }, (_, i) => `      - run: echo ${i}`).join('\n');
    const file = new SourceFile('.github/workflows/ci.yml', `${hostile}\n${steps}\n`);
    const index = new SuppressionIndex(file);
    let matched = 0;
    for (let line = 2; line < 1002; line++) if (index.match(line, 'missing-timeout')) matched++;
    expect(matched).toBe(0);
    expect(index.directives).toEqual([]);
  });

  it('a scan counts the findings it suppressed and reports unused and unknown directives', () => {
    const workflow = [
      'on: push',
      'permissions: {}',
      'jobs:',
      '  build: # chainbreaker: ignore[missing-timeout]',
      '    runs-on: ubuntu-latest',
      '    # chainbreaker: ignore[unpinned-action, misisng-timeout]',
      '    steps:',
      '      - run: make # chainbreaker: ignore',
      '',
    ].join('\n');
    const result = scanRepository([{ path: '.github/workflows/ci.yml', text: workflow }], { isEnabled: (id) => RULES.includes(id) });
    expect(result.findings.map((f) => f.rule_id)).not.toContain('missing-timeout');
    expect(result.suppressed).toBe(1);
    expect(result.unusedSuppressions).toEqual([
      { file: '.github/workflows/ci.yml', line: 6, rules: ['unpinned-action'] },
      { file: '.github/workflows/ci.yml', line: 8, rules: 'all' },
    ]);
    expect(result.unknownSuppressions).toEqual([{ file: '.github/workflows/ci.yml', line: 6, rules: ['misisng-timeout'] }]);
  });

  it('does not call a directive for a rule that did not run unused', () => {
    const workflow = 'on: push\njobs:\n  build: # chainbreaker: ignore[missing-timeout]\n    runs-on: ubuntu-latest\n    steps:\n      - run: make\n';
    const result = scanRepository([{ path: '.github/workflows/ci.yml', text: workflow }], { isEnabled: (id) => id === 'unpinned-action' });
    expect(result.unusedSuppressions).toEqual([]);
  });

  it('leaves a directive for an online-only rule to the online audits: unused only when they ran', () => {
    const workflow = [
      'on: push',
      'permissions: {}',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    timeout-minutes: 5',
      '    steps:',
      '      - uses: actions/checkout@c7d749a2d57b4b375d1ebcd17cfbfd60c676f18e # chainbreaker: ignore[impostor-commit]',
      '',
    ].join('\n');
    const files = [{ path: '.github/workflows/ci.yml', text: workflow }];
    expect(scanRepository(files, {}).unusedSuppressions).toEqual([]);
    expect(scanRepository(files, { online: true }).unusedSuppressions).toEqual([{ file: '.github/workflows/ci.yml', line: 8, rules: ['impostor-commit'] }]);
    // Likewise a live rule (snapshot offline, the Advisory Database or the archived flag online).
    const live = [{ path: '.github/workflows/ci.yml', text: workflow.replace('ignore[impostor-commit]', 'ignore[archived-action]') }];
    expect(scanRepository(live, {}).unusedSuppressions).toEqual([]);
    expect(scanRepository(live, { online: true }).unusedSuppressions).toEqual([{ file: '.github/workflows/ci.yml', line: 8, rules: ['archived-action'] }]);
  });
});
