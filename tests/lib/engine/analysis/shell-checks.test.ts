import { describe, expect, it } from 'vitest';
import { safePattern, shellChecks, validatedAssignment } from '../../../../lib/engine/analysis/shell-checks.js';
import { checkedReads, outputLines, validatedVariables } from '../../../../lib/engine/analysis/script-outputs.js';
import { findCombinations } from '../../../../lib/engine/combinations/detect.js';
import { scanRepository } from '../../../../lib/engine/scan.js';
import { scanWith } from '../../../support/engine.js';

/** Whether each `$NAME` read of `name` after the last `#>` marker line sees a checked value. */
function lastRead(script: string, name: string): boolean {
  const at = script.lastIndexOf(`$${name}`);
  return checkedReads(script, name, at, at + name.length + 1);
}

describe('safePattern: anchored patterns of characters that cannot break out of a sink', () => {
  it('takes hex, digits, names and versions', () => {
    for (const pattern of ['^[0-9a-f]{40}$', '^[1-9][0-9]*$', '^[A-Za-z0-9._/-]+$', '^v[0-9]+\\.[0-9]+(-[a-z0-9]+)?$', '^(main|dev)$', '^[[:digit:]]+$', '^\\d+$']) {
      expect(safePattern(pattern), pattern).toBe(true);
    }
  });

  it('rejects unanchored patterns, wildcards, negated classes and characters that end a string', () => {
    for (const pattern of ['[0-9a-f]{40}', '^[0-9]+', '[0-9]+$', '^v.+$', '^.*$', '^[^/]+$', '^[a-z ]+$', "^[a-z']+$", '^[a-z$]+$', '^[a-z\\-]+$', '^a|b$', '^[A-z]+$', '^\\s+$', '^[[:print:]]+$']) {
      expect(safePattern(pattern), pattern).toBe(false);
    }
  });
});

