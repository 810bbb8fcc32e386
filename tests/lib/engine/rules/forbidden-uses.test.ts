import { describe, expect, it } from 'vitest';
import { compileUsesPattern } from '../../../../lib/engine/rules/forbidden-uses.js';
import { parseUses } from '../../../../lib/engine/model/uses.js';
import { RuleOptionsError } from '../../../../lib/engine/rule-options.js';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'forbidden-uses';
const SHA = '08eba0b27e820071cde6df949e0beb9ba4906955';

const workflow = yaml`
  on: push
  jobs:
    build:
      runs-on: ubuntu-latest
      steps:
        - uses: actions/checkout@${SHA}
        - uses: github/codeql-action/init@v3
        - uses: Some-Vendor/deploy-action@v1
        - uses: docker://alpine:3.20
        - uses: ./.github/actions/local
        - uses: $/.github/actions/self
        - run: echo hi
    call:
      uses: my-org/workflows/.github/workflows/release.yml@main
`;

const policy = (options: unknown) => ({ ruleOptions: { [RULE]: options } });

describe(RULE, () => {
  it('forbids nothing without a policy', () => {
    expect(scanWith(RULE, workflow)).toEqual([]);
    expect(scanWith(RULE, workflow, policy({}))).toEqual([]);
    expect(scanWith(RULE, workflow, policy({ deny: [] }))).toEqual([]);
  });

  it('deny-list: reports the uses a pattern matches, at the uses scalar, MEDIUM', () => {
    const findings = scanWith(RULE, workflow, policy({ deny: ['some-vendor', 'docker://*'] }));
    expect(positions(findings)).toEqual(['8:15 MEDIUM', '9:15 MEDIUM']);
    expect(findings[0]?.description).toContain('matches `some-vendor` on the team\'s deny-list');
    expect(findings[1]?.description).toContain('`docker://alpine:3.20`');
  });

  it('allow-list: reports every uses no pattern allows, never the repository\'s own actions', () => {
    const findings = scanWith(RULE, workflow, policy({ allow: ['actions/*', 'github/codeql-action'] }));
    expect(findings.map((f) => f.line)).toEqual([8, 9, 14]);
    expect(findings[2]?.description).toContain('not on the team\'s allow-list');
  });

  it('an empty allow-list forbids every action but local ones', () => {
    expect(scanWith(RULE, workflow, policy({ allow: [] })).map((f) => f.line)).toEqual([6, 7, 8, 9, 14]);
  });

  it('checks the steps of composite actions', () => {
    const files = [
      { path: '.github/actions/setup/action.yml', text: yaml`
        name: setup
        runs:
          using: composite
          steps:
            - uses: some-vendor/thing@v1
            - uses: actions/cache@v4
      ` },
    ];
    expect(scanWith(RULE, files, policy({ deny: ['some-vendor/*'] })).map((f) => `${f.file}:${f.line}`)).toEqual(['.github/actions/setup/action.yml:5']);
  });

  it('honours a suppression comment', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://alpine:3.20 # chainbreaker: ignore[forbidden-uses]
    `, policy({ deny: ['docker://*'] }))).toEqual([]);
  });

  it('rejects options its schema does not take (callers validate first)', () => {
    expect(() => scanWith(RULE, workflow, policy({ allow: ['a'], deny: ['b'] }))).toThrow(RuleOptionsError);
    expect(() => scanWith(RULE, workflow, policy({ deny: ['not a pattern'] }))).toThrow(/forbidden-uses: options\.deny\.0/);
  });
});

describe('uses patterns', () => {
  const matches = (pattern: string, uses: string) => compileUsesPattern(pattern).matches(parseUses(uses));

  it('an owner, owner/*, and ** cover everything of the owner; * stays within one segment', () => {
    expect(matches('actions', 'actions/checkout@v4')).toBe(true);
    expect(matches('actions/*', 'actions/checkout@v4')).toBe(true);
    expect(matches('actions/*', 'actions/cache/save@v4')).toBe(true);
    expect(matches('actions/*', 'actions-evil/checkout@v4')).toBe(false);
    expect(matches('actions', 'actionsx/checkout@v4')).toBe(false);
    expect(matches('*/setup-*', 'acme/setup-node@v1')).toBe(true);
    expect(matches('*/setup-*', 'acme/tools/setup-node@v1')).toBe(false);
    expect(matches('**/setup-node', 'acme/tools/setup-node@v1')).toBe(true);
  });

  it('a repository covers its sub-paths; a path is exact up to its own sub-paths', () => {
    expect(matches('github/codeql-action', 'github/codeql-action/init@v3')).toBe(true);
    expect(matches('github/codeql-action/init', 'github/codeql-action/analyze@v3')).toBe(false);
    expect(matches('github/codeql-action/init', 'GitHub/CodeQL-Action/init@v3')).toBe(true);
    expect(matches('github/codeql-action', 'github/codeql-action-fork@v3')).toBe(false);
  });

  it('@ref narrows to matching refs, compared as written', () => {
    expect(matches('actions/checkout@v4', 'actions/checkout@v4')).toBe(true);
    expect(matches('actions/checkout@v4', 'actions/checkout@v4.1.0')).toBe(false);
    expect(matches('actions/checkout@v4*', 'actions/checkout@v4.1.0')).toBe(true);
    expect(matches('actions/checkout@main', 'actions/checkout@MAIN')).toBe(false);
  });

  it('docker patterns match images only, with every tag and digest under a name', () => {
    expect(matches('docker://*', 'docker://ghcr.io/acme/tool:1')).toBe(true);
    expect(matches('docker://alpine', 'docker://alpine:3.20')).toBe(true);
    expect(matches('docker://alpine', 'docker://alpine@sha256:abc')).toBe(true);
    expect(matches('docker://alpine', 'docker://alpinex:1')).toBe(false);
    expect(matches('docker://*', 'actions/checkout@v4')).toBe(false);
    expect(matches('*', 'docker://alpine:3.20')).toBe(false);
    expect(matches('*', './local')).toBe(false);
  });

  it('pattern text is not a regular expression', () => {
    expect(matches('a.c/x', 'abc/x@v1')).toBe(false);
    expect(matches('a.c/x', 'a.c/x@v1')).toBe(true);
  });

  it('matches in steps linear in the name: many stars against a long hostile name do not backtrack', () => {
    // As a regular expression this pattern took over a minute on this name (catastrophic backtracking).
    const name = `${'a'.repeat(100)}/${'a'.repeat(100)}`;
    expect(matches('a*a*a*a*a*a*a*a*a*b', `${name}@v1`)).toBe(false);
    expect(matches('a*a*a*a*a*a*a*a*a*', `${name}@v1`)).toBe(true);
    expect(matches('**a*a*a*a*a*a*a*a*b@*', `${name}b@v1`)).toBe(true);
    expect(matches('docker://a*a*a*a*a*a*a*a*b', `docker://${'a'.repeat(300)}`)).toBe(false);
  });
});
