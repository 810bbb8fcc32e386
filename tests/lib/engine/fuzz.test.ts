import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { classifyPath, scanRepository, type ScanResult } from '../../../lib/engine/scan.js';
import { WORKFLOW_VISITORS } from '../../../lib/engine/rules/index.js';
import { SEVERITIES, type Finding, type RepositoryFile } from '../../../lib/engine/types.js';
import { localActionPaths } from '../../../lib/codehost/checkout.js';
import { invalidUtf8, mutate, mutation, repository, workflowText } from '../../support/fuzz.js';
import { LIVENESS_MS } from '../../support/liveness.js';
import { SLOW_SKIPPED, skipReason } from '../../support/skips.js';

/**
 * Engine fuzzing (issue 7): whatever the files hold, `scanRepository` returns, never throws, and its
 * output keeps its contract: counts that match the findings, findings sorted by (file, line, column,
 * rule) without duplicates, real positions, catalog metadata, and the same result for the same files
 * in any order.
 *
 * The time bound per input is a liveness check, not a performance assertion (issue 8 keeps timing out of
 * the suite): a ceiling far above any real scan, so only a hang or catastrophic backtracking trips it.
 * `FUZZ_TIMES=1` prints the slowest inputs; `FUZZ_SCALE=<n>` multiplies the generated case counts.
 */
const SCALE = Number(process.env.FUZZ_SCALE ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));
/** A property runs thousands of scans: far more than the suite's default test timeout allows on a busy machine. */
const PROPERTY_TIMEOUT_MS = 180_000 * SCALE;

const WORKFLOW_META = new Map(WORKFLOW_VISITORS.map((r) => [r.meta.id, r.meta]));
const FINDING_KEYS = ['file', 'line', 'column', 'severity', 'category', 'rule_id', 'title', 'description', 'recommendation'].join();
const timings: { label: string; ms: number; chars: number }[] = [];

/**
 * Scans and checks the output contract; with `twice`, scans again with the files in reverse order and
 * requires the same result (a second scan of every generated input would double the run for little).
 */
function scanChecked(files: RepositoryFile[], label: string, twice = false): ScanResult {
  const start = performance.now();
  const result = scanRepository(files);
  const ms = performance.now() - start;
  const chars = files.reduce((n, f) => n + f.text.length, 0);
  timings.push({ label, ms, chars });
  expect(ms, `${label}: liveness ceiling (a hang, not a slow scan)`).toBeLessThan(LIVENESS_MS);
  checkContract(files, result);
  if (twice) {
    const again = scanRepository([...files].reverse());
    if (!isDeepStrictEqual(again, result)) expect(again, `${label}: same files, same result`).toEqual(result);
  }
  return result;
}

function compareKeys(a: Finding, b: Finding): number {
  const text = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  return text(a.file, b.file) || a.line - b.line || a.column - b.column || text(a.rule_id, b.rule_id);
}

function checkContract(files: readonly RepositoryFile[], { findings, counts, records }: ScanResult): void {
  // Violations are collected with plain comparisons and asserted once: `expect` per finding would
  // dominate the run on inputs with tens of thousands of findings.
  const violations: string[] = [];
  const expected = { HIGH: 0, MEDIUM: 0, LOW: 0, INFO: 0 };
  for (const f of findings) {
    if (SEVERITIES.includes(f.severity)) expected[f.severity]++;
    else violations.push(`unknown severity ${String(f.severity)}`);
  }
  if (!isDeepStrictEqual(counts, expected)) violations.push(`counts ${JSON.stringify(counts)} for findings of severities ${JSON.stringify(expected)}`);
  if (records.length !== findings.length || records.some((r, i) => r.finding !== findings[i])) violations.push('records are not the findings, in order');
  if (new Set(records.map((r) => r.fingerprint)).size !== records.length) violations.push('fingerprints are not unique');

  const texts = new Map(files.filter((f) => classifyPath(f.path) !== null).map((f) => [f.path, f.text]));
  const lines = new Map<string, string[]>();
  let quoted = 0;
  findings.forEach((f, i) => {
    const at = `${f.file}:${f.line}:${f.column} [${f.rule_id}]`;
    const previous = findings[i - 1];
    if (previous !== undefined && compareKeys(previous, f) >= 0) violations.push(`${at} is not after ${previous.file}:${previous.line}:${previous.column} [${previous.rule_id}] (unsorted or duplicate)`);
    if (Object.keys(f).join() !== FINDING_KEYS) violations.push(`${at} has the fields ${Object.keys(f).join()}`);
    const meta = WORKFLOW_META.get(f.rule_id);
    if (meta === undefined || f.category !== meta.category || f.title !== meta.title) violations.push(`${at}: not the catalog's rule, category and title`);
    const text = texts.get(f.file);
    if (text === undefined) {
      violations.push(`${at}: not a file the engine reads`);
      return;
    }
    if (!lines.has(f.file)) lines.set(f.file, text.split('\n'));
    const line = lines.get(f.file)?.[f.line - 1];
    if (!Number.isInteger(f.line) || line === undefined) violations.push(`${at}: no such line`);
    else if (!Number.isInteger(f.column) || f.column < 1 || f.column > line.length + 1) violations.push(`${at}: no such column`);
    quoted += f.description.length + f.recommendation.length;
  });
  // What findings quote of a file may repeat per finding, but never grows with the rest of the file.
  const input = files.reduce((n, f) => n + f.text.length, 0);
  if (quoted > 32 * input + 4_000 * findings.length) violations.push(`findings quote ${quoted} characters of ${input}`);
  expect(violations.slice(0, 20)).toEqual([]);
}