describe('checkedReads: where a script has checked a variable', () => {
  it('covers a copy made only in the branch that matched (shape A), and reads after a check that clears or exits (shape B)', () => {
    const shapeA = [
      "RAW=$(jq -r '.head_sha // empty' a/summary.json)",
      'if [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then',
      '  SHA="$RAW"',
      'elif [ -n "$RAW" ]; then',
      `  echo "::warning::not a sha ('$RAW')"`,
      'fi',
    ].join('\n');
    const copy = shapeA.indexOf('SHA="$RAW"');
    expect(checkedReads(shapeA, 'RAW', copy, copy + 10)).toBe(true);
    // The warning prints the raw value: not a checked read.
    expect(lastRead(shapeA, 'RAW')).toBe(false);
    const shapeB = 'PR=$(jq -r .pr f.json)\nif [ -n "$PR" ] && ! [[ "$PR" =~ ^[1-9][0-9]*$ ]]; then PR=""; fi\necho "pr=$PR"';
    expect(lastRead(shapeB, 'PR')).toBe(true);
    for (const check of [
      '[[ "$PR" =~ ^[0-9]+$ ]] || exit 1',
      'if ! [[ $PR =~ ^[0-9]+$ ]]; then echo bad; exit 1; fi',
      "case \"$PR\" in *[!0-9]*|'') exit 1;; esac",
      '[[ "$PR" =~ ^[0-9]+$ ]] || { echo "bad"; exit 1; }',
      "re='^[0-9]+$'\nif [[ ! $PR =~ $re ]]; then exit 2; fi",
      'if [[ "$PR" =~ ^[0-9]+$ ]]; then\n  :\nelse\n  exit 1\nfi',
      'log() { echo "$1"; }\n[[ "$PR" =~ ^[0-9]+$ ]] || exit 1',
      // Variants seen in the wild: a subshell that exits, a compound test, a positive-integer pattern.
      '[[ "$PR" =~ ^[0-9]+$ ]] || (echo "bad: $PR"; exit 1)',
      'if [[ -z "$PR" || ! "$PR" =~ ^[1-9][0-9]*$ ]]; then\n  echo "::error::not a number"\n  exit 1\nfi',
      '[[ -n "$PR" && "$PR" =~ ^[a-zA-Z0-9._-]+$ ]] || exit 1',
      // A pattern with a group, beside other tests that only add ways to fail.
      'if [[ -z "$PR" || "$PR" == *".."* || ! "$PR" =~ ^[A-Za-z0-9._-]+(/[A-Za-z0-9._-]+)*$ ]]; then\n  exit 1\nfi',
    ]) {
      const script = `PR=$(cat a/pr)\n${check}\necho "pr=$PR"`;
      expect(lastRead(script, 'PR'), check).toBe(true);
      expect([...validatedVariables(script)], check).toEqual(['PR']);
    }
  });

  it('does not cover an unanchored or open pattern, a copy on both branches, a conditional check, or a value assigned again', () => {
    for (const check of [
      '[[ "$PR" =~ [0-9]+ ]] || exit 1',
      '[[ "$PR" =~ ^[^/]+$ ]] || exit 1',
      '[[ "$PR" =~ ^[0-9]+$ ]] && echo ok',
      'if [ "$STRICT" = 1 ] && ! [[ "$PR" =~ ^[0-9]+$ ]]; then exit 1; fi',
      'if [ "$STRICT" = 1 ]; then\n  [[ "$PR" =~ ^[0-9]+$ ]] || exit 1\nfi',
      '[[ "$PR" =~ ^[0-9]+$ ]] || exit 1\nPR=$(cat a/other)',
      "cat <<EOF\n[[ \"$PR\" =~ ^[0-9]+$ ]] || exit 1\nEOF",
      // Inside a function only called later, or an exit that runs only when the message fails.
      'check() {\n  [[ "$PR" =~ ^[0-9]+$ ]] || exit 1\n}',
      'if ! [[ "$PR" =~ ^[0-9]+$ ]]; then\n  { echo bad; } || exit 1\nfi',
      // grep matches line by line: `1`, a newline and anything after it pass.
      "echo \"$PR\" | grep -qE '^[0-9]+$' || exit 1",
      "grep -Eq '^[0-9]+$' <<< \"$PR\" || exit 1",
      // A compound test that lets a non-empty mismatch through, a subshell that does not exit.
      'if [[ -z "$PR" && ! "$PR" =~ ^[0-9]+$ ]]; then exit 1; fi',
      // A compound test whose pattern's group admits anything.
      'if [[ -z "$PR" || ! "$PR" =~ ^[a-z]+(/.*)*$ ]]; then exit 1; fi',
      '[[ "$PR" =~ ^[0-9]+$ ]] || (echo bad)',
      // A class admitting a space, a quote or `$`; `.*`.
      '[[ "$PR" =~ ^[a-z0-9\\ ]+$ ]] || exit 1',
      '[[ "$PR" =~ ^[a-z$]+$ ]] || exit 1',
      '[[ "$PR" =~ ^v.*$ ]] || exit 1',
    ]) {
      expect(lastRead(`PR=$(cat a/pr)\n${check}\necho "pr=$PR"`, 'PR'), check).toBe(false);
    }
    const both = 'if [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then SHA="$RAW"; else SHA="$RAW"; fi';
    expect(checkedReads(both, 'RAW', both.indexOf('then'), both.indexOf('else'))).toBe(true);
    expect(checkedReads(both, 'RAW', both.indexOf('else'), both.length)).toBe(false);
    // Blocks that do not match: nothing is taken as checked.
    expect(lastRead('[[ "$PR" =~ ^[0-9]+$ ]] || exit 1\nfi\necho "$PR"', 'PR')).toBe(false);
  });
});

/** Where the assignment of `name` on the line holding `marker` has its value checked (null: it is not). */
function assignmentCheck(script: string, name: string, marker: string): number | null {
  const from = script.indexOf(marker);
  const end = script.indexOf('\n', from);
  return validatedAssignment(script, shellChecks(script), name, from, end === -1 ? script.length : end);
}

