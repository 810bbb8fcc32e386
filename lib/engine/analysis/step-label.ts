import type { Step } from '../model/workflow.js';

/** How findings name a step: its name (on one line, shortened), else its id, else its 1-based position. */
export function stepLabel(step: Step): string {
  const label = (step.name ?? step.id ?? '').replace(/\s+/g, ' ').trim();
  if (label === '') return `#${step.index + 1}`;
  return label.length > 60 ? `${label.slice(0, 57)}...` : label;
}

/** "step `x` of job `y`": one wording for every rule (see describeStep). */
export { describeStep as stepWhere } from './describe.js';
