import { describe, expect, it } from 'vitest';
import { githubScriptChecks, validatedVariables } from '../../../../lib/engine/analysis/script-outputs.js';
import { validatedBefore } from '../../../../lib/engine/analysis/validation.js';
import { buildWorkflow, type Workflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { positions, scanWith, yaml } from '../../../support/engine.js';

function parseWorkflow(text: string): Workflow {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  return buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root);
}

describe('validatedVariables: checks that fail the step unless a value has a known shape', () => {
  it('reads anchored patterns, allow-list and number case, and jq numbers', () => {
    const found = (script: string) => [...validatedVariables(script)].sort();
    expect(found('[[ "$PR" =~ ^[0-9]+$ ]] || exit 1')).toEqual(['PR']);
    expect(found('if ! [[ "$V" =~ ^v[0-9]+\\.[0-9]+$ ]]; then\n  exit 1\nfi')).toEqual(['V']);
    expect(found('case "$ENV" in\n  staging|production) ;;\n  *) echo "unknown"; exit 1 ;;\nesac')).toEqual(['ENV']);
    expect(found("case $N in\n  ''|*[!0-9]*) echo bad; exit 1 ;;\nesac")).toEqual(['N']);
    expect(found("PR=$(jq -r '.number | tonumber' event.json)")).toEqual(['PR']);
    // Digits or nothing pass: the empty value carries no code either.
    expect(found('case $N in\n  *[!0-9]*) exit 1 ;;\nesac')).toEqual(['N']);
  });

  it('reads counts: a last stage of `grep -c` or `wc -l` on standard input, jq `length`, shell arithmetic', () => {
    const found = (script: string) => [...validatedVariables(script)].sort();
    expect(found('N="$(echo "$FILES" | grep -c "charts" || true)"')).toEqual(['N']);
    expect(found('N=$(echo "$FILES" | grep -vc "\\.md" || true)')).toEqual(['N']);
    expect(found('LINES=$(echo "$FILES" | wc -l)')).toEqual(['LINES']);
    expect(found(`B="$(echo "$DATA" | jq -r '[.[] | select(.filename|match("Chart.yaml"))] | length')"`)).toEqual(['B']);
    expect(found(`B=$(jq 'length' files.json)`)).toEqual(['B']);
    expect(found('T=$(( A + B ))')).toEqual(['T']);
  });

  it('negative: a count with a file operand (which prints the name), a stage after the count, a reassigned or read variable', () => {
    const found = (script: string) => [...validatedVariables(script)];
    expect(found('N=$(grep -c x $FILES)')).toEqual([]);
    expect(found('N=$(wc -l "$F")')).toEqual([]);
    expect(found('N=$(echo "$F" | grep -c x | sed s/0/none/)')).toEqual([]);
    expect(found('N=$(echo "$F" | grep x)')).toEqual([]);
    expect(found(`B=$(jq -r '.[] | .title' f.json)`)).toEqual([]);
    expect(found(`B=$(jq -r 'length, .title' f.json)`)).toEqual([]);
    expect(found('N=$(echo "$F" | wc -l)\nN="$TITLE"')).toEqual([]);
    expect(found('N=$(echo "$F" | wc -l)\nread -r N < title.txt')).toEqual([]);
  });

  it('reads integer comparisons of `[` and `test`, which fail on anything but an integer', () => {
    const found = (script: string) => [...validatedVariables(script)].sort();
    expect(found('test "$PR" -eq "$PR" || exit 1')).toEqual(['PR']);
    expect(found('[ "$PR" -eq "$PR" ] 2>/dev/null || exit 1')).toEqual(['PR']);
    expect(found('if ! [ "$PR" -gt 0 ] 2>/dev/null; then\n  echo "not a number"\n  exit 1\nfi')).toEqual(['PR']);
    expect(found('[ 0 -lt "${PR}" ] || { echo bad; exit 1; }')).toEqual(['PR']);
  });

  it('reads a negated `[[ A && B ]]` as `! [[ A ]] || ! [[ B ]]`: the branch that exits runs unless both match', () => {
    const found = (script: string) => [...validatedVariables(script)].sort();
    expect(found('if ! [[ "$SHA" =~ ^[0-9a-f]{40}$ && "$PR" =~ ^[0-9]+$ ]]; then\n  exit 1\nfi')).toEqual(['PR', 'SHA']);
    expect(found('! [[ "$SHA" =~ ^[0-9a-f]{40}$ && "$PR" =~ ^[0-9]+$ ]] && exit 1')).toEqual(['PR', 'SHA']);
    // `! [[ A || B ]]` exits only when neither matches: one matching value lets the other through.
    expect(found('if ! [[ "$SHA" =~ ^[0-9a-f]{40}$ || "$PR" =~ ^[0-9]+$ ]]; then\n  exit 1\nfi')).toEqual([]);
  });

  it('negative: not an integer comparison that goes on, nor `[[ -eq ]]`, which evaluates the value as arithmetic', () => {
    const found = (script: string) => [...validatedVariables(script)];
    expect(found('test "$PR" -eq "$PR" || echo "not a number"')).toEqual([]);
    expect(found('[[ $PR -eq $PR ]] || exit 1')).toEqual([]);
    expect(found('[ "$PR" -eq "$PR" -o 1 = 1 ] || exit 1')).toEqual([]);
    expect(found('[ "$PR" -eq "$PR" ] && echo ok')).toEqual([]);
  });

  it('does not take unanchored or open patterns, glob branches, or checks that never fail the step', () => {
    const found = (script: string) => [...validatedVariables(script)];
    expect(found('[[ "$PR" =~ ^[0-9]+$ ]] && echo ok')).toEqual([]);
    expect(found('[[ "$T" =~ ^.*$ ]] || exit 1')).toEqual([]);
    expect(found('echo "$V" | grep -E \'^v.+$\' || exit 1')).toEqual([]);
    // grep checks each line: a value with a newline passes whatever follows it.
    expect(found('if ! echo "$V" | grep -qE \'^v[0-9]+\\.[0-9]+$\'; then\n  exit 1\nfi')).toEqual([]);
    expect(found('printf \'%s\' "$TAG" | grep -Eq \'^(main|dev)$\' || exit 2')).toEqual([]);
    // A catch-all that does not fail, or another branch that is a glob, lets anything through.
    expect(found('case "$ENV" in\n  staging|production) ;;\n  *) echo "other" ;;\nesac\nexit 1')).toEqual([]);
    expect(found('case "$ENV" in\n  prod*) ;;\n  *) exit 1 ;;\nesac')).toEqual([]);
    // A glob branch that passes before the number check lets anything through.
    expect(found('case $N in\n  *) ;;\n  *[!0-9]*) exit 1 ;;\nesac')).toEqual([]);
    expect(found("PR=$(jq -r '.number' event.json)")).toEqual([]);
  });
});

