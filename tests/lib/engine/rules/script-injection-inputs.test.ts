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
