import { readFileSync, existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../../lib/engine/rules/index.js';
import { ONLINE_RULES } from '../../../../lib/online/audit.js';
import { scanRepository, type ScanLimits } from '../../../../lib/engine/scan.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';

const rulesDir = fileURLToPath(new URL('../../../../lib/engine/rules/', import.meta.url));
const testsDir = fileURLToPath(new URL('./', import.meta.url));

interface Example {
  lang: string;
  /** `file=<path>` in the fence's info string; workflows default to .github/workflows/example.yml. */
  path: string;
  code: string;
}

/** The fenced examples under a `## <heading>` of a rule doc. */
function examples(doc: string, heading: string): Example[] {
  const section = doc.split(/^## /m).find((s) => s.startsWith(heading));
  if (section === undefined) return [];
  return [...section.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```/gm)].map((m) => ({
    lang: m[1] ?? '',
    path: /file=(\S+)/.exec(m[2] ?? '')?.[1] ?? '.github/workflows/example.yml',
    code: m[3] ?? '',
  }));
}

/** Rules about the scan's own limits: their doc examples assume these limits (the doc says so). */
const EXAMPLE_LIMITS: Readonly<Record<string, ScanLimits>> = { 'scan-limit-reached': { maxFileBytes: 400 } };
/** Rules that report nothing without options: their doc examples assume these (the doc says so). */
const EXAMPLE_OPTIONS: Readonly<Record<string, unknown>> = { 'forbidden-uses': { deny: ['docker://*'] } };

/** Runs a doc example: YAML examples are one file; JSON examples are a settings snapshot. */
function fires(ruleId: string, example: Example): boolean {
  const only = (id: string) => id === ruleId;
  const limits = EXAMPLE_LIMITS[ruleId] ?? {};
  const ruleOptions = ruleId in EXAMPLE_OPTIONS ? { [ruleId]: EXAMPLE_OPTIONS[ruleId] } : {};
  const result =
    example.lang === 'json'
      ? scanRepository([], { isEnabled: only, settings: JSON.parse(example.code) as SettingsSnapshot, limits })
      : scanRepository([{ path: example.path, text: example.code }], { isEnabled: only, limits, ruleOptions });
  return result.findings.some((f) => f.rule_id === ruleId);
}

const REQUIRED_SECTIONS = ['What it detects', 'Why it matters', 'Vulnerable example', 'Fixed example', 'How to suppress'];

describe.each(RULES.map((r) => [r.meta.id, r] as const))('%s', (id, rule) => {
  const docPath = `${rulesDir}${id}.md`;

  it('has code, doc and tests', () => {
    expect(existsSync(`${rulesDir}${id}.ts`)).toBe(true);
    expect(existsSync(docPath)).toBe(true);
    expect(existsSync(`${testsDir}${id}.test.ts`)).toBe(true);
  });

  it('documents itself with the template and the catalog metadata', () => {
    const doc = readFileSync(docPath, 'utf8');
    expect(doc.split('\n', 1)[0]).toBe(`# ${id}: ${rule.meta.title}`);
    expect(doc).toContain(`| ${rule.meta.category} | ${rule.meta.severity} | ${rule.meta.surface} |`);
    for (const section of REQUIRED_SECTIONS) expect(doc).toContain(`## ${section}`);
    const rationale = doc.split(/^## /m).find((s) => s.startsWith('Severity rationale'));
    expect(rationale, `${id}.md needs a "## Severity rationale" paragraph`).toBeDefined();
    // One real paragraph that names a severity it argues for.
    expect(rationale?.length ?? 0).toBeGreaterThan(200);
    expect(rationale).toMatch(/\b(HIGH|MEDIUM|LOW|INFO)\b/);
    expect(rule.meta.description.length).toBeGreaterThan(20);
    expect(rule.meta.recommendation.length).toBeGreaterThan(20);
  });

  it("fires on the doc's vulnerable example and not on its fixed example", () => {
    const doc = readFileSync(docPath, 'utf8');
    const vulnerable = examples(doc, 'Vulnerable example');
    const fixed = examples(doc, 'Fixed example');
    expect(vulnerable.length).toBeGreaterThan(0);
    expect(fixed.length).toBeGreaterThan(0);
    // The online audits' rules report through lib/online (tests/lib/online), never from the offline engine.
    if (ONLINE_RULES.includes(id as never)) {
      for (const example of [...vulnerable, ...fixed]) expect(fires(id, example), `an online rule fired offline:\n${example.code}`).toBe(false);
      return;
    }
    for (const example of vulnerable) expect(fires(id, example), `vulnerable example should fire:\n${example.code}`).toBe(true);
    for (const example of fixed) expect(fires(id, example), `fixed example should not fire:\n${example.code}`).toBe(false);
  });
});
