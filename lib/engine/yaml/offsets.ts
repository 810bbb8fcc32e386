import { ScanCache } from '../model/scan-cache.js';
import type { SourceFile } from './source.js';
import type { YScalar } from './model.js';

/**
 * Maps an offset inside a scalar's resolved string value back to an offset in the file, so a finding
 * inside a multi-line `run:` script points at its own line and column. Exact for plain, quoted and
 * literal block scalars; folded scalars and escapes fall back to locating the text, then to the
 * scalar's start.
 */
export function valueOffsetToSource(file: SourceFile, scalar: YScalar, valueOffset: number): number {
  if (typeof scalar.value !== 'string') return scalar.start;
  const value = scalar.value;
  const map = scalarMap(file, scalar, value);
  if (map.shift !== null) return scalar.start + map.shift + valueOffset;
  if (scalar.style === 'literal') {
    const mapped = literalOffset(file, scalar, value, valueOffset);
    if (mapped !== undefined) return mapped;
  }
  const located = locateSnippet(map, value, valueOffset);
  return located === undefined ? scalar.start : scalar.start + located;
}

/**
 * How a scalar's value maps to its source, computed once per scalar (a script with thousands of expressions
 * asks for thousands of offsets: each answer must not cost a pass over the scalar). `shift` is set when the
 * value is the raw text itself (plain) or between the quotes; otherwise `checkpoints` pairs value offsets
 * with raw offsets, aligned once, left to right, so a lookup searches a bounded window after the nearest one.
 */
interface ScalarMap {
  raw: string;
  shift: number | null;
  /** Value offsets (ascending) and the raw offsets they were found at. */
  values: number[];
  raws: number[];
}

const maps = new ScanCache<YScalar, ScalarMap>();
/** Value characters between checkpoints. */
const CHECKPOINT_EVERY = 64;
/** How far past its lower bound a snippet is looked for (escapes and folding make the raw text longer). */
const SEARCH_WINDOW = 2048;

function scalarMap(file: SourceFile, scalar: YScalar, value: string): ScalarMap {
  const cached = maps.get(scalar);
  if (cached !== undefined) return cached;
  const raw = file.text.slice(scalar.start, scalar.end);
  let shift: number | null = null;
  if (scalar.style === 'plain' && raw === value) shift = 0;
  else if ((scalar.style === 'single' || scalar.style === 'double') && raw.length === value.length + 2 && raw.slice(1, -1) === value) shift = 1;
  const map: ScalarMap = { raw, shift, values: [0], raws: [0] };
  if (shift === null && scalar.style !== 'literal') {
    for (let c = CHECKPOINT_EVERY; c < value.length; c += CHECKPOINT_EVERY) {
      const found = search(map, value, c);
      if (found !== undefined) {
        map.values.push(c);
        map.raws.push(found);
      }
    }
  }
  maps.set(scalar, map);
  return map;
}

/** The text at `valueOffset` (at most 40 characters, up to the end of its line, trailing blanks trimmed). */
function snippetAt(value: string, valueOffset: number): string {
  const text = value.slice(valueOffset, valueOffset + 40);
  const eol = text.indexOf('\n');
  return (eol === -1 ? text : text.slice(0, eol)).trimEnd();
}

/** Where the text at `valueOffset` is in the raw source, searched in a bounded window after the last checkpoint before it. */
function search(map: ScalarMap, value: string, valueOffset: number): number | undefined {
  const snippet = snippetAt(value, valueOffset);
  if (snippet === '') return undefined;
  // The last checkpoint at or before valueOffset (binary search).
  let lo = 0;
  let hi = map.values.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((map.values[mid] ?? 0) <= valueOffset) lo = mid;
    else hi = mid - 1;
  }
  // The raw text is never shorter than the value it gives: the offset is at least this far in.
  const from = (map.raws[lo] ?? 0) + (valueOffset - (map.values[lo] ?? 0));
  const at = map.raw.slice(from, from + snippet.length + SEARCH_WINDOW).indexOf(snippet);
  return at === -1 ? undefined : from + at;
}