describe('a value checked before use is not an injection (script-injection)', () => {
  const RULE = 'script-injection';

  it('drops uses after a check in an earlier step, a needed job, or earlier in the same script', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_dispatch:
          inputs:
            version: { required: true }
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - name: Validate
              env:
                VERSION: \${{ inputs.version }}
              run: |
                if [[ ! "$VERSION" =~ ^v[0-9]+\\.[0-9]+\\.[0-9]+$ ]]; then exit 1; fi
        release:
          needs: check
          runs-on: ubuntu-latest
          steps:
            - run: git tag \${{ inputs.version }} && git push origin \${{ github.event.inputs.version }}
        same:
          runs-on: ubuntu-latest
          steps:
            - env:
                V: \${{ inputs.version }}
              run: |
                case "$V" in
                  v1|v2) ;;
                  *) exit 1 ;;
                esac
                echo \${{ inputs.version }}
            - run: echo \${{ inputs.version }}
    `);
    expect(findings).toEqual([]);
  });

  it('keeps uses a check does not always precede: a step after a failure, a conditional check, an unchecked job', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_dispatch:
          inputs:
            version: { required: true }
      jobs:
        a:
          runs-on: ubuntu-latest
          steps:
            - if: github.ref == 'refs/heads/main'
              env:
                V: \${{ inputs.version }}
              run: '[[ "$V" =~ ^[0-9]+$ ]] || exit 1'
            - run: echo \${{ inputs.version }}
        b:
          runs-on: ubuntu-latest
          steps:
            - env:
                V: \${{ inputs.version }}
              run: '[[ "$V" =~ ^[0-9]+$ ]] || exit 1'
            - if: always()
              run: echo \${{ inputs.version }}
        c:
          needs: b
          if: always()
          runs-on: ubuntu-latest
          steps:
            - run: echo \${{ inputs.version }}
        d:
          runs-on: ubuntu-latest
          steps:
            - run: |
                echo \${{ inputs.version }}
                V="\${{ inputs.version }}"
                [[ "$V" =~ ^[0-9]+$ ]] || exit 1
    `);
    expect(positions(findings)).toEqual(['13:19 LOW', '21:19 LOW', '27:19 LOW', '32:16 LOW', '33:14 LOW']);
  });
});

