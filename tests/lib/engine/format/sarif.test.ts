import { describe, expect, it } from 'vitest';
import { CATALOG } from '../../../../lib/engine/catalog.js';
import { COMBINATION_KINDS } from '../../../../lib/engine/combinations/index.js';
import { COMBINATION_RULE_PREFIX, formatSarif } from '../../../../lib/engine/format/index.js';
import { sarifValidator } from '../../../support/sarif.js';
import { emptyReport, sampleReport } from './fixture.js';

interface Sarif {
  version: string;
  runs: {
    tool: { driver: { name: string; version: string; rules: { id: string; helpUri?: string; help: { text: string; markdown: string }; defaultConfiguration: { level: string }; properties: Record<string, unknown> }[] } };
    results: {
      ruleId: string;
      ruleIndex: number;
      level: string;
      message: { text: string };
      locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn?: number } } }[];
      relatedLocations?: { id: number; physicalLocation: { artifactLocation: { uri: string } } }[];
      partialFingerprints: Record<string, string>;
    }[];
  }[];
}

const validate = sarifValidator();
const report = sampleReport();
const text = formatSarif(report, { toolVersion: '1.2.3', docUrl: (id: string) => `https://docs.example/rules/${id}` });
const sarif = JSON.parse(text) as Sarif;
const run = sarif.runs[0];