describe('validatedAssignment: an assignment whose value a check in its own block guards', () => {
  const branch = (assign: string, check: string) => `if [ "$EVENT" = "workflow_dispatch" ]; then
  ${assign}
  ${check}
else
  RUN_ID="$OTHER"
fi
echo "run_id=$RUN_ID" >> "$GITHUB_OUTPUT"`;

  it('finds the check after an assignment in an if branch, which a read after the block sees only checked', () => {
    for (const check of [
      'if ! [[ "$RUN_ID" =~ ^[1-9][0-9]*$ ]]; then\n    echo "::error::Invalid run_id"; exit 1\n  fi',
      '[[ "$RUN_ID" =~ ^[0-9]+$ ]] || exit 1',
      '[[ "$RUN_ID" =~ ^[a-z0-9._-]+$ ]] || { echo bad; exit 1; }',
      'case "$RUN_ID" in \'\'|*[!0-9]*) exit 1 ;; esac',
      '[[ "$RUN_ID" =~ ^[0-9]+$ ]] || RUN_ID=""',
    ]) {
      const script = branch('RUN_ID="$INPUT"', check);
      const at = assignmentCheck(script, 'RUN_ID', 'RUN_ID="$INPUT"');
      expect(at, check).not.toBeNull();
      // Before the echo that writes the output, after the assignment.
      expect(at as number, check).toBeGreaterThan(script.indexOf('RUN_ID="$INPUT"'));
      expect(at as number, check).toBeLessThanOrEqual(script.indexOf('echo "run_id'));
      // The other branch's assignment is not checked.
      expect(assignmentCheck(script, 'RUN_ID', 'RUN_ID="$OTHER"'), check).toBeNull();
    }
  });

  it('negative: an unanchored or open pattern, a grep, a check that does not stop, a jump or a later assignment between', () => {
    for (const check of [
      '[[ "$RUN_ID" =~ [0-9]+ ]] || exit 1',
      '[[ "$RUN_ID" =~ ^[0-9a-z\\ \'"]+$ ]] || exit 1',
      'echo "$RUN_ID" | grep -Eq \'^[0-9]+$\' || exit 1',
      '[[ "$RUN_ID" =~ ^[0-9]+$ ]] || echo "not a number"',
      'if ! [[ "$RUN_ID" =~ ^[0-9]+$ ]]; then return 1; fi',
    ]) expect(assignmentCheck(branch('RUN_ID="$INPUT"', check), 'RUN_ID', 'RUN_ID="$INPUT"'), check).toBeNull();
    // A loop that can leave before the check.
    const loop = 'for f in a b; do\n  V="$INPUT"\n  [ -n "$SKIP" ] && break\n  [[ "$V" =~ ^[0-9]+$ ]] || exit 1\ndone\necho "v=$V"';
    expect(assignmentCheck(loop, 'V', 'V="$INPUT"')).toBeNull();
    // The check is in another block than the assignment (only one way through checks it).
    const elsewhere = 'if [ -n "$A" ]; then\n  V="$INPUT"\nfi\nif [ -n "$B" ]; then\n  [[ "$V" =~ ^[0-9]+$ ]] || exit 1\nfi\necho "v=$V"';
    expect(assignmentCheck(elsewhere, 'V', 'V="$INPUT"')).toBeNull();
    // Two assignments on the line, one after the check.
    const twice = '[[ "$V" =~ ^[0-9]+$ ]] || exit 1; V="$INPUT"';
    expect(assignmentCheck(`V="$X"\n${twice}`, 'V', twice)).toBeNull();
  });
});

describe('shellChecks: the statement splitter steps over plain and non-ASCII characters', () => {
  it('finds a check after lines of non-ASCII text and of functions', () => {
    const script = 'echo "héllo wörld ✓"\nsetup() { echo ready; }\n[[ "$N" =~ ^[0-9]+$ ]] || exit 1\necho "$N"';
    expect(validatedVariables(script).has('N')).toBe(true);
    expect(lastRead(script, 'N')).toBe(true);
  });

  it('finds none where the check is text inside quotes among non-ASCII characters', () => {
    const script = 'echo "é [[ \\"$N\\" =~ ^[0-9]+$ ]] || exit 1 ✓"\necho "$N"';
    expect(validatedVariables(script).has('N')).toBe(false);
    expect(lastRead(script, 'N')).toBe(false);
  });
});

describe('shellChecks on hostile scripts', () => {
  it('stays bounded with thousands of checked variables, pattern variables, nesting and unclosed quotes', () => {
    const checks = Array.from({ length: 1_800 }, (_, i) => `re${i}='^[0-9]+$'\nif [[ "$V${i}" =~ $re${i} ]]; then W${i}="$V${i}"; fi\nV${i}=$(cat f)`).join('\n');
    const nested = `${'if [[ "$X" =~ ^[0-9]+$ ]]; then\n'.repeat(1_000)}echo "$X"\n${'fi\n'.repeat(1_000)}`;
    const script = `${checks}\n${nested}`;
    // Under the 200,000 characters above which a script is not read at all.
    expect(script.length).toBeLessThan(200_000);
    const started = process.hrtime.bigint();
    const many = shellChecks(script);
    shellChecks(`${'$('.repeat(20_000)} "unclosed [[ $X =~ ^a$ ]] || exit 1`);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // Only the first variables get ranges (each costs a pass over the script); the checks found are still right.
    expect(many.ranges.size).toBeLessThanOrEqual(64);
    expect(many.ranges.get('V0')?.[0]?.outcome).toBe('branch');
    expect(many.tests.get('X')?.length).toBeGreaterThan(0);
    expect(ms).toBeLessThan(5_000);
  });
});

