import { describe, expect, it } from 'vitest';
import { publishesForReal, workflowPublishingSteps } from '../../../../lib/engine/analysis/publishing.js';
import { buildWorkflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'missing-provenance';

function published(text: string): { evidence: string; real: boolean }[] {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('fixture does not parse');
  return workflowPublishingSteps(buildWorkflow(new SourceFile('.github/workflows/x.yml', text), parsed.root)).map((p) => ({ evidence: p.evidence, real: publishesForReal(p) }));
}

describe(RULE, () => {
  it('tells rehearsals from real publishing, and goreleaser mentions from goreleaser runs', () => {
    expect(published(yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: npm publish --dry-run
            - run: cargo publish
            - run: gh release download -R goreleaser/goreleaser v2 --pattern '*.sbom.json'
            - run: goreleaser release --clean
            - uses: goreleaser/goreleaser-action@v6
              with: { args: release --snapshot --clean }
            - uses: goreleaser/goreleaser-action@v6
              with: { install-only: true }
            - run: docker push localhost:5000/app:test
    `)).toEqual([
      { evidence: 'npm publish', real: false },
      { evidence: 'cargo publish', real: true },
      { evidence: 'goreleaser release', real: true },
      { evidence: 'goreleaser/goreleaser-action', real: false },
      { evidence: 'goreleaser/goreleaser-action', real: false },
      { evidence: 'image push', real: false },
    ]);
  });

  it('takes a push to a registry the job started (a registry service, localhost through env:) as no publishing', () => {
    expect(published(yaml`
      on: push
      env:
        SCRATCH: localhost:5000
      jobs:
        a:
          runs-on: ubuntu-latest
          container: node:22
          services:
            cache:
              image: registry:2
          steps:
            - run: docker push "$SCRATCH/app:ci"
            - run: docker push cache:5000/app:ci
            - run: docker buildx build --push -t cache:5000/app:ci --cache-to type=registry,ref=cache:5000/app:cache .
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: cache:5000/app:ci
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: \${{ env.SCRATCH }}/app:ci
            - env:
                TARGET: ttl.sh/app-\${{ github.run_id }}:1h
              run: docker push "\${TARGET}"
    `)).toEqual([
      { evidence: 'image push', real: false },
      { evidence: 'image push', real: false },
      { evidence: 'image push', real: false },
      { evidence: 'docker/build-push-action', real: false },
      { evidence: 'docker/build-push-action', real: false },
      { evidence: 'image push', real: false },
    ]);
  });

  it('reads metadata-action images whose name holds an expression with blanks (`ttl.sh/app-${{ steps.id.outputs.uuid }}`)', () => {
    const workflow = (images: string) => yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - id: uuid
              run: echo "uuid=$(uuidgen)" >> "$GITHUB_OUTPUT"
            - id: meta
              uses: docker/metadata-action@v5
              with:
                images: |
                  ${images}
                tags: type=raw,value=1h
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: \${{ steps.meta.outputs.tags }}
    `;
    expect(published(workflow('ttl.sh/app-${{ steps.uuid.outputs.uuid }}'))).toEqual([{ evidence: 'docker/build-push-action', real: false }]);
    // Negative: the same name on a real registry publishes; two images folded onto one line are not read (kept).
    expect(published(workflow('ghcr.io/acme/app-${{ steps.uuid.outputs.uuid }}'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
    expect(published(workflow('ttl.sh/app ghcr.io/acme/app'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
  });

  it('keeps a push to a real registry, also beside a registry service or a push to it', () => {
    expect(published(yaml`
      on: push
      env:
        IMAGE: ghcr.io/example/app
      jobs:
        a:
          runs-on: ubuntu-latest
          services:
            cache:
              image: registry:2
          steps:
            - run: docker push "$IMAGE:1.0"
            - run: |
                docker push localhost:5000/app:ci
                docker push cache:5000/app:ci
                docker push example/app:1.0
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: |
                  cache:5000/app:ci
                  \${{ env.IMAGE }}:1.0
            - run: docker push app-cache:5000/app:ci
    `).map((p) => p.real)).toEqual([true, true, true, true]);
  });

  describe('tags from the repository\'s own metadata action (a local action given `images:`)', () => {
    const job = (meta: string, images: string, env = 'DOCKER_IMAGE: localhost:5000/name/app', matrix = '') => yaml`
      on: push
      env:
        ${env}
      jobs:
        test:
          runs-on: ubuntu-latest${matrix}
          services:
            registry:
              image: registry:2
              ports: ['5000:5000']
          steps:
            - uses: actions/checkout@v3
            - id: meta
              uses: ${meta}
              with:
                images: ${images}
                tags: type=ref,event=branch
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: \${{ steps.meta.outputs.tags }}
    `;

    it('negative: `uses: ./` or `./path` whose images (through env: or the matrix) are the job\'s registry service: no publishing', () => {
      expect(published(job('./', '${{ env.DOCKER_IMAGE }}'))).toEqual([{ evidence: 'docker/build-push-action', real: false }]);
      expect(published(job('./.github/actions/meta', '|\n                  ${{ env.DOCKER_IMAGE }}'))).toEqual([{ evidence: 'docker/build-push-action', real: false }]);
      expect(published(job('./', '${{ matrix.image }}', 'X: 1', '\n          strategy:\n            matrix:\n              image: [localhost:5000/a, registry:5000/b]'))).toEqual([{ evidence: 'docker/build-push-action', real: false }]);
      expect(published(job('./', '${{ env.DOCKER_IMAGE }}', 'DOCKER_IMAGE: registry:5000/${{ matrix.name }}', '\n          strategy:\n            matrix:\n              name: [a, b]'))).toEqual([{ evidence: 'docker/build-push-action', real: false }]);
      // docker/metadata-action itself, its images given through env: the same.
      expect(published(job('docker/metadata-action@v5', '${{ env.DOCKER_IMAGE }}'))).toEqual([{ evidence: 'docker/build-push-action', real: false }]);
    });

    it('positive: images of a real registry, one matrix value of a real registry, or a local action given no images:, publish', () => {
      expect(published(job('./', '${{ env.DOCKER_IMAGE }}', 'DOCKER_IMAGE: ghcr.io/example/app'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
      expect(published(job('./', '${{ matrix.image }}', 'X: 1', '\n          strategy:\n            matrix:\n              image: [localhost:5000/a, ghcr.io/example/b]'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
      // A matrix computed at run time: not read.
      expect(published(job('./', '${{ matrix.image }}', 'X: 1', '\n          strategy:\n            matrix: ${{ fromJSON(needs.a.outputs.m) }}'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
      expect(published(job('./', '${{ env.UNSET }}'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
      expect(published(job('docker/metadata-action@v5', '${{ env.DOCKER_IMAGE }}', 'DOCKER_IMAGE: docker.io/example/app'))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
      // A local action without `images:` is no metadata action: its tags output is not read.
      expect(published(job('./.github/actions/tags', '${{ env.DOCKER_IMAGE }}').replace(/^(\s*)images: .*\n/m, ''))).toEqual([{ evidence: 'docker/build-push-action', real: true }]);
    });
  });

  it('recognises bun publish as publishing to npm', () => {
    expect(published(yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - run: bun publish --access public
            - run: bun publish --dry-run
            - run: bun run publish-docs
    `)).toEqual([
      { evidence: 'bun publish', real: true },
      { evidence: 'bun publish', real: false },
    ]);
  });

  it('reports once per workflow at the first publishing step, LOW, bound to its job', () => {
    const records = recordsWith(RULE, yaml`
      on:
        push:
          tags: ['v*']
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
        release:
          runs-on: ubuntu-latest
          steps:
            - name: Upload
              run: |
                set -e
                gh release upload "$TAG" dist/*
            - run: twine upload dist/*
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['15:11 LOW']);
    expect(records[0]?.job).toBe('release');
    expect(records[0]?.finding.description).toContain('gh release (step `Upload`)');
  });

  it('accepts attestation and signing steps anywhere in the workflow', () => {
    const publish = 'on: release\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - run: gh release upload v1 dist/*\n';
    expect(scanWith(RULE, publish)).toHaveLength(1);
    for (const extra of [
      '      - uses: actions/attest-build-provenance@v2\n        with: { subject-path: dist/* }\n',
      '      - run: cosign sign-blob --yes dist/app > app.sig\n',
      '      - uses: sigstore/cosign-installer@v3\n',
      '      - run: gpg --detach-sign --armor dist/app\n',
    ]) {
      expect(scanWith(RULE, publish + extra), extra).toEqual([]);
    }
    expect(scanWith(RULE, yaml`
      on: release
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make
        provenance:
          uses: slsa-framework/slsa-github-generator/.github/workflows/generator_generic_slsa3.yml@v2.1.0
        publish:
          runs-on: ubuntu-latest
          steps:
            - run: gh release upload v1 dist/*
    `)).toEqual([]);
  });

  it("accepts signing inside the repository's own actions the workflow calls, through their own calls; not another action's", () => {
    const workflow = (uses: string) => ({
      path: '.github/workflows/release.yml',
      text: `on: release\njobs:\n  r:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: ${uses}\n      - run: gh release upload v1 dist/*\n`,
    });
    const action = (path: string, steps: string) => ({ path, text: `name: x\nruns:\n  using: composite\n  steps:\n${steps}` });
    const sign = action('.github/actions/sign/action.yml', '    - run: cosign sign-blob --yes dist/app > app.sig && cosign attest-blob --yes dist/app\n      shell: bash\n');
    expect(scanWith(RULE, [workflow('./.github/actions/sign'), sign])).toEqual([]);
    // Through a second action of the repository's own.
    const outer = action('.github/actions/release/action.yml', '    - uses: ./.github/actions/sign\n');
    expect(scanWith(RULE, [workflow('./.github/actions/release'), outer, sign])).toEqual([]);
    const installer = action('.github/actions/tools/action.yml', '    - uses: sigstore/cosign-installer@v3\n');
    expect(scanWith(RULE, [workflow('./.github/actions/tools'), installer])).toEqual([]);
    // An action of the repository that signs nothing, or a third party's action, is no signature.
    const build = action('.github/actions/build/action.yml', '    - run: make dist\n      shell: bash\n');
    expect(positions(scanWith(RULE, [workflow('./.github/actions/build'), build]))).toEqual(['7:14 LOW']);
    expect(positions(scanWith(RULE, [workflow('someone/sign-things@v1')]))).toEqual(['7:14 LOW']);
  });

  it('counts the provenance that registries and publishing actions produce themselves', () => {
    // PyPI trusted publishing attests by default since v1.11; a token or attestations: false does not.
    const pypi = (ref: string, withBlock = '') => `on: release\njobs:\n  p:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: pypa/gh-action-pypi-publish@${ref}\n${withBlock}`;
    expect(scanWith(RULE, pypi('release/v1'))).toEqual([]);
    expect(scanWith(RULE, pypi('v1.12.4'))).toEqual([]);
    expect(positions(scanWith(RULE, pypi('v1.10.3')))).toEqual(['6:15 LOW']);
    expect(positions(scanWith(RULE, pypi('release/v1', '        with:\n          password: ${{ secrets.PYPI_TOKEN }}\n')))).toEqual(['6:15 LOW']);
    expect(positions(scanWith(RULE, pypi('release/v1', '        with:\n          attestations: false\n')))).toEqual(['6:15 LOW']);
    // npm provenance needs an OIDC token.
    const npm = (permissions: string) => `on: release\npermissions:\n${permissions}\njobs:\n  p:\n    runs-on: ubuntu-latest\n    steps:\n      - run: npm publish\n`;
    expect(scanWith(RULE, npm('  id-token: write'))).toEqual([]);
    expect(positions(scanWith(RULE, npm('  contents: read')))).toEqual(['8:14 LOW']);
    // docker/build-push-action attaches provenance unless told not to.
    const docker = (extra: string) => `on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: docker/build-push-action@v6\n        with:\n          push: true\n${extra}`;
    expect(scanWith(RULE, docker(''))).toEqual([]);
    expect(positions(scanWith(RULE, docker('          provenance: false\n')))).toEqual(['6:15 LOW']);
    // Image pushes by actions without attestations are reported.
    expect(positions(scanWith(RULE, 'on: push\njobs:\n  d:\n    runs-on: ubuntu-latest\n    steps:\n      - uses: elgohr/Publish-Docker-Github-Action@v5\n')))
      .toEqual(['6:15 LOW']);
  });

  it('does not report releases without assets, rehearsals or crates.io', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        r:
          runs-on: ubuntu-latest
          steps:
            - run: |
                gh release create "$TAG" \
                  --title "$TAG" \
                  --generate-notes \
                  $PRERELEASE_FLAG
            - uses: softprops/action-gh-release@v2
              with:
                body: notes only
            - uses: actions/create-release@v1
            - run: npm publish --dry-run
            - uses: rust-lang/crates-io-auth-action@v1
            - run: cargo publish
    `)).toEqual([]);
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        r:
          runs-on: ubuntu-latest
          steps:
            - run: gh release create "$TAG" --notes-file notes.md dist/*.tar.gz
    `))).toEqual(['6:14 LOW']);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      permissions: 5
      jobs:
        a:
          runs-on: ubuntu-latest
          permissions: [id-token]
          steps:
            - uses: pypa/gh-action-pypi-publish@
            - uses: softprops/action-gh-release@v2
              with: 3
            - run: 12
    `)).toEqual([]);
  });
});

describe('missing-provenance: PyPI attestations made by a script', () => {
  const release = (sign: string) => yaml`
    on:
      release:
        types: [published]
    permissions: { contents: read, id-token: write }
    jobs:
      publish:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/download-artifact@v4
          - ${sign}
          - run: python -m twine upload --skip-existing ./wheelhouse/*
  `;

  it('takes `python -m pypi_attestations sign` (Sigstore, the job\'s OIDC identity) as provenance, and a bare upload as none', () => {
    expect(scanWith('missing-provenance', release('run: python -m pip install pypi-attestations && python -m pypi_attestations sign ./wheelhouse/*'))).toEqual([]);
    expect(scanWith('missing-provenance', release('run: ls ./wheelhouse')).map((f) => f.severity)).toEqual(['LOW']);
  });
});
