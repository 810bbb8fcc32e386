import { describe, expect, it } from 'vitest';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'invalid-workflow';

describe(RULE, () => {
  it('reports a YAML syntax error at its position', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: [ubuntu-latest
    `);
    expect(findings.map((f) => f.rule_id)).toEqual([RULE]);
    expect(findings[0]?.line).toBeGreaterThanOrEqual(4);
    expect(findings[0]?.description).toMatch(/YAML syntax error/);
  });

  it('reports duplicate keys, which GitHub rejects', () => {
    const findings = scanWith(RULE, 'on: push\non: pull_request\njobs: {}\n');
    expect(positions(findings)).toEqual(['2:1 INFO']);
  });

  it('reports a document that is not a mapping', () => {
    expect(positions(scanWith(RULE, '- just\n- a list\n'))).toEqual(['1:1 INFO']);
    expect(scanWith(RULE, '')[0]?.description).toMatch(/empty/);
  });

  it('reports a workflow with no events in `on:` (GitHub rejects it), and nothing in its jobs', () => {
    const workflow = (on: string) => `name: Pre-release\n${on}\npermissions:\n  contents: write\njobs:\n  release:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: actions/checkout@v3\n      - uses: actions/setup-go@v5\n      - uses: goreleaser/goreleaser-action@v6\n        with:\n          args: release\n`;
    for (const on of ['# on:\n#   push:\n#     tags: [v*]', 'on:']) {
      const all = scanRepository([{ path: '.github/workflows/pre-release.yml', text: workflow(on) }]).findings;
      expect(all.map((f) => f.rule_id), on).toEqual([RULE]);
      expect(all[0]?.description).toContain('no events in `on:`, so GitHub rejects it and never runs its jobs');
    }
    // With its trigger, the same jobs are scanned.
    const live = scanRepository([{ path: '.github/workflows/pre-release.yml', text: workflow('on:\n  push:\n    tags: [v*]') }]).findings;
    expect(live.map((f) => f.rule_id)).not.toContain(RULE);
    expect(live.map((f) => f.rule_id)).toContain('cache-poisoning');
  });

  it('reports a file over the size limit without parsing it', () => {
    const big = `on: push\n#${'x'.repeat(1024 * 1024)}\n`;
    const findings = scanWith(RULE, big);
    expect(positions(findings)).toEqual(['1:1 INFO']);
    expect(findings[0]?.description).toMatch(/larger than/);
  });

  it('bounds alias expansion bombs', () => {
    const levels = ['a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 9; i++) levels.push(`${'abcdefghij'[i]}: &${'abcdefghij'[i]} [${Array(10).fill(`*${'abcdefghij'[i - 1]}`).join(',')}]`);
    const findings = scanWith(RULE, `${levels.join('\n')}\non: push\n`);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.description).toMatch(/aliases expand/);
  });

  it('reports pathological nesting', () => {
    const deep = `on: push\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n`;
    const findings = scanWith(RULE, deep);
    expect(findings).toHaveLength(1);
    expect(findings[0]?.description).toMatch(/nest/);
  });

  it('applies to actions and Dependabot files too', () => {
    const findings = scanWith(RULE, [
      { path: 'action.yml', text: 'name: [\n' },
      { path: '.github/dependabot.yml', text: '42\n' },
    ]);
    expect(findings.map((f) => `${f.file}:${f.line}:${f.column}`)).toEqual(['.github/dependabot.yml:1:1', 'action.yml:2:1']);
  });

  it('stays quiet on valid files, including ones using anchors', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a: &job
          runs-on: ubuntu-latest
          steps: [{ run: echo hi }]
        b: *job
    `);
    expect(findings).toEqual([]);
  });
});

describe(`${RULE} for files the code host could not deliver whole`, () => {
  it('reports the reason instead of analysing partial text', () => {
    const findings = scanWith(RULE, [{ path: '.github/workflows/big.yml', text: 'on: push\njobs:\n  a:\n', unreadable: 'the code host returned a truncated blob (2 MiB)' }]);
    expect(positions(findings)).toEqual(['1:1 INFO']);
    expect(findings[0]?.description).toMatch(/truncated blob/);
  });
});
