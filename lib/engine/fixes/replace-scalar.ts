import type { YScalar } from '../yaml/model.js';
import { nextLineStart } from './edit.js';
import type { TextEdit } from './types.js';

/**
 * Replaces a one-line scalar's value (plain or quoted; the quotes stay) and, when the rest of its line is
 * empty, adds `# comment` after it. Null when the value cannot be rewritten in place.
 */
export function replaceScalarValue(text: string, scalar: YScalar, value: string, comment: string | null): TextEdit[] | null {
  const source = text.slice(scalar.start, scalar.end);
  if (source.includes('\n')) return null;
  let replacement: string;
  if (scalar.style === 'plain') replacement = value;
  else if (scalar.style === 'single') replacement = `'${value.replaceAll("'", "''")}'`;
  else if (scalar.style === 'double') replacement = JSON.stringify(value);
  else return null;
  const lineEnd = nextLineStart(text, scalar.end);
  const rest = text.slice(scalar.end, lineEnd).replace(/\r?\n$/, '');
  const edits: TextEdit[] = [{ start: scalar.start, end: scalar.end, text: replacement }];
  if (comment !== null && rest.trim() === '') edits.push({ start: scalar.end, end: scalar.end + rest.length, text: ` # ${comment}` });
  return edits;
}