describe('a check of the pasted value, or of a copy of the variable, gates later steps and the jobs that need it', () => {
  const RULE = 'script-injection';

  it('drops later uses after `[[ "${{ inputs.version }}" =~ ... ]]` or a checked copy, in needing jobs and through outputs', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_dispatch:
          inputs:
            version: { required: true }
            tag: { required: true }
      jobs:
        check:
          runs-on: ubuntu-latest
          outputs:
            tag: \${{ steps.t.outputs.tag }}
          steps:
            - run: |
                if [[ ! "\${{ inputs.version }}" =~ ^[0-9]+\\.[0-9]+\\.[0-9]+$ ]]; then
                  echo "bad version"
                  exit 1
                fi
            - id: t
              env:
                INPUT: \${{ inputs.tag }}
              run: |
                TAG="$INPUT"
                if ! [[ "$TAG" =~ ^v[0-9]+$ ]]; then echo bad; exit 1; fi
                echo "tag=$TAG" >> "$GITHUB_OUTPUT"
        build:
          needs: check
          runs-on: ubuntu-latest
          steps:
            - run: echo \${{ inputs.version }}
        release:
          needs: build
          runs-on: ubuntu-latest
          steps:
            - run: git tag v\${{ inputs.version }} \${{ inputs.tag }} && git push origin \${{ needs.check.outputs.tag }}
    `);
    // Only the check itself, where the value is pasted into the script before any check runs.
    expect(positions(findings)).toEqual(['13:20 LOW']);
  });

  it('negative: keeps uses when the pasted check does not fail, the copy is assigned again, or the job runs after a failure', () => {
    const findings = scanWith(RULE, yaml`
      on:
        workflow_dispatch:
          inputs:
            version: { required: true }
            tag: { required: true }
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - run: '[[ "\${{ inputs.version }}" =~ ^[0-9.]+$ ]] && echo ok'
            - env:
                INPUT: \${{ inputs.tag }}
              run: |
                TAG="$INPUT"
                TAG="\${TAG#refs/tags/}"
                [[ "$TAG" =~ ^v[0-9]+$ ]] || exit 1
        release:
          needs: check
          runs-on: ubuntu-latest
          steps:
            - run: git tag \${{ inputs.version }} \${{ inputs.tag }}
        cleanup:
          needs: release
          if: always()
          runs-on: ubuntu-latest
          steps:
            - run: |
                [[ "\${{ inputs.version }}" =~ ^[0-9.]+$ ]] || exit 1
                echo \${{ inputs.version }}
    `);
    expect(positions(findings)).toEqual(['10:19 LOW', '21:22 LOW', '21:44 LOW', '28:15 LOW', '29:16 LOW']);
  });

  it('takes a step output written after a check on the same line (`if ! [[ ... ]]; then exit 1; fi; echo "id=$ID" >> "$GITHUB_OUTPUT"`)', () => {
    const wf = (check: string) => yaml`
      on:
        issue_comment:
          types: [created]
      permissions:
        actions: write
      jobs:
        go:
          runs-on: ubuntu-latest
          steps:
            - id: x
              env:
                BODY: \${{ github.event.comment.body }}
              run: |
                ID="\${BODY#/rerun }"
                ${check}echo "run_id=$ID" >> "$GITHUB_OUTPUT"
            - run: gh run rerun \${{ steps.x.outputs.run_id }}
    `;
    expect(scanWith(RULE, wf('if ! [[ "$ID" =~ ^[1-9][0-9]*$ ]]; then exit 1; fi; '))).toEqual([]);
    expect(positions(scanWith(RULE, wf('if ! [[ "$ID" =~ ^[1-9].*$ ]]; then exit 1; fi; ')))).toEqual(['16:27 HIGH']);
  });
});

describe('githubScriptChecks: an actions/github-script script that checks a value and stops otherwise', () => {
  it('reads anchored patterns, integer tests, allow-lists and numbers, and whether a failed check fails the step', () => {
    const found = (script: string) => Object.fromEntries([...githubScriptChecks(script)].map(([name, check]) => [name, check.fails]));
    expect(found("const pr = context.payload.comment.body.split(' ')[1];\nif (!/^\\d+$/.test(pr)) {\n  core.setFailed(`bad ${pr}`);\n  return;\n}")).toEqual({ pr: true });
    expect(found("const env = process.env.TARGET;\nif (!['staging', 'prod'].includes(env)) throw new Error('no');")).toEqual({ env: true });
    expect(found('if (!ALLOWED.has(kind) || !Number.isInteger(n)) return;')).toEqual({ kind: false, n: false });
    expect(found('const n = parseInt(process.env.N, 10);')).toEqual({ n: false });
    expect(found("if (!tag.match(/^v[0-9.]+$/)) { return core.setFailed('bad tag') }")).toEqual({ tag: true });
    // `Number` takes only a number's text: a quote or a `;` makes it NaN.
    expect(found("const pr = fs.readFileSync('pr/number', 'utf8');\nif (!Number.isInteger(Number(pr))) { core.setFailed('bad'); return; }")).toEqual({ pr: true });
    expect(found("if (!Number.isSafeInteger(+pr)) throw new Error('bad');")).toEqual({ pr: true });
    // A counted quantifier of a check beside it (`{40}`) is no block: both checks of one `if` count, in either order.
    expect(found("if (!/^[0-9a-f]{40}$/.test(sha) || !/^\\d+$/.test(pr)) { core.setFailed('invalid'); return; }")).toEqual({ sha: true, pr: true });
    expect(found("if (!/^\\d+$/.test(pr) || !/^[0-9a-f]{40}$/.test(sha)) throw new Error('invalid');")).toEqual({ pr: true, sha: true });
  });

  it('does not take open patterns, checks that are not negated, or guards that go on', () => {
    const found = (script: string) => [...githubScriptChecks(script).keys()];
    expect(found("if (!/^.*$/.test(t)) throw new Error('x');")).toEqual([]);
    expect(found("if (/^\\d+$/.test(t)) console.log('a number');")).toEqual([]);
    expect(found("if (!/^\\d+$/.test(t)) { console.log('not a number'); }")).toEqual([]);
    expect(found("if (!/\\d+/.test(t)) throw new Error('x');")).toEqual([]);
    // `parseInt` reads `1;rm -rf /` as 1: the value itself is not checked.
    expect(found("if (!Number.isInteger(parseInt(t, 10))) throw new Error('x');")).toEqual([]);
    expect(found("if (!Number.isInteger(Number(t))) console.log('not a number');")).toEqual([]);
  });

  it('takes JavaScript classes of safe characters (`[\\w.-]`), but not the `m` flag or classes admitting spaces, quotes or `$`', () => {
    const found = (check: string) => [...githubScriptChecks(`const v = process.env.V;\nif (!${check}.test(v)) { core.setFailed('bad'); return; }`).keys()];
    for (const check of ['/^[1-9][0-9]*$/', '/^\\d+$/', '/^[\\w.-]+$/', '/^[a-zA-Z0-9._-]+$/i']) expect(found(check), check).toEqual(['v']);
    // With `m`, `$` matches at every line end: `1`, a newline and anything after it pass.
    for (const check of ['/^\\d+$/m', '/^[\\w\\s]+$/', "/^[a-z' ]+$/", '/^[a-z$]+$/', '/^[^;]+$/']) expect(found(check), check).toEqual([]);
  });
});

describe('a value an actions/github-script step checks is not an injection (script-injection)', () => {
  const RULE = 'script-injection';
  const workflow = (check: string) => yaml`
    on: issue_comment
    permissions: { contents: write }
    jobs:
      parse:
        runs-on: ubuntu-latest
        outputs:
          pr: \${{ steps.parse.outputs.pr }}
        steps:
          - id: parse
            uses: actions/github-script@v7
            env:
              BODY: \${{ github.event.comment.body }}
            with:
              script: |
                const pr = process.env.BODY.split(' ')[1];
                ${check}
                core.setOutput('pr', pr);
          - run: echo "\${{ steps.parse.outputs.pr }}"
      use:
        needs: parse
        runs-on: ubuntu-latest
        steps:
          - run: git fetch origin "pull/\${{ needs.parse.outputs.pr }}/head"
  `;

  it('drops the output a check stops, in its job and in the jobs that need it', () => {
    expect(scanWith(RULE, workflow("if (!/^[0-9]+$/.test(pr)) { core.setFailed('not a number'); return; }"))).toEqual([]);
  });

  it('keeps it when the check lets anything through or does not stop the script', () => {
    expect(positions(scanWith(RULE, workflow("if (!/^.+$/.test(pr)) { core.setFailed('empty'); return; }")))).toEqual(['18:20 HIGH', '23:37 HIGH']);
    expect(positions(scanWith(RULE, workflow("if (!/^[0-9]+$/.test(pr)) { core.warning('odd'); }")))).toEqual(['18:20 HIGH', '23:37 HIGH']);
  });

  it('drops a later use of the event field the script checked, in the job and in jobs that need it', () => {
    const findings = scanWith(RULE, yaml`
      on: issues
      permissions: { contents: write }
      jobs:
        check:
          runs-on: ubuntu-latest
          steps:
            - uses: actions/github-script@v7
              with:
                script: |
                  const title = context.payload.issue.title;
                  if (!/^release v[0-9]+\\.[0-9]+$/.test(title)) throw new Error('not a release request');
            - run: echo "\${{ github.event.issue.title }}"
            - run: echo "\${{ github.event.issue.body }}"
        tag:
          needs: check
          runs-on: ubuntu-latest
          steps:
            - run: echo "\${{ github.event.issue.title }}"
    `);
    expect(positions(findings)).toEqual(['13:20 HIGH']);
  });
});

describe('a composite action\'s input checked before use is not an injection (script-injection)', () => {
  const action = (check: string, condition = '') => [
    {
      path: 'act/action.yml',
      text: yaml`
        name: comment
        inputs:
          pr-number:
            required: true
        runs:
          using: composite
          steps:
            - shell: bash${condition}
              env:
                PR: \${{ inputs.pr-number }}
              run: |
                ${check}
                gh pr checkout \${{ inputs.pr-number }}
            - shell: bash
              run: echo "PR=\${{ inputs.pr-number }}" >> "$GITHUB_ENV"
      `,
    },
  ];

  it('drops uses after a check that stops the action, in the same script and in later steps', () => {
    expect(scanWith('script-injection', action('if ! [[ "$PR" =~ ^[1-9][0-9]*$ ]]; then\n                  exit 1\n                fi'))).toEqual([]);
    expect(scanWith('script-injection', action('[[ -z "$PR" || ! "$PR" =~ ^[0-9]+$ ]] && exit 1'))).toEqual([]);
  });

  it('negative: keeps them after a check that goes on, a grep, or in a step that may be skipped', () => {
    expect(positions(scanWith('script-injection', action('[[ "$PR" =~ ^[0-9]+$ ]] || echo "odd"')))).toEqual(['13:24 LOW', '15:21 LOW']);
    expect(positions(scanWith('script-injection', action("echo \"$PR\" | grep -qE '^[0-9]+$' || exit 1")))).toEqual(['13:24 LOW', '15:21 LOW']);
    // A check in a step with its own `if:` may not run: the later step keeps its finding.
    expect(positions(scanWith('script-injection', action('[[ "$PR" =~ ^[0-9]+$ ]] || exit 1', "\n              if: inputs.pr-number != ''")))).toEqual(['16:21 LOW']);
  });
});

describe('validatedBefore: a check two or more `needs:` levels up', () => {
  // `gate` checks the number, `relay` hands its output on, `use` (needs relay only) reads relay's output.
  const chain = (relay: string) => parseWorkflow(yaml`
    on: workflow_dispatch
    jobs:
      gate:
        runs-on: ubuntu-latest
        outputs:
          n: \${{ steps.n.outputs.n }}
        steps:
          - id: n
            run: echo "n=$(cat count.txt)" >> "$GITHUB_OUTPUT"
          - env:
              N: \${{ steps.n.outputs.n }}
            run: '[[ "$N" =~ ^[0-9]+$ ]] || exit 1'
      relay:
        needs: gate
${relay}
        runs-on: ubuntu-latest
        outputs:
          n: \${{ needs.gate.outputs.n }}
          other: \${{ steps.x.outputs.other }}
        steps:
          - id: x
            run: echo relay
      middle:
        needs: relay
        runs-on: ubuntu-latest
        outputs:
          n: \${{ needs.relay.outputs.n }}
        steps:
          - run: echo middle
      use:
        needs: middle
        runs-on: ubuntu-latest
        steps:
          - run: echo "\${{ needs.middle.outputs.n }}" "\${{ needs.relay.outputs.other }}"
  `);
  const useStep = (wf: Workflow) => wf.jobs.find((j) => j.id === 'use')?.steps[0];

  it('follows outputs handed on through the needs chain to the job that checked them', () => {
    const wf = chain('');
    const step = useStep(wf);
    expect(step).toBeDefined();
    if (step === undefined) return;
    expect(validatedBefore(step, ['needs.middle.outputs.n'])).toMatch(/job `gate`/);
    // A job that only needs the relay still sees the checked value.
    const relayStep = wf.jobs.find((j) => j.id === 'middle')?.steps[0];
    expect(relayStep === undefined ? null : validatedBefore(relayStep, ['needs.relay.outputs.n'])).toMatch(/job `gate`/);
  });

  it('does not hand on an output nothing checked, nor through a job that runs after a failure', () => {
    const step = useStep(chain(''));
    if (step === undefined) throw new Error('no step');
    expect(validatedBefore(step, ['needs.relay.outputs.other'])).toBeNull();
    const afterFailure = useStep(chain('        if: always()'));
    if (afterFailure === undefined) throw new Error('no step');
    expect(validatedBefore(afterFailure, ['needs.middle.outputs.n'])).toBeNull();
  });
});

describe('a gate job upstream: checks reach the jobs whose condition still requires its success', () => {
  const RULE = 'script-injection';
  // `gate` checks the input; `use` needs it (with the condition given) and pastes the input into its script.
  const gated = (condition: string, gateStep: string, extra = '') => yaml`
    on:
      workflow_dispatch:
        inputs:
          version: { required: true }
    jobs:
      gate:
        runs-on: ubuntu-latest
        steps:
${gateStep}
      use:
        needs: gate
${condition}
        runs-on: ubuntu-latest
        steps:
          - run: echo \${{ inputs.version }}
${extra}
  `;
  const CHECK = String.raw`          - env:
              V: ${'$'}{{ inputs.version }}
            run: '[[ "$V" =~ ^v?[0-9]+\.[0-9]+\.[0-9]+$ ]] || exit 1'`;
  /** The findings on the use in job `use` (`- run: echo ${{ inputs.version }}`), as `column severity`. */
  const use = (text: string) => {
    const line = text.split('\n').findIndex((l, i, all) => l.includes('- run: echo ${{ inputs.version }}') && all.slice(0, i).some((a) => a.trim() === 'use:')) + 1;
    return positions(scanWith(RULE, text)).filter((p) => p.startsWith(`${line}:`)).map((p) => p.slice(p.indexOf(':') + 1));
  };

  it('drops the use when the condition runs after a failure but demands the gate\'s success', () => {
    expect(use(gated('', CHECK))).toEqual([]);
    expect(use(gated("        if: always() && needs.gate.result == 'success'", CHECK))).toEqual([]);
    expect(use(gated("        if: ${{ !cancelled() && 'success' == needs.gate.result }}", CHECK))).toEqual([]);
    expect(use(gated('        if: ${{ !failure() && !cancelled() }}', CHECK))).toEqual([]);
    expect(use(gated("        if: always() && !contains(needs.*.result, 'failure') && !contains(needs.*.result, 'cancelled')", CHECK))).toEqual([]);
    expect(use(gated('        if: success() || failure()', CHECK))).toEqual(['19 LOW']);
  });

  it('negative: keeps it after `always()`, an `||`, `!failure()` alone, or `!failure()` over a gate that may be skipped', () => {
    expect(use(gated('        if: always()', CHECK))).toEqual(['19 LOW']);
    expect(use(gated("        if: always() && (needs.gate.result == 'success' || github.event_name == 'push')", CHECK))).toEqual(['19 LOW']);
    expect(use(gated('        if: ${{ !failure() }}', CHECK))).toEqual(['19 LOW']);
    // A skipped gate (its own `if:` false) never ran the check, and `!failure()` lets the job run.
    const skippable = gated('        if: ${{ !failure() && !cancelled() }}', CHECK).replace('  gate:\n    runs-on', "  gate:\n    if: github.ref == 'refs/heads/main'\n    runs-on");
    expect(use(skippable)).toEqual(['19 LOW']);
  });

  it('a step that runs after a failure in the gated job keeps the gate\'s check, not an earlier step\'s of its own job', () => {
    const extra = String.raw`          - if: failure()
            run: echo "failed ${'$'}{{ inputs.version }}"`;
    expect(positions(scanWith(RULE, gated('', CHECK, extra)))).toEqual([]);
    const own = yaml`
      on:
        workflow_dispatch:
          inputs:
            version: { required: true }
      jobs:
        one:
          runs-on: ubuntu-latest
          steps:
            - env:
                V: \${{ inputs.version }}
              run: '[[ "$V" =~ ^[0-9]+$ ]] || exit 1'
            - if: failure()
              run: echo "failed \${{ inputs.version }}"
    `;
    expect(positions(scanWith(RULE, own))).toEqual(['13:27 LOW']);
  });

  it('negative: a permissive or unanchored pattern, a check that goes on, or a gate the job does not need', () => {
    const check = (pattern: string, tail = ' || exit 1', options = '') => String.raw`          - env:
              V: ${'$'}{{ inputs.version }}${options}
            run: '[[ "$V" =~ ${pattern} ]]${tail}'`;
    for (const pattern of ['^v?[0-9.;]+$', '^[0-9$]+$', '^[0-9`]+$', '^v?[0-9]+', '[0-9]+$', '^.+$', '^[^;]+$']) expect(use(gated('', check(pattern)))).toEqual(['19 LOW']);
    expect(use(gated('', check('^[0-9.]+$', ' || echo bad')))).toEqual(['19 LOW']);
    expect(use(gated('', check('^[0-9.]+$', ' || exit 1', '\n            continue-on-error: true')))).toEqual(['19 LOW']);
    expect(use(gated('', check('^[0-9.]+$')).replace('    needs: gate\n', ''))).toEqual(['19 LOW']);
  });

  it('reads a pasted value an actions/github-script step checks, for the jobs that need it', () => {
    const script = (test: string, fail: string) => String.raw`          - uses: actions/github-script@v7
            with:
              script: |
                const v = '${'$'}{{ inputs.version }}';
                if (!${test}) {
                  ${fail}
                }`;
    expect(use(gated('', script('/^v?[0-9]+\\.[0-9]+\\.[0-9]+$/.test(v)', "core.setFailed('bad version');")))).toEqual([]);
    expect(use(gated('', script('/^v?[0-9]+\\.[0-9]+/.test(v)', "core.setFailed('bad version');")))).toEqual(['19 LOW']);
    expect(use(gated('', script('/^v?[0-9]+\\.[0-9]+\\.[0-9]+$/.test(v)', "console.log('bad version'); return;")))).toEqual(['19 LOW']);
  });

  it('reads a test alone on its line where the shell runs with `-e`, not under `set +e`, `!`, or a shell without `-e`', () => {
    const bare = (before: string, test: string, shell = '') => String.raw`          - env:
              V: ${'$'}{{ inputs.version }}${shell}
            run: |
              ${before}
              ${test}
              echo checked`;
    expect(use(gated('', bare('echo start', '[[ "$V" =~ ^v?[0-9]+\\.[0-9]+\\.[0-9]+$ ]]')))).toEqual([]);
    expect(use(gated('', bare('set -euo pipefail', '[ "$V" -eq "$V" ] 2>/dev/null', '\n            shell: bash')))).toEqual([]);
    expect(use(gated('', bare('set +e', '[[ "$V" =~ ^v?[0-9]+$ ]]')))).toEqual(['19 LOW']);
    expect(use(gated('', bare('echo start', '! [[ "$V" =~ ^[a-z]+$ ]]')))).toEqual(['19 LOW']);
    expect(use(gated('', bare('echo start', '[[ "$V" =~ ^v?[0-9]+$ ]]', '\n            shell: bash {0}')))).toEqual(['19 LOW']);
    expect(use(gated('', bare('echo start', '[[ "$V" =~ ^v?[0-9.]+ ]]')))).toEqual(['19 LOW']);
  });
});

