import type { Step } from '../model/workflow.js';
import { CONTROLLER_TEXT } from '../expressions/controller.js';
import type { Taint, TaintLevel } from '../expressions/taint.js';

/** `step `Build` of job `test``, `step 3 of job `test``, `step `x` of composite action `.github/actions/a``. */
export function describeStep(step: Step): string {
  const label = step.name ?? step.id;
  const own = label !== null ? `step \`${oneLine(label)}\`` : `step ${step.index + 1}`;
  if (step.job !== null) return `${own} of job \`${step.job.id}\``;
  return `${own} of composite action \`${step.owner.file.path}\``;
}

const LEVELS: Record<TaintLevel, string> = {
  arbitrary: 'free text',
  structured: 'constrained text',
  input: 'an input',
  unknown: 'a value of unknown provenance',
};

/**
 * `github.event.issue.title` (free text set by anyone with a GitHub account, via `env.TITLE`): the value,
 * who controls it (the attacker model) and how it gets in.
 */
/** A taint's source as a finding names it: a context path in code quotes (`github.event.issue.title`), a description as it is. */
export function taintSourceText(taint: Pick<Taint, 'source'>): string {
  return /^[\w.*-]+$/.test(taint.source) ? `\`${taint.source}\`` : taint.source;
}

export function describeTaint(taint: Taint): string {
  const via = taint.via.length > 0 ? `, via ${taint.via.map((v) => (v === '…' ? v : `\`${v}\``)).join(' <- ')}` : '';
  const source = taintSourceText(taint);
  // A published action's input its callers in this repository give only fixed values: say what and where.
  if (taint.controller === 'unknown' && taint.given !== undefined && taint.given.length > 0) {
    const given = taint.given.map((g) => `${g.value}, ${g.at}`).join('; ');
    const fixed = taint.given.every((g) => !g.value.includes('${{')) ? 'only fixed values' : 'only values the analysis traces to no outsider';
    return `${source} (${LEVELS[taint.level]}: callers in this repository pass ${fixed} (${given}); a repository that uses the published action sets it for its own runs${via})`;
  }
  return `${source} (${LEVELS[taint.level]} set by ${CONTROLLER_TEXT[taint.controller]}${via})`;
}

function oneLine(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
