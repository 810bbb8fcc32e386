import type { Action, Dependabot, Step, Workflow } from './workflow.js';

/** Everything the engine parsed from one repository, with the cross-file links rules need. */
export class RepositoryModel {
  readonly workflows: Workflow[];
  readonly actions: Action[];
  readonly dependabot: Dependabot[];
  readonly #actionsByDirectory = new Map<string, Action>();
  #callers: Map<Action, Step[]> | undefined;

  constructor(workflows: Workflow[], actions: Action[], dependabot: Dependabot[]) {
    this.workflows = workflows;
    this.actions = actions;
    this.dependabot = dependabot;
    for (const action of actions) this.#actionsByDirectory.set(action.directory, action);
  }

  /** The local action a `uses: ./path` step runs, resolved from the repository root as GitHub does. */
  localAction(step: Step): Action | undefined {
    if (step.usesRef?.kind !== 'local') return undefined;
    return this.#actionsByDirectory.get(normalizeLocalPath(step.usesRef.path));
  }

  /** Steps (of workflows and of other composite actions) that run a local action. */
  callersOf(action: Action): readonly Step[] {
    if (this.#callers === undefined) {
      const callers = new Map<Action, Step[]>();
      const steps = [...this.workflows.flatMap((w) => w.jobs.flatMap((j) => j.steps)), ...this.actions.flatMap((a) => a.steps)];
      for (const step of steps) {
        const target = this.localAction(step);
        if (target === undefined) continue;
        const list = callers.get(target) ?? [];
        list.push(step);
        callers.set(target, list);
      }
      this.#callers = callers;
    }
    return this.#callers.get(action) ?? [];
  }
}

/** `./.github/actions/setup/` -> `.github/actions/setup`; `.` and `./` -> ''. */
export function normalizeLocalPath(path: string): string {
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') parts.pop();
    else parts.push(part);
  }
  return parts.join('/');
}
