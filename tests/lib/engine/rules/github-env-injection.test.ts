import { describe, expect, it } from 'vitest';
import { positions, recordsWith, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'github-env-injection';

describe(RULE, () => {
  it('reports a write of an attacker-controlled env var to GITHUB_ENV at the writing line, bound to the job', () => {
    const records = recordsWith(RULE, yaml`
      on: pull_request_target
      jobs:
        label:
          runs-on: ubuntu-latest
          steps:
            - env:
                TITLE: \${{ github.event.pull_request.title }}
              run: |
                echo "starting"
                echo "PR_TITLE=$TITLE" >> "$GITHUB_ENV"
    `);
    expect(positions(records.map((r) => r.finding))).toEqual(['10:11 HIGH']);
    expect(records[0]?.finding.rule_id).toBe(RULE);
    expect(records[0]?.job).toBe('label');
    expect(records[0]?.finding.description).toContain('`github.event.pull_request.title`');
    expect(records[0]?.finding.description).toContain('`$TITLE`');
  });

  it('recognises the ways of writing to GITHUB_ENV and GITHUB_PATH', () => {
    const findings = scanWith(RULE, yaml`
      on: issue_comment
      jobs:
        j:
          runs-on: ubuntu-latest
          env:
            BODY: \${{ github.event.comment.body }}
          steps:
            - run: echo "A=\${{ github.event.comment.body }}" >> $GITHUB_ENV
            - run: |
                value="$BODY"
                echo "B=$value" | tee -a "\${GITHUB_ENV}"
            - run: |
                {
                  echo "C<<EOF"
                  echo "$BODY"
                  echo "EOF"
                } >> "$GITHUB_ENV"
            - run: echo "$BODY" >> $GITHUB_PATH
            - shell: pwsh
              run: |
                "D=$env:BODY" | Out-File -FilePath $env:GITHUB_ENV -Append
    `);
    expect(positions(findings)).toEqual(['8:14 HIGH', '11:11 HIGH', '17:11 HIGH', '18:14 HIGH', '21:11 HIGH']);
    expect(findings[3]?.description).toContain('`$GITHUB_PATH`');
  });

  it('reports file contents written after a download of another run\'s artifacts', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_run:
          workflows: [CI]
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/download-artifact@v4
              with:
                run-id: \${{ github.event.workflow_run.id }}
                path: \${{ runner.temp }}/pr
            - run: echo "PR_NUMBER=$(cat "$RUNNER_TEMP/pr/number")" >> "$GITHUB_ENV"
        without-download:
          runs-on: ubuntu-latest
          steps:
            - run: echo "VERSION=$(cat VERSION)" >> "$GITHUB_ENV"
    `);
    expect(positions(findings)).toEqual(['12:14 HIGH']);
    expect(findings[0]?.description).toContain('artifact');
  });

  it('does not report constants, fixed values, validated variables or unprivileged workflows', () => {
    expect(scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "MODE=release" >> "$GITHUB_ENV"
            - run: echo "PR=\${{ github.event.pull_request.number }}" >> "$GITHUB_ENV"
            - env:
                BRANCH: \${{ github.head_ref }}
              run: |
                if [[ ! "$BRANCH" =~ ^[A-Za-z0-9._/-]+$ ]]; then exit 1; fi
                echo "BRANCH=$BRANCH" >> "$GITHUB_ENV"
    `)).toEqual([]);
    expect(scanWith(RULE, yaml`
      on: pull_request
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
    `)).toEqual([]);
  });

  it('lowers data a guard vouches for to LOW and names the gate', () => {
    const findings = scanWith(RULE, yaml`
      on: pull_request_target
      jobs:
        j:
          if: github.event.pull_request.head.repo.full_name == github.repository
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.pull_request.title }}" >> "$GITHUB_ENV"
    `);
    expect(findings.map((f) => f.severity)).toEqual(['LOW']);
    expect(findings[0]?.description).toContain('keeps outsiders\' values out');
  });

  it('does not report a value only a collaborator sets (dispatch payload, branch of a run no pull request starts)', () => {
    expect(scanWith(RULE, yaml`
      on: repository_dispatch
      jobs:
        j:
          runs-on: ubuntu-latest
          steps:
            - run: echo "T=\${{ github.event.client_payload.tag }}" >> "$GITHUB_ENV"
    `)).toEqual([]);
    const ci = '.github/workflows/ci.yml';
    const follow = (ciTriggers: string) => scanWith(RULE, [
      { path: ci, text: yaml`
        name: CI
        on: ${ciTriggers}
        jobs:
          b:
            runs-on: ubuntu-latest
            steps:
              - run: make
      ` },
      { path: '.github/workflows/after.yml', text: yaml`
        on:
          workflow_run:
            workflows: [CI]
        jobs:
          j:
            runs-on: ubuntu-latest
            steps:
              - run: echo "B=\${{ github.event.workflow_run.head_branch }}" >> "$GITHUB_ENV"
      ` },
    ]);
    // The runs it follows come from pushes only: their branch names are collaborators'.
    expect(follow('push')).toEqual([]);
    expect(follow('pull_request').map((f) => f.severity)).toEqual(['HIGH']);
  });
});
