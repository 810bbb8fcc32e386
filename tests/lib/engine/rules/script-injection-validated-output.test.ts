import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'script-injection';

describe(`${RULE}: a step output written from a value checked against an all-digits pattern`, () => {
  const wf = (check: string) => yaml`
    on:
      workflow_dispatch:
        inputs:
          run_id: { type: string }
    jobs:
      a:
        runs-on: ubuntu-latest
        steps:
          - id: v
            env:
              RUN_ID: \${{ inputs.run_id }}
            run: |
              ${check}
              echo "run_id=$RUN_ID" >> "$GITHUB_OUTPUT"
          - run: gh run download \${{ steps.v.outputs.run_id }}
  `;

  it('negative: the later expansion is of a validated value', () => {
    for (const check of [
      '[[ "$RUN_ID" =~ ^[1-9][0-9]*$ ]] || exit 1',
      'if ! [[ "$RUN_ID" =~ ^[0-9]+$ ]]; then echo bad; exit 1; fi',
      '[[ "$RUN_ID" =~ ^[0-9]{1,20}$ ]] || exit 1',
      '[[ "$RUN_ID" =~ ^[[:digit:]]+$ ]] || { echo bad; exit 1; }',
    ]) expect(scanWith(RULE, wf(check)), check).toEqual([]);
  });

  // grep matches line by line: `1`, a newline and `run_id=$(evil)` passes it and the last run_id= line wins.
  it('positive: no check, a check that lets other characters through, or a grep (line by line)', () => {
    for (const check of ['echo checking', "echo \"$RUN_ID\" | grep -Eq '^[1-9][0-9]*$' || exit 1", '[[ "$RUN_ID" =~ ^[0-9a-z;]+$ ]] || exit 1', '[[ "$RUN_ID" =~ [0-9]+ ]] || exit 1']) {
      expect(positions(scanWith(RULE, wf(check))).length, check).toBeGreaterThan(0);
    }
  });
});