describe('a value written to the step output only inside the branch where it matched', () => {
  const RULE = 'script-injection';
  const wf = (script: string) => yaml`
    on:
      issue_comment:
        types: [created]
    jobs:
      go:
        runs-on: ubuntu-latest
        steps:
          - id: x
            env:
              BODY: \${{ github.event.comment.body }}
            run: |
              N="\${BODY#/run }"
${script}
          - run: echo \${{ steps.x.outputs.n }}
  `;
  it('drops the output written in the branch, directly or through a file appended to $GITHUB_OUTPUT', () => {
    expect(scanWith(RULE, wf('              if [[ "$N" =~ ^[0-9]+$ ]]; then echo "n=$N" >> $GITHUB_OUTPUT; fi'))).toEqual([]);
    expect(scanWith(RULE, wf('              if [[ "$N" =~ ^[0-9]+$ ]]; then\n                echo "n=$N" > out.txt\n              fi\n              cat out.txt >> "$GITHUB_OUTPUT"'))).toEqual([]);
  });
  it('negative: keeps it when the pattern is open, or the file also gets the value outside the branch', () => {
    expect(positions(scanWith(RULE, wf('              if [[ "$N" =~ ^[0-9]+ ]]; then echo "n=$N" >> $GITHUB_OUTPUT; fi')))).toEqual(['14:19 HIGH']);
    expect(positions(scanWith(RULE, wf('              if [[ "$N" =~ ^[0-9;]+$ ]]; then echo "n=$N" >> $GITHUB_OUTPUT; fi')))).toEqual(['14:19 HIGH']);
    expect(positions(scanWith(RULE, wf('              if [[ "$N" =~ ^[0-9]+$ ]]; then\n                echo "n=$N" > out.txt\n              else\n                echo "n=$N" > out.txt\n              fi\n              cat out.txt >> "$GITHUB_OUTPUT"'))).filter((p) => p.includes('HIGH'))).toEqual(['19:19 HIGH']);
  });
});

