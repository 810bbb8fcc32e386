import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unsound-ternary';

describe(RULE, () => {
  it('reports a pseudo-ternary whose middle value is falsy, at its ${{, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      env:
        SUFFIX: \${{ github.ref == 'refs/heads/main' && '' || '-dev' }}
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: ./build.sh --push=\${{ github.event_name == 'pull_request' && false || true }}
            - uses: some/action@v1
              with:
                retries: \${{ (inputs.fast && 0) || 3 }}
                tag: \${{ inputs.release && null || 'nightly' }}
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['3:11 LOW', '8:32 LOW', '11:20 LOW', '12:16 LOW']);
    expect(records.map((r) => r.job)).toEqual([null, 'build', 'build', 'build']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
  });

  it('finds falsy values in longer chains and constant-falsy calls', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ matrix.os == 'linux' && 'x' || matrix.os == 'mac' && format('{0}', '') || 'z' }}"
    `))).toEqual(['6:20 LOW']);
  });

  it('accepts non-empty literals, context values, constant expressions and conditions', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: \${{ matrix.os == 'windows' && 'windows-latest' || 'ubuntu-latest' }}
          if: github.event_name == 'push' && false || github.event_name == 'schedule'
          steps:
            - run: echo "\${{ github.event_name == 'pull_request' && github.event.pull_request.head.sha || github.sha }}"
            - run: echo "\${{ true && '' || 'x' }}"
              if: \${{ inputs.dry && false || inputs.force }}
            - run: echo "\${{ !inputs.fast && 'slow' || '' }}"
    `)).toEqual([]);
  });

  it('checks composite actions', () => {
    expect(positions(scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          runs:
            using: composite
            steps:
              - run: echo \${{ inputs.quiet && '' || '--verbose' }}
                shell: bash
        `,
      },
    ]))).toEqual(['4:17 LOW']);
  });
});
