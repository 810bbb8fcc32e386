import { describe, expect, it } from 'vitest';
import { appTokenScope, appTokenWords, appTokenWritesCode } from '../../../../../lib/engine/analysis/run-model/app-tokens.js';
import { buildWorkflow } from '../../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../../lib/engine/yaml/source.js';

function scope(uses: string, inputs: Record<string, string>) {
  const withText = Object.entries(inputs).map(([k, v]) => `          ${k}: ${JSON.stringify(v)}`).join('\n');
  const text = `on: push\njobs:\n  j:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${uses}\n        with:\n          private-key: \${{ secrets.KEY }}\n${withText}\n`;
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('bad fixture');
  const step = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root).jobs[0]?.steps[0];
  if (step === undefined) throw new Error('no step');
  return appTokenScope(step);
}

describe('what a GitHub App token a step mints can do', () => {
  it('create-github-app-token: permission-* inputs limit it, and without owner or repositories it reaches this repository only', () => {
    const limited = scope('actions/create-github-app-token@v2', { 'permission-contents': 'read', 'permission-issues': 'write' });
    expect(limited?.reach).toBe('current');
    expect(limited !== null && appTokenWritesCode(limited)).toBe(false);
    expect(limited === null ? '' : appTokenWords(limited)).toBe('for this repository only (no `owner` or `repositories` input), with `contents: read`, `issues: write` (no scope that pushes code, changes workflows or publishes)');
    const code = scope('actions/create-github-app-token@v2', { 'permission-contents': 'write' });
    expect(code !== null && appTokenWritesCode(code)).toBe(true);
  });

  it('negative: no permission-* input is every permission of the installation; owner alone is every repository it reaches; an expression is not known', () => {
    const wide = scope('actions/create-github-app-token@v2', { owner: 'example-org' });
    expect(wide?.reach).toBe('installation');
    expect(wide?.permissions).toBeNull();
    expect(wide !== null && appTokenWritesCode(wide)).toBe(true);
    expect(scope('actions/create-github-app-token@v2', { repositories: '${{ inputs.repos }}' })?.reach).toBe('unknown');
    expect(scope('actions/create-github-app-token@v2', { 'permission-contents': '${{ inputs.access }}' })?.permissions).toBeNull();
    expect(scope('some-org/other-token@v1', {})).toBeNull();
  });

  it("tibdex/github-app-token: its JSON permissions and repositories, every repository of the installation by default", () => {
    const limited = scope('tibdex/github-app-token@v2', { permissions: '{"pull_requests": "write"}', repositories: '["example-org/site"]' });
    expect(limited?.reach).toBe('listed');
    expect(limited === null ? '' : appTokenWords(limited)).toBe('for repository `example-org/site`, with `pull-requests: write` (no scope that pushes code, changes workflows or publishes)');
    expect(scope('tibdex/github-app-token@v2', {})?.reach).toBe('installation');
  });
});