describe('a value written to $GITHUB_ENV only inside the branch where it matched (github-env-injection)', () => {
  const wf = (script: string) => yaml`
    on:
      issue_comment:
        types: [created]
    jobs:
      go:
        runs-on: ubuntu-latest
        steps:
          - env:
              BODY: \${{ github.event.comment.body }}
            run: |
              N="\${BODY#/run }"
${script}
  `;
  it('drops the write inside the branch', () => {
    expect(scanWith('github-env-injection', wf('              if [[ "$N" =~ ^[0-9]+$ ]]; then echo "N=$N" >> $GITHUB_ENV; fi'))).toEqual([]);
    expect(scanWith('github-env-injection', wf('              if [[ "$N" =~ ^[0-9]+$ ]]; then\n                echo "N=$N" >> "$GITHUB_ENV"\n              fi'))).toEqual([]);
  });
  it('negative: keeps it when the pattern is unanchored, or the test only checks that the value is not empty', () => {
    expect(scanWith('github-env-injection', wf('              if [[ "$N" =~ ^[0-9]+ ]]; then echo "N=$N" >> $GITHUB_ENV; fi'))).toHaveLength(1);
    expect(scanWith('github-env-injection', wf('              if [[ -n "$N" ]]; then\n                echo "N=$N" >> "$GITHUB_ENV"\n              fi'))).toHaveLength(1);
  });
});
