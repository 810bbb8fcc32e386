import { COMBINATION_KINDS } from '../combinations/catalog.js';
import type { Combination, CombinationKind, CombinationSeverity } from '../combinations/types.js';
import { hash53 } from '../fingerprint.js';
import type { Report } from '../report.js';
import type { RuleMeta } from '../rule.js';
import { RULES } from '../rules/index.js';
import { SETTINGS_FILE, type Finding, type Severity } from '../types.js';

/*
 * SARIF 2.1.0 as GitHub code scanning reads it (validated against the SARIF schema in the tests):
 * - every catalog rule is in `tool.driver.rules`, with help text and a `security-severity` GitHub maps to
 *   critical/high/medium/low; result levels: HIGH -> error, MEDIUM -> warning, LOW/INFO -> note;
 * - `partialFingerprints` carry the engine's line-independent fingerprint, so alerts survive edits;
 * - a region only for a real line; settings findings point at the repository's `.github/` folder (no
 *   region): code scanning requires a physical location in the repository on every result;
 * - each combination is a result of the rule `toxic-combination/<kind>`, at its first component in its
 *   file, with every component as a related location linked from the message.
 * - `helpUri` is the rule's documentation (an absolute URL from `docUrl`), also linked from `help.markdown`.
 */

export interface SarifOptions {
  /** The tool version written to `tool.driver.version`. */
  toolVersion: string;
  /** The absolute URL of a rule's documentation (`helpUri`). */
  docUrl: (ruleId: string) => string;
  /** The absolute URL of an attack-path kind's documentation (`helpUri` of `toxic-combination/<kind>`); none when absent. */
  kindDocUrl?: (kindId: string) => string;
}

/** Where settings findings point: a real path of every repository with workflows, as code scanning requires. */
export const SETTINGS_LOCATION = '.github/';

const SCHEMA = 'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json';
const FINGERPRINT = 'chainbreaker/v1';
export const COMBINATION_RULE_PREFIX = 'toxic-combination/';

const LEVEL: Record<Severity, 'error' | 'warning' | 'note'> = { HIGH: 'error', MEDIUM: 'warning', LOW: 'note', INFO: 'note' };
// GitHub: over 9.0 critical, 7.0-8.9 high, 4.0-6.9 medium, up to 3.9 low.
const SECURITY_SEVERITY: Record<Severity | CombinationSeverity, string> = { CRITICAL: '9.5', HIGH: '8.0', MEDIUM: '5.5', LOW: '3.0', INFO: '1.0' };

function ruleDescriptor(meta: RuleMeta, docUrl: (ruleId: string) => string) {
  const doc = docUrl(meta.id);
  const recommendation = meta.recommendation === '' ? [] : [`Recommendation: ${meta.recommendation}`];
  return {
    id: meta.id,
    shortDescription: { text: meta.title },
    fullDescription: { text: meta.description },
    help: {
      text: [meta.description, ...recommendation, `Documentation: ${doc}`].join('\n\n'),
      markdown: [`**${meta.title}** (\`${meta.id}\`, ${meta.category})`, meta.description, ...recommendation, `[Documentation](${doc})`].join('\n\n'),
    },
    helpUri: doc,
    defaultConfiguration: { level: LEVEL[meta.severity] },
    properties: { tags: ['security', meta.category], 'security-severity': SECURITY_SEVERITY[meta.severity] },
  };
}

function kindDescriptor(kind: CombinationKind, kindDocUrl: ((kindId: string) => string) | undefined) {
  const doc = kindDocUrl?.(kind.id);
  const stages = kind.stages.map((s) => `- ${s.title} (\`${s.rule_id}\`): ${s.description}`);
  const advice = kind.break_chain.map((b) => `Break the chain (\`${b.rule_id}\`): ${b.advice}`);
  const requires = kind.requires.map((group) => group.join(' | ')).join(' AND ');
  return {
    id: `${COMBINATION_RULE_PREFIX}${kind.id}`,
    shortDescription: { text: `Attack path: ${kind.title}` },
    fullDescription: { text: kind.impact },
    help: {
      text: [kind.impact, `Formed by: ${requires}.`, ...advice].join('\n\n'),
      markdown: [`**${kind.title}** (${kind.severity} attack path)`, kind.impact, `Formed by: \`${requires}\`.`, stages.join('\n'), ...advice, ...(doc === undefined ? [] : [`[Documentation](${doc})`])].join('\n\n'),
    },
    ...(doc === undefined ? {} : { helpUri: doc }),
    defaultConfiguration: { level: 'error' },
    properties: { tags: ['security', 'toxic-combination'], 'security-severity': SECURITY_SEVERITY[kind.severity] },
  };
}

