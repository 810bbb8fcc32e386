import { describe, expect, it } from 'vitest';
import { positions, scanWith, yaml } from '../../../support/engine.js';

const RULE = 'script-injection';

describe(`${RULE}: a step output written from a value checked against an all-digits pattern`, () => {
  const wf = (check: string) => yaml`
    on:
      workflow_dispatch:
        inputs:
          run_id: { type: string }
    jobs:
      a:
        runs-on: ubuntu-latest
        steps:
          - id: v
            env:
              RUN_ID: \${{ inputs.run_id }}
            run: |
              ${check}
              echo "run_id=$RUN_ID" >> "$GITHUB_OUTPUT"
          - run: gh run download \${{ steps.v.outputs.run_id }}
  `;

  it('negative: the later expansion is of a validated value', () => {
    for (const check of [
      '[[ "$RUN_ID" =~ ^[1-9][0-9]*$ ]] || exit 1',
      'if ! [[ "$RUN_ID" =~ ^[0-9]+$ ]]; then echo bad; exit 1; fi',
      '[[ "$RUN_ID" =~ ^[0-9]{1,20}$ ]] || exit 1',
      '[[ "$RUN_ID" =~ ^[[:digit:]]+$ ]] || { echo bad; exit 1; }',
    ]) expect(scanWith(RULE, wf(check)), check).toEqual([]);
  });

  // grep matches line by line: `1`, a newline and `run_id=$(evil)` passes it and the last run_id= line wins.
  it('positive: no check, a check that lets other characters through, or a grep (line by line)', () => {
    for (const check of ['echo checking', "echo \"$RUN_ID\" | grep -Eq '^[1-9][0-9]*$' || exit 1", '[[ "$RUN_ID" =~ ^[0-9a-z;]+$ ]] || exit 1', '[[ "$RUN_ID" =~ [0-9]+ ]] || exit 1']) {
      expect(positions(scanWith(RULE, wf(check))).length, check).toBeGreaterThan(0);
    }
  });
});

describe(`${RULE}: an output written from a variable that the branch assigning it from outsider text checks`, () => {
  // The input is checked in the branch that assigns it; the other branch assigns the followed run's id.
  const wf = (check: string) => yaml`
    on:
      workflow_run: { workflows: [CI], types: [completed] }
      workflow_dispatch: { inputs: { run_id: { required: true } } }
      issue_comment:
    permissions:
      contents: write
    jobs:
      publish:
        runs-on: ubuntu-latest
        env:
          BODY: \${{ github.event.comment.body }}
        steps:
          - id: source-run
            run: |
              if [ "$GITHUB_EVENT_NAME" == "issue_comment" ]; then
                RUN_ID="$BODY"
                ${check}
              else
                RUN_ID="\${{ github.event.workflow_run.id }}"
              fi
              echo "run_id=$RUN_ID" >> "$STEP_OUTPUTS"
              echo "source_run_url=https://github.com/\${{ github.repository }}/actions/runs/$RUN_ID" >> "$STEP_OUTPUTS"
              cat "$STEP_OUTPUTS" >> "$GITHUB_OUTPUT"
          - run: gh run download "\${{ steps.source-run.outputs.run_id }}" --name x
          - uses: actions/github-script@v7
            with:
              script: "const url = '\${{ steps.source-run.outputs.source_run_url }}';"
  `;

  it('negative: the outputs built from the checked value carry no outsider text', () => {
    for (const check of [
      'if ! [[ "$RUN_ID" =~ ^[1-9][0-9]*$ ]]; then\n                  echo "::error::Invalid run_id"; exit 1\n                fi',
      '[[ "$RUN_ID" =~ ^[a-z0-9._-]+$ ]] || exit 1',
      "case \"$RUN_ID\" in ''|*[!0-9]*) exit 1 ;; esac",
    ]) expect(scanWith(RULE, wf(check)), check).toEqual([]);
  });

  it('positive: an unanchored pattern, one that admits quotes or spaces, a grep, or a check that does not stop the script', () => {
    for (const check of [
      '[[ "$RUN_ID" =~ [0-9]+ ]] || exit 1',
      '[[ "$RUN_ID" =~ ^[a-z0-9\\ \\"]+$ ]] || exit 1',
      "echo \"$RUN_ID\" | grep -Eq '^[0-9]+$' || exit 1",
      '[[ "$RUN_ID" =~ ^[0-9]+$ ]] || echo "not a number"',
    ]) expect(positions(scanWith(RULE, wf(check))), check).toEqual(['24:31 HIGH', '27:33 HIGH']);
  });

  it('positive: the output is written before the check, and the pasted input itself stays reported', () => {
    const before = wf('echo "early=$RUN_ID" >> "$GITHUB_OUTPUT"\n                [[ "$RUN_ID" =~ ^[0-9]+$ ]] || exit 1').replace('"${{ steps.source-run.outputs.run_id }}"', '"${{ steps.source-run.outputs.early }}"');
    expect(positions(scanWith(RULE, before))).toEqual(['25:31 HIGH']);
    // `RUN_ID="${{ github.event.inputs.run_id }}"` is itself an injection, before any check runs.
    const pasted = wf('[[ "$RUN_ID" =~ ^[0-9]+$ ]] || exit 1').replace('RUN_ID="$BODY"', 'RUN_ID="${{ github.event.inputs.run_id }}"');
    expect(positions(scanWith(RULE, pasted))).toEqual(['16:21 LOW']);
  });
});

