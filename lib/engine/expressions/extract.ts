import type { SourceFile } from '../yaml/source.js';
import type { YNode, YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { parseExpression, type Expr } from './parse.js';
import { ScanCache } from '../model/scan-cache.js';

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

/**
 * Finds the `${{ }}` spans of a string; `}}` inside a single-quoted literal does not close one (`''` inside it is
 * a quote). Linear: the next `'` and the next `}}` are found with `indexOf` and kept while they are still ahead,
 * so each part of the text is searched once, not read character by character.
 */
export function findExpressions(text: string): ExpressionSpan[] {
  const spans: ExpressionSpan[] = [];
  let from = 0;
  // The first `'` / `}}` at or after the last position they were searched from; -1: none after it; -2: not yet searched.
  let quote = -2;
  let brace = -2;
  for (;;) {
    const start = text.indexOf('${{', from);
    if (start === -1) return spans;
    let i = start + 3;
    let close = -1;
    for (;;) {
      if (brace !== -1 && brace < i) brace = text.indexOf('}}', i);
      if (brace === -1) break;
      if (quote !== -1 && quote < i) quote = text.indexOf("'", i);
      if (quote === -1 || brace < quote) {
        close = brace;
        break;
      }
      // A single-quoted literal: it ends at a `'` not followed by another.
      let end = text.indexOf("'", quote + 1);
      while (end !== -1 && text.charCodeAt(end + 1) === 0x27) end = text.indexOf("'", end + 2);
      if (end === -1) break;
      i = end + 1;
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

const occurrenceCache = new ScanCache<YScalar, readonly ExpressionOccurrence[]>();
const NONE: readonly ExpressionOccurrence[] = Object.freeze([]);

/**
 * The expressions of a string scalar with exact file positions. Most scalars hold none: they are answered
 * without touching the cache (several rules ask about every scalar of a file, and a weak map entry per
 * scalar costs more to add and to collect than looking for `${{` again). The scalars of a file read all at
 * once (`rememberFileExpressions`) are found by position; others are kept in a weak map.
 */
export function expressionsOf(file: SourceFile, scalar: YScalar): readonly ExpressionOccurrence[] {
  if (typeof scalar.value !== 'string' || !scalar.value.includes('${{')) return NONE;
  const known = fileExpressions.get(file);
  if (known?.tree === true) {
    const found = lookUp(known, scalar);
    if (found !== undefined) return found;
  }
  const cached = occurrenceCache.get(scalar);
  if (cached !== undefined) return cached;
  const result = readExpressions(file, scalar);
  occurrenceCache.set(scalar, result);
  return result;
}

/**
 * `expressionsOf` for a scalar holding `${{`, without keeping the answer (unless it already was): for the
 * whole-file extraction, which then hands the answers of all its scalars to `rememberFileExpressions`.
 */
export function scalarExpressions(file: SourceFile, scalar: YScalar): readonly ExpressionOccurrence[] {
  return occurrenceCache.get(scalar) ?? readExpressions(file, scalar);
}

function readExpressions(file: SourceFile, scalar: YScalar): ExpressionOccurrence[] {
  const result: ExpressionOccurrence[] = [];
  for (const span of findExpressions(scalar.value as string)) {
    result.push({ scalar, span, offset: valueOffsetToSource(file, scalar, span.start), expr: parseExpression(span.source) });
  }
  return result;
}

/**
 * What the per-file extraction (analysis/file-scalars.ts) read of a workflow or composite action. It is kept
 * here, one weak map entry per file, so that `expressionsOf` finds the expressions of the file's scalars by
 * position instead of adding a weak map entry per scalar (`WeakMap.set` was most of the extraction's own
 * time, and is far dearer than a binary search).
 */
export interface FileExpressions {
  /** The model root it was read from: another model of the same file is read again. */
  readonly root: YNode;
  /** The model is a tree whose node ranges nest: range queries are exact. */
  readonly tree: boolean;
  /** The values holding `${{`, in file order (each starting after the previous one ends); empty when `tree` is false. */
  readonly expressionScalars: readonly YScalar[];
  /** The `${{ }}` of each of those values, by position in `expressionScalars`. */
  readonly byScalar: readonly (readonly ExpressionOccurrence[])[];
  /** Every `${{ }}` of those values (parsed or not), in file order; empty when `tree` is false. */
  readonly occurrences: readonly ExpressionOccurrence[];
}

const fileExpressions = new ScanCache<SourceFile, FileExpressions>();

/** Keeps the extraction of a file (its lists built from `scalarExpressions`), for it and for `expressionsOf`. */
export function rememberFileExpressions(file: SourceFile, read: FileExpressions): void {
  fileExpressions.set(file, read);
}

/** The extraction kept for a file, if any. */
export function rememberedFileExpressions(file: SourceFile): FileExpressions | undefined {
  return fileExpressions.get(file);
}

function lookUp(known: FileExpressions, scalar: YScalar): readonly ExpressionOccurrence[] | undefined {
  const scalars = known.expressionScalars;
  let lo = 0;
  let hi = scalars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (scalars[mid]!.start < scalar.start) lo = mid + 1;
    else hi = mid;
  }
  return scalars[lo] === scalar ? known.byScalar[lo] : undefined;
}

/**
 * The expression of a condition (`if:`), which GitHub evaluates whether or not it is wrapped in
 * `${{ }}`. Returns null for a non-string or unparsable condition. A condition with text around or between its
 * `${{ }}` (a block scalar's trailing newline, a space inside quotes, `${{ a }} && ${{ b }}`) is a format string
 * to GitHub, non-empty and so always true: its expression is `true`, whatever its `${{ }}` test (the
 * `unsound-condition` rule reports it; the run model must not honour a gate GitHub ignores).
 */
export function conditionExpression(node: YNode | undefined): { source: string; expr: Expr | null } | null {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
  const text = node.value.trim();
  // Most conditions are bare (`github.event_name == 'push'`): no spans to look for.
  if (!text.includes('${{')) return { source: text, expr: parseExpression(text) };
  const raw = node.value;
  const whole = findExpressions(raw);
  const first = whole[0];
  if (whole.length > 0 && whole.every((s) => s.terminated) && !(whole.length === 1 && first !== undefined && first.start === 0 && first.end === raw.length)) {
    return { source: raw.trim(), expr: ALWAYS };
  }
  const spans = findExpressions(text);
  const only = spans[0];
  const source = spans.length === 1 && only !== undefined && only.start === 0 && only.end === text.length ? only.source : text;
  return { source, expr: parseExpression(source) };
}

/** The expression of a condition GitHub reads as a non-empty string. */
const ALWAYS: Expr | null = parseExpression('true');