describe('validatedAssignment on hostile scripts', () => {
  it('stays bounded with thousands of checks of one variable, each after an assignment of it', () => {
    const script = Array.from({ length: 4_000 }, (_, i) => `X=$(cat f${i})\n[[ "$X" =~ ^[0-9]+$ ]] || exit 1`).join('\n');
    expect(script.length).toBeLessThan(200_000);
    const started = process.hrtime.bigint();
    const checks = shellChecks(script);
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    // The first assignments are found checked; the statements read for them are bounded.
    expect(validatedAssignment(script, checks, 'X', 0, script.indexOf('\n'))).not.toBeNull();
    expect(ms).toBeLessThan(5_000);
  });
});

describe('outputLines: a shell variable named like the output is not a write of it', () => {
  it('keeps the lines that write the output, here-document bodies included, and falls back to assignments alone', () => {
    const lines = (script: string) => (outputLines(script, 'pr_number') ?? []).map((l) => l.text.trim());
    expect(lines('PR_NUMBER=$(cat a/pr)\nif [ -z "$PR_NUMBER" ]; then PR_NUMBER=""; fi\necho "pr_number=$PR_NUMBER" >> "$GITHUB_OUTPUT"')).toEqual(['echo "pr_number=$PR_NUMBER" >> "$GITHUB_OUTPUT"']);
    expect(lines('PR_NUMBER=1\ncat >> "$GITHUB_OUTPUT" <<EOF\npr_number=$(cat a/pr)\nEOF')).toEqual(['pr_number=$(cat a/pr)']);
    expect(lines('pr_number=$(cat a/pr)')).toEqual(['pr_number=$(cat a/pr)']);
  });
});

/** A workflow_run follower that reads a fork's artifact into step outputs and expands them into github-script. */
function follower(read: string): string {
  return [
    'name: Publish',
    'on:',
    '  workflow_run:',
    '    workflows: [CI]',
    '    types: [completed]',
    'permissions:',
    '  contents: read',
    '  pull-requests: write',
    '  checks: write',
    'jobs:',
    '  publish:',
    '    runs-on: ubuntu-latest',
    '    steps:',
    '      - env:',
    '          GH_TOKEN: ${{ github.token }}',
    '        run: gh run download ${{ github.event.workflow_run.id }} --repo ${{ github.repository }} --name summary --dir .artifacts',
    '      - id: run-info',
    '        run: |',
    '          STEP_OUTPUTS=$(mktemp)',
    ...read.split('\n').map((line) => `          ${line}`),
    '          cat "$STEP_OUTPUTS" >> "$GITHUB_OUTPUT"',
    '      - uses: actions/github-script@v7',
    '        with:',
    '          script: |',
    "            const sha = '${{ steps.run-info.outputs.head_sha }}';",
    "            const pr = '${{ steps.run-info.outputs.pr_number }}';",
    "            await github.rest.checks.create({ owner: context.repo.owner, repo: context.repo.repo, name: 'summary', head_sha: sha });",
    '',
  ].join('\n');
}

const RELEASE = [
  'name: Release',
  'on:',
  '  push:',
  "    tags: ['v*']",
  'permissions:',
  '  contents: write',
  'jobs:',
  '  release:',
  '    runs-on: ubuntu-latest',
  '    steps:',
  '      - uses: actions/checkout@v3',
  '      - uses: actions/setup-go@v5',
  '        with:',
  "          go-version: '1.22'",
  '      - run: make dist',
  '      - uses: softprops/action-gh-release@v2',
  '        with:',
  '          files: dist/*',
  '',
].join('\n');

