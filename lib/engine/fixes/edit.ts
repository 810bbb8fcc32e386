/**
 * Source-range edits of YAML files. Every edit is computed from the positioned model's offsets and touches
 * only the lines it adds or replaces, so comments, key order, quoting and blank lines elsewhere survive
 * byte for byte. Flow collections (`{ a: 1 }`) are not edited: the helpers return null and the fix is skipped.
 */
import type { YMap, YNode, YPair } from '../yaml/model.js';
import { keyText } from '../yaml/model.js';
import type { TextEdit } from './types.js';

export function lineStart(text: string, offset: number): number {
  return text.lastIndexOf('\n', offset - 1) + 1;
}

/** The start of the line after the one holding the last character of `[.., end)`. */
export function nextLineStart(text: string, end: number): number {
  const newline = text.indexOf('\n', Math.max(0, end - 1));
  return newline === -1 ? text.length : newline + 1;
}

/** Column (0-based) of an offset. */
export function column(text: string, offset: number): number {
  return offset - lineStart(text, offset);
}

/** A block mapping (not `{ ... }`), which is what these helpers edit. */
export function isBlockMap(text: string, node: YNode | undefined): node is YMap {
  return node?.kind === 'map' && text[node.start] !== '{' && node.pairs.length > 0;
}

/** The indentation step the file uses (the column of the first key under `jobs:`, else 2). */
export function indentUnit(text: string, root: YMap): number {
  const jobs = root.pairs.find((p) => keyText(p.key) === 'jobs');
  const first = jobs?.value.kind === 'map' ? jobs.value.pairs[0] : undefined;
  if (first === undefined || jobs === undefined) return 2;
  const unit = column(text, first.key.start) - column(text, jobs.key.start);
  return unit > 0 && unit <= 8 ? unit : 2;
}

/** The text is pure YAML indentation: spaces only (tabs are not YAML indentation). */
function pad(n: number): string {
  return ' '.repeat(n);
}

/**
 * `key: value` or `key:` with nested lines, rendered at `indent`. `lines` are relative to the key's
 * children (already indented by the unit where nested further).
 */
export function renderPair(key: string, value: string | readonly string[], indent: number, unit: number): string {
  if (typeof value === 'string') return `${pad(indent)}${key}: ${value}\n`;
  return `${pad(indent)}${key}:\n${value.map((line) => `${pad(indent + unit)}${line}\n`).join('')}`;
}

/** Inserts a pair after `after` (on the next line), at the map's indentation. Null for flow maps. */
export function insertAfterPair(text: string, map: YMap, after: YPair, key: string, value: string | readonly string[], unit: number): TextEdit | null {
  if (!isBlockMap(text, map)) return null;
  const indent = column(text, map.pairs[0]?.key.start ?? map.start);
  const at = pairEnd(text, after);
  const prefix = at === text.length && !text.endsWith('\n') ? '\n' : '';
  return { start: at, end: at, text: prefix + renderPair(key, value, indent, unit) };
}

/** Inserts a pair before `before`, when `before` starts its line (not after `- `). */
export function insertBeforePair(text: string, map: YMap, before: YPair, key: string, value: string | readonly string[], unit: number): TextEdit | null {
  if (!isBlockMap(text, map)) return null;
  const start = lineStart(text, before.key.start);
  if (text.slice(start, before.key.start).trim() !== '') return null;
  return { start, end: start, text: renderPair(key, value, column(text, before.key.start), unit) };
}

/** Where a pair's text ends: the start of the line after its value (a trailing comment stays with it). */
export function pairEnd(text: string, pair: YPair): number {
  return nextLineStart(text, Math.max(pair.key.end, pair.value.end));
}

/** Replaces a whole pair (its lines) with another rendering at the same indentation. */
export function replacePair(text: string, pair: YPair, key: string, value: string | readonly string[], unit: number): TextEdit | null {
  const start = lineStart(text, pair.key.start);
  if (text.slice(start, pair.key.start).trim() !== '') return null;
  return { start, end: pairEnd(text, pair), text: renderPair(key, value, column(text, pair.key.start), unit) };
}

/** Applies non-overlapping edits (any order). Throws on overlap: a fixer bug, never file content. */
export function applyEdits(text: string, edits: readonly TextEdit[]): string {
  const sorted = [...edits].sort((a, b) => a.start - b.start || a.end - b.end);
  // Edits are written with \n; a file with Windows line endings gets them with \r\n, so it keeps one style.
  const crlf = text.includes('\r\n');
  let out = '';
  let at = 0;
  for (const edit of sorted) {
    if (edit.start < at) throw new Error('overlapping fix edits');
    out += text.slice(at, edit.start) + (crlf ? edit.text.replace(/\r?\n/g, '\r\n') : edit.text);
    at = edit.end;
  }
  return out + text.slice(at);
}

/** Inverse of `SourceFile.position`: the offset of a 1-based line and column. */
export function offsetOf(lineStarts: readonly number[], line: number, col: number): number {
  return (lineStarts[line - 1] ?? 0) + col - 1;
}
