/**
 * Where a script reads environment variables, and how: enough to tell `echo "$TOKEN"` (the value) from
 * `${#TOKEN}` (its length), `${TOKEN:+set}` (a test) and `${TOKEN:0:4}` (a piece of it).
 */

/** `value`: the whole value; `part`: a substring or pattern-edited copy (`${X:0:4}`, `${X#pre}`, `${X/a/b}`). */
export type VarUseKind = 'value' | 'part';

export interface VarUse {
  name: string;
  kind: VarUseKind;
  /** Offset of the `$` (or `%`, or `process`) in the text. */
  offset: number;
  length: number;
}

// `$NAME`, `${NAME<modifier>}`, `$env:NAME` (PowerShell), `%NAME%` (cmd), `process.env.NAME` (Node).
// Each alternative is anchored on a literal and its repeats end at a character they cannot match.
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)((?:[^}A-Za-z0-9_][^}]{0,200})?)\}|\$env:([A-Za-z_][A-Za-z0-9_]*)|\$([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%|process\.env\.([A-Za-z_][A-Za-z0-9_]*)/g;

/** Variable reads of a script fragment, outside single quotes (where the shell does not expand). */
export function variableUses(text: string): VarUse[] {
  const quoted = singleQuotedRanges(text);
  const uses: VarUse[] = [];
  for (const match of text.matchAll(VAR)) {
    const offset = match.index;
    if (inRanges(offset, quoted)) continue;
    const braced = match[1];
    if (braced !== undefined) {
      const kind = modifierKind(match[2] ?? '');
      if (kind !== null) uses.push({ name: braced, kind, offset, length: match[0].length });
      continue;
    }
    const name = match[3] ?? match[4] ?? match[5] ?? match[6];
    if (name !== undefined) uses.push({ name, kind: 'value', offset, length: match[0].length });
  }
  return uses;
}

/** What `${NAME<modifier>}` yields: null when it does not carry the value (`:+alt`, `+alt`). */
function modifierKind(modifier: string): VarUseKind | null {
  if (modifier === '' || /^:?[-=?]/.test(modifier)) return 'value';
  if (/^:?\+/.test(modifier)) return null;
  if (/^(:|##?|%%?|\/\/?|\^\^?|,,?)/.test(modifier)) return 'part';
  return 'value';
}

/** `[start, end)` ranges of single-quoted text (quotes included); unterminated quotes run to the end. */
export function singleQuotedRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  let inDouble = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && !inDouble) {
      i++;
    } else if (c === '"') {
      inDouble = !inDouble;
    } else if (c === "'" && !inDouble) {
      const end = text.indexOf("'", i + 1);
      const stop = end === -1 ? text.length : end + 1;
      ranges.push([i, stop]);
      i = stop - 1;
    }
  }
  return ranges;
}

/** `[start, end)` ranges of command substitutions, `$( ... )` and backticks, whose output is not the text's own. */
export function substitutionRanges(text: string): [number, number][] {
  const ranges: [number, number][] = [];
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '$' && text[i + 1] === '(') {
      let depth = 0;
      let j = i + 1;
      for (; j < text.length; j++) {
        if (text[j] === '(') depth++;
        else if (text[j] === ')' && --depth === 0) break;
      }
      ranges.push([i, Math.min(j + 1, text.length)]);
      i = j;
    } else if (text[i] === '`') {
      const end = text.indexOf('`', i + 1);
      const stop = end === -1 ? text.length : end + 1;
      ranges.push([i, stop]);
      i = stop - 1;
    }
  }
  return ranges;
}

/** True when `offset` falls in one of `ranges` (sorted and disjoint, as the functions above return them). */
export function inRanges(offset: number, ranges: readonly [number, number][]): boolean {
  let lo = 0;
  let hi = ranges.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const range = ranges[mid];
    if (range === undefined) return false;
    if (offset < range[0]) hi = mid - 1;
    else if (offset >= range[1]) lo = mid + 1;
    else return true;
  }
  return false;
}

/**
 * The expansions of a command outside any quotes, which the shell splits into words (and globs): the variables
 * (`$PR`, `${PR}`, not `"$PR"`) and the command substitutions (`$(cat NR)`, `` `cat NR` ``, as written). A value
 * expanded there can add words to the command: options and arguments of its writer's choosing.
 */
export function unquotedExpansions(command: string): { variables: string[]; substitutions: string[] } {
  const variables: string[] = [];
  const substitutions: string[] = [];
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (c === '\\' && quote !== "'") {
      i++;
      continue;
    }
    if (quote !== null) {
      if (c === quote) quote = null;
      // A substitution inside double quotes is one word too: skip it whole, so its own quotes do not count.
      else if (quote === '"' && c === '$' && command[i + 1] === '(') i = closing(command, i + 1);
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
    } else if (c === '$' && command[i + 1] === '(') {
      const end = closing(command, i + 1);
      substitutions.push(command.slice(i, end + 1));
      i = end;
    } else if (c === '`') {
      const end = command.indexOf('`', i + 1);
      const stop = end === -1 ? command.length - 1 : end;
      substitutions.push(command.slice(i, stop + 1));
      i = stop;
    } else if (c === '$') {
      const match = /^\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))/.exec(command.slice(i, i + 200));
      const name = match?.[1] ?? match?.[2];
      if (match !== null && name !== undefined) {
        variables.push(name);
        i += match[0].length - 1;
      }
    }
  }
  return { variables, substitutions };
}

/** The offset of the `)` that closes the `(` at `open` (the text's end when none does). */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let j = open; j < text.length; j++) {
    if (text[j] === '(') depth++;
    else if (text[j] === ')' && --depth === 0) return j;
  }
  return text.length - 1;
}