describe('sarif format', () => {
  it('validates against the SARIF 2.1.0 schema', () => {
    expect(validate(sarif), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(validate(JSON.parse(formatSarif(emptyReport(), { toolVersion: '1.2.3', docUrl: (id: string) => `https://docs.example/rules/${id}` })))).toBe(true);
  });

  it('the validator is no rubber stamp', () => {
    const broken = structuredClone(sarif) as unknown as { runs: { results: Record<string, unknown>[] }[] };
    const first = broken.runs[0]?.results[0];
    if (first !== undefined) first.level = 'fatal';
    expect(validate(broken)).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: {} } }] })).toBe(false);
  });

  it('lists every catalog rule and every combination kind, with help and security-severity', () => {
    const ids = run?.tool.driver.rules.map((r) => r.id);
    expect(ids).toEqual([...CATALOG.map((r) => r.id), ...COMBINATION_KINDS.map((k) => `${COMBINATION_RULE_PREFIX}${k.id}`)]);
    for (const rule of run?.tool.driver.rules ?? []) {
      expect(rule.help.text, rule.id).not.toBe('');
      expect(Number(rule.properties['security-severity']), rule.id).toBeGreaterThan(0);
      expect(rule.properties.tags, rule.id).toContain('security');
    }
    const byId = new Map(run?.tool.driver.rules.map((r) => [r.id, r]));
    expect(byId.get('untrusted-checkout')?.properties['security-severity']).toBe('8.0');
    expect(byId.get('untrusted-checkout')?.help.text).toContain('Documentation: https://docs.example/rules/untrusted-checkout');
    expect(byId.get('untrusted-checkout')?.help.markdown).toContain('[Documentation](https://docs.example/rules/untrusted-checkout)');
    expect(byId.get('untrusted-checkout')?.helpUri).toBe('https://docs.example/rules/untrusted-checkout');
    expect(byId.get('missing-timeout')?.defaultConfiguration.level).toBe('note');
    expect(byId.get(`${COMBINATION_RULE_PREFIX}pwn-request`)?.properties['security-severity']).toBe('9.5');
    expect(run?.tool.driver.version).toBe('1.2.3');
  });

  it('gives the attack-path rules helpUri and a documentation link too, when their docs have a URL', () => {
    const withKinds = JSON.parse(formatSarif(report, { toolVersion: '1.2.3', docUrl: (id) => `https://docs.example/rules/${id}`, kindDocUrl: (id) => `https://docs.example/kinds#${id}` })) as Sarif;
    const kinds = withKinds.runs[0]?.tool.driver.rules.filter((r) => r.id.startsWith(COMBINATION_RULE_PREFIX)) ?? [];
    expect(kinds.length).toBe(COMBINATION_KINDS.length);
    for (const kind of kinds) {
      const id = kind.id.slice(COMBINATION_RULE_PREFIX.length);
      expect(kind.helpUri, kind.id).toBe(`https://docs.example/kinds#${id}`);
      expect(kind.help.markdown, kind.id).toContain(`[Documentation](https://docs.example/kinds#${id})`);
    }
  });

  it('maps HIGH to error, MEDIUM to warning, LOW and INFO to note, with ruleIndex and the fingerprint', () => {
    const findings = run?.results.slice(0, report.records.length) ?? [];
    expect(findings.map((r) => `${r.ruleId} ${r.level}`)).toEqual([
      'missing-timeout note',
      'unpinned-action note',
      'missing-permissions error',
      'untrusted-checkout error',
      'persisted-credentials warning',
      'default-token-write error',
      'settings-unreadable note',
    ]);
    findings.forEach((r, i) => {
      expect(run?.tool.driver.rules[r.ruleIndex]?.id).toBe(r.ruleId);
      expect(r.partialFingerprints).toEqual({ 'chainbreaker/v1': report.records[i]?.fingerprint });
    });
  });

  it('gives a region only for a real line, and settings findings the .github/ folder without one', () => {
    const [first] = run?.results ?? [];
    expect(first?.locations[0]?.physicalLocation).toEqual({ artifactLocation: { uri: '.github/workflows/ci.yml' }, region: { startLine: 3, startColumn: 3 } });
    const settings = run?.results.find((r) => r.ruleId === 'default-token-write');
    expect(settings?.locations[0]?.physicalLocation).toEqual({ artifactLocation: { uri: '.github/' } });
  });

  it("follows GitHub code scanning's upload rules, not only the schema", () => {
    // https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning
    const log = JSON.parse(text) as Sarif;
    expect(log.runs).toHaveLength(1);
    const only = log.runs[0];
    expect(only?.results.length).toBeLessThanOrEqual(25_000);
    expect(only?.tool.driver.rules.length).toBeLessThanOrEqual(25_000);
    for (const rule of only?.tool.driver.rules ?? []) {
      const severity = Number(rule.properties['security-severity']);
      expect(severity, rule.id).toBeGreaterThanOrEqual(0);
      expect(severity, rule.id).toBeLessThanOrEqual(10);
      if (rule.helpUri !== undefined) expect(new URL(rule.helpUri).protocol, rule.id).toBe('https:');
      expect((rule.properties.tags as string[]).length, rule.id).toBeLessThanOrEqual(20);
    }
    for (const result of only?.results ?? []) {
      // Every result needs a physical location in the repository: a relative URI, no pseudo-path, no `..`.
      expect(result.locations).toHaveLength(1);
      const physical = result.locations[0]?.physicalLocation;
      const artifact = physical?.artifactLocation.uri ?? '';
      expect(artifact, result.ruleId).not.toBe('');
      expect(artifact, result.ruleId).not.toMatch(/^[a-z]+:|^\/|%3C|(^|\/)\.\.(\/|$)/i);
      if (physical?.region !== undefined) expect(physical.region.startLine).toBeGreaterThanOrEqual(1);
      expect(result.message.text.length, result.ruleId).toBeGreaterThan(0);
      expect(Object.keys(result.partialFingerprints).length).toBeGreaterThan(0);
      expect(result.relatedLocations?.length ?? 0).toBeLessThanOrEqual(1000);
    }
  });

  it('carries each combination as a result of its toxic-combination rule, components as related locations', () => {
    const combination = run?.results.find((r) => r.ruleId === `${COMBINATION_RULE_PREFIX}pwn-request`);
    expect(combination?.level).toBe('error');
    expect(run?.tool.driver.rules[combination?.ruleIndex ?? -1]?.id).toBe(`${COMBINATION_RULE_PREFIX}pwn-request`);
    expect(combination?.locations[0]?.physicalLocation.region).toEqual({ startLine: 12, startColumn: 9 });
    expect(combination?.relatedLocations?.map((l) => l.id)).toEqual([1, 2, 3]);
    expect(combination?.message.text).toContain('Fork code checked out ([.github/workflows/pr-target.yml:12](1)) -> ');
    expect(combination?.partialFingerprints['chainbreaker/v1']).toMatch(/^[0-9a-f]{14}$/);
  });

  it('is deterministic', () => {
    expect(formatSarif(report, { toolVersion: '1.2.3', docUrl: (id: string) => `https://docs.example/rules/${id}` })).toBe(text);
  });
});

describe('sarif format: hostile repository strings', () => {
  it('drops bidirectional overrides, isolates and marks from messages, so code scanning shows the text as it is', () => {
    const hostile = sampleReport();
    const first = hostile.records[0]!;
    first.finding = { ...first.finding, description: 'Runs `\u202Eexe.tset\u202C` and \u2066isolated\u2069 text\u200F here', file: '.github/workflows/\u202Eci.yml' };
    const out = formatSarif(hostile, { toolVersion: '1.2.3', docUrl: (id: string) => `https://docs.example/rules/${id}` });
    expect(out).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
    const parsed = JSON.parse(out) as Sarif;
    expect(parsed.runs[0]?.results[0]?.message.text).toContain('Runs `exe.tset` and isolated text here');
    // The path stays exact, percent-encoded.
    expect(parsed.runs[0]?.results[0]?.locations[0]?.physicalLocation.artifactLocation.uri).toBe('.github/workflows/%E2%80%AEci.yml');
  });
});
