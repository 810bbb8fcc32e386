import { describe, expect, it } from 'vitest';
import { imagePin } from '../../../../lib/engine/rules/unpinned-image.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'unpinned-image';
const DIGEST = 'sha256:0f0e0d0c0b0a09080706050403020100f0e0d0c0b0a09080706050403020100f';

describe(RULE, () => {
  it('reads how an image reference is pinned', () => {
    expect(imagePin('node')).toEqual({ kind: 'untagged' });
    expect(imagePin('node:latest')).toEqual({ kind: 'latest' });
    expect(imagePin('localhost:5000/team/app')).toEqual({ kind: 'untagged' });
    expect(imagePin('ghcr.io/org/app:1.2')).toEqual({ kind: 'tag', tag: '1.2' });
    expect(imagePin(`node:22@${DIGEST}`)).toEqual({ kind: 'digest' });
  });

  it('reports job containers and services: HIGH without a tag or with latest, MEDIUM for other tags', () => {
    const records = recordsWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          container: someuser/node:latest
          services:
            db:
              image: postgres:16
            cache:
              image: someuser/redis
          steps:
            - run: npm test
        other:
          runs-on: ubuntu-latest
          container:
            image: ghcr.io/org/builder:2024-01
          steps:
            - run: make
    `);
    // A floating service image is MEDIUM: it runs beside the job, without its steps or secrets.
    expect(positions(records.map((r) => r.finding))).toEqual(['5:16 HIGH', '8:16 MEDIUM', '10:16 MEDIUM', '16:14 MEDIUM']);
    expect(records[2]?.finding.description).toContain('MEDIUM: a service container runs beside the job');
    expect(records.map((r) => r.job)).toEqual(['test', 'test', 'test', 'other']);
    expect(records[1]?.finding.description).toContain('service `db`');
  });

  it('reports docker:// steps, in workflows and composite actions', () => {
    const workflow = yaml`
      on: push
      jobs:
        lint:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://hadolint/hadolint:v2.12.0
            - uses: docker://someuser/alpine
            - uses: docker://alpine@${DIGEST}
    `;
    expect(positions(scanWith(RULE, workflow))).toEqual(['6:15 MEDIUM', '7:15 HIGH']);
    const action = yaml`
      name: composite
      runs:
        using: composite
        steps:
          - uses: docker://someuser/alpine:latest
    `;
    const records = recordsWith(RULE, [{ path: 'action.yml', text: action }]);
    expect(positions(records.map((r) => r.finding))).toEqual(['5:13 HIGH']);
    expect(records[0]?.job).toBeNull();
  });

  it('reports the runs.image of docker actions anywhere in the repository, not a Dockerfile', () => {
    const docker = (image: string) => yaml`
      name: tool
      runs:
        using: docker
        image: ${image}
    `;
    const records = recordsWith(RULE, [
      { path: 'tools/lint/action.yml', text: docker('docker://ghcr.io/org/lint:1.2') },
      { path: 'action.yaml', text: docker('docker://alpine') /* a Docker Official Image: MEDIUM */ },
      { path: 'build/action.yml', text: docker('Dockerfile') },
      { path: 'pinned/action.yml', text: docker(`docker://alpine@${DIGEST}`) },
    ]);
    expect(records.map((r) => `${r.finding.file} ${positions([r.finding]).join('')}`)).toEqual(['action.yaml 4:10 MEDIUM', 'tools/lint/action.yml 4:10 MEDIUM']);
    expect(records[0]?.finding.description).toContain('docker action');
  });

  it('accepts digests, with or without a tag', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          container: node:22@${DIGEST}
          services:
            db:
              image: postgres@${DIGEST}
          steps:
            - run: npm test
    `)).toEqual([]);
  });

  it('resolves matrix images, reporting once with the worst case, and skips empty legs', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              image: ['', 'fedora:41']
              include:
                - image: someuser/debian
          container: \${{ matrix.image }}
          steps:
            - run: make
        pinned:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              image: ['', 'fedora@${DIGEST}']
          container: \${{ matrix.image }}
          steps:
            - run: make
    `);
    expect(positions(findings)).toEqual(['10:16 HIGH']);
    expect(findings[0]?.description).toContain('`fedora:41`, `someuser/debian`');
  });

  it('does not judge images given by other expressions, unless a literal tag follows', () => {
    expect(positions(scanWith(RULE, yaml`
      on: workflow_call
      jobs:
        a:
          runs-on: ubuntu-latest
          container: \${{ inputs.image }}
          steps:
            - run: make
        b:
          runs-on: ubuntu-latest
          container: \${{ env.REGISTRY }}/app:latest
          steps:
            - run: make
        c:
          runs-on: ubuntu-latest
          strategy:
            matrix: \${{ fromJSON(inputs.matrix) }}
          container: \${{ matrix.image }}
          steps:
            - run: make
    `))).toEqual(['10:16 HIGH']);
  });

  it('rates the repository\'s own images LOW: built by its workflows (matrix names too) or under its owner', () => {
    const build = yaml`
      on: push
      permissions: {}
      jobs:
        images:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              image-name: [app-cpu, app-cuda]
          steps:
            - uses: docker/build-push-action@v6
              with:
                push: true
                tags: \${{ env.REGISTRY }}/\${{ matrix.image-name }}:latest
            - run: docker build -t ghcr.io/acme/tools:latest . && docker push ghcr.io/acme/tools:latest
    `;
    const tests = yaml`
      on: push
      jobs:
        gpu:
          if: github.repository == 'acme-org/project'
          runs-on: ubuntu-latest
          container: acme/app-cuda
          services:
            tools: ghcr.io/acme/tools
            web: ghcr.io/acme-org/web:latest
            db: postgres
          steps: []
    `;
    const findings = scanWith(RULE, [
      { path: '.github/workflows/build.yml', text: build },
      { path: '.github/workflows/tests.yml', text: tests },
    ]);
    expect(positions(findings)).toEqual(['6:16 LOW', '8:14 LOW', '9:12 LOW', '10:11 MEDIUM']);
    expect(findings[0]?.description).toContain("LOW: it is the repository's own image");
    expect(findings[3]?.description).not.toContain('own image');
  });

  it('rates images under the scanned repository\'s owner LOW when the caller names the repository (step-security canary)', () => {
    const workflow = yaml`
      on: push
      jobs:
        canary:
          runs-on: ubuntu-latest
          steps:
            - uses: docker://ghcr.io/step-security/integration-test/int:latest
            - uses: docker://ghcr.io/other/tool:latest
    `;
    expect(positions(scanWith(RULE, workflow, { repository: 'step-security/harden-runner' }))).toEqual(['6:15 LOW', '7:15 HIGH']);
    // Without the repository's name nothing tells the image apart from a third party's.
    expect(positions(scanWith(RULE, workflow))).toEqual(['6:15 HIGH', '7:15 HIGH']);
  });

  it('rates floating Docker Official Images MEDIUM, not HIGH, and says why', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        a: { runs-on: ubuntu-latest, container: ubuntu:latest, steps: [{ run: make }] }
        b: { runs-on: ubuntu-latest, container: docker.io/library/debian, steps: [{ run: make }] }
        c: { runs-on: ubuntu-latest, container: bitnami/git:latest, steps: [{ run: make }] }
    `);
    expect(findings.map((f) => f.severity)).toEqual(['MEDIUM', 'MEDIUM', 'HIGH']);
    expect(findings[0]?.description).toContain('MEDIUM: it is a Docker Official Image');
  });

  it('judges a matrix per image: the repository\'s own floating image does not make a tagged third-party one HIGH (Homebrew test-bot)', () => {
    const workflow = (third: string) => yaml`
      on: pull_request
      jobs:
        test-bot:
          if: github.repository_owner == 'Homebrew'
          runs-on: ubuntu-latest
          container:
            image: \${{ matrix.container }}
          strategy:
            matrix:
              include:
                - container: ghcr.io/homebrew/ubuntu24.04:latest
                - container: ${third}
          steps:
            - run: brew test-bot
    `;
    expect(scanWith(RULE, workflow('ubuntu:22.04')).map((f) => f.severity)).toEqual(['MEDIUM']);
    expect(scanWith(RULE, workflow('ubuntu')).map((f) => f.severity)).toEqual(['MEDIUM']);
    // A floating third-party image next to it still is.
    expect(scanWith(RULE, workflow('someuser/ubuntu:latest')).map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('does not take a third-party image for an own one because a matrix of a non-building job names it', () => {
    const findings = scanWith(RULE, yaml`
      on: push
      jobs:
        test:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              os: [ubuntu, debian]
          container: someuser/ubuntu:latest
          steps:
            - run: docker build -t local-test .
    `);
    expect(findings.map((f) => f.severity)).toEqual(['HIGH']);
  });

  it('does not throw on odd shapes', () => {
    expect(scanWith(RULE, yaml`
      on: push
      jobs:
        a:
          runs-on: ubuntu-latest
          container: 42
          services:
            db: [1, 2]
            other:
              image:
          steps: []
        b:
          runs-on: ubuntu-latest
          container:
            image: { nested: true }
          steps: []
    `)).toEqual([]);
  });
});
