import { describe, expect, it } from 'vitest';
import { formatText } from '../../../../lib/engine/format/index.js';
import { words } from '../../../../lib/engine/format/wrap.js';
import { emptyReport, sampleReport } from './fixture.js';

const ESC = String.fromCharCode(27);
const ANSI = new RegExp(`${ESC}\\[`);
const SGR = new RegExp(`${ESC}\\[[0-9;]*m`, 'g');

describe('text format', () => {
  const report = sampleReport();
  const plain = formatText(report, { color: false });
  const ALL = new Set(['HIGH', 'MEDIUM', 'LOW', 'INFO'] as const);

  it('starts with the attack paths: severity, title, the chain with its lines, the one fix', () => {
    expect(plain.startsWith('Attack paths (1)\n\n')).toBe(true);
    const block = plain.slice(0, plain.indexOf('HIGH (3)'));
    expect(block).toContain("CRITICAL  Pull request code runs with the base repository's privileges\n    [pwn-request]");
    const flat = block.replace(/\s+/g, ' ');
    expect(flat).toContain(
      '.github/workflows/pr-target.yml: Fork code checked out (:12) -> Token left in .git/config (:12) -> Token gets the repository default (:1) -> Repository write access or secrets stolen',
    );
    expect(flat).toMatch(/Break the chain: At \S+:\d+ \([^)]*\): Check out the base branch in the privileged workflow/);
  });

  it('then the findings by severity and rule, each rule with its fix and where its docs are, once', () => {
    const high = plain.indexOf('HIGH (3)\n');
    const medium = plain.indexOf('MEDIUM (1)\n');
    expect(high).toBeGreaterThan(0);
    expect(medium).toBeGreaterThan(high);
    const highBlock = plain.slice(high, medium);
    expect(highBlock).toContain('missing-permissions (1): Workflow token permissions not declared\n  - .github/workflows/pr-target.yml:1: The workflow sets no `permissions:`.\n  Fix: ');
    expect(highBlock).toContain('  - repository settings: The default `GITHUB_TOKEN` is read-write.');
    expect(highBlock).toContain('  Docs: chainbreaker rules missing-permissions\n');
    expect(plain).not.toContain('<repository settings>');
    // A configured docs URL replaces the command.
    expect(formatText(report, { color: false, docUrl: (id) => `https://docs.example/rules/${id}` })).toContain('  Docs: https://docs.example/rules/missing-permissions\n');
  });

  it('counts LOW and INFO in one line each unless they are listed', () => {
    expect(plain).toMatch(/^LOW +2: missing-timeout 1, unpinned-action 1$/m);
    expect(plain).toMatch(/^INFO +1: settings-unreadable 1$/m);
    expect(plain).not.toContain('missing-timeout (1)');
    const listed = formatText(report, { color: false, listed: ALL });
    expect(listed).toContain('LOW (2)\n');
    expect(listed).toContain('missing-timeout (1): ');
    expect(listed).not.toMatch(/^LOW +2:/m);
  });

  it('lists identical findings once, with their locations; the rule\'s other entries take one line each', () => {
    const base = sampleReport();
    const [timeout] = base.records;
    if (timeout === undefined) throw new Error('fixture');
    const copy = (line: number, file = timeout.finding.file, description = timeout.finding.description) => ({ ...timeout, finding: { ...timeout.finding, line, file, description } });
    const long = 'Job `deploy` has no `timeout-minutes`; it can run for up to 6 hours, and this sentence is long enough to wrap twice at eighty columns.';
    const records = [timeout, copy(9), copy(20), copy(4, '.github/workflows/b.yml'), copy(30, timeout.finding.file, long)].map((r) => ({ ...r, finding: { ...r.finding, severity: 'MEDIUM' as const } }));
    const text = formatText({ ...base, records, counts: { HIGH: 0, MEDIUM: 5, LOW: 0, INFO: 0 }, combinations: [] }, { color: false });
    expect(text).toContain('missing-timeout (5): Job has no timeout\n  - .github/workflows/ci.yml:3, 9, 20; .github/workflows/b.yml:4: Job `build`\n    has no `timeout-minutes`; it can run for up to 6 hours.\n');
    const cut = text.split('\n').find((l) => l.startsWith('  - .github/workflows/ci.yml:30: '));
    expect(cut).toMatch(/ …$/);
    expect(cut?.length).toBeLessThanOrEqual(80);
    expect(text.match(/Fix: /g)).toHaveLength(1);
    const verbose = formatText({ ...base, records, counts: { HIGH: 0, MEDIUM: 5, LOW: 0, INFO: 0 }, combinations: [] }, { color: false, verbose: true });
    expect(verbose.replace(/\s+/g, ' ')).toContain(long);
  });

  it('hides nothing above LOW: every HIGH and MEDIUM finding is listed with its line, whatever the width', () => {
    for (const width of [40, 80, 200]) {
      const text = formatText(report, { color: false, width }).replace(/\s+/g, ' ');
      for (const { finding: f } of report.records.filter((r) => r.finding.severity === 'HIGH' || r.finding.severity === 'MEDIUM')) {
        const where = f.line > 0 ? `${f.file}:${f.line}` : 'repository settings';
        expect(text, `${f.rule_id} at ${where}`).toContain(where);
        expect(text).toContain(`${f.rule_id} (`);
      }
    }
  });

  it('wraps to the width without breaking a code span', () => {
    for (const width of [40, 60, 80, 120]) {
      const text = formatText(report, { color: false, listed: ALL, width });
      for (const line of text.split('\n')) {
        // A line runs past the width only when it is one code span (or word) that cannot be broken.
        if (line.length > width) expect(words(line).length, line).toBe(1);
        // Backticks pair up on every line: no span is broken across lines.
        expect((line.match(/`/g) ?? []).length % 2, line).toBe(0);
      }
    }
  });

  it('ends with a summary line and the reason for the exit code', () => {
    expect(plain.trimEnd().split('\n').slice(-2).join(' ')).toBe('7 findings (3 high, 1 medium, 2 low, 1 info); 1 attack path (1 critical, 0 high). LOW and INFO findings are counted above; --verbose lists them.'.replace(/^(.{0,79}) /, '$1 '));
    expect(formatText(emptyReport(), { color: false })).toBe('No findings.\n');
    // A MEDIUM path (someone else's code on a tag) is counted apart.
    const withMedium = { ...report, combinations: [...report.combinations, { ...report.combinations[0]!, severity: 'MEDIUM' as const }] };
    expect(formatText(withMedium, { color: false }).replace(/\s+/g, ' ')).toContain('2 attack paths (1 critical, 0 high, 1 medium).');
    expect(formatText(emptyReport(), { color: false, gate: 'Exit 0: no attack path or finding at or above --fail-on high.' })).toBe('No findings.\nExit 0: no attack path or finding at or above --fail-on high.\n');
  });

  it('uses colours only when asked', () => {
    expect(plain).not.toMatch(ANSI);
    const coloured = formatText(report, { color: true });
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain('\x1b[1;31mHIGH (3)\x1b[0m');
    expect(coloured.replace(SGR, '')).toBe(plain);
  });

  it('says what it left out: suppressed, baselined and below the minimum severity, and unused suppressions', () => {
    const text = formatText(
      { ...emptyReport(), suppressed: 2, baselined: 3, belowMinimum: 1, unusedSuppressions: [{ file: '.github/workflows/ci.yml', line: 4, rules: ['missing-timeout'] }] },
      { color: false },
    );
    expect(text).toContain('Unused suppression comment:\n  .github/workflows/ci.yml:4 ignore[missing-timeout] (matched no finding)');
    expect(text.trimEnd().split('\n').at(-1)).toBe('No findings. Not shown: 2 suppressed, 3 in the baseline, 1 below --min-severity.');
  });

  it('strips control characters from hostile file names, job ids and descriptions', () => {
    const hostile = sampleReport();
    const evil = `x\x1b[2J\x07\r\x9b31m::error::owned\ny`;
    for (const r of hostile.records) {
      r.finding.file = `.github/workflows/${evil}.yml`;
      r.finding.description = `Job \`${evil}\` has no timeout`;
    }
    const text = formatText(hostile, { color: false });
    // eslint-disable-next-line no-control-regex -- the test looks for control characters
    expect(text).not.toMatch(/[\x00-\x09\x0b-\x1f\x7f-\x9f]/);
    expect(text).toContain('x[2J31m::error::owned y');
    expect(text.split('\n').some((l) => l.startsWith('::'))).toBe(false);
  });
});
