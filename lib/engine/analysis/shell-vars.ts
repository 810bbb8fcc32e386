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
  // `${URL%/}`: a trailing slash (or space) removed, which leaves the value as it is unless it ends in one.
  if (/^%%?(?:\/|\\\/|\s)$/.test(modifier)) return 'value';
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
    const end = substitutionEnd(text, i);
    if (end === -1) continue;
    ranges.push([i, end]);
    i = end - 1;
  }
  return ranges;
}

/**
 * The end (exclusive) of the command substitution that starts at `at` (`$(` with its nesting, or a backtick), the
 * text's end when it is not closed; -1 when none starts there.
 */
function substitutionEnd(text: string, at: number): number {
  if (text[at] === '$' && text[at + 1] === '(') return closing(text, at + 1) + 1;
  if (text[at] !== '`') return -1;
  const end = text.indexOf('`', at + 1);
  return end === -1 ? text.length : end + 1;
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
    const end = substitutionEnd(command, i);
    if (c === '"' || c === "'") {
      quote = c;
    } else if (end !== -1) {
      substitutions.push(command.slice(i, end));
      i = end - 1;
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

/**
 * The commands run by the command substitutions of a text (`$( ... )`, `` `...` ``), outside single quotes and
 * wherever they stand: in an assignment, a test (`[[ $(gh api ...) -gt 0 ]]`), an `if`, a pipeline, double quotes.
 * Each is the substitution's inner text, a script of its own, with its offset in `text`; nested ones are not
 * included (read the inner text again for them).
 */
export function substitutionBodies(text: string): { text: string; offset: number }[] {
  const bodies: { text: string; offset: number }[] = [];
  let quote: '"' | "'" | null = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '\\' && quote !== "'") {
      i++;
      continue;
    }
    if (quote === "'") {
      if (c === "'") quote = null;
      continue;
    }
    if (c === '"') {
      quote = quote === '"' ? null : '"';
      continue;
    }
    if (c === "'" && quote === null) {
      quote = "'";
      continue;
    }
    const end = substitutionEnd(text, i);
    if (end === -1) continue;
    const open = c === '$' ? 2 : 1;
    const close = text[end - 1] === (c === '$' ? ')' : '`') && end - 1 >= i + open ? end - 1 : end;
    bodies.push({ text: text.slice(i + open, close), offset: i + open });
    i = end - 1;
  }
  return bodies;
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
