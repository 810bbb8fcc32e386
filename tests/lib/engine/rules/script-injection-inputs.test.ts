import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'script-injection';

/**
 * Inputs of `workflow_dispatch` and `workflow_call` expanded into a script: whoever dispatches (a collaborator)
 * or whatever the caller passes decides the text. Free text (type `string`, or no type) is an injection; typed
 * inputs (`number`, `boolean`, `choice`) are not free text.
 */
describe(`${RULE}: dispatch and call inputs`, () => {
  it('reports a string dispatch input at LOW, in run: and in a github-script script, in both spellings', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_dispatch:
          inputs:
            tag: { type: string }
            notes: {}
            count: { type: number }
            env: { type: choice, options: [dev, prod] }
      permissions:
        contents: write
      jobs:
        release:
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.inputs.tag }}"
            - run: echo "\${{ inputs.notes }}"
            - uses: actions/github-script@v7
              with:
                script: |
                  core.info("\${{ inputs.tag }}")
            - run: echo "\${{ inputs.count }} \${{ github.event.inputs.env }}"
    `);
    expect(positions(findings)).toEqual(['14:20 LOW', '15:20 LOW', '19:24 LOW']);
    expect(findings[0]?.description).toContain('collaborator');
  });

  it('rates a workflow_call input by what its callers pass: event text of an outsider, or a collaborator\'s input', () => {
    const reusable = yaml`
      on:
        workflow_call:
          inputs:
            title: { type: string }
            count: { type: number }
      jobs:
        build:
          runs-on: ubuntu-latest
          permissions:
            contents: write
          steps:
            - run: echo "\${{ inputs.title }} \${{ inputs.count }}"
    `;
    const caller = (trigger: string, value: string) => yaml`
      on: ${trigger}
      jobs:
        call:
          uses: ./.github/workflows/reusable.yml
          with:
            title: ${value}
            count: 3
    `;
    const scan = (trigger: string, value: string) =>
      scanWith(RULE, [
        { path: '.github/workflows/reusable.yml', text: reusable },
        { path: '.github/workflows/caller.yml', text: caller(trigger, value) },
      ]);
    // An issue's title, which anyone with a GitHub account writes, in a job that can push.
    const outsider = scan('issues', '${{ github.event.issue.title }}');
    expect(positions(outsider)).toEqual(['12:20 HIGH']);
    expect(outsider[0]?.description).toContain('github.event.issue.title');
    // A dispatch input: a collaborator's own text.
    expect(positions(scan('{ workflow_dispatch: { inputs: { title: { type: string } } } }', '${{ inputs.title }}'))).toEqual(['12:20 LOW']);
    // A constant.
    expect(scan('issues', 'fixed')).toEqual([]);
  });
});

/**
 * A composite action that exists to run the command its caller gives (`bash -c "${{ inputs.command }}"`,
 * `env: { CMD: ${{ inputs.run }} }` then `eval "$CMD"`): whoever sets its other inputs already chooses the code
 * it runs, so their injection gives that caller nothing more.
 */
describe(`${RULE}: actions that run their caller's command`, () => {
  const runner = (script: string, env = '') => ({
    path: '.github/actions/run/action.yml',
    text: yaml`
      name: run
      description: runs a command
      inputs:
        command: { description: the command }
        workdir: { description: where, default: . }
      runs:
        using: composite
        steps:
          - shell: bash${env}
            run: |
              cd \${{ inputs.workdir }}
              ${script}
    `,
  });
  const caller = (workdir: string) => ({
    path: '.github/workflows/ci.yml',
    text: yaml`
      on:
        pull_request_target:
        workflow_dispatch:
          inputs:
            dir: { required: true }
      permissions: { contents: write }
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - uses: ./.github/actions/run
              with:
                command: make test
                workdir: ${workdir}
    `,
  });

  it('drops the other inputs when the callers here pass no outsider text, and is INFO for a published action', () => {
    expect(scanWith(RULE, [runner('bash -c "${{ inputs.command }}"'), caller('${{ inputs.dir }}')])).toEqual([]);
    expect(scanWith(RULE, [runner('eval "$CMD"', '\n            env: { CMD: ${{ inputs.command }} }'), caller('${{ inputs.dir }}')])).toEqual([]);
    const published = scanWith(RULE, [runner('${{ inputs.command }}')]);
    expect(positions(published)).toEqual(['11:12 INFO']);
    expect(published[0]?.description).toContain('exists to run the command its caller gives (`inputs.command`)');
  });

  it('negative: keeps the finding at the call that passes outsider text, and in an action that runs no caller command', () => {
    const outsider = scanWith(RULE, [runner('bash -c "${{ inputs.command }}"'), caller('${{ github.event.pull_request.head.ref }}')]);
    expect(positions(outsider)).toEqual(['11:12 HIGH']);
    expect(outsider[0]?.description).toContain('run by step 1 of job `a`');
    // Runs a fixed command: the collaborator's `dir` is still text pasted into code (LOW), and a published one too.
    expect(positions(scanWith(RULE, [runner('make "${{ inputs.command }}"'), caller('${{ inputs.dir }}')]))).toEqual(['11:12 LOW']);
    expect(positions(scanWith(RULE, [runner('echo "${{ inputs.command }}"')]))).toEqual(['11:12 LOW', '12:15 LOW']);
  });
});
