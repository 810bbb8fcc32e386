import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unsound-contains';

describe(RULE, () => {
  it('reports contains() on a string literal in job and step conditions, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        deploy:
          if: contains('refs/heads/main refs/heads/release', github.ref)
          runs-on: ubuntu-latest
          steps:
            - run: ./deploy.sh
              if: \${{ github.event_name == 'push' && contains('main,develop', github.ref_name) }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['4:9 MEDIUM', '8:13 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual(['deploy', 'deploy']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[1]?.finding.description).toContain("contains('main,develop', github.ref_name)");
  });

  it('reports the check in other expressions, at the ${{ of the expression', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        TRUSTED: \${{ contains('alice bob', github.actor) }}
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo start
                echo "\${{ !contains('main', inputs.branch) }}"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:12 MEDIUM', '10:17 MEDIUM']);
    expect(records.map((r) => r.job)).toEqual([null, 'build']);
  });

  it('accepts real lists, searches in contexts and constant checks', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          if: contains(fromJSON('["refs/heads/main", "refs/heads/dev"]'), github.ref)
          runs-on: ubuntu-latest
          steps:
            - run: make
              if: contains(github.event.pull_request.labels.*.name, 'safe to test')
            - run: make
              if: contains(github.event.head_commit.message, '[skip ci]')
            - run: make
              if: contains('abc', 'b')
    `)).toEqual([]);
  });

  it('reads the function name in any case', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          if: CONTAINS('refs/heads/main refs/heads/dev', github.ref)
          steps:
            - run: echo "\${{ Contains(fromJSON('["a","b"]'), github.ref) }} \${{ 'contains' }}"
    `);
    expect(positions(findings)).toEqual(['5:9 MEDIUM']);
  });

  it('checks composite actions', () => {
    expect(positions(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: make
                shell: bash
                if: contains('linux macos', inputs.os)
        `,
      },
    ]))).toEqual(['6:11 MEDIUM']);
  });
});
