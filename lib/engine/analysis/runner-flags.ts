import { constantString } from './constant-expressions.js';
import { findExpressions } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import { keyText, type YMap, type YNode, type YPair } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';

/**
 * How the runner reads a boolean environment variable such as `ACTIONS_ALLOW_UNSECURE_COMMANDS`: only
 * `true`, `1` and `$true` (any case) switch it on; anything else leaves it off. A value computed by an
 * expression is `dynamic` unless the expression is a literal.
 */
export type RunnerFlag = 'on' | 'off' | 'dynamic';

export function runnerFlag(node: YNode): RunnerFlag {
  if (node.kind !== 'scalar') return 'off';
  if (node.value === true || node.value === 1) return 'on';
  if (typeof node.value !== 'string') return 'off';
  const text = node.value.trim();
  const spans = findExpressions(text);
  if (spans.length === 0) return flagText(text);
  const only = spans[0];
  if (spans.length === 1 && only !== undefined && only.start === 0 && only.end === text.length) {
    const expr = parseExpression(only.source);
    const value = expr === null ? null : constantString(expr);
    if (value !== null) return flagText(value);
  }
  return 'dynamic';
}

function flagText(text: string): RunnerFlag {
  return /^(true|1|\$true)$/i.test(text.trim()) ? 'on' : 'off';
}

const NONE: readonly YPair[] = Object.freeze([]);
const wantedCache = new ScanCache<readonly string[], ReadonlySet<string>>();

/**
 * The pairs of an `env:` mapping whose key is one of `names` (compared case-insensitively). Called for every
 * `env:` of every file: pass the same `names` array each time (a module constant) so its set is built once.
 */
export function envPairs(env: YMap | undefined, names: readonly string[]): readonly YPair[] {
  if (env === undefined || env.pairs.length === 0) return NONE;
  let wanted = wantedCache.get(names);
  if (wanted === undefined) {
    wanted = new Set(names.map((n) => n.toUpperCase()));
    wantedCache.set(names, wanted);
  }
  const found = env.pairs.filter((p) => (wanted as ReadonlySet<string>).has(keyText(p.key).toUpperCase()));
  return found.length === 0 ? NONE : found;
}