describe(`${RULE}: a release tag checked in the first job, then expanded from its job output in a later job`, () => {
  const wf = (check: string) => yaml`
    on:
      push: { tags: ['desktop-v*'] }
      workflow_dispatch:
        inputs:
          tag: { type: string, required: true }
    jobs:
      prepare:
        runs-on: ubuntu-latest
        outputs:
          tag: \${{ steps.meta.outputs.tag }}
        steps:
          - id: meta
            env:
              INPUT_TAG: \${{ inputs.tag }}
            run: |
              TAG="\${INPUT_TAG:-$GITHUB_REF_NAME}"
              ${check}
              echo "tag=$TAG" >> "$GITHUB_OUTPUT"
      publish:
        needs: prepare
        runs-on: ubuntu-latest
        steps:
          - run: gh release upload "\${{ needs.prepare.outputs.tag }}" dist/*
  `;

  it('negative: the tag matched an anchored pattern of letters, digits, dots and dashes, or the job failed', () => {
    for (const check of [
      '[[ "$TAG" =~ ^desktop-v[0-9]+\\.[0-9]+\\.[0-9]+(-beta\\.[0-9]+)?$ ]] || exit 1',
      'if [[ ! "$TAG" =~ ^desktop-v[0-9]+\\.[0-9]+\\.[0-9]+$ ]]; then\n                echo "::error::bad tag"; exit 1\n              fi',
    ]) expect(scanWith(RULE, wf(check)), check).toEqual([]);
  });

  // A dispatched input can hold a newline (the REST API passes one through): `grep` passes a value one of whose
  // lines matches, and the last `tag=` line written to $GITHUB_OUTPUT wins.
  it('positive: a grep of the tag, an unanchored or any-character pattern, a check that does not fail, or none', () => {
    for (const check of [
      "if ! echo \"$TAG\" | grep -Eq '^desktop-v[0-9]+\\.[0-9]+\\.[0-9]+$'; then exit 1; fi",
      '[[ "$TAG" =~ desktop-v[0-9]+ ]] || exit 1',
      '[[ "$TAG" =~ ^desktop-v.*$ ]] || exit 1',
      '[[ "$TAG" =~ ^desktop-v[0-9.]+$ ]] || echo "not a release tag"',
      'echo "releasing $TAG"',
    ]) expect(positions(scanWith(RULE, wf(check))).map((p) => p.split(' ')[1]), check).toEqual(['LOW']);
  });
});

describe(`${RULE}: a step output that carries only counts of the pull request's changed files`, () => {
  const wf = (message: string) => yaml`
    on:
      pull_request_target:
        types: [opened, synchronize]
    permissions: {}
    jobs:
      get:
        runs-on: ubuntu-latest
        permissions:
          pull-requests: read
        steps:
          - id: get
            env:
              PR: \${{ github.event.pull_request.number }}
              GITHUB_TOKEN: \${{ github.token }}
            run: |
              data="$(gh api --paginate "/repos/$GITHUB_REPOSITORY/pulls/$PR/files")"
              files="$(echo "$data" | jq -r '.[] | .filename')"
              n="$(echo "$files" | xargs dirname | sort -u | grep -c "charts" || true)"
              bumps="$(echo "$data" | jq -r '[.[] | select(.filename|match("Chart.yaml"))] | length')"
              total=$(echo "$files" | wc -l)
              if [[ "$n" -ne "$bumps" ]]; then
                echo "error=${message}" >> "$GITHUB_OUTPUT"
              fi
          - uses: actions/github-script@ed597411d8f924073f98dfc5c65a23a2325f34cd
            with:
              script: core.setFailed('\${{ steps.get.outputs.error }}')
  `;

  it('negative: a fixed message with the counts', () => {
    expect(scanWith(RULE, wf('Charts changed: ${n}. Version bumps: ${bumps} of ${total} files'))).toEqual([]);
  });

  it('positive: the message names the changed files themselves', () => {
    expect(positions(scanWith(RULE, wf('Charts changed: ${n}: ${files}')))).toEqual(['26:35 MEDIUM']);
  });
});

describe(`${RULE}: a step output read from the event's payload file with jq`, () => {
  const wf = (field: string) => yaml`
    on: issue_comment
    jobs:
      j:
        runs-on: ubuntu-latest
        permissions:
          issues: write
        steps:
          - id: read
            run: echo "value=$(jq -r ${field} "$GITHUB_EVENT_PATH")" >> "$GITHUB_OUTPUT"
          - run: echo "\${{ steps.read.outputs.value }}"
  `;

  it('is the payload field it reads: a comment body is text anyone writes', () => {
    const found = scanWith(RULE, wf('.comment.body'));
    expect(positions(found)).toEqual(['10:20 MEDIUM']);
    expect(found[0]?.description).toContain('github.event.comment.body');
  });

  it('negative: a number of the payload carries no text', () => {
    expect(scanWith(RULE, wf('.issue.number'))).toEqual([]);
  });
});
