/**
 * Composite actions that exist to run a command their caller gives: a step whose `run:` has one of the action's
 * inputs as a whole line (`run: ${{ inputs.command }}`), or that hands an input to a shell as code (`bash -c "${{
 * inputs.command }}"`, `sh -c`, `eval`, directly or through an environment variable bound to the input:
 * `env: { CMD: ${{ inputs.run }} }` with `bash -c "$CMD"`). A caller of such an action already chooses the code
 * it runs, so expanding its other inputs into a script gives that caller nothing more: script-injection reads
 * this before it reports an input the action's callers set.
 */
import { expressionsOf } from '../expressions/extract.js';
import { ScanCache } from '../model/scan-cache.js';
import type { Action } from '../model/workflow.js';
import { keyText } from '../yaml/model.js';
import { expressionPath } from './validation.js';

/** A shell told to run the text that follows as code: `bash -c "`, `sh -c '`, `eval "`, `eval `. */
const RUNS_AS_CODE = /(?:\b(?:ba|z|k|da)?sh\s+(?:-[a-zA-Z]+\s+)*-c|\beval)\s+["']?$/;

const cache = new ScanCache<Action, string | null>();

/** The input (`inputs.command`) a composite action runs as its caller's command, or null when it runs none. */
export function callerCommandInput(action: Action): string | null {
  let found = cache.get(action);
  if (found !== undefined) return found;
  found = null;
  for (const step of action.steps) {
    const run = step.run;
    if (run === undefined || typeof run.value !== 'string' || run.value.length > 200_000) continue;
    const script = run.value;
    for (const occurrence of expressionsOf(action.file, run)) {
      const path = expressionPath(occurrence.expr);
      if (path === null || !path.startsWith('inputs.')) continue;
      // The input is a whole line of the script (`run: ${{ inputs.command }}`), or follows `bash -c "` / `eval`.
      const lineStart = script.lastIndexOf('\n', occurrence.span.start - 1) + 1;
      const lineEnd = script.indexOf('\n', occurrence.span.end);
      const before = script.slice(lineStart, occurrence.span.start);
      const whole = before.trim() === '' && script.slice(occurrence.span.end, lineEnd === -1 ? script.length : lineEnd).trim() === '';
      if (whole || RUNS_AS_CODE.test(before)) {
        found = path;
        break;
      }
    }
    if (found !== null) break;
    // `env: { CMD: ${{ inputs.run }} }`, then `bash -c "$CMD"` or `eval "$CMD"`.
    for (const pair of step.env?.pairs ?? []) {
      const value = pair.value;
      if (value.kind !== 'scalar' || typeof value.value !== 'string') continue;
      const occurrences = expressionsOf(action.file, value);
      const only = occurrences[0];
      if (occurrences.length !== 1 || only === undefined || only.span.start !== 0 || only.span.end !== value.value.trimEnd().length) continue;
      const path = expressionPath(only.expr);
      if (path === null || !path.startsWith('inputs.')) continue;
      const name = keyText(pair.key);
      if (!/^[A-Za-z_]\w*$/.test(name)) continue;
      const use = new RegExp(`(?:\\b(?:ba|z|k|da)?sh\\s+(?:-[a-zA-Z]+\\s+)*-c|\\beval)\\s+["']?\\$\\{?${name}\\b`);
      if (use.test(script)) {
        found = path;
        break;
      }
    }
    if (found !== null) break;
  }
  cache.set(action, found);
  return found;
}
