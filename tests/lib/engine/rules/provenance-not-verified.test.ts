import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';
import { copyImages } from '../../../../lib/engine/analysis/run-model/pushes.js';

const RULE = 'provenance-not-verified';

describe(RULE, () => {
  it('reports release assets downloaded and published without verification, at the download', () => {
    const findings = scanWith(RULE, yaml`
      on: workflow_dispatch
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - run: |
                mkdir -p artifacts
                gh release download "v1.0.0" --dir ./artifacts
            - run: npm publish ./artifacts/pkg.tgz
    `);
    expect(positions(findings)).toEqual(['8:11 LOW']);
    expect(findings[0]?.description).toContain('release assets (`gh release download`) and publishes with npm publish');
  });

  it('reports an image copied between registries: the copy is the push', () => {
    const findings = scanWith(RULE, yaml`
      on: schedule
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - run: crane cp "traefik:$tag" "ghcr.io/traefik/traefik:$tag"
    `);
    expect(positions(findings)).toEqual(['6:14 LOW']);
    expect(findings[0]?.description).toContain('an image someone else publishes (`traefik:$tag`, copied with `crane cp`) and pushes it to a registry of its own');
  });

  it("does not take a copy of the owner's own image (a namespace the repository's workflows push to) as something it did not build", () => {
    const release = { path: '.github/workflows/release.yml', text: 'on: push\njobs:\n  image:\n    runs-on: ubuntu-latest\n    steps:\n      - run: docker build -t docker.io/widget-old/app:1 . && docker push docker.io/widget-old/app:1\n' };
    const sync = (copy: string) => ({ path: '.github/workflows/sync.yml', text: yaml`
      on: schedule
      jobs:
        sync:
          runs-on: ubuntu-latest
          steps:
            - run: ${copy}
    ` });
    for (const own of ['crane cp "docker.io/widget-old/app:$tag" "ghcr.io/acme/app:$tag"', 'crane copy docker.io/widget-old/tool:1 quay.io/other/tool:1', 'skopeo copy docker://ghcr.io/acme/app:1 docker://docker.io/acme/app:1']) {
      expect(scanWith(RULE, [release, sync(own)], { repository: 'acme/widget' }), own).toEqual([]);
    }
    // negative: an image of another namespace, or Docker Hub's official one, is someone else's.
    for (const other of ['crane cp "docker.io/someone/app:$tag" "ghcr.io/acme/app:$tag"', 'crane cp traefik:latest ghcr.io/acme/traefik:latest']) {
      const found = scanWith(RULE, [release, sync(other)], { repository: 'acme/widget' });
      expect(found.map((f) => f.severity), other).toEqual(['LOW']);
      expect(found[0]?.description, other).toContain('an image someone else publishes');
    }
  });

  it("does not take a copy from or to a local layout, archive or daemon (skopeo's oci:, docker-daemon: ...) as a republished image", () => {
    const job = (copy: string) => yaml`
      on: push
      jobs:
        image:
          runs-on: ubuntu-latest
          steps:
            - run: |
                tar -xf image.tar -C image
                ${copy}
    `;
    for (const local of ['skopeo copy "oci:image:$image_tag" "docker-daemon:$image_name"', 'skopeo copy docker://docker.io/someone/app:1 oci-archive:app.tar', 'skopeo copy docker-archive:app.tar dir:out']) {
      expect(scanWith(RULE, job(local)), local).toEqual([]);
    }
    // From someone else's registry to one of the project's: still reported.
    expect(scanWith(RULE, job('skopeo copy docker://docker.io/someone/app:1 docker://ghcr.io/acme/app:1')).map((f) => f.severity)).toEqual(['LOW']);
  });

  it('reports a pulled image retagged and pushed, and another run\'s artifacts published', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        promote:
          runs-on: ubuntu-latest
          steps:
            - run: |
                docker pull example/app:rc
                docker tag example/app:rc ghcr.io/example/app:1.0
                docker push ghcr.io/example/app:1.0
    `))).toEqual(['8:11 LOW']);
    expect(positions(scanWith(RULE, yaml`
      on: workflow_dispatch
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: dist
                run-id: \${{ inputs.build_run }}
                github-token: \${{ github.token }}
            - uses: pypa/gh-action-pypi-publish@release/v1
    `))).toEqual(['6:15 LOW']);
  });

  it('is silent when anything in the job verifies', () => {
    for (const check of ['gh attestation verify artifacts/pkg.tgz --repo o/r', 'cosign verify-blob --bundle b.json artifacts/pkg.tgz', 'sha256sum -c SHA256SUMS', 'slsa-verifier verify-artifact artifacts/pkg.tgz', 'gpg --verify pkg.tgz.asc pkg.tgz']) {
      expect(scanWith(RULE, yaml`
        on: workflow_dispatch
        jobs:
          publish:
            runs-on: ubuntu-latest
            steps:
              - run: gh release download v1 --dir artifacts
              - run: ${check}
              - run: npm publish ./artifacts/pkg.tgz
      `), check).toEqual([]);
    }
  });

  it('is silent without a publish, for same-run artifacts, digest-pinned and scratch copies', () => {
    // Downloaded but not published (installed, tested).
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          steps:
            - run: gh release download v1 --repo o/tool --pattern '*.deb' && sudo dpkg -i *.deb
    `)).toEqual([]);
    // The usual build-job / publish-job split: artifacts of this run.
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        publish:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                name: dist
            - uses: pypa/gh-action-pypi-publish@release/v1
    `)).toEqual([]);
    // Copied by a digest the workflow names; copied to a throwaway registry for a test.
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        mirror:
          runs-on: ubuntu-latest
          steps:
            - run: crane copy cgr.dev/chainguard/static@sha256:${'a'.repeat(64)} ghcr.io/o/static:latest
            - run: |
                DIGEST=$(crane digest cgr.dev/chainguard/static)
                crane copy cgr.dev/chainguard/static@$DIGEST ttl.sh/test:1h
    `)).toEqual([]);
    // A pulled image that is used, not retagged; a publish that happens before the download.
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: docker build -t ghcr.io/o/app:1 . && docker push ghcr.io/o/app:1
            - run: docker pull postgres:16 && docker run -d postgres:16
            - run: gh release download v1 --dir old
    `)).toEqual([]);
  });

  it('reports once per job', () => {
    expect(scanWith(RULE, yaml`
      on: workflow_dispatch
      jobs:
        mirror:
          runs-on: ubuntu-latest
          steps:
            - run: |
                crane copy docker.io/o/a:1 ghcr.io/o/a:1
                crane copy docker.io/o/b:1 ghcr.io/o/b:1
    `)).toHaveLength(1);
  });

  describe("an image the run itself pushed, read back", () => {
    // The registry comes from a variable the scan cannot read: only the run's own push says whose image it is.
    const job = (steps: string, extra = '', needs = '[]') => yaml`
      on:
        push:
          tags: ['v*']
      jobs:
