/**
 * The shell branches of a script, found in time linear in its length: an `if ...; then ... fi` whose `then` is on
 * the `if`'s line, or a command run on the outcome of what comes before it on its line (`[ ... ] || exit 0`,
 * `&& { echo; exit 0; }`).
 *
 * The result is exactly the matches, in order, of the global regular expression
 *
 *     /\bif\b([^\n]*?)\bthen\b([^]*?)\bfi\b|([^\n]*?)(?:\|\||&&)\s*(\{[^}]*\}|exit\b[^\n;]*)/g
 *
 * which the engine used before. That expression is tried at every position, and its second alternative scans
 * from each position to the end of the line (and the first from each `if` to the end of the script), so it is
 * quadratic in a line's length; scanned scripts can hold long lines. Here each search moves forward only.
 */
export interface ShellBranch {
  /** Where the match starts and ends (exclusive). */
  at: number;
  end: number;
  /** Between `if` and `then`, or what comes before `||` / `&&` on the line (from where the match starts). */
  condition: string;
  /** Between `then` and `fi`, or the `{ ... }` block or the `exit ...` command after `||` / `&&`. */
  body: string;
}

const isWordChar = (c: number) => (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
/** JavaScript's `\s` (without the `u` flag). */
const SPACE = /\s/;

/**
 * `find(from)` memoized for nondecreasing `from`, for a `find` that answers the first index at or after `from`
 * where a property of that index alone holds (or -1): an earlier answer still holds for a later `from` that does
 * not pass it.
 */
function forward(find: (from: number) => number): (from: number) => number {
  let lastFrom = -1;
  let lastAt = -1;
  return (from) => {
    if (lastFrom !== -1 && from >= lastFrom && (lastAt === -1 || from <= lastAt)) return lastAt;
    lastFrom = from;
    lastAt = find(from);
    return lastAt;
  };
}

export function shellBranches(text: string): ShellBranch[] {
  const n = text.length;
  const wordChar = (i: number) => i >= 0 && i < n && isWordChar(text.charCodeAt(i));
  /** The first whole word `word` (`\bword\b`) at or after `from`. */
  const wordFinder = (word: string) => forward((from) => {
    for (let i = text.indexOf(word, from); i !== -1; i = text.indexOf(word, i + 1)) {
      if (!wordChar(i - 1) && !wordChar(i + word.length)) return i;
    }
    return -1;
  });
  const nextIf = wordFinder('if');
  const nextThen = wordFinder('then');
  const nextFi = wordFinder('fi');
  const nextNewline = forward((from) => text.indexOf('\n', from));
  const nextClose = forward((from) => text.indexOf('}', from));
  const nextExitEnd = forward((from) => {
    for (let i = from; i < n; i++) if (text[i] === '\n' || text[i] === ';') return i;
    return -1;
  });
  const operator = /\|\||&&/g;
  /** The body and end of the command run on the outcome at `j` (`|| exit 1`, `&& { ... }`), or null. */
  const outcome = (j: number): { body: number; end: number } | null => {
    let x = j + 2;
    while (x < n && SPACE.test(text[x] ?? '')) x++;
    if (text[x] === '{') {
      const close = nextClose(x + 1);
      return close === -1 ? null : { body: x, end: close + 1 };
    }
    if (text.startsWith('exit', x) && !wordChar(x + 4)) {
      const end = nextExitEnd(x + 4);
      return { body: x, end: end === -1 ? n : end };
    }
    return null;
  };
  let good: { at: number; body: number; end: number } | null = null;
  /** The first `||` / `&&` at or after `from` followed by a command the expression accepts. */
  const nextOutcome = forward((from) => {
    for (operator.lastIndex = from; ;) {
      const m = operator.exec(text);
      if (m === null) return -1;
      const found = outcome(m.index);
      if (found !== null) {
        good = { at: m.index, ...found };
        return m.index;
      }
      operator.lastIndex = m.index + 1;
    }
  });
  /** The start of the line holding `at`, for nondecreasing `at`. */
  let lineAt = 0;
  let nextBreak = text.indexOf('\n');
  const lineStart = (at: number) => {
    if (at < lineAt) {
      lineAt = 0;
      nextBreak = text.indexOf('\n');
    }
    while (nextBreak !== -1 && nextBreak < at) {
      lineAt = nextBreak + 1;
      nextBreak = text.indexOf('\n', lineAt);
    }
    return lineAt;
  };

  const found: ShellBranch[] = [];
  for (let pos = 0; pos <= n;) {
    const j = nextOutcome(pos);
    const command = j === -1 ? null : (good as { at: number; body: number; end: number } | null);
    const orAt = command === null ? Infinity : Math.max(pos, lineStart(command.at));
    let branch: ShellBranch | null = null;
    for (let i = nextIf(pos); i !== -1 && i <= orAt; i = nextIf(i + 1)) {
      const lineEnd = nextNewline(i + 2);
      const then = nextThen(i + 2);
      if (then === -1 || (lineEnd !== -1 && then > lineEnd)) continue;
      const fi = nextFi(then + 4);
      if (fi === -1) continue;
      branch = { at: i, end: fi + 2, condition: text.slice(i + 2, then), body: text.slice(then + 4, fi) };
      break;
    }
    if (branch === null && command !== null) {
      branch = { at: orAt, end: command.end, condition: text.slice(orAt, command.at), body: text.slice(command.body, command.end) };
    }
    if (branch === null) break;
    found.push(branch);
    pos = branch.end;
  }
  return found;
}
