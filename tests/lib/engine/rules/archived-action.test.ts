import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';
import { ARCHIVED_ACTIONS } from '../../../../lib/engine/data/archived-actions.js';

const RULE = 'archived-action';

describe(RULE, () => {
  it('reports archived actions whatever the ref or case, with the replacement', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/create-release@v1
            - uses: Actions-RS/toolchain@16499b5e05bf2e26879000db0c1d13f7e13fa3af
            - uses: actions/checkout@v3
    `);
    expect(positions(findings)).toEqual(['6:15 LOW', '7:15 LOW']);
    expect(findings[0]?.description).toBe('`actions/create-release` is archived: it receives no fixes, security fixes included.');
    expect(findings[0]?.recommendation).toContain('gh release create');
  });

  it('reports an archived GitHub App token action, naming the maintained one', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: tibdex/github-app-token@v2
            - uses: actions/create-github-app-token@v2
    `);
    expect(findings.map((f) => f.description)).toEqual(['`tibdex/github-app-token` is archived: it receives no fixes, security fixes included.']);
    expect(findings[0]?.recommendation).toContain('actions/create-github-app-token');
  });

  it('does not report maintained actions, local or docker ones', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: ruby/setup-ruby@v1
            - uses: ./actions/create-release
            - uses: docker://actions/setup-ruby:1
    `)).toEqual([]);
  });

  it('keeps a source and a lower-case slug for every snapshot entry', () => {
    for (const entry of ARCHIVED_ACTIONS) {
      expect(entry.source).toBe(`https://github.com/${entry.slug}`);
      expect(entry.slug).toBe(entry.slug.toLowerCase());
    }
  });
});
