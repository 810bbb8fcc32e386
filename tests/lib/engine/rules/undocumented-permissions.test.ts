import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'undocumented-permissions';

describe(RULE, () => {
  it('reports each write scope without a comment, at workflow and job level', () => {
    const findings = scanWith(RULE, yaml`
      name: Release
      on: push
      permissions:
        contents: write
        issues: read
      jobs:
        publish:
          runs-on: ubuntu-latest
          permissions:
            packages: write
            id-token: write # sign the provenance
            # create the release
            contents: write
          steps: [{ run: make }]
        all:
          runs-on: ubuntu-latest
          permissions: write-all
          steps: [{ run: make }]
    `);
    expect(positions(findings)).toEqual(['4:3 INFO', '10:7 INFO', '17:18 INFO']);
    expect(findings[0]?.description).toContain('`contents: write`');
    expect(findings[2]?.description).toContain('`write-all`');
  });

  it('accepts a comment on the permissions key\'s own line for the whole block, and ignores read scopes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions: # push the changelog and comment on the released pull requests
        contents: write
        pull-requests: write
      jobs:
        a:
          permissions: { contents: write }  # push tags
          runs-on: x
          steps: [{ run: make }]
        b:
          permissions: read-all
          runs-on: x
          steps: [{ run: make }]
    `)).toEqual([]);
  });

  it('does not take a comment heading the block for each grant\'s reason', () => {
    // A comment above `permissions:` heads a section; it does not say which step needs each scope.
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: x
          # Missing individual permission comments
          permissions:
            contents: write
            actions: write # cancel superseded runs
          steps: [{ run: make }]
    `))).toEqual(['7:7 INFO']);
  });

  it('does not take a suppression comment for documentation, unless a reason follows it', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write # zizmor: ignore[excessive-permissions]
        issues: write # zizmor: ignore[excessive-permissions] update issue comments
      jobs:
        a: { runs-on: x, steps: [{ run: make }] }
    `))).toEqual(['3:3 INFO']);
  });

  it('does not take a suppression comment for documentation', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      permissions:
        # chainbreaker: ignore[excessive-permissions]
        contents: write
      jobs:
        a: { runs-on: x, steps: [{ run: make }] }
    `))).toEqual(['4:3 INFO']);
  });
});
