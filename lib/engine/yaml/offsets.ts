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
  const raw = file.text.slice(scalar.start, scalar.end);
  if (scalar.style === 'plain' && raw === value) return scalar.start + valueOffset;
  if ((scalar.style === 'single' || scalar.style === 'double') && raw.slice(1, -1) === value) {
    return scalar.start + 1 + valueOffset;
  }
  if (scalar.style === 'literal') {
    const mapped = literalOffset(file, scalar, value, valueOffset);
    if (mapped !== undefined) return mapped;
  }
  const located = locateSnippet(raw, value, valueOffset);
  return located === undefined ? scalar.start : scalar.start + located;
}

function literalOffset(file: SourceFile, scalar: YScalar, value: string, valueOffset: number): number | undefined {
  const text = file.text;
  const headerEnd = text.indexOf('\n', scalar.start);
  if (headerEnd === -1 || headerEnd >= scalar.end) return undefined;
  const header = text.slice(scalar.start, headerEnd);
  // Content starts on the line after the header; its indentation is explicit or that of the first non-blank line.
  let lineStart = headerEnd + 1;
  const explicit = /^[|>](?:([1-9])[+-]?|[+-]([1-9]))/.exec(header);
  let indent: number;
  if (explicit !== null) {
    const digit = Number(explicit[1] ?? explicit[2]);
    const parentIndent = lineIndentAt(text, scalar.start);
    indent = parentIndent + digit;
  } else {
    indent = -1;
    for (let pos = lineStart; pos < scalar.end; ) {
      const eol = text.indexOf('\n', pos);
      const end = eol === -1 ? text.length : eol;
      const line = text.slice(pos, end);
      if (line.trim() !== '') {
        indent = line.length - line.trimStart().length;
        break;
      }
      pos = end + 1;
    }
    if (indent < 0) return undefined;
  }
  const before = value.slice(0, valueOffset);
  const targetLine = countNewlines(before);
  const column = valueOffset - (before.lastIndexOf('\n') + 1);
  for (let i = 0; i < targetLine; i++) {
    const eol = text.indexOf('\n', lineStart);
    if (eol === -1) return undefined;
    lineStart = eol + 1;
  }
  const offset = lineStart + indent + column;
  if (offset >= scalar.end || text[offset] !== value[valueOffset]) return undefined;
  return offset;
}

function lineIndentAt(text: string, offset: number): number {
  const start = text.lastIndexOf('\n', offset - 1) + 1;
  let i = start;
  while (text[i] === ' ') i++;
  return i - start;
}

function countNewlines(text: string): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** Finds the n-th occurrence in the raw source of the text that starts at `valueOffset` in the value. */
function locateSnippet(raw: string, value: string, valueOffset: number): number | undefined {
  const eol = value.indexOf('\n', valueOffset);
  const snippet = value.slice(valueOffset, Math.min(eol === -1 ? value.length : eol, valueOffset + 40)).trimEnd();
  if (snippet === '') return undefined;
  let nth = 0;
  for (let i = value.indexOf(snippet); i !== -1 && i < valueOffset; i = value.indexOf(snippet, i + 1)) nth++;
  let found = raw.indexOf(snippet);
  for (let i = 0; i < nth && found !== -1; i++) found = raw.indexOf(snippet, found + 1);
  return found === -1 ? undefined : found;
}
