import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'provenance-not-isolated';

describe(RULE, () => {
  it('reports provenance attested after build scripts in the same job', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        release:
          runs-on: ubuntu-latest
          permissions: { id-token: write, attestations: write }
          steps:
            - uses: actions/checkout@v4
            - run: npm ci && npm run build
            - uses: actions/attest-build-provenance@v2
              with: { subject-path: dist/app.tgz }
    `);
    expect(positions(findings)).toEqual(['9:15 INFO']);
    expect(findings[0]?.description).toContain('`release`');
  });

  it('does not report a separate attest job, an SBOM attestation, or a job that only downloads and attests', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make dist
            - uses: actions/attest-sbom@v2
              with: { subject-path: dist/app, sbom-path: sbom.json }
        attest:
          needs: build
          runs-on: ubuntu-latest
          permissions: { id-token: write, attestations: write }
          steps:
            - uses: actions/download-artifact@v4
            - uses: actions/attest-build-provenance@v2
              with: { subject-path: dist/app }
    `)).toEqual([]);
  });
});