/** A file path as a relative URI reference (each segment percent-encoded). */
function uri(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

function location(f: Pick<Finding, 'file' | 'line' | 'column'>) {
  const settings = f.file === SETTINGS_FILE || f.file.endsWith(`/${SETTINGS_FILE}`);
  const path = settings ? `${f.file.slice(0, -SETTINGS_FILE.length)}${SETTINGS_LOCATION}` : f.file;
  return {
    physicalLocation: {
      artifactLocation: { uri: uri(path) },
      ...(f.line > 0 ? { region: { startLine: f.line, ...(f.column > 0 ? { startColumn: f.column } : {}) } } : {}),
    },
  };
}

/** Plain text inside a SARIF message link must escape square brackets. */
function linkText(text: string): string {
  return text.replace(/[[\]\\]/g, (c) => `\\${c}`);
}

function combinationResult(c: Combination, ruleIndex: number) {
  const anchor = c.components.find((x) => x.finding.file === c.file)?.finding ?? c.components[0]?.finding ?? { file: c.file, line: 0, column: 0 };
  const related = c.components.map((x, i) => ({
    id: i + 1,
    ...location(x.finding),
    message: { text: `${c.stages.find((s) => s.rule_id === x.rule_id)?.title ?? x.rule_id} [${x.rule_id}]` },
  }));
  const chain = c.stages
    .map((s) => {
      const index = c.components.findIndex((x) => x.rule_id === s.rule_id);
      const f = c.components[index]?.finding;
      return f === undefined ? s.title : `${s.title} ([${linkText(f.line > 0 ? `${f.file}:${f.line}` : f.file)}](${index + 1}))`;
    })
    .join(' -> ');
  return {
    ruleId: `${COMBINATION_RULE_PREFIX}${c.id}`,
    ruleIndex,
    level: 'error',
    message: { text: `${c.title}: ${chain}. ${c.impact} Break the chain: ${c.break_chain}` },
    locations: [location(anchor)],
    relatedLocations: related,
    partialFingerprints: { [FINGERPRINT]: hash53([c.id, c.file, ...c.components.map((x) => `${x.rule_id}\0${x.finding.file}`)].join('\0')) },
  };
}

export function formatSarif(report: Report, options: SarifOptions): string {
  const rules = [...RULES.map((r) => ruleDescriptor(r.meta, options.docUrl)), ...COMBINATION_KINDS.map((kind) => kindDescriptor(kind, options.kindDocUrl))];
  const index = new Map(rules.map((r, i) => [r.id, i]));
  const results = [
    ...report.records.map(({ finding: f, fingerprint }) => ({
      ruleId: f.rule_id,
      ruleIndex: index.get(f.rule_id) ?? -1,
      level: LEVEL[f.severity],
      message: { text: f.recommendation === '' ? f.description : `${f.description}\n\n${f.recommendation}` },
      locations: [location(f)],
      partialFingerprints: { [FINGERPRINT]: fingerprint },
      properties: { severity: f.severity, category: f.category },
    })),
    ...report.combinations.map((c) => combinationResult(c, index.get(`${COMBINATION_RULE_PREFIX}${c.id}`) ?? -1)),
  ];
  const log = {
    $schema: SCHEMA,
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'chainbreaker', version: options.toolVersion, rules } },
        results,
        columnKind: 'utf16CodeUnits',
      },
    ],
  };
  // Repository strings (paths, expressions, names quoted in messages) are hostile: a bidirectional override
  // or isolate could make the code-scanning view show text in another order than it is. They are dropped
  // (JSON does not escape them; URIs are percent-encoded already).
  return `${JSON.stringify(log, null, 2).replace(BIDI_CONTROLS, '')}\n`;
}

/** Unicode's bidirectional controls: embeddings and overrides, isolates, and the implicit marks. */
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;
