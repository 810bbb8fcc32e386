import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'attestation-missing-oidc';

describe(RULE, () => {
  it('reports attest actions, keyless cosign and SLSA generator calls without id-token: write', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      permissions:
        contents: write
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - run: make dist
            - uses: actions/attest-build-provenance@v2
              with: { subject-path: dist/* }
            - run: cosign sign --yes ghcr.io/org/app@sha256:abc
        slsa:
          uses: slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@v2.1.0
    `);
    expect(positions(findings)).toEqual(['9:15 LOW', '11:14 LOW', '13:11 LOW']);
    expect(findings[0]?.description).toContain('`actions/attest-build-provenance`');
    expect(findings[1]?.description).toContain('keyless `cosign`');
  });

  it('does not report jobs that can mint an OIDC token, or signing with a key or an explicit identity token', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions: {}
      jobs:
        attest:
          runs-on: ubuntu-latest
          permissions: { id-token: write, attestations: write }
          steps:
            - uses: actions/attest-build-provenance@v2
        keyed:
          runs-on: ubuntu-latest
          steps:
            - run: |
                cosign sign --key env://COSIGN_KEY ghcr.io/org/app@sha256:abc
                cosign sign --identity-token "$TOKEN" ghcr.io/org/app@sha256:abc
                ./cosign sign-blob \\
                  --key=env://COSIGN_KEY --yes \\
                  --output-file=app.sig app
            - run: cosign verify ghcr.io/org/app@sha256:abc
        slsa:
          permissions: { id-token: write, contents: write, actions: read }
          uses: slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@v2.1.0
    `)).toEqual([]);
  });

  it('reads a cosign command continued over lines whole: keyless when no line of it gives a key', () => {
    const job = (flags: string) => yaml`
      on: push
      permissions: { contents: read }
      jobs:
        sign:
          runs-on: ubuntu-latest
          steps:
            - run: |
                cosign sign-blob \\
                  ${flags} --yes \\
                  --output-file=app.sig app
    `;
    expect(scanWith(RULE, job('--bundle=app.bundle')).map((f) => f.severity)).toEqual(['LOW']);
    expect(scanWith(RULE, job('--key=env://COSIGN_KEY'))).toEqual([]);
  });

  it('reports a job without any permissions block (the default token never has id-token)', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        sign:
          runs-on: ubuntu-latest
          steps:
            - uses: sigstore/gh-action-sigstore-python@v3
    `))).toEqual(['6:15 LOW']);
  });
});
