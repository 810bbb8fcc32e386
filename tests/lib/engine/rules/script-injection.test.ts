import { describe, expect, it } from 'vitest';
import { CODE_SINK_ACTIONS } from '../../../../lib/engine/analysis/code-sinks.js';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'script-injection';

describe(RULE, () => {
  it('reports an outsider-chosen context at its `${{` inside a run script, HIGH, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: issues
      jobs:
        greet:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "hello"
                echo "\${{ github.event.issue.title }}"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['8:17 HIGH']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('greet');
    expect(records[0]?.finding.description).toContain('`github.event.issue.title`');
  });

  it('grades the source: structured text MEDIUM, string inputs LOW, typed inputs not at all', () => {
    const findings = scanWith(RULE, yaml`
      on:
        issues:
        workflow_dispatch:
          inputs:
            name: { type: string }
            dry: { type: boolean }
            level: { type: choice, options: [a, b] }
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo \${{ github.event.issue.html_url }}
            - run: echo \${{ inputs.name }}
            - run: echo \${{ inputs.dry }} \${{ inputs.level }}
    `);
    expect(positions(findings)).toEqual(['12:19 MEDIUM', '13:19 LOW']);
  });

  it('follows env, step outputs and shell variables, and names the chain', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          env:
            TITLE: \${{ github.event.pull_request.title }}
          steps:
            - id: meta
              env:
                BODY: \${{ github.event.pull_request.body }}
              run: |
                B="$BODY"
                echo "body=$B" >> "$GITHUB_OUTPUT"
                echo "count=3" >> "$GITHUB_OUTPUT"
            - run: echo "\${{ env.TITLE }}"
            - run: echo "$TITLE"
            - run: echo "\${{ steps.meta.outputs.count }}"
            - run: echo "\${{ steps.meta.outputs.body }}"
    `);
    expect(positions(findings)).toEqual(['15:20 HIGH', '18:20 HIGH']);
    expect(findings[0]?.description).toContain('via `env.TITLE`');
    expect(findings[1]?.description).toContain('`github.event.pull_request.body`');
    expect(findings[1]?.description).toContain('`steps.meta.outputs.body` <- `env.BODY`');
  });

  it('checks actions/github-script scripts, except JSON used as a JavaScript value', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/github-script@v7
              with:
                script: |
                  const body = \${{ toJSON(github.event.comment.body) }};
                  console.log('\${{ toJSON(github.event.comment.body) }}');
                  console.log("\${{ github.event.comment.body }}");
    `);
    expect(positions(findings)).toEqual(['10:26 HIGH', '11:26 HIGH']);
    expect(findings[0]?.description).toContain('into JavaScript code');
  });

  it('checks other actions that execute an input as code, and nothing else', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          if: contains(github.event.comment.body, '/deploy')
          steps:
            - uses: azure/cli@v2
              with:
                inlineScript: az group list --tag \${{ github.event.comment.body }}
            - uses: peter-evans/create-or-update-comment@v4
              with:
                body: \${{ github.event.comment.body }}
            - uses: azure/cli@v2
              with:
                inlineScript: { nested: map }
            - run: 42
    `);
    expect(positions(findings)).toEqual(['9:45 HIGH']);
    expect(findings[0]?.description).toContain('`inlineScript` input of azure/cli');
  });

  it('does not report fields only maintainers set', () => {
    expect(scanWith(RULE, yaml`
      on: [pull_request_target, release, push]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo \${{ github.event.pull_request.base.ref }}
                echo \${{ github.event.release.tag_name }}
                echo \${{ github.event.ref }}
                echo \${{ join(github.event.pull_request.labels.*.name, ',') }}
                echo \${{ github.event.repository.default_branch }}
                echo \${{ github.event.pull_request.head.sha }}
    `)).toEqual([]);
  });

  it('lowers data a guard vouches for to LOW and says why, but not behind a spoofable bot actor check', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        same-repo:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
        dependabot:
          if: github.event.pull_request.user.login == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
        actor:
          if: github.actor == 'dependabot[bot]'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
        either:
          if: github.event.pull_request.head.repo.full_name == github.repository || github.event_name == 'pull_request_target'
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.head_ref }}"
    `);
    expect(positions(findings)).toEqual(['7:20 LOW', '12:20 LOW', '17:20 HIGH', '22:20 HIGH']);
    expect(findings[0]?.description).toContain('the condition `github.event.pull_request.head.repo.full_name == github.repository` keeps outsiders');
    expect(findings[2]?.description).not.toContain('keeps outsiders');
  });

  it('knows which changed-files outputs are escaped (MEDIUM where only plain pull_request brings them in)', () => {
    const run = (trigger: string) => scanWith(RULE, yaml`
      on: ${trigger}
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: old
              uses: tj-actions/changed-files@v35
            - id: new
              uses: tj-actions/changed-files@0123456789abcdef0123456789abcdef01234567 # v45.0.1
            - id: unsafe
              uses: tj-actions/changed-files@v45
              with:
                safe_output: false
            - id: filter
              uses: dorny/paths-filter@v3
              with:
                filters: 'src: [src/**]'
                list-files: shell
            - run: |
                for f in \${{ steps.old.outputs.all_changed_files }}; do echo "$f"; done
                for f in \${{ steps.new.outputs.all_changed_files }}; do echo "$f"; done
                for f in \${{ steps.unsafe.outputs.all_changed_files }}; do echo "$f"; done
                for f in \${{ steps.filter.outputs.src_files }}; do echo "$f"; done
    `);
    expect(positions(run('pull_request_target'))).toEqual(['20:20 HIGH', '22:20 HIGH']);
    const plain = run('pull_request');
    expect(positions(plain)).toEqual(['20:20 MEDIUM', '22:20 MEDIUM']);
    expect(plain[0]?.description).toContain('only `pull_request` brings it in');
  });

  it('resolves the inputs of local composite actions through their callers', () => {
    const action = yaml`
      name: greet
      inputs:
        who: { description: who }
      runs:
        using: composite
        steps:
          - shell: bash
            run: echo "hello \${{ inputs.who }}"
    `;
    const records = recordsWith(RULE, [
      { path: '.github/actions/greet/action.yml', text: action },
      {
        path: '.github/workflows/a.yml',
        text: yaml`
          on: issues
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: ./.github/actions/greet
                  with:
                    who: \${{ github.event.issue.user.login }}
        `,
      },
    ]);
    expect(records).toEqual([]);
    const tainted = recordsWith(RULE, [
      { path: '.github/actions/greet/action.yml', text: action },
      {
        path: '.github/workflows/a.yml',
        text: yaml`
          on: issues
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: ./.github/actions/greet
                  with:
                    who: \${{ github.event.issue.title }}
        `,
      },
    ]);
    expect(tainted.map((r) => `${r.finding.file}:${r.finding.line}:${r.finding.column} ${r.finding.severity}`)).toEqual([
      '.github/actions/greet/action.yml:8:24 HIGH',
    ]);
    expect(tainted[0]?.job).toBeNull();
    expect(tainted[0]?.finding.description).toContain('via `inputs.who`');
  });

  it('reports the inputs of a published action at LOW', () => {
    const findings = scanWith(RULE, [
      {
        path: 'action.yml',
        text: yaml`
          name: lint
          inputs:
            args: { description: extra arguments }
          runs:
            using: composite
            steps:
              - shell: bash
                run: lint \${{ inputs.args }}
        `,
      },
    ]);
    expect(positions(findings)).toEqual(['8:17 LOW']);
  });

  it('resolves the inputs of reusable workflows called from the repository', () => {
    const reusable = yaml`
      on:
        workflow_call:
          inputs:
            target: { type: string }
      jobs:
        build:
          runs-on: ubuntu-latest
          steps:
            - run: make \${{ inputs.target }}
    `;
    const caller = (value: string) => yaml`
      on: pull_request_target
      jobs:
        call:
          uses: ./.github/workflows/build.yml
          with:
            target: ${value}
    `;
    const files = (value: string) => [
      { path: '.github/workflows/build.yml', text: reusable },
      { path: '.github/workflows/ci.yml', text: caller(value) },
    ];
    expect(scanWith(RULE, files('release'))).toEqual([]);
    expect(positions(scanWith(RULE, files('${{ github.event.pull_request.title }}')))).toEqual(['9:19 HIGH']);
  });

  it('follows matrix values, including the whole matrix (a dispatch payload is a collaborator\'s: LOW)', () => {
    const findings = scanWith(RULE, yaml`
      on: repository_dispatch
      jobs:
        j:
          runs-on: ubuntu-latest
          strategy:
            matrix:
              os: [linux]
              extra: \${{ github.event.client_payload.extra }}
          steps:
            - run: echo \${{ matrix.os }}
            - run: echo \${{ matrix.extra }}
            - run: echo '\${{ toJSON(matrix) }}'
    `);
    expect(positions(findings)).toEqual(['11:19 LOW', '12:20 LOW']);
    expect(findings[0]?.description).toContain('set by only a collaborator with write access, via `matrix.extra`');
  });

  it('ignores conditions and odd step shapes', () => {
    expect(scanWith(RULE, yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - if: contains(github.event.issue.title, 'bug')
              run: echo "\${{ github.event.issue.title == 'x' }}"
            - run:
            - uses: actions/github-script@v7
              with:
                script: [not, a, string]
        k:
          runs-on: ubuntu-latest
          steps: not-a-list
    `)).toEqual([]);
  });

  it('honours a suppression comment at the end of the script line', () => {
    expect(scanWith(RULE, yaml`
      on: issues
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo "\${{ github.event.issue.title }}" # chainbreaker: ignore[script-injection]
    `)).toEqual([]);
  });
});

describe('script-injection: every action input in the code-sink table is a sink', () => {
  for (const [slug, sink] of Object.entries(CODE_SINK_ACTIONS)) {
    for (const input of sink.inputs) {
      it(`${slug} \`${input}\` (${sink.language})`, () => {
        const findings = scanWith(RULE, yaml`
          on: issues
          jobs:
            j:
              runs-on: ubuntu-latest
              steps:
                - uses: ${slug}@v1
                  with:
                    ${input}: echo "\${{ github.event.issue.title }}"
                    not-a-sink-input: echo "\${{ github.event.issue.title }}"
        `);
        expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['8 HIGH']);
        expect(findings[0]?.description).toContain(`the \`${input}\` input of ${slug}`);
      });
    }
  }
});

describe('script-injection: taint is not invented through command outputs', () => {
  it('the URL `gh pr create` prints carries no attacker text, even when its title did', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - id: pr
              env:
                TITLE: \${{ github.event.pull_request.title }}
              run: |
                URL=$(gh pr create --title "$TITLE" --body "bump")
                echo "url=$URL" >> "$GITHUB_OUTPUT"
                echo "title=$TITLE" >> "$GITHUB_OUTPUT"
            - run: echo "\${{ steps.pr.outputs.url }}"
            - run: echo "\${{ steps.pr.outputs.title }}"
    `);
    expect(findings.map((f) => `${f.line} ${f.severity}`)).toEqual(['14 HIGH']);
  });
});