afterAll(() => {
  if (process.env.FUZZ_TIMES === undefined) return;
  const slowest = [...timings].sort((a, b) => b.ms - a.ms).slice(0, 25);
  const groups = new Map<string, { n: number; ms: number; max: number }>();
  for (const t of timings) {
    const group = t.label.split(': ')[0] ?? t.label;
    const g = groups.get(group) ?? { n: 0, ms: 0, max: 0 };
    groups.set(group, { n: g.n + 1, ms: g.ms + t.ms, max: Math.max(g.max, t.ms) });
  }
  console.log(
    [...groups].map(([k, g]) => `${k}: ${g.n} inputs, mean ${(g.ms / g.n).toFixed(2)} ms, max ${g.max.toFixed(1)} ms`).join('\n') +
      '\nslowest (first scan of each input):\n' +
      slowest.map((t) => `${t.ms.toFixed(1).padStart(9)} ms  ${String(t.chars).padStart(9)} chars  ${t.label}`).join('\n'),
  );
});

const WORKFLOW = '.github/workflows/fuzz.yml';
const one = (text: string): RepositoryFile[] => [{ path: WORKFLOW, text }];

describe.skipIf(SLOW_SKIPPED !== null)(`engine fuzzing: generated workflows${skipReason(SLOW_SKIPPED)}`, () => {
  it('holds its contract on workflow-shaped documents (odd shapes included)', () => {
    fc.assert(fc.property(workflowText, (text) => void scanChecked(one(text), 'generated workflow')), { numRuns: runs(2_500) });
  }, PROPERTY_TIMEOUT_MS);

  it('holds its contract on repositories of workflows, local actions, a root action and Dependabot, in any file order', () => {
    fc.assert(fc.property(repository, (files) => void scanChecked(files, 'generated repository', true)), { numRuns: runs(700) });
  }, PROPERTY_TIMEOUT_MS);

  it('gives the same result for the same workflow, scanned twice', () => {
    const text = fc.oneof(workflowText, fc.tuple(workflowText, fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([t, m]) => mutate(t, m)));
    fc.assert(fc.property(text, (t) => void scanChecked(one(t), 'generated workflow, twice', true)), { numRuns: runs(1_000) });
  }, PROPERTY_TIMEOUT_MS);

  it('holds its contract on generated workflows after byte and line mutations', () => {
    fc.assert(
      fc.property(workflowText, fc.array(mutation, { minLength: 1, maxLength: 4 }), (text, mutations) => void scanChecked(one(mutate(text, mutations)), 'mutated generated workflow')),
      { numRuns: runs(1_500) },
    );
  }, PROPERTY_TIMEOUT_MS);

  it('holds its contract on invalid UTF-8 decoded as Node decodes it', () => {
    fc.assert(
      fc.property(workflowText.chain((text) => invalidUtf8(text)), (text) => void scanChecked(one(text), 'invalid UTF-8')),
      { numRuns: runs(1_200) },
    );
  }, PROPERTY_TIMEOUT_MS);
});

