import { describe, expect, it } from 'vitest';
import { RUNNER_IMAGES, SUPERFLUOUS_ACTIONS } from '../../../../lib/engine/data/runner-tools.js';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'superfluous-action';

function job(runsOn: string, step: string, extra = ''): string {
  return yaml`
    on: push
    permissions:
      contents: write
    jobs:
      release:
        runs-on: ${runsOn}${extra}
        steps:
          - uses: ${step}
  `;
}

describe(RULE, () => {
  it('reports a release action on a hosted Ubuntu image as INFO, at its uses:, naming the gh command', () => {
    const findings = scanWith(RULE, job('ubuntu-24.04', 'softprops/action-gh-release@v2'));
    expect(positions(findings)).toEqual(['8:15 INFO']);
    expect(findings[0]?.description).toContain('`softprops/action-gh-release` does no more than one call of `gh`');
    expect(findings[0]?.description).toContain("without handing the job's token to another party's code");
    expect(findings[0]?.description).toContain("GitHub's `ubuntu-24.04` image already has");
    expect(findings[0]?.description).toContain('`gh release create`');
    expect(findings[0]?.recommendation).toContain('GH_TOKEN');
  });

  it("does not call GitHub's own archived action another party's code (negative for the third-party wording)", () => {
    const findings = scanWith(RULE, job('ubuntu-24.04', 'actions/upload-release-asset@v1'));
    expect(positions(findings)).toEqual(['8:15 INFO']);
    expect(findings[0]?.description).toContain("with a tool GitHub maintains, where this action of GitHub's is archived and gets no fixes");
    expect(findings[0]?.description).not.toContain('another party');
  });

  it('matches the action by owner and name whatever the case and the pin', () => {
    expect(positions(scanWith(RULE, job('windows-latest', 'NCipollo/Release-Action@2c591bcc8ecdcd2db72b97d6147f871fcd833ba5')))).toEqual(['8:15 INFO']);
  });

  it('expands a matrix of runners and reports only when every leg has the program', () => {
    const matrix = (os: string) => yaml`
      on: push
      jobs:
        build:
          strategy:
            matrix:
              os: [${os}]
          runs-on: \${{ matrix.os }}
          steps:
            - uses: mikefarah/yq@v4
              with:
                cmd: yq '.version' package.yml
    `;
    const both = scanWith(RULE, matrix('ubuntu-latest, macos-15'));
    expect(positions(both)).toEqual(['9:15 INFO']);
    expect(both[0]?.description).toContain('`ubuntu-latest`, `macos-15` images already have');
    // The Windows images list no yq.
    expect(scanWith(RULE, matrix('ubuntu-latest, windows-latest'))).toEqual([]);
  });

  it('does not assume anything of self-hosted, custom, grouped or unread runners', () => {
    for (const runsOn of ['self-hosted', '[self-hosted, linux]', 'depot-ubuntu-24.04-4', 'ubuntu-24.04-arm', 'macos-13', '${{ inputs.runner }}', '[ubuntu-latest, gpu]']) {
      expect(scanWith(RULE, job(runsOn, 'softprops/action-gh-release@v2')), runsOn).toEqual([]);
    }
    const grouped = yaml`
      on: push
      jobs:
        release:
          runs-on:
            group: release-runners
            labels: [ubuntu-latest]
          steps:
            - uses: softprops/action-gh-release@v2
    `;
    expect(scanWith(RULE, grouped)).toEqual([]);
  });

  it('is silent in a job container, where run: steps do not see the image programs', () => {
    expect(scanWith(RULE, job('ubuntu-latest', 'softprops/action-gh-release@v2', '\n    container: node:22'))).toEqual([]);
  });

  it('knows which image lacks which program: no docker daemon on ubuntu-slim or Windows', () => {
    expect(scanWith(RULE, job('ubuntu-slim', 'addnab/docker-run-action@v3'))).toEqual([]);
    expect(scanWith(RULE, job('windows-2022', 'addnab/docker-run-action@v3'))).toEqual([]);
    expect(positions(scanWith(RULE, job('ubuntu-22.04', 'addnab/docker-run-action@v3')))).toEqual(['8:15 INFO']);
    expect(positions(scanWith(RULE, job('ubuntu-slim', 'dacbd/create-issue-action@v2')))).toEqual(['8:15 INFO']);
  });

  it('leaves setup actions, rust-toolchain, create-pull-request and unlisted actions alone', () => {
    for (const uses of ['actions/setup-node@v4', 'dtolnay/rust-toolchain@stable', 'peter-evans/create-pull-request@v7', 'peter-evans/create-or-update-comment@v4', 'actions/checkout@v3', 'softprops/action-gh-release/sub@v2', './local-release']) {
      expect(scanWith(RULE, job('ubuntu-latest', uses)), uses).toEqual([]);
    }
  });

  it('does not report steps of composite actions (their runner is the caller\'s)', () => {
    const action = yaml`
      name: release
      runs:
        using: composite
        steps:
          - uses: softprops/action-gh-release@v2
    `;
    expect(scanWith(RULE, [{ path: '.github/actions/release/action.yml', text: action }])).toEqual([]);
  });

  it('keeps its data sourced: every entry and image names where it was read, images with a dated version', () => {
    for (const action of SUPERFLUOUS_ACTIONS) expect(action.source, action.slug).toMatch(/^https:\/\//);
    for (const image of RUNNER_IMAGES) {
      expect(image.sources.length, image.family).toBeGreaterThan(0);
      for (const source of image.sources) expect(source).toMatch(/^https:\/\/github\.com\/actions\/runner-images\/.+ \(image 20\d{6}\.[\d.]+\)$/);
    }
    const labels = RUNNER_IMAGES.flatMap((i) => i.labels);
    expect(new Set(labels).size).toBe(labels.length);
  });
});
