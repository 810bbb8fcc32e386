import type { Step } from '../model/workflow.js';
import { keyText, type YMap, type YPair } from '../yaml/model.js';

/**
 * The `env:` a step sees, name by name: its workflow's, then its job's, then its own, a later level's value over
 * an earlier one's. `read` gives the value kept for a pair of `scope` (its text, its literal value ...);
 * undefined drops the name, an earlier level's value included (a variable whose value is not of the kind asked
 * for hides the outer one, as it does when the step runs).
 */
export function visibleEnv(step: Step, read: (scope: YMap, pair: YPair, name: string) => string | undefined): Map<string, string> {
  const env = new Map<string, string>();
  for (const scope of [step.job?.workflow.env, step.job?.env, step.env]) {
    if (scope === undefined) continue;
    for (const pair of scope.pairs) {
      const name = keyText(pair.key);
      const value = read(scope, pair, name);
      if (value === undefined) env.delete(name);
      else env.set(name, value);
    }
  }
  return env;
}