${extra}
        image:
          needs: ${needs}
          runs-on: ubuntu-latest
          steps:
${steps}
    `;

    it('does not report a copy of a tag the same job pushed (build-push-action via metadata-action, docker push)', () => {
      const built = `            - id: meta
              uses: docker/metadata-action@v5
              with:
                images: \${{ vars.IMAGE_REPO }}
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: \${{ steps.meta.outputs.tags }}
`;
      expect(scanWith(RULE, job(`${built}            - run: crane copy "\${{ vars.IMAGE_REPO }}:\${{ github.sha }}" "\${{ vars.MIRROR_REPO }}:latest"`))).toEqual([]);
      expect(scanWith(RULE, job(`            - run: |
                IMAGE="$(cat image-name.txt)"
                docker build -t "$IMAGE:$GITHUB_SHA" . && docker push "$IMAGE:$GITHUB_SHA"
                skopeo copy --all "docker://$IMAGE:$GITHUB_SHA" "docker://\${{ vars.MIRROR_REPO }}:latest"`))).toEqual([]);
      expect(scanWith(RULE, job(`${built}            - run: |
                docker pull "\${{ vars.IMAGE_REPO }}:\${{ github.sha }}"
                docker tag "\${{ vars.IMAGE_REPO }}:\${{ github.sha }}" "\${{ vars.MIRROR_REPO }}:stable"
                docker push "\${{ vars.MIRROR_REPO }}:stable"`))).toEqual([]);
    });

    it('does not report a copy of what a job it needs pushed in the same run', () => {
      const build = `        build:
          runs-on: ubuntu-latest
          steps:
            - run: docker buildx build --push -t "\${{ vars.IMAGE_REPO }}:\${{ github.sha }}" .`;
      expect(scanWith(RULE, job('            - run: crane cp "${{ vars.IMAGE_REPO }}:${{ github.sha }}" "${{ vars.MIRROR_REPO }}:latest"', build, 'build'))).toEqual([]);
    });

    it('takes the destination of a copy with an option after its operands (`--platform linux/amd64`) as what it pushed', () => {
      const copied = (destination: string) => `            - run: docker buildx build --push -t "\${{ vars.BUILD_REPO }}:1" .
            - run: crane copy "\${{ vars.BUILD_REPO }}:1" "\${{ vars.${destination} }}:1" --platform linux/amd64
            - run: crane copy "\${{ vars.IMAGE_REPO }}:1" "\${{ vars.MIRROR_REPO }}:1"`;
      expect(scanWith(RULE, job(copied('IMAGE_REPO')))).toEqual([]);
      // negative: the copy pushed another repository, so the image copied next is not the run's own.
      expect(positions(scanWith(RULE, job(copied('OTHER_REPO'))))).toEqual(['12:14 LOW']);
      expect(copyImages(' "a:1" b:1 --platform linux/amd64')).toEqual(['"a:1"', 'b:1']);
      expect(copyImages(' --all --format=oci docker://a:1 docker://b:1 --retry-times 3')).toEqual(['docker://a:1', 'docker://b:1']);
    });

    it('still reports a copy of an image the run did not push, or one it pushes only after the copy', () => {
      expect(positions(scanWith(RULE, job(`            - run: docker buildx build --push -t "\${{ vars.IMAGE_REPO }}:\${{ github.sha }}" .
            - run: crane copy "\${{ vars.UPSTREAM_REPO }}:1" "\${{ vars.MIRROR_REPO }}:1"`)))).toEqual(['11:14 LOW']);
      expect(positions(scanWith(RULE, job(`            - run: crane copy "\${{ vars.IMAGE_REPO }}:1" "\${{ vars.MIRROR_REPO }}:1"
            - run: docker buildx build --push -t "\${{ vars.IMAGE_REPO }}:1" .`)))).toEqual(['10:14 LOW']);
      // A job that does not need the pushing one may run first: its copy is of whatever the registry holds.
      const build = `        build:
          runs-on: ubuntu-latest
          steps:
            - run: docker buildx build --push -t "\${{ vars.IMAGE_REPO }}:1" .`;
      expect(scanWith(RULE, job('            - run: crane copy "${{ vars.IMAGE_REPO }}:1" "${{ vars.MIRROR_REPO }}:1"', build))).toHaveLength(1);
    });
  });
});
