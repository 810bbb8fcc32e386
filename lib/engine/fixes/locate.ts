import { descendants, type YScalar } from '../yaml/model.js';
import type { Action, Dependabot, DependabotUpdate, Job, Step, Workflow } from '../model/workflow.js';

/** The job whose key is at `offset` (where job-level findings point). */
export function jobAt(model: Workflow | Action | Dependabot, offset: number): Job | undefined {
  if (model.kind !== 'workflow') return undefined;
  return model.jobs.find((j) => j.key.start === offset);
}

/** The step whose node contains `offset` (workflow jobs and composite actions). */
export function stepAt(model: Workflow | Action | Dependabot, offset: number): Step | undefined {
  const steps = model.kind === 'workflow' ? model.jobs.flatMap((j) => j.steps) : model.kind === 'action' ? model.steps : [];
  return steps.find((s) => s.node.start <= offset && offset < Math.max(s.node.end, s.node.start + 1));
}

export function dependabotUpdateAt(model: Workflow | Action | Dependabot, offset: number): DependabotUpdate | undefined {
  if (model.kind !== 'dependabot') return undefined;
  return model.updates.find((u) => u.node.start <= offset && offset < u.node.end);
}

/** The scalar (value, not key) that starts at `offset`, anywhere in the file. */
export function scalarAt(model: Workflow | Action | Dependabot, offset: number): YScalar | undefined {
  for (const node of descendants(model.root)) if (node.kind === 'scalar' && node.start === offset) return node;
  return undefined;
}
