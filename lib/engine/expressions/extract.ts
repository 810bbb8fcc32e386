import type { SourceFile } from '../yaml/source.js';
import type { YNode, YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { parseExpression, type Expr } from './parse.js';

/** A `${{ ... }}` inside a string. */
export interface ExpressionSpan {
  /** Offset of `$` in the string. */
  start: number;
  /** Offset just after the closing `}}` (the string's length when unterminated). */
  end: number;
  /** The text between the braces, trimmed. */
  source: string;
  terminated: boolean;
}

/** Finds the `${{ }}` spans of a string; `}}` inside a single-quoted literal does not close one. */
export function findExpressions(text: string): ExpressionSpan[] {
  const spans: ExpressionSpan[] = [];
  let from = 0;
  for (;;) {
    const start = text.indexOf('${{', from);
    if (start === -1) return spans;
    let i = start + 3;
    let inString = false;
    let close = -1;
    while (i < text.length) {
      const c = text[i];
      if (inString) {
        if (c === "'") {
          if (text[i + 1] === "'") i++;
          else inString = false;
        }
      } else if (c === "'") inString = true;
      else if (c === '}' && text[i + 1] === '}') {
        close = i;
        break;
      }
      i++;
    }
    if (close === -1) {
      spans.push({ start, end: text.length, source: text.slice(start + 3).trim(), terminated: false });
      return spans;
    }
    spans.push({ start, end: close + 2, source: text.slice(start + 3, close).trim(), terminated: true });
    from = close + 2;
  }
}

/** A `${{ }}` of a scalar, with its position in the file and its syntax tree (null when it does not parse). */
export interface ExpressionOccurrence {
  scalar: YScalar;
  span: ExpressionSpan;
  /** File offset of the `$` of `${{`. */
  offset: number;
  expr: Expr | null;
}

const occurrenceCache = new WeakMap<YScalar, readonly ExpressionOccurrence[]>();
const NONE: readonly ExpressionOccurrence[] = Object.freeze([]);

/**
 * The expressions of a string scalar with exact file positions. Most scalars hold none: they are answered
 * without touching the cache (several rules ask about every scalar of a file, and a weak map entry per
 * scalar costs more to add and to collect than looking for `${{` again).
 */
export function expressionsOf(file: SourceFile, scalar: YScalar): readonly ExpressionOccurrence[] {
  if (typeof scalar.value !== 'string' || !scalar.value.includes('${{')) return NONE;
  const cached = occurrenceCache.get(scalar);
  if (cached !== undefined) return cached;
  const result: ExpressionOccurrence[] = [];
  for (const span of findExpressions(scalar.value)) {
    result.push({ scalar, span, offset: valueOffsetToSource(file, scalar, span.start), expr: parseExpression(span.source) });
  }
  occurrenceCache.set(scalar, result);
  return result;
}

/**
 * The expression of a condition (`if:`), which GitHub evaluates whether or not it is wrapped in
 * `${{ }}`. Returns null for a non-string or unparsable condition.
 */
export function conditionExpression(node: YNode | undefined): { source: string; expr: Expr | null } | null {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
  const text = node.value.trim();
  // Most conditions are bare (`github.event_name == 'push'`): no spans to look for.
  if (!text.includes('${{')) return { source: text, expr: parseExpression(text) };
  const spans = findExpressions(text);
  const only = spans[0];
  const source = spans.length === 1 && only !== undefined && only.start === 0 && only.end === text.length ? only.source : text;
  return { source, expr: parseExpression(source) };
}
