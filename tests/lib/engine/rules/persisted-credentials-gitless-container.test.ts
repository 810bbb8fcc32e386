import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';
import { gitlessImage } from '../../../../lib/engine/data/gitless-images.js';

const RULE = 'persisted-credentials';

// actions/checkout falls back to the REST API when git 2.18+ is not on the PATH of the container it runs in:
// the files arrive without a `.git`, so there is no git configuration to keep a token in.
describe(`${RULE}: a checkout in a job container that ships without git`, () => {
  const wf = (container: string, before = '') => yaml`
    on: push
    permissions:
      contents: write
    jobs:
      build:
        runs-on: ubuntu-latest
        container: ${container}
        steps:
          ${before === '' ? '- run: echo start' : before}
          - uses: actions/checkout@v3
          - run: ./build.sh
  `;

  it('negative: a minimal OS image or a slim variant, nothing installing git before the checkout', () => {
    for (const image of ['debian:stable', 'ubuntu:24.04', 'alpine:3', 'docker.io/library/debian:bookworm-slim', 'python:3.12-slim', 'node:22-alpine', '{ image: "fedora:41" }', '{ image: "ubuntu:latest", options: "--cap-add=NET_ADMIN" }']) {
      expect(scanWith(RULE, wf(image)), image).toEqual([]);
    }
  });

  it('positive: an image with git, an unknown image, or an image given by an expression', () => {
    for (const image of ['node:22', 'python:3.12', 'golang:1.23', 'buildpack-deps:bookworm', 'ghcr.io/acme/builder:1', 'acme/debian:stable', '${{ matrix.image }}']) {
      expect(positions(scanWith(RULE, wf(image))), image).toEqual(['10:15 LOW']);
    }
  });

  it('positive: an earlier step installs git (or any package) or runs git, an earlier action, or container options', () => {
    for (const before of [
      '- run: apt-get update && apt-get install -y git',
      '- run: apk add --no-cache git bash',
      '- run: dnf install -y git-core',
      '- run: apt-get install -y curl',
      '- run: git config --global --add safe.directory "$GITHUB_WORKSPACE"',
      '- uses: acme/setup-tools@v1',
    ]) {
      expect(positions(scanWith(RULE, wf('debian:stable', before))), before).toEqual(['10:15 LOW']);
    }
    expect(positions(scanWith(RULE, wf('{ image: "ubuntu:24.04", options: "-v /usr/bin:/host/bin" }')))).toEqual(['10:15 LOW']);
    expect(positions(scanWith(RULE, wf('{ image: "ubuntu:24.04", options: "--cpus 2 --mount type=bind,src=/usr,dst=/host" }')))).toEqual(['10:15 LOW']);
  });

  it('positive: no container (the runner has git)', () => {
    expect(positions(scanWith(RULE, yaml`
      on: push
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/checkout@v3
    `))).toEqual(['6:15 LOW']);
  });

  it('reads image references: registry, namespace, tag and digest', () => {
    expect(gitlessImage('ubuntu')?.name).toBe('ubuntu');
    expect(gitlessImage(`alpine:3.20@sha256:${'a'.repeat(64)}`)?.name).toBe('alpine');
    expect(gitlessImage('library/busybox:latest')?.name).toBe('busybox');
    expect(gitlessImage('python:slim-bookworm')?.name).toBe('python');
    expect(gitlessImage('python:3.12-bookworm')).toBeNull();
    expect(gitlessImage('node')).toBeNull();
    expect(gitlessImage('quay.io/debian:stable')).toBeNull();
  });
});
