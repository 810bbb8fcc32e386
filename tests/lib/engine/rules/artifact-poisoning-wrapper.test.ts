import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'artifact-poisoning';

/** A composite action of the repository that wraps actions/download-artifact with retries, handing its inputs on. */
const wrapper = {
  path: '.github/actions/download-retry/action.yml',
  text: yaml`
    name: Download with retry
    inputs:
      name: { required: true }
      path: { required: true }
      run-id: { required: false, default: '' }
      github-token: { required: false, default: '' }
    runs:
      using: composite
      steps:
        - id: first
          continue-on-error: true
          uses: actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c
          with:
            name: \${{ inputs.name }}
            path: \${{ inputs.path }}
            run-id: \${{ inputs.run-id }}
            github-token: \${{ inputs.github-token }}
        - if: steps.first.outcome == 'failure'
          uses: actions/download-artifact@3e5f45b2cfb9172054b4087a40e8e0b5a5461e7c
          with:
            name: \${{ inputs.name }}
            path: \${{ inputs.path }}
            run-id: \${{ inputs.run-id }}
            github-token: \${{ inputs.github-token }}
  `,
};

const build = { path: '.github/workflows/build.yml', text: yaml`
  name: Build
  on: pull_request
  jobs:
    b:
      runs-on: ubuntu-latest
      steps:
        - uses: actions/checkout@v3
        - run: make site
        - uses: actions/upload-artifact@v4
          with: { name: website, path: build }
` };

const deploy = (runId: string, then: string) => ({
  path: '.github/workflows/deploy.yml',
  text: yaml`
    name: Deploy
    on:
      workflow_run:
        workflows: [Build]
        types: [completed]
    permissions:
      id-token: write
      contents: read
    jobs:
      d:
        runs-on: ubuntu-latest
        steps:
          - uses: actions/checkout@v3
            with: { persist-credentials: false }
          - name: Download
            uses: ./.github/actions/download-retry
            with:
              name: website
              path: site
              ${runId}
          - run: ${then}
            env:
              DEPLOY_TOKEN: \${{ secrets.DEPLOY_TOKEN }}
  `,
});

describe(`${RULE}: a download made inside the repository's own composite action, with the inputs its caller gives`, () => {
  it("is the caller's download of the run it names: a script of the fork's files run with a token is HIGH, reported once at the calling step", () => {
    const found = scanWith(RULE, [wrapper, build, deploy('run-id: ${{ github.event.workflow_run.id }}', 'bash site/deploy.sh')]);
    expect(positions(found)).toEqual(['16:15 HIGH']);
    expect(found[0]?.description).toContain('local action `./.github/actions/download-retry`, whose step runs actions/download-artifact with `run-id: ${{ github.event.workflow_run.id }}`');
    expect(found[0]?.description).toContain('into `site`');
  });

  it('is LOW when the files are only published as they are', () => {
    expect(positions(scanWith(RULE, [wrapper, build, deploy('run-id: ${{ github.event.workflow_run.id }}', 'aws s3 sync site s3://bucket/preview/')]))).toEqual(['16:15 LOW']);
  });

  it("negative: a call that names the run's own artifacts, or none (the input's empty default), downloads no other run's", () => {
    expect(scanWith(RULE, [wrapper, build, deploy('run-id: ${{ github.run_id }}', 'bash site/deploy.sh')])).toEqual([]);
    expect(scanWith(RULE, [wrapper, build, deploy('', 'bash site/deploy.sh')])).toEqual([]);
  });
});
