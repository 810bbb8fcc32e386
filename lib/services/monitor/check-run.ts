import type { StoredFinding } from '../../db/types.js';
import { neutralize, neutralizeKeepingLines } from '../../engine/format/neutralize.js';
import type { IdentifiedCombination } from '../attack-paths.js';

/**
 * What a pull request's check run says (no I/O): the new findings above LOW as annotations, a summary of
 * the new attack paths with their break-the-chain fix, and the conclusion. Every string that comes from the
 * scanned repository (paths, job names, quoted workflow text inside descriptions) is hostile: it is bounded,
 * stripped of control and bidirectional characters, and escaped wherever GitHub renders Markdown, so it
 * cannot forge formatting, links, images, HTML or @-mentions in the check run.
 */

/** The check run's name on GitHub (what a branch protection rule requires). */
export const CHECK_NAME = 'Chainbreaker';
/** GitHub takes at most 50 annotations per request; more are sent in further updates. */
export const ANNOTATIONS_PER_REQUEST = 50;
/** The most annotations one check run gets (10 requests); the summary counts the rest. */
export const MAX_ANNOTATIONS = 500;
/** GitHub's limits: the summary and text 65,535 characters, a title 255; a message is kept far shorter. */
const MAX_SUMMARY = 60_000;
const MAX_TITLE = 255;
const MAX_MESSAGE = 4_000;
/** Items listed in the summary, per section. */
const MAX_LISTED = 50;

export type CheckConclusion = 'success' | 'failure' | 'neutral';

export interface CheckRunInput {
  /** Findings of the head commit (its scan), and of the base commit. */
  head: readonly StoredFinding[];
  base: readonly StoredFinding[];
  headPaths: readonly IdentifiedCombination[];
  basePaths: readonly IdentifiedCombination[];
  /** The installation's policy: a new HIGH finding or HIGH/CRITICAL attack path fails the check. */
  failOnHigh: boolean;
  baseSha: string;
}

export interface Annotation {
  path: string;
  start_line: number;
  end_line: number;
  annotation_level: 'failure' | 'warning';
  title: string;
  message: string;
}

export interface CheckRunOutput {
  conclusion: CheckConclusion;
  title: string;
  summary: string;
  annotations: Annotation[];
  newFindings: StoredFinding[];
  newPaths: IdentifiedCombination[];
  /** The scan met a bound (`scan-limit-reached`): what it did not read is unassessed. */
  limited: boolean;
}

const ABOVE_LOW = new Set(['HIGH', 'MEDIUM']);
const SEVERITY_ORDER: Record<string, number> = { CRITICAL: 0, HIGH: 1, MEDIUM: 2, LOW: 3, INFO: 4 };

/**
 * Compares the head's scan with the base's by fingerprint (a finding's identity apart from its line) and
 * builds the check run. Conclusion: `failure` when a new HIGH finding or a new HIGH or CRITICAL attack path
 * (a MEDIUM one, someone else's code on a tag, is reported but does not block) appears and the policy fails on them; else `neutral` when either scan met a bound (what
 * it did not read is unassessed, so success would claim too much); else `success`.
 */
export function checkRunOutput(input: CheckRunInput): CheckRunOutput {
  const known = new Set(input.base.map((f) => f.fingerprint));
  const newFindings = input.head
    .filter((f) => ABOVE_LOW.has(f.severity) && !known.has(f.fingerprint))
    .sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 9) - (SEVERITY_ORDER[b.severity] ?? 9) || compare(a.file, b.file) || a.line - b.line || compare(a.rule_id, b.rule_id));
  const knownPaths = new Set(input.basePaths.map((p) => p.fingerprint));
  const newPaths = input.headPaths.filter((p) => !knownPaths.has(p.fingerprint)).sort((a, b) => (SEVERITY_ORDER[a.severity] ?? 9) - (SEVERITY_ORDER[b.severity] ?? 9) || compare(a.file, b.file));
  const limited = [...input.head, ...input.base].some((f) => f.rule_id === 'scan-limit-reached');
  const blocking = newFindings.some((f) => f.severity === 'HIGH') || newPaths.some((p) => p.severity === 'CRITICAL' || p.severity === 'HIGH');
  const conclusion: CheckConclusion = input.failOnHigh && blocking ? 'failure' : limited ? 'neutral' : 'success';
  const annotations = newFindings.filter((f) => isRepositoryPath(f.file)).slice(0, MAX_ANNOTATIONS).map(annotation);
  return { conclusion, title: title(newFindings, newPaths, limited), summary: summary(input, newFindings, newPaths, annotations.length, limited, blocking), annotations, newFindings, newPaths, limited };
}


/** A finding on a file of the repository (not the settings' `<repository settings>`): GitHub can annotate it. */
function isRepositoryPath(file: string): boolean {
  return file !== '' && !file.startsWith('<') && !file.startsWith('/') && !file.split('/').includes('..');
}

