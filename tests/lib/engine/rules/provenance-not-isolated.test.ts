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
            - uses: actions/checkout@v3
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

  describe('only a job that builds what it attests', () => {
    const job = (steps: string) => yaml`
      on: push
      jobs:
        attest:
          runs-on: ubuntu-latest
          permissions: { id-token: write, attestations: write, packages: write }
          steps:
${steps.split('\n').map((l) => `            ${l}`).join('\n')}
    `;
    const attestPath = '- uses: actions/attest-build-provenance@v2\n  with: { subject-path: dist/* }';
    const attestImage = '- uses: actions/attest-build-provenance@v2\n  with: { subject-name: ghcr.io/o/app, subject-digest: "${{ steps.digest.outputs.digest }}" }';

    it('negative: a job that downloads another job\'s build, or attests an image pushed elsewhere, and runs nothing of a source tree', () => {
      for (const steps of [
        // Artifacts another job built (needs: + download-artifact), listed and checksummed.
        `- uses: actions/download-artifact@v4\n  with: { pattern: dist-*, path: dist, merge-multiple: true }\n- run: ls -la dist && sha256sum dist/* > dist/SHA256SUMS\n${attestPath}`,
        // The repository checked out too, but only cleaned up around the downloaded files.
        `- uses: actions/checkout@v3\n- uses: actions/download-artifact@v4\n  with: { path: dist }\n- run: rm -f dist/*-manifest.json\n${attestPath}`,
        // A manifest list of digests other jobs pushed, and its digest.
        `- uses: actions/download-artifact@v4\n  with: { pattern: digests-*, path: /tmp/digests }\n- run: docker buildx imagetools create -t ghcr.io/o/app:1 $(printf 'ghcr.io/o/app@sha256:%s ' *)\n  working-directory: /tmp/digests\n- id: digest\n  run: echo "digest=$(docker buildx imagetools inspect ghcr.io/o/app:1 --format '{{json .Manifest}}' | jq -r .digest)" >> "$GITHUB_OUTPUT"\n${attestImage}`,
        // An image reference handed in by input, signed and attested.
        `- id: digest\n  run: echo "digest=\${IMAGE##*@}" >> "$GITHUB_OUTPUT"\n  env: { IMAGE: "\${{ github.event.inputs.image }}" }\n- run: cosign sign --yes "$IMAGE"\n${attestImage}`,
      ]) {
        expect(scanWith(RULE, job(steps)), steps).toEqual([]);
      }
    });

    it('positive: a build tool or build script run on the checkout, or on a source tree another job handed over', () => {
      for (const steps of [
        `- uses: actions/checkout@v3\n- run: python3 -m pip install build\n- run: python3 -m build\n${attestPath}`,
        `- uses: actions/checkout@v3\n- run: ./scripts/build-release.sh\n${attestPath}`,
        `- uses: actions/download-artifact@v4\n  with: { name: source }\n- run: cargo build --release\n${attestPath}`,
      ]) {
        expect(scanWith(RULE, job(steps)).map((f) => f.severity), steps).toEqual(['INFO']);
      }
    });
  });
});
