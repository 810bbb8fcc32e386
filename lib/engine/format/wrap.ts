/**
 * Word wrapping for the text report. A code span (`...`) is one word: it is never broken, so a command or an
 * expression can be copied from the terminal as it is. A word longer than the width (a long span, a URL) gets
 * a line of its own and runs past the width rather than being cut.
 */

/** The words of a text: runs of non-space characters, where a code span keeps its spaces. */
export function words(text: string): string[] {
  const out: string[] = [];
  let current = '';
  let inCode = false;
  for (const ch of text) {
    if (ch === '`') inCode = !inCode;
    if (!inCode && (ch === ' ' || ch === '\t' || ch === '\n')) {
      if (current !== '') out.push(current);
      current = '';
    } else {
      current += ch;
    }
  }
  if (current !== '') out.push(current);
  return out;
}

/**
 * Wraps `text` to `width` columns: the first line starts with `first` (a prefix already on the line), the
 * others with `indent`. Widths are counted in characters of the plain text (colours are added by the caller
 * around whole words).
 */
export function wrap(text: string, width: number, first: string, indent: string): string[] {
  const lines: string[] = [];
  let line = first;
  let lineLength = visibleLength(first);
  let empty = true;
  for (const word of words(text)) {
    if (!empty && lineLength + 1 + word.length > width) {
      lines.push(line);
      line = indent + word;
      lineLength = visibleLength(indent) + word.length;
      continue;
    }
    line += (empty ? '' : ' ') + word;
    lineLength += (empty ? 0 : 1) + word.length;
    empty = false;
  }
  lines.push(line);
  return lines;
}

// eslint-disable-next-line no-control-regex -- ANSI colour codes are what is measured away
const SGR_CODE = /\x1b\[[0-9;]*m/g;

/** The length of a line as the terminal shows it: colour codes take no column. */
export function visibleLength(text: string): number {
  return text.replace(SGR_CODE, '').length;
}