const corpus = fileURLToPath(new URL('../../../../shared/corpus/real/', import.meta.url));
const manifest = `${corpus}MANIFEST.tsv`;
const available = existsSync(manifest);

/** The corpus's files by repository (`<owner>__<repo>/<path>` in the manifest). */
function corpusRepositories(): RepositoryFile[][] {
  const repos = new Map<string, RepositoryFile[]>();
  for (const line of readFileSync(manifest, 'utf8').split('\n').slice(1)) {
    const [repo, path] = line.split('\t');
    if (repo === undefined || path === undefined || repo === '') continue;
    const files = repos.get(repo) ?? [];
    files.push({ path, text: readFileSync(`${corpus}${repo.replace('/', '__')}/${path}`, 'utf8') });
    repos.set(repo, files);
  }
  return [...repos.values()];
}

const corpusSkip = SLOW_SKIPPED ?? (available ? null : 'needs the shared corpus (../shared/corpus/real) beside the project');
describe.skipIf(corpusSkip !== null)(`engine fuzzing: mutated corpus files (../shared/corpus/real)${skipReason(corpusSkip)}`, () => {
  it('holds its contract when a corpus file is mutated, scanned with the local actions it uses', () => {
    const repos = corpusRepositories();
    const targets = repos.flatMap((files) =>
      files.map((file) => {
        const used = new Set(localActionPaths(file.text).flatMap((dir) => [`${dir}/action.yml`, `${dir}/action.yaml`].map((p) => p.replace(/^\//, ''))));
        return { file, actions: files.filter((f) => f !== file && used.has(f.path)) };
      }),
    );
    fc.assert(
      fc.property(fc.nat({ max: targets.length - 1 }), fc.array(mutation, { minLength: 1, maxLength: 4 }), (index, mutations) => {
        const target = targets[index];
        if (target === undefined) return;
        const mutated = { path: target.file.path, text: mutate(target.file.text, mutations) };
        scanChecked([mutated, ...target.actions], `mutated corpus file: ${target.file.path}`);
      }),
      { numRuns: runs(4_000) },
    );
  }, PROPERTY_TIMEOUT_MS);
});


const HEAD = 'on: pull_request_target\npermissions: {}\n';
const JOB = 'jobs:\n  a:\n    runs-on: ubuntu-latest\n    timeout-minutes: 5\n    steps:\n';
const withRun = (run: string) => `${HEAD}${JOB}      - run: ${run}\n`;
const times = (n: number, f: (i: number) => string) => Array.from({ length: n }, (_, i) => f(i)).join('');

/** Billion laughs: `levels` anchors, each a list of `width` aliases of the previous one. */
function laughs(levels: number, width: number, flow: boolean): string {
  let text = flow ? 'l0: &l0 ["lol"]\n' : 'l0: &l0\n  - lol\n';
  for (let i = 1; i < levels; i++) {
    text += flow ? `l${i}: &l${i} [${times(width, () => `*l${i - 1}, `).slice(0, -2)}]\n` : `l${i}: &l${i}\n${times(width, () => `  - *l${i - 1}\n`)}`;
  }
  return `${HEAD}${text}jobs:\n  a:\n    runs-on: x\n    steps: *l${levels - 1}\n`;
}

/** Explicit hostile inputs, each scanned under the same contract and liveness ceiling. */
const HOSTILE: [string, () => RepositoryFile[]][] = [
  ['billion laughs, flow', () => one(laughs(10, 10, true))],
  ['billion laughs, block', () => one(laughs(10, 10, false))],
  ['alias bomb just under the expansion limit', () => one(laughs(5, 10, true))],
  ['30,000 aliases of one job', () => one(`${HEAD}x: &job\n  runs-on: x\n  steps:\n    - run: echo \${{ github.head_ref }}\njobs:\n${times(30_000, (i) => `  j${i}: *job\n`)}`)],
  ['5,000 jobs through an alias (many findings at one node)', () => one(`${HEAD}x: &job\n  runs-on: x\n  steps:\n    - run: echo \${{ github.head_ref }}\njobs:\n${times(5_000, (i) => `  j${i}: *job\n`)}`)],
  ['3,000 merge keys', () => one(`${HEAD}x: &job {runs-on: x, steps: [{run: "echo \${{ github.head_ref }}"}]}\njobs:\n${times(3_000, (i) => `  j${i}:\n    <<: *job\n`)}`)],
  ['a mapping of 40,000 keys on the full parser', () => one(`${HEAD}anchor: &a 1\nenv:\n${times(40_000, (i) => `  K${i}: v\n`)}${JOB}      - run: echo\n`)],
  ['100,000 nested flow sequences', () => one(`on: push\njobs: ${'['.repeat(100_000)}`)],
  ['50,000 nested flow mappings', () => one(`on: push\njobs: ${'{a: '.repeat(50_000)}`)],
  ['900 nested block sequences', () => one(`on: push\njobs:\n${times(900, (i) => `${' '.repeat(i * 2)}- \n`).slice(0, -2)}x\n`)],
  ['1,400 nested block mappings', () => one(`on: push\njobs:\n${times(1_400, (i) => `${' '.repeat(i + 1)}a:\n`).slice(0, -1)} x\n`)],
  ['50,000 nested compact sequences', () => one(`on: push\njobs: ${'- '.repeat(50_000)}x\n`)],
  ['a 5 MB file', () => one(`${HEAD}${JOB}      - run: |\n${'          echo hello world, this line repeats\n'.repeat(120_000)}`)],
  ['1.2 MB of UTF-8 in 400,000 characters', () => one(`${HEAD}name: ${'€'.repeat(400_000)}\n${JOB}      - run: echo\n`)],
  ['a 1 MiB workflow of 17,000 injectable steps', () => one(`${HEAD}${JOB}${times(17_000, (i) => `      - run: echo "\${{ github.event.issue.title }}" ${i}\n`)}`.slice(0, 1024 * 1024 - 1))],
  ['64 KiB of random bytes decoded as UTF-8', () => one(new TextDecoder().decode(Uint8Array.from({ length: 65_536 }, (_, i) => (i * 7919 + 13) % 256)))],
  ['every non-ASCII byte inside a workflow', () => one(new TextDecoder().decode(new Uint8Array([...new TextEncoder().encode(withRun('echo "')), ...Array.from({ length: 128 }, (_, i) => 128 + i), 0x22, 0x0a])))],
  ['lone surrogates in keys, values, scripts and expressions', () => one(`${HEAD}\ud800: x\njobs:\n  a\udc00:\n    runs-on: \udfff\n    steps:\n      - run: echo "\ud800\${{ github.head_ref \udc00}}" \${{ github.event.issue.title }}\ud83d\n`)],
  ['NUL bytes in keys, values and scripts', () => one(`${HEAD}jobs:\n  a\0:\n    runs-on: x\0\n    steps:\n      - run: echo \${{ github.head_ref }}\0 | b\0ash\n`)],
  ['1 MiB of NUL bytes', () => one('\0'.repeat(1024 * 1024))],
  ['a 100,000-character plain scalar', () => one(`${HEAD}name: ${'a'.repeat(100_000)}\n${JOB}      - run: echo\n`)],
  ['a 100,000-character key', () => one(`${HEAD}${'k'.repeat(100_000)}: 1\n${JOB}      - run: echo\n`)],
  ['a 100,000-character job id', () => one(`${HEAD}jobs:\n  ${'j'.repeat(100_000)}:\n    runs-on: x\n    steps:\n      - run: echo \${{ github.head_ref }}\n`)],
  ['a 100,000-character script line', () => one(withRun(`echo ${'a'.repeat(100_000)}`))],
  ['a 100,000-character URL piped to a shell', () => one(withRun(`curl https://x.dev/${'a'.repeat(100_000)} | bash`))],
  ['a 100,000-character expression', () => one(withRun(`echo \${{ format('{0}', '${'a'.repeat(100_000)}') }}`))],
  ['25,000 unterminated ${{', () => one(withRun(`echo ${'${{ '.repeat(25_000)}`))],
  ['50,000 }}', () => one(withRun(`echo ${'}}'.repeat(50_000)}`))],
  ['an unterminated quote inside ${{ }}', () => one(withRun(`echo \${{ '${"a''".repeat(30_000)} }} done`))],
  ['5,000 expressions on one line', () => one(withRun(`echo ${'${{ github.head_ref }}'.repeat(5_000)}`))],
  ['a 100,000-line script', () => one(`${HEAD}${JOB}      - run: |\n${'          echo line\n'.repeat(100_000)}`)],
  ['10,000 lines piping downloads to a shell and secrets to GITHUB_ENV', () => one(`${HEAD}${JOB}      - run: |\n${times(10_000, (i) => `          curl -sSL https://x/${i} | bash && echo \${{ secrets.S }} >> $GITHUB_ENV\n`)}`.slice(0, 1024 * 1024 - 1))],
  ['100,000 double quotes', () => one(withRun(`|\n          ${'"'.repeat(100_000)}`))],
  ['50,000 command substitutions', () => one(withRun(`|\n          ${'$('.repeat(50_000)}`))],
  ['30,000 line continuations', () => one(`${HEAD}${JOB}      - run: |\n${'          curl x \\\n'.repeat(30_000)}          | bash\n`)],
  ['40,000 pipes', () => one(withRun(`curl ${'| '.repeat(40_000)}bash`))],
  ['100,000 spaces inside a command', () => one(withRun(`"curl${' '.repeat(100_000)}x | sh"`))],
  ['an unterminated heredoc of 20,000 lines', () => one(`${HEAD}${JOB}      - run: |\n          cat <<EOF >> $GITHUB_ENV\n${'          X=${{ github.head_ref }}\n'.repeat(20_000)}`)],
  ['10,000 jobs', () => one(`${HEAD}jobs:\n${times(10_000, (i) => `  j${i}:\n    runs-on: x\n    steps:\n      - run: echo \${{ github.head_ref }}\n`)}`)],
  ['10,000 steps in one job', () => one(`${HEAD}${JOB}${times(10_000, (i) => (i % 2 === 0 ? '      - uses: actions/checkout@v3\n        with:\n          ref: ${{ github.head_ref }}\n' : '      - run: npm i\n'))}`)],
  ['10,000 env entries', () => one(`${HEAD}env:\n${times(10_000, (i) => `  E${i}: \${{ github.head_ref }}\n`)}${JOB}      - run: echo $E9999\n`)],
  ['a job that needs 10,000 jobs', () => one(`${HEAD}jobs:\n  all:\n    needs: [${times(10_000, (i) => `j${i}, `).slice(0, -2)}]\n    runs-on: x\n    steps:\n      - run: echo \${{ needs.j1.outputs.o }}\n`)],
  ['a chain of 3,000 job outputs', () => one(`${HEAD}jobs:\n  j0:\n    runs-on: x\n    outputs:\n      o: \${{ github.head_ref }}\n    steps: [{run: x}]\n${times(2_999, (i) => `  j${i + 1}:\n    needs: j${i}\n    runs-on: x\n    outputs:\n      o: \${{ needs.j${i}.outputs.o }}\n    steps:\n      - run: echo \${{ needs.j${i}.outputs.o }}\n`)}`)],
  ['a cycle of 3,000 job outputs', () => one(`${HEAD}jobs:\n${times(3_000, (i) => `  j${i}:\n    needs: [j${(i + 1) % 3_000}]\n    runs-on: x\n    outputs:\n      o: \${{ needs.j${(i + 1) % 3_000}.outputs.o }}\n    steps:\n      - run: echo \${{ needs.j${(i + 1) % 3_000}.outputs.o }}\n`)}`)],
  ['a chain of 2,000 step outputs', () => one(`${HEAD}${JOB}      - id: s0\n        run: echo "o=\${{ github.head_ref }}" >> $GITHUB_OUTPUT\n${times(1_999, (i) => `      - id: s${i + 1}\n        env:\n          V: \${{ steps.s${i}.outputs.o }}\n        run: echo "o=$V" >> $GITHUB_OUTPUT\n`)}      - run: echo \${{ steps.s1999.outputs.o }}\n`)],
  ['a chain of 5,000 env values', () => one(`${HEAD}env:\n  E0: \${{ github.head_ref }}\n${times(4_999, (i) => `  E${i + 1}: \${{ env.E${i} }}\n`)}${JOB}      - run: echo \${{ env.E4999 }}\n`)],
  ['a chain of 5,000 shell variables into GITHUB_ENV', () => one(`${HEAD}${JOB}      - env:\n          A: \${{ github.head_ref }}\n        run: |\n${times(5_000, (i) => `          V${i + 1}="$V${i}$A"\n`)}          echo "X=$V5000" >> $GITHUB_ENV\n`)],
  ['4,900 nested parentheses in a script expression', () => one(withRun(`echo \${{ ${'('.repeat(4_900)}github.head_ref${')'.repeat(4_900)} }}`))],
  ['4,900 nested parentheses in a condition', () => one(`${HEAD}jobs:\n  a:\n    if: ${'('.repeat(4_900)}github.head_ref${')'.repeat(4_900)}\n    runs-on: x\n    steps: [{run: x}]\n`)],
  ['9,000 negations', () => one(withRun(`echo \${{ ${'!'.repeat(9_000)}github.head_ref }}`))],
  ['format() with 1,500 arguments', () => one(withRun(`echo \${{ format('${'{0}'.repeat(1_000)}', ${times(1_500, () => 'github.head_ref, ').slice(0, -2)}) }}`))],
  ['600 nested format() calls', () => one(withRun(`echo \${{ ${"format('{0}', ".repeat(600)}github.head_ref${')'.repeat(600)} }}`))],
  ['a chain of 500 && operators', () => one(withRun(`echo \${{ ${'github.head_ref && '.repeat(500)}github.head_ref }}`))],
  ['4,900 member accesses', () => one(withRun(`echo \${{ github${'.a'.repeat(4_900)} }}`))],
  ['3,000 index accesses', () => one(withRun(`echo \${{ github${'[0]'.repeat(3_000)} }}`))],
  ['1,000 local actions calling each other', () => [
    { path: WORKFLOW, text: `${HEAD}${JOB}      - uses: ./.github/actions/a0\n        with:\n          i: \${{ github.head_ref }}\n` },
    ...Array.from({ length: 1_000 }, (_, i) => ({
      path: `.github/actions/a${i}/action.yml`,
      text: `inputs:\n  i: {}\nruns:\n  using: composite\n  steps:\n    - uses: ./.github/actions/a${(i + 1) % 1_000}\n      with:\n        i: \${{ inputs.i }}\n    - run: echo \${{ inputs.i }}\n      shell: bash\n`,
    })),
  ]],
];

describe.skipIf(SLOW_SKIPPED !== null)(`engine fuzzing: hostile inputs${skipReason(SLOW_SKIPPED)}`, () => {
  it.each(HOSTILE)('%s', (label, make) => {
    scanChecked(make(), `hostile: ${label}`, true);
  }, 60_000);

  it('reports the limits it enforces as invalid-workflow findings', () => {
    const invalid = (files: RepositoryFile[]) => scanRepository(files).findings.filter((f) => f.rule_id === 'invalid-workflow').map((f) => f.description);
    const get = (label: string) => HOSTILE.find(([l]) => l === label)?.[1]() ?? [];
    expect(invalid(get('billion laughs, flow'))).toEqual([expect.stringMatching(/aliases expand the document beyond 250000 nodes/)]);
    expect(invalid(get('30,000 aliases of one job'))).toEqual([expect.stringMatching(/aliases expand/)]);
    expect(invalid(get('100,000 nested flow sequences'))).toEqual([expect.stringMatching(/nests deeper than 64/)]);
    expect(invalid(get('1,400 nested block mappings'))).toEqual([expect.stringMatching(/nests deeper than 64/)]);
    expect(invalid(get('a 5 MB file'))).toEqual([expect.stringMatching(/larger than the 1024 KiB limit/)]);
    expect(invalid(get('1.2 MB of UTF-8 in 400,000 characters'))).toEqual([expect.stringMatching(/larger than the 1024 KiB limit/)]);
    expect(invalid(get('a mapping of 40,000 keys on the full parser'))).toEqual([]);
  });

  it('keeps a description short when taint crosses thousands of job outputs', () => {
    const [, make] = HOSTILE.find(([l]) => l === 'a chain of 3,000 job outputs') ?? ['', () => []];
    const injections = scanRepository(make()).findings.filter((f) => f.rule_id === 'script-injection');
    expect(injections.length).toBe(2_999);
    expect(Math.max(...injections.map((f) => f.description.length))).toBeLessThan(1_000);
    expect(injections.at(-1)?.description).toMatch(/via `needs\.j\d+\.outputs\.o`( <- `needs\.j\d+\.outputs\.o`){6} <- …\)/);
  });
});
