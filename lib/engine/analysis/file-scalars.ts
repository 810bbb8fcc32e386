import {
  expressionsOf,
  rememberedFileExpressions,
  rememberFileExpressions,
  scalarExpressions,
  type ExpressionOccurrence,
  type FileExpressions,
} from '../expressions/extract.js';
import type { Action, Workflow } from '../model/workflow.js';
import { stringScalars, type YNode, type YScalar } from '../yaml/model.js';
import type { SourceFile } from '../yaml/source.js';

/**
 * The shared per-file extraction of expressions: one walk of a workflow or composite action builds flat
 * arrays, in file order, of its string values that hold `${{` and of the `${{ }}` they hold (each parsed
 * once), so a rule asks "the expressions below this node" with a binary search instead of walking the
 * subtree again per hook (and most rules' subtrees hold none).
 *
 * Range queries are exact only for a tree: every node inside its parent's range and after its previous
 * sibling. An alias (`*name`) makes the model a DAG whose shared nodes sit outside the subtree's range, so a
 * file with one (a few files in a hundred) is marked `tree: false` and every query walks the subtree as
 * before (`stringScalars`), with the same result.
 */
export type FileScalars = FileExpressions;

/** The extraction of a workflow or composite action, built on first use (linear in the file's nodes). */
export function fileScalars(model: Workflow | Action): FileScalars {
  const known = rememberedFileExpressions(model.file);
  if (known?.root === model.root) return known;
  const built = build(model.file, model.root);
  rememberFileExpressions(model.file, built);
  return built;
}

/** The extraction of a file if a rule has already built it (for helpers that only know the file). */
export function builtFileScalars(file: SourceFile): FileScalars | undefined {
  return rememberedFileExpressions(file);
}

function notATree(root: YNode): FileScalars {
  return { root, tree: false, expressionScalars: [], byScalar: [], occurrences: [] };
}

function build(file: SourceFile, root: YNode): FileScalars {
  const expressionScalars: YScalar[] = [];
  // An explicit stack (nesting depth comes from the scanned file), as three parallel arrays to allocate
  // nothing per node: each node with the range it must fit in, [lo, hi). Every property is read once into a
  // local and the lists are walked by index (no iterator): before TurboFan optimizes this walk (a scan in a
  // fresh process, the CLI's, never gets that far), each property read and iterator step is a call.
  const nodes: YNode[] = [root];
  const los: number[] = [root.start];
  const his: number[] = [root.end];
  while (nodes.length > 0) {
    const node = nodes.pop()!;
    const lo = los.pop()!;
    const hi = his.pop()!;
    const start = node.start;
    const end = node.end;
    if (start < lo || end > hi || start > end) return notATree(root);
    if (node.kind === 'scalar') {
      const value = node.value;
      if (typeof value === 'string' && value.includes('${{')) expressionScalars.push(node);
      continue;
    }
    // Siblings in order and apart (a key after the previous value, its value after it), then pushed in
    // reverse so that they pop in file order.
    let after = start;
    if (node.kind === 'map') {
      const pairs = node.pairs;
      const count = pairs.length;
      for (let i = 0; i < count; i++) {
        const pair = pairs[i]!;
        const key = pair.key;
        const keyEnd = key.end;
        const value = pair.value;
        if (key.start < after || keyEnd > end || value.start < keyEnd) return notATree(root);
        after = value.end;
      }
      for (let i = count - 1; i >= 0; i--) {
        const pair = pairs[i]!;
        nodes.push(pair.value);
        los.push(pair.key.end);
        his.push(end);
      }
    } else {
      const items = node.items;
      const count = items.length;
      for (let i = 0; i < count; i++) {
        const item = items[i]!;
        if (item.start < after) return notATree(root);
        after = item.end;
      }
      for (let i = count - 1; i >= 0; i--) {
        nodes.push(items[i]!);
        los.push(start);
        his.push(end);
      }
    }
  }
  // Pre-order over nested, ordered ranges is file order; checked, not assumed.
  for (let i = 1; i < expressionScalars.length; i++) if (expressionScalars[i]!.start < expressionScalars[i - 1]!.end) return notATree(root);
  const occurrences: ExpressionOccurrence[] = [];
  const byScalar: (readonly ExpressionOccurrence[])[] = [];
  for (let i = 0; i < expressionScalars.length; i++) {
    const found = scalarExpressions(file, expressionScalars[i]!);
    byScalar.push(found);
    for (let j = 0; j < found.length; j++) occurrences.push(found[j]!);
  }
  return { root, tree: true, expressionScalars, byScalar, occurrences };
}

/** Index of the first item whose start is at or after `offset` (items sorted by start). */
function lowerBound<T>(items: readonly T[], offset: number, startOf: (item: T) => number): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (startOf(items[mid]!) < offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const scalarStart = (s: YScalar) => s.start;
const occurrenceStart = (o: ExpressionOccurrence) => o.scalar.start;

/** The items whose scalar lies in `node`'s range: its descendants, in a tree. `node` is a map or a list. */
function slice<T>(items: readonly T[], node: YNode, startOf: (item: T) => number): T[] {
  const out: T[] = [];
  for (let i = lowerBound(items, node.start, startOf); i < items.length; i++) {
    const item = items[i]!;
    if (startOf(item) >= node.end) break;
    out.push(item);
  }
  return out;
}

/** The string values below (and including) `node` that hold `${{`, in file order. */
export function expressionScalarsIn(model: Workflow | Action, node: YNode): readonly YScalar[] {
  if (node.kind === 'scalar') return typeof node.value === 'string' && node.value.includes('${{') ? [node] : [];
  const index = fileScalars(model);
  if (!index.tree) return stringScalars(node).filter((s) => (s.value as string).includes('${{'));
  return slice(index.expressionScalars, node, scalarStart);
}

/** `expressionScalarsIn` for a helper that only knows the file: the built extraction when there is one, else a walk. */
export function expressionScalarsInFile(file: SourceFile, node: YNode): readonly YScalar[] {
  if (node.kind === 'scalar') return typeof node.value === 'string' && node.value.includes('${{') ? [node] : [];
  const index = rememberedFileExpressions(file);
  if (index?.tree !== true) return stringScalars(node).filter((s) => (s.value as string).includes('${{'));
  return slice(index.expressionScalars, node, scalarStart);
}

/** Every `${{ }}` of the string values below (and including) `node`, in file order. */
export function occurrencesIn(model: Workflow | Action, node: YNode): readonly ExpressionOccurrence[] {
  if (node.kind === 'scalar') return expressionsOf(model.file, node);
  const index = fileScalars(model);
  return index.tree ? slice(index.occurrences, node, occurrenceStart) : occurrencesByWalk(model.file, node);
}

/** The same for a helper that only knows the file: the built extraction when there is one, else a walk. */
export function occurrencesInFile(file: SourceFile, node: YNode): readonly ExpressionOccurrence[] {
  if (node.kind === 'scalar') return expressionsOf(file, node);
  const index = rememberedFileExpressions(file);
  return index?.tree === true ? slice(index.occurrences, node, occurrenceStart) : occurrencesByWalk(file, node);
}

function occurrencesByWalk(file: SourceFile, node: YNode): ExpressionOccurrence[] {
  const out: ExpressionOccurrence[] = [];
  for (const scalar of stringScalars(node)) for (const occurrence of expressionsOf(file, scalar)) out.push(occurrence);
  return out;
}
