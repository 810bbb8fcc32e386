import type { Action, Step } from '../model/workflow.js';
import { keyText, type YNode } from '../yaml/model.js';

/** `${{ inputs.NAME }}` (or `${{ inputs['NAME'] }}`) alone: a composite action's step handing an input on as it is. */
const INPUT_AS_IS = /^\$\{\{\s*inputs(?:\.([\w-]+)|\[\s*'([\w-]+)'\s*\])\s*\}\}$/;

/** The input a value hands on as it is (`${{ inputs.path }}`), lower-cased; undefined for any other value. */
export function forwardedInput(text: string): string | undefined {
  const match = INPUT_AS_IS.exec(text.trim());
  return (match?.[1] ?? match?.[2])?.toLowerCase();
}

/**
 * What `caller`, a step that calls the composite action `action`, gives its input `name` (lower-cased): the value of
 * the caller's `with:`, else the input's declared `default:`; undefined when neither (GitHub hands the action '').
 */
export function inputAtCaller(caller: Step, action: Action, name: string): YNode | undefined {
  return caller.with?.pairs.find((p) => keyText(p.key).toLowerCase() === name)?.value ?? action.inputs.find((i) => i.name.toLowerCase() === name)?.default;
}
