import type { ContextBranch, ContextNode } from './webhook-contexts.generated.js';
import { GITHUB_CONTEXT } from './webhook-contexts.generated.js';

export type Capability = 'arbitrary' | 'structured' | 'fixed' | 'unknown';

const CAPABILITIES = ['fixed', 'structured', 'arbitrary'] as const;
const UNKNOWN = -1;
const hasOwn = Object.hasOwn;

/**
 * Classifies a `github.*` context path. `path` excludes the leading "github", is already lower-cased, and uses
 * "*" for array items / wildcard filters, e.g. ["event","pull_request","head","ref"], ["head_ref"],
 * ["event","commits","*","message"].
 *
 * A path naming an object or array answers with the most dangerous class below it (serialising it exposes
 * that text). Paths that no trigger's payload schema knows, and `event.inputs.*` (resolved by the engine
 * against the workflow's declared inputs), are 'unknown'.
 */
export function githubContextCapability(path: readonly string[]): Capability {
  if (path[0] === 'event' && path[1] === 'inputs') return 'unknown';
  const code = classify(GITHUB_CONTEXT, path, 0);
  return code === UNKNOWN ? 'unknown' : CAPABILITIES[code as 0 | 1 | 2];
}

/** True when some webhook payload schema has `github.event.<field>` at its top level. */
export function knownEventField(field: string): boolean {
  const event = GITHUB_CONTEXT.k?.['event'];
  return typeof event === 'object' && event.k !== undefined && hasOwn(event.k, field);
}

/** Walks `path` from index `start` below `node`; returns a class code or UNKNOWN. */
function classify(node: ContextNode, path: readonly string[], start: number): number {
  let current = node;
  for (let i = start; i < path.length; i++) {
    // A scalar has no properties (GitHub yields null), which no schema describes.
    if (typeof current === 'number') return UNKNOWN;
    const segment = path[i] as string;
    const children = current.k;
    if (children !== undefined && hasOwn(children, segment)) {
      current = children[segment] as ContextNode;
    } else if (children !== undefined && isArrayIndex(segment) && hasOwn(children, '*')) {
      current = children['*'] as ContextNode;
    } else if (segment === '*' && children !== undefined) {
      return classifyObjectFilter(current, path, i + 1);
    } else {
      // Keys a free-form object does not list carry its class all the way down.
      return current.o ?? UNKNOWN;
    }
  }
  return typeof current === 'number' ? current : current.c;
}

/**
 * `*` applied to an object (not an array) selects every property value: the most dangerous class that any of
 * them gives for the rest of the path. Properties where the rest does not exist yield nothing, so they are
 * ignored unless none of them knows the rest.
 */
function classifyObjectFilter(node: ContextBranch, path: readonly string[], rest: number): number {
  let result = node.o ?? UNKNOWN;
  for (const key in node.k) {
    if (!hasOwn(node.k, key)) continue;
    const code = classify(node.k[key] as ContextNode, path, rest);
    if (code > result) result = code;
  }
  return result;
}

function isArrayIndex(segment: string): boolean {
  if (segment.length === 0) return false;
  for (let i = 0; i < segment.length; i++) {
    const char = segment.charCodeAt(i);
    if (char < 48 || char > 57) return false;
  }
  return true;
}
