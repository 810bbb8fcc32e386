import { describe, expect, it } from 'vitest';
import { scanWith, yaml } from '../../../support/engine.js';

const RULE = 'ref-confusion';

// An online audit: its findings come from lib/online (tests/lib/online/audit.test.ts covers them with a fake
// GitHub). The offline engine must never report it, whatever the workflow pins.
describe(RULE, () => {
  it('reports nothing offline, even for pins the online audit would report', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@c7d749a2d57b4b375d1ebcd17cfbfd60c676f18e # v4.0.0
            - uses: some-org/deploy-action@v1
    `)).toEqual([]);
  });
});
