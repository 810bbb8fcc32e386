import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'dependabot-insecure-execution';
const PATH = '.github/dependabot.yml';

describe(RULE, () => {
  it('reports insecure-external-code-execution: allow at the value, bound to no job', () => {
    const records = recordsWith(RULE, [{
      path: PATH,
      text: yaml`
        version: 2
        updates:
          - package-ecosystem: pip
            directory: /
            insecure-external-code-execution: allow
          - package-ecosystem: bundler
            directory: /
            insecure-external-code-execution: deny
          - package-ecosystem: mix
            directory: /
            insecure-external-code-execution: "Allow"
      `,
    }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:39 HIGH', '11:39 HIGH']);
    expect(records.map((r) => r.job)).toEqual([null, null]);
    expect(records[0]?.finding.description).toContain('`pip`');
  });

  it('ignores the setting outside updates entries and in workflows', () => {
    expect(scanWith(RULE, [{ path: PATH, text: 'version: 2\ninsecure-external-code-execution: allow\nupdates: []\n' }])).toEqual([]);
    expect(scanWith(RULE, 'on: push\ninsecure-external-code-execution: allow\njobs: {}\n')).toEqual([]);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, [{ path: PATH, text: 'version: 2\nupdates:\n  - 1\n  - [allow]\n  - insecure-external-code-execution: [allow]\n  - insecure-external-code-execution:\n' }])).toEqual([]);
    expect(scanWith(RULE, [{ path: '.github/dependabot.yaml', text: 'updates: allow\n' }])).toEqual([]);
  });
});