const READ = "SHA=$(jq -r '.head_sha // empty' .artifacts/summary.json)\nPR_NUMBER=$(jq -r '.pr_number // empty' .artifacts/summary.json)";
const WRITE = 'echo "head_sha=$SHA" >> "$STEP_OUTPUTS"\necho "pr_number=$PR_NUMBER" >> "$STEP_OUTPUTS"';
const VALIDATED: Record<string, string> = {
  'shape A and B': [
    "RAW_SHA=$(jq -r '.head_sha // empty' .artifacts/summary.json)",
    'SHA=""',
    'if [[ "$RAW_SHA" =~ ^[0-9a-f]{40}$ ]]; then',
    '  SHA="$RAW_SHA"',
    'elif [ -n "$RAW_SHA" ]; then',
    `  echo "::warning::not a sha ('$RAW_SHA')"`,
    'fi',
    "PR_NUMBER=$(jq -r '.pr_number // empty' .artifacts/summary.json)",
    'if [ -n "$PR_NUMBER" ] && ! [[ "$PR_NUMBER" =~ ^[1-9][0-9]*$ ]]; then PR_NUMBER=""; fi',
    WRITE,
  ].join('\n'),
  'one-line checks': `${READ}\n[[ "$SHA" =~ ^[0-9a-f]{40}$ ]] || exit 1\nif ! [[ $PR_NUMBER =~ ^[0-9]+$ ]]; then echo bad; exit 1; fi\n${WRITE}`,
  'case checks': `${READ}\ncase "$SHA" in *[!0-9a-f]*|'') exit 1;; esac\ncase "$PR_NUMBER" in *[!0-9]*|'') exit 1;; esac\n${WRITE}`,
};
const UNCHECKED: Record<string, string> = {
  'no check': `${READ}\n${WRITE}`,
  'unanchored patterns': `${READ}\n[[ "$SHA" =~ [0-9a-f]{40} ]] || exit 1\n[[ "$PR_NUMBER" =~ ^[0-9]+ ]] || exit 1\n${WRITE}`,
  'patterns admitting quotes and anything but a slash': `${READ}\n[[ "$SHA" =~ ^[0-9a-f\\ \\']+$ ]] || exit 1\n[[ "$PR_NUMBER" =~ ^[^/]+$ ]] || exit 1\n${WRITE}`,
  'the raw value copied on both branches': [
    "RAW_SHA=$(jq -r '.head_sha // empty' .artifacts/summary.json)",
    'if [[ "$RAW_SHA" =~ ^[0-9a-f]{40}$ ]]; then',
    '  SHA="$RAW_SHA"',
    'else',
    '  SHA="$RAW_SHA"',
    'fi',
    "PR_NUMBER=$(jq -r '.pr_number // empty' .artifacts/summary.json)",
    'if [[ "$PR_NUMBER" =~ ^[0-9]+$ ]]; then echo ok; fi',
    WRITE,
  ].join('\n'),
};

describe('a value a script checks before writing it to a step output is not an injection', () => {
  const files = (read: string) => [
    { path: '.github/workflows/publish.yml', text: follower(read) },
    { path: '.github/workflows/release.yml', text: RELEASE },
  ];

  it('reports the outputs expanded into github-script when the values are not checked, or checked wrongly', () => {
    for (const [what, read] of Object.entries(UNCHECKED)) {
      const findings = scanWith('script-injection', files(read));
      expect(findings.map((f) => `${f.severity} ${/outputs\.(\w+)/.exec(f.description)?.[1] ?? ''}`), what).toEqual(['MEDIUM head_sha', 'MEDIUM pr_number']);
      expect(findings[0]?.description, what).toContain('the content of an artifact downloaded by step 1 of job `publish`');
      // Reported (LOW when the values only pick a check run's target, MEDIUM when the raw value is also copied in the script).
      expect(scanWith('artifact-poisoning', files(read)).map((f) => `${f.line}:${f.column}`), what).toEqual(['16:14']);
      expect(scanWith('dangerous-trigger', files(read))[0]?.severity, what).toBe('MEDIUM');
    }
  });

  it('reports nothing for outputs the script checked, and the workflow says no step runs the files', () => {
    for (const [what, read] of Object.entries(VALIDATED)) {
      expect(scanWith('script-injection', files(read)), what).toEqual([]);
      expect(scanWith('artifact-poisoning', files(read)), what).toEqual([]);
      const [trigger] = scanWith('dangerous-trigger', files(read));
      expect(trigger?.severity, what).toBe('LOW');
      expect(trigger?.description, what).toContain('no step runs code from them');
    }
  });

  it('feeds the cache-poisoning of the release only while the outputs carry the artifact', () => {
    const scan = (read: string) => {
      const { records, findings } = scanRepository(files(read), {});
      return { paths: findCombinations(records, () => true).map((c) => `${c.id} ${c.severity}`), cache: findings.find((f) => f.rule_id === 'cache-poisoning')?.severity };
    };
    const raw = scan(UNCHECKED['no check'] as string);
    expect(raw.paths).toContain('cache-poisoning-release HIGH');
    expect(raw.cache).toBe('HIGH');
    const checked = scan(VALIDATED['shape A and B'] as string);
    expect(checked.paths).not.toContain('cache-poisoning-release HIGH');
    expect(checked.cache).toBe('LOW');
  });
});