function annotation(f: StoredFinding): Annotation {
  const line = Math.max(1, Math.floor(f.line) || 1);
  return {
    path: plain(f.file, 1_000),
    start_line: line,
    end_line: line,
    annotation_level: f.severity === 'HIGH' ? 'failure' : 'warning',
    title: plain(`${f.severity}: ${f.title}`, MAX_TITLE),
    message: plain(`${f.description}\n\nFix: ${f.recommendation}\n\n(${f.rule_id})`, MAX_MESSAGE, true),
  };
}

function title(findings: readonly StoredFinding[], paths: readonly IdentifiedCombination[], limited: boolean): string {
  const parts: string[] = [];
  if (paths.length > 0) parts.push(`${paths.length} new attack path${paths.length === 1 ? '' : 's'}`);
  if (findings.length > 0) parts.push(`${findings.length} new finding${findings.length === 1 ? '' : 's'} above LOW`);
  const text = parts.length === 0 ? 'No new findings above LOW' : parts.join(', ');
  return limited ? `${text} (scan limited)` : text;
}

function summary(input: CheckRunInput, findings: readonly StoredFinding[], paths: readonly IdentifiedCombination[], annotated: number, limited: boolean, blocking: boolean): string {
  const lines: string[] = [];
  const high = findings.filter((f) => f.severity === 'HIGH').length;
  lines.push(
    `Compared with the base commit \`${input.baseSha.slice(0, 12)}\`: **${paths.length}** new attack path${paths.length === 1 ? '' : 's'}, **${findings.length}** new finding${findings.length === 1 ? '' : 's'} above LOW (${high} HIGH, ${findings.length - high} MEDIUM).`,
  );
  if (blocking && !input.failOnHigh) lines.push('', 'This installation reports new HIGH findings and attack paths without failing the check.');
  if (limited) lines.push('', 'The scan reached one of its limits (files, size or time): what it did not read was not assessed.');
  if (paths.length > 0) {
    lines.push('', '### New attack paths', '');
    for (const path of paths.slice(0, MAX_LISTED)) {
      lines.push(`- **${path.severity}** ${markdown(path.title, 200)} in \`${code(path.file, 200)}\`: ${markdown(path.impact, 400)}`);
      lines.push(`  Break the chain: ${markdown(path.break_chain, 1_000)}`);
    }
    if (paths.length > MAX_LISTED) lines.push(`- and ${paths.length - MAX_LISTED} more`);
  }
  if (findings.length > 0) {
    lines.push('', '### New findings above LOW', '', '| Severity | Rule | Where | Finding |', '|---|---|---|---|');
    for (const f of findings.slice(0, MAX_LISTED)) {
      lines.push(`| ${f.severity} | \`${code(f.rule_id, 100)}\` | \`${code(f.file, 200)}\`:${Math.max(0, Math.floor(f.line) || 0)} | ${markdown(f.title, 200)} |`);
    }
    if (findings.length > MAX_LISTED) lines.push('', `and ${findings.length - MAX_LISTED} more.`);
    if (findings.length > annotated) lines.push('', `${findings.length - annotated} of them are not annotated in the code (repository settings, or past ${MAX_ANNOTATIONS} annotations).`);
  }
  const text = lines.join('\n');
  return text.length > MAX_SUMMARY ? `${text.slice(0, MAX_SUMMARY)}\n\n(cut)` : text;
}

/** Control characters and bidirectional overrides (Trojan Source) out, white space collapsed unless lines are kept. */
function clean(text: string, keepNewlines = false): string {
  const stripped = text.replace(/[\u200e\u200f\u202a-\u202e\u2066-\u2069]/g, '');
  return keepNewlines ? neutralizeKeepingLines(stripped.replace(/\r\n?/g, '\n')) : neutralize(stripped).replace(/\s+/g, ' ').trim();
}

function bound(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/** Plain text (annotation fields: GitHub shows them as text), bounded and clean. */
export function plain(text: string, max: number, keepNewlines = false): string {
  return bound(clean(text, keepNewlines), max);
}

/**
 * Text inside Markdown: bounded, clean, every Markdown and HTML metacharacter escaped, `@` made inert (no
 * mention notifies anyone), so a repository's string shows as the characters it is.
 */
export function markdown(text: string, max: number): string {
  return bound(clean(text), max)
    .replace(/[\\`*_{}[\]()#+\-.!|~>]/g, (c) => `\\${c}`)
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/@/g, '&#64;');
}

/** Text inside a Markdown code span: bounded, clean, without backticks or pipes (which would end it or the table cell). */
export function code(text: string, max: number): string {
  return bound(clean(text), max).replace(/[`|]/g, "'");
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