interface LiteralLayout {
  /** Indentation of the content lines. */
  indent: number;
  /** File offset of each physical line after the header. */
  fileLines: number[];
  /** Offset in the value of each of its lines; line i of the value is physical line i. */
  valueLines: number[];
}

// Built once per scalar: a script with thousands of expressions would otherwise be rescanned for each.
const layouts = new ScanCache<YScalar, LiteralLayout | null>();

function literalLayout(file: SourceFile, scalar: YScalar, value: string): LiteralLayout | null {
  const cached = layouts.get(scalar);
  if (cached !== undefined) return cached;
  const layout = computeLiteralLayout(file, scalar, value);
  layouts.set(scalar, layout);
  return layout;
}

function computeLiteralLayout(file: SourceFile, scalar: YScalar, value: string): LiteralLayout | null {
  const text = file.text;
  const headerEnd = text.indexOf('\n', scalar.start);
  if (headerEnd === -1 || headerEnd >= scalar.end) return null;
  // Content starts on the line after the header; its indentation is explicit or that of the first non-blank line.
  const explicit = explicitIndentation(text, scalar.start);
  let indent: number;
  if (explicit !== 0) {
    const parentIndent = lineIndentAt(text, scalar.start);
    indent = parentIndent + explicit;
  } else {
    indent = -1;
    for (let pos = headerEnd + 1; pos < scalar.end; ) {
      const eol = text.indexOf('\n', pos);
      const end = eol === -1 ? text.length : eol;
      const line = text.slice(pos, end);
      if (line.trim() !== '') {
        indent = line.length - line.trimStart().length;
        break;
      }
      pos = end + 1;
    }
    if (indent < 0) return null;
  }
  const fileLines = [headerEnd + 1];
  for (let eol = text.indexOf('\n', headerEnd + 1); eol !== -1 && eol < scalar.end; eol = text.indexOf('\n', eol + 1)) fileLines.push(eol + 1);
  const valueLines = [0];
  for (let eol = value.indexOf('\n'); eol !== -1; eol = value.indexOf('\n', eol + 1)) valueLines.push(eol + 1);
  return { indent, fileLines, valueLines };
}

function literalOffset(file: SourceFile, scalar: YScalar, value: string, valueOffset: number): number | undefined {
  const layout = literalLayout(file, scalar, value);
  if (layout === null) return undefined;
  // The value line holding valueOffset: the last line start at or before it.
  let lo = 0;
  let hi = layout.valueLines.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((layout.valueLines[mid] ?? 0) <= valueOffset) lo = mid;
    else hi = mid - 1;
  }
  const lineStart = layout.fileLines[lo];
  if (lineStart === undefined) return undefined;
  const offset = lineStart + layout.indent + (valueOffset - (layout.valueLines[lo] ?? 0));
  if (offset >= scalar.end || file.text[offset] !== value[valueOffset]) return undefined;
  return offset;
}

/**
 * The explicit indentation indicator of the block scalar header at `start` (`|2`, `>-1`, `|+3`: a digit 1-9
 * before or after the chomping indicator), or 0 when it has none. (The header's line break ends the scan.)
 */
function explicitIndentation(text: string, start: number): number {
  const style = text.charCodeAt(start);
  if (style !== 0x7c /* | */ && style !== 0x3e /* > */) return 0;
  let c = text.charCodeAt(start + 1);
  if (c === 0x2b /* + */ || c === 0x2d /* - */) c = text.charCodeAt(start + 2);
  return c >= 0x31 && c <= 0x39 ? c - 0x30 : 0;
}

function lineIndentAt(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let i = start;
  while (text[i] === ' ') i++;
  return i - start;
}

/** Locates the text that starts at `valueOffset` in the value in the raw source (see `ScalarMap`). */
function locateSnippet(map: ScalarMap, value: string, valueOffset: number): number | undefined {
  return search(map, value, valueOffset);
}
