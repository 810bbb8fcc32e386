/**
 * Where a shell script has checked a variable, so that a read of it there sees a value of a known, harmless
 * shape: after a check that stops the script (or empties the variable) on any other value, or inside a branch
 * that runs only when the value matched.
 *
 *     [[ "$N" =~ ^[0-9]+$ ]] || exit 1                      # every later read of N (the enclosing block's)
 *     if ! [[ $N =~ ^[0-9]+$ ]]; then echo bad; exit 1; fi   # the same
 *     if [ -n "$N" ] && ! [[ "$N" =~ ^[1-9][0-9]*$ ]]; then N=""; fi
 *     case "$N" in ''|*[!0-9]*) exit 1 ;; esac              # or without `''`: digits or nothing pass
 *     [ "$N" -eq "$N" ] 2>/dev/null || exit 1               # `[` / `test` fail on anything but an integer's text
 *     if [[ -z "$N" || ! "$N" =~ ^[0-9]+$ ]]; then exit 1; fi   # `[[ A || B ]]` read as `[[ A ]] || [[ B ]]`
 *     if ! [[ "$S" =~ ^[0-9a-f]{40}$ && "$N" =~ ^[0-9]+$ ]]; then exit 1; fi   # `! [[ A ]] || ! [[ B ]]`: both
 *     [[ "$N" =~ ^[0-9]+$ ]] || (echo bad; exit 1)           # the subshell fails, and `bash -e` with it
 *     if [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then SHA="$RAW"; fi  # the read inside the branch
 *     [[ "$N" =~ ^[0-9]+$ ]]                                # alone, when the shell runs with `-e` (`errexit`)
 *
 * A check counts only against an anchored pattern (`^...$`) whose every character is one that cannot end a
 * quoted string or start a command in a shell or JavaScript sink (letters, digits, `_ - . / : @ +`): a
 * pattern admitting `.`, spaces, quotes, `$`, backslashes or a negated class checks nothing, nor does an
 * unanchored one. An integer comparison of `[` or `test` (`-eq`, `-gt` ...) passes only digits with a sign and
 * blanks around them (bash also skips a leading newline: a line that is a number runs nothing); `[[ ]]`'s does
 * not count, since it evaluates the value as arithmetic, which runs `$( )` in an array index. `=~` and `case` match the whole value, so it holds no newline either; a `grep` of the value
 * checks nothing, since it matches line by line (`1`, a newline and anything after it pass). Reads inside the tests themselves (`[[ "$N" =~ ... ]]`, `[ -n "$N" ]`) carry the value
 * nowhere.
 *
 * This is not a shell parser: it splits the script into statements (quotes, `$( )`, `[[ ]]`, here-documents
 * and comments respected) and follows `if`/`elif`/`else`/`fi`, loops, `case` and `{ }` blocks, in one pass
 * linear in the script. A script whose blocks it cannot match has no checks.
 */
import { ScanMemo } from '../model/scan-cache.js';

/** What a read in a checked range is protected by. `fail`: the script fails on any other value. */
export type CheckOutcome = 'fail' | 'stop' | 'clear' | 'branch';

export interface CheckedRange {
  /** `[from, to)` offsets in the script. */
  from: number;
  to: number;
  outcome: CheckOutcome;
}

export interface ShellChecks {
  /** Per variable, where its reads see a checked value (cut where the script assigns it again). */
  ranges: ReadonlyMap<string, readonly CheckedRange[]>;
  /** Per variable, the spans of the tests of it, whose reads carry the value nowhere. */
  tests: ReadonlyMap<string, readonly [number, number][]>;
  /** Variables checked at the top level of the script by a check that fails the step on any other value. */
  failing: ReadonlySet<string>;
  /**
   * Per variable, assignments whose value is checked before anything but their own block reads it: offset of the
   * assignment -> where its check ends (see `validatedAssignment`).
   */
  assignments: ReadonlyMap<string, ReadonlyMap<number, number>>;
}

const MAX_SCRIPT = 200_000;
/** At most this many variables get checked ranges (and pattern variables are resolved): each costs a pass over the script. */
const MAX_NAMES = 64;
/** At most this many statements are read, per script, for the assignments a check guards (`validatedAssignment`). */
const MAX_ASSIGNMENT_READS = 20_000;
const EMPTY: ShellChecks = { ranges: new Map(), tests: new Map(), failing: new Set(), assignments: new Map() };
const memo = new ScanMemo<string, ShellChecks>(128);
const errexitMemo = new ScanMemo<string, ShellChecks>(128);

/**
 * The checks of a script (memoised per scan). `errexit`: the script starts with `-e` set (GitHub's `bash` and `sh`
 * templates, and the runner's default shell on Linux and macOS; step-shell.ts), so a test standing alone as a
 * statement at the top level (`[[ "$N" =~ ^[0-9]+$ ]]`, no `&&`, `||` or `!`) stops the script when it fails,
 * as long as no `set +e` before it turned that off.
 */
export function shellChecks(script: string, errexit = false): ShellChecks {
  const cache = errexit ? errexitMemo : memo;
  const known = cache.get(script);
  if (known !== undefined) return known;
  const found = script.length > MAX_SCRIPT || !/=~|esac|\s-(?:eq|ne|gt|ge|lt|le)\s/.test(script) ? EMPTY : analyse(script, errexit);
  cache.set(script, found);
  return found;
}

/** `set -e`, `set -euo pipefail`, `set -o errexit` (on) and `set +e`, `set +o errexit` (off): where each is, in order. */
const SET_ERREXIT = /(?:^|[;&|]|\bthen\b|\bdo\b)[ \t]*set[ \t]+(?:([-+])[A-Za-z]*e[A-Za-z]*\b|([-+])o[ \t]+errexit\b)/gm;

/** Whether `-e` is set at each offset of the script, from its start and the `set` commands before it. */
function errexitAt(script: string, initial: boolean): (offset: number) => boolean {
  const toggles: [number, boolean][] = [];
  if (script.includes('set')) for (const match of script.matchAll(SET_ERREXIT)) toggles.push([match.index ?? 0, (match[1] ?? match[2]) === '-']);
  return (offset) => {
    let on = initial;
    for (const [at, value] of toggles) {
      if (at >= offset) break;
      on = value;
    }
    return on;
  };
}

/** True when `offset` of the script is in a range where `name` has been checked, or in a test of it. */
export function checkedAt(checks: ShellChecks, name: string, offset: number): boolean {
  for (const range of checks.ranges.get(name) ?? []) if (offset >= range.from && offset < range.to) return true;
  for (const [from, to] of checks.tests.get(name) ?? []) if (offset >= from && offset < to) return true;
  return false;
}

/**
 * Where the value that an assignment of `name` on `[from, to)` of the script (one logical line) gives it is checked:
 * the offset at which its check ends, or null when some assignment of it there is not followed by a check.
 *
 *     if [ "$EVENT" = workflow_dispatch ]; then
 *       RUN_ID="$INPUT"                                   # checked from the end of the inner `fi`
 *       if ! [[ "$RUN_ID" =~ ^[1-9][0-9]*$ ]]; then exit 1; fi
 *     else
 *       RUN_ID="$OTHER"
 *     fi
 *     echo "run_id=$RUN_ID" >> "$GITHUB_OUTPUT"          # the input reaches it only checked
 *
 * An assignment counts when it is a statement of the same block as a check of the variable that stops the script
 * (or empties the variable) on any other value, before that check, with no `break`, `continue` or `return` between
 * them: every way on from the assignment passes the check, so a read after the check (anywhere after it in the
 * script) sees the value it gave only in the checked shape. Reads before the check see it unchecked.
 */
export function validatedAssignment(script: string, checks: ShellChecks, name: string, from: number, to: number): number | null {
  const known = checks.assignments.get(name);
  if (known === undefined) return null;
  let latest: number | null = null;
  for (const offset of assignmentOffsets(script.slice(from, to), name)) {
    const checked = known.get(from + offset);
    if (checked === undefined) return null;
    latest = latest === null ? checked : Math.max(latest, checked);
  }
  return latest;
}

/** Offsets in `text` of the assignments of `name` (`ASSIGNMENT`), as `cutAtAssignments` places them. */
function assignmentOffsets(text: string, name: string): number[] {
  const found: number[] = [];
  if (!text.includes(name)) return found;
  for (const match of text.matchAll(ASSIGNMENT)) {
    if (!assignedNames(match).includes(name)) continue;
    found.push(assignedOffset(match, name));
    if (found.length >= 256) break;
  }
  return found;
}

/**
 * Variables the script checks, at its top level, with a check that fails the step on any other value: the later
 * steps of the job see the checked shape too.
 */
export function failingChecks(checks: ShellChecks): Set<string> {
  return new Set(checks.failing);
}

// ---------------------------------------------------------------------------------------------------------
// Statements

interface Part {
  start: number;
  end: number;
  text: string;
  /** The operator joining this part to the one before it; null for the first. */
  op: '&&' | '||' | null;
}

interface Statement {
  parts: Part[];
  start: number;
  end: number;
  /** Ended by `;;` (the end of a `case` branch). */
  arm: boolean;
}

const DQ = 1;
const SUB = 2;
const BRACE = 3;
const TEST = 4;
const BACKTICK = 5;

function blank(c: string | undefined): boolean {
  return c === ' ' || c === '\t' || c === '\n' || c === '\r';
}

function wordStart(script: string, i: number): boolean {
  return i === 0 || /[\s;&|(!]/.test(script[i - 1] as string);
}

/** The characters `splitStatements` acts on in some state; it steps over every other one (and every non-ASCII one). */
const STATEMENT_SYNTAX = new Uint8Array(128);
for (const c of '\\\'"`$#\n[]<();&|}') STATEMENT_SYNTAX[c.charCodeAt(0)] = 1;

/**
 * The statements of a script: split at unquoted newlines, `;` and `;;` outside `$( )`, subshells, `[[ ]]`
 * and `${ }`, each split into the parts of its `&&` / `||` list. Here-document bodies and comments are skipped.
 */
function splitStatements(script: string): Statement[] {
  const statements: Statement[] = [];
  const n = script.length;
  const stack: number[] = [];
  let parts: Part[] = [];
  let op: Part['op'] = null;
  let partStart = 0;
  let heredocs: { delimiter: string }[] = [];
  const closePart = (end: number): boolean => {
    let s = partStart;
    let e = end;
    while (s < e && blank(script[s])) s++;
    while (e > s && blank(script[e - 1])) e--;
    if (e <= s) return false;
    parts.push({ start: s, end: e, text: script.slice(s, e), op });
    return true;
  };
  const closeStatement = (end: number, arm: boolean): void => {
    closePart(end);
    const first = parts[0];
    const last = parts[parts.length - 1];
    if (first !== undefined && last !== undefined) statements.push({ parts, start: first.start, end: last.end, arm });
    else if (arm) {
      const previous = statements[statements.length - 1];
      if (previous !== undefined) previous.arm = true;
    }
    parts = [];
    op = null;
  };
  const skipSingle = (i: number): number => {
    const end = script.indexOf("'", i + 1);
    return end === -1 ? n : end;
  };
  for (let i = 0; i < n; i++) {
    // Most characters are ones no state below acts on (letters, digits, blanks): skipped on one table read.
    const code = script.charCodeAt(i);
    if (code >= 128 || STATEMENT_SYNTAX[code] === 0) continue;
    const c = script[i];
    const top = stack.length === 0 ? 0 : (stack[stack.length - 1] as number);
    if (c === '\\') {
      i++;
      continue;
    }
    if (top === DQ) {
      if (c === '"') stack.pop();
      else if (c === '$' && (script[i + 1] === '(' || script[i + 1] === '{')) {
        stack.push(script[i + 1] === '(' ? SUB : BRACE);
        i++;
      } else if (c === '`') stack.push(BACKTICK);
      continue;
    }
    if (top === BACKTICK) {
      if (c === '`') stack.pop();
      continue;
    }
    if (top === BRACE) {
      if (c === '}') stack.pop();
      else if (c === '"') stack.push(DQ);
      else if (c === "'") i = skipSingle(i);
      continue;
    }
    // The top level, a command substitution or subshell, or a `[[ ]]` test.
    if (c === "'") {
      i = skipSingle(i);
      continue;
    }
    if (c === '"') {
      stack.push(DQ);
      continue;
    }
    if (c === '`') {
      stack.push(BACKTICK);
      continue;
    }
    if (c === '$' && (script[i + 1] === '{' || script[i + 1] === '(')) {
      stack.push(script[i + 1] === '{' ? BRACE : SUB);
      i++;
      continue;
    }
    if (c === '#' && wordStart(script, i)) {
      const end = script.indexOf('\n', i);
      i = (end === -1 ? n : end) - 1;
      continue;
    }
    if (c === '\n') {
      if (top === TEST) stack.pop();
      if (stack.length === 0) {
        // `a &&` / `a ||` at the end of a line: the list goes on on the next one.
        const pending = op !== null && script.slice(partStart, i).trim() === '';
        if (!pending) {
          closeStatement(i, false);
          partStart = i + 1;
        }
      }
      if (heredocs.length > 0) {
        let j = i;
        for (const { delimiter } of heredocs) {
          while (j < n) {
            const start = j + 1;
            let end = script.indexOf('\n', start);
            if (end === -1) end = n;
            j = end;
            if (script.slice(start, end).trim() === delimiter) break;
          }
        }
        heredocs = [];
        i = j;
        if (stack.length === 0) partStart = Math.min(j + 1, n);
      }
      continue;
    }
    if (top === TEST) {
      if (c === ']' && script[i + 1] === ']') {
        stack.pop();
        i++;
      }
      continue;
    }
    if (c === '<' && script[i + 1] === '<') {
      if (script[i + 2] === '<') {
        i += 2;
        continue;
      }
      const heredoc = /^<<-?\s*(?:'([^'\n]+)'|"([^"\n]+)"|\\?([A-Za-z_][\w.-]*))/.exec(script.slice(i, i + 200));
      const delimiter = heredoc?.[1] ?? heredoc?.[2] ?? heredoc?.[3];
      if (heredoc !== null && delimiter !== undefined) {
        heredocs.push({ delimiter });
        i += heredoc[0].length - 1;
      } else i++;
      continue;
    }
    if (c === '(') {
      stack.push(SUB);
      continue;
    }
    if (c === ')') {
      if (top === SUB) stack.pop();
      continue;
    }
    if (top === SUB) continue;
    if (c === '[' && script[i + 1] === '[' && wordStart(script, i) && blank(script[i + 2])) {
      stack.push(TEST);
      i++;
      continue;
    }
    if (c === ';') {
      const arm = script[i + 1] === ';' || script[i + 1] === '&';
      closeStatement(i, arm);
      if (arm) i += script[i + 2] === '&' ? 2 : 1;
      partStart = i + 1;
      continue;
    }
    if ((c === '&' && script[i + 1] === '&') || (c === '|' && script[i + 1] === '|')) {
      closePart(i);
      op = c === '&' ? '&&' : '||';
      i++;
      partStart = i + 1;
    }
  }
  if (stack.length === 0 || stack.every((s) => s === TEST)) closeStatement(n, false);
  return statements;
}

// ---------------------------------------------------------------------------------------------------------
// Tests of a variable and their patterns

type TestKind = 'match' | 'mismatch' | 'nonempty' | 'empty';

const VAR = String.raw`"?\$\{?([A-Za-z_]\w*)(?::-)?\}?"?`;
const REGEX_TEST = new RegExp(String.raw`^\[\[\s+(!\s+)?"?\$\{?([A-Za-z_]\w*)\}?"?\s+=~\s+(\S+)\s+\]\]$`);
const EMPTINESS = new RegExp(String.raw`^(?:\[\[?\s+|test\s+)(?:-([nz])\s+)?${VAR}(?:\s+\]\]?)?$`);
/**
 * `[ "$N" -eq "$N" ]`, `test "$N" -gt 0`, `[ 0 -lt "$N" ]`: `[` and `test` fail (status 2, "integer expression
 * expected") on anything but an integer's text, digits with a sign and blanks around them, so a success says the
 * value is a number. Not `[[ $N -eq $N ]]`, which evaluates the value as arithmetic (`a[$(cmd)]` runs `cmd`).
 */
const INTEGER_OP = String.raw`-(?:eq|ne|gt|ge|lt|le)`;
const INTEGER_TEST = new RegExp(String.raw`^(?:\[\s+|test\s+)(?:${VAR}\s+${INTEGER_OP}\s+[^\s\]]+|[^\s\]]+\s+${INTEGER_OP}\s+${VAR})(\s+\])?$`);
/** Redirections after a test (`[ "$N" -eq "$N" ] 2>/dev/null`), which do not change its status. */
const TRAILING_REDIRECTIONS = /(?:\s+(?:[12]?>>?|&>)\s*(?:\/dev\/null|&[12]))+$/;

/** `^...$` whose characters, classes and groups admit only letters, digits and `_ - . / : @ +` (see the module comment). */
export function safePattern(pattern: string, extended = true, javascript = false): boolean {
  if (pattern.length > 300 || !pattern.startsWith('^') || !pattern.endsWith('$') || pattern.endsWith('\\$')) return false;
  const inner = pattern.slice(1, -1);
  let depth = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i] as string;
    if (c === '\\') {
      const d = inner[++i];
      if (d === undefined) return false;
      if (/[A-Za-z]/.test(d)) {
        if (d !== 'd' && d !== 'w') return false;
      } else if (!extended && (d === '(' || d === ')' || d === '|' || d === '{' || d === '+' || d === '?')) {
        if (d === '(') depth++;
        else if (d === ')' && --depth < 0) return false;
        else if (d === '|' && depth === 0) return false;
        else if (d === '{') {
          const quantifier = /^\{\d{1,4}(,\d{0,4})?\\\}/.exec(inner.slice(i));
          if (quantifier === null) return false;
          i += quantifier[0].length - 1;
        }
      } else if (!/[\w./:@+-]/.test(d)) return false;
      continue;
    }
    if (c === '[') {
      const end = classEnd(inner, i, javascript);
      if (end === -1) return false;
      i = end;
      continue;
    }
    if (extended) {
      if (c === '(') {
        depth++;
        continue;
      }
      if (c === ')') {
        if (--depth < 0) return false;
        continue;
      }
      if (c === '|') {
        if (depth === 0) return false;
        continue;
      }
      if (c === '*' || c === '+' || c === '?') continue;
      if (c === '{') {
        const quantifier = /^\{\d{1,4}(,\d{0,4})?\}/.exec(inner.slice(i));
        if (quantifier === null) return false;
        i += quantifier[0].length - 1;
        continue;
      }
    } else if (c === '*') continue;
    // A literal space in a JavaScript pattern (`/^release v[0-9]+$/`) is fixed text, not a class that admits any.
    if (javascript && c === ' ') continue;
    // `.` outside a bracket expression is any character.
    if (c === '.' || !/[\w/:@+-]/.test(c)) return false;
  }
  return depth === 0;
}

/** The index of the `]` closing a safe bracket expression starting at `start`, or -1 (negated, or admitting other characters). */
function classEnd(text: string, start: number, javascript = false): number {
  let j = start + 1;
  if (text[j] === '^' || text[j] === '!') return -1;
  let previous: string | null = null;
  for (; j < text.length; j++) {
    const c = text[j] as string;
    // In JavaScript (not in POSIX brackets, where `\` is itself admitted) `[\w.-]`, `[\d]`, `[a-z\-]`.
    if (javascript && c === '\\') {
      const d = text[j + 1];
      if (d === undefined || !/[dw./:@+_-]/.test(d)) return -1;
      j++;
      previous = null;
      continue;
    }
    if (c === ']' && j > start + 1) return j;
    if (c === '[' && text[j + 1] === ':') {
      const close = text.indexOf(':]', j + 2);
      if (close === -1 || !/^(digit|xdigit|alnum|alpha|upper|lower)$/.test(text.slice(j + 2, close))) return -1;
      j = close + 1;
      previous = null;
      continue;
    }
    if (c === '-' && previous !== null && text[j + 1] !== ']' && text[j + 1] !== undefined) {
      const to = text[j + 1] as string;
      const same = (a: string, b: string) => (/[0-9]/.test(a) && /[0-9]/.test(b)) || (/[a-z]/.test(a) && /[a-z]/.test(b)) || (/[A-Z]/.test(a) && /[A-Z]/.test(b));
      if (!same(previous, to) || to < previous) return -1;
      j++;
      previous = null;
      continue;
    }
    if (!/[\w./:@+-]/.test(c)) return -1;
    previous = c;
  }
  return -1;
}

/** The pattern of `=~ PATTERN`: the word itself, or the value of `$re` assigned once in the script. Quoted words match literally: none. */
function regexPattern(word: string, script: string, known: Map<string, string | null>): string | null {
  if (/^['"]/.test(word)) return null;
  const variable = /^\$\{?([A-Za-z_]\w*)\}?$/.exec(word)?.[1];
  if (variable === undefined) return word;
  // Each pattern variable is looked up once, and only a few of them (each lookup reads the whole script).
  if (known.has(variable)) return known.get(variable) ?? null;
  if (known.size >= MAX_NAMES) return null;
  const value = patternValue(variable, script);
  known.set(variable, value);
  return value;
}

function patternValue(variable: string, script: string): string | null {
  const assignments = [...script.matchAll(new RegExp(String.raw`(?:^|[\s;])(?:(?:local|readonly|declare\s+-r)\s+)?${variable}=(.*)$`, 'gm'))];
  if (assignments.length !== 1) return null;
  const value = /^(['"])(\^[^'"]*\$)\1\s*(?:;.*)?$/.exec((assignments[0] as RegExpMatchArray)[1] ?? '');
  return value?.[2] ?? null;
}

/** What a part of a `&&` / `||` list tests of a variable, or null. */
function classify(text: string, script: string, patterns: Map<string, string | null>): { name: string; kind: TestKind } | null {
  let negated = false;
  let rest = text.trim();
  for (let bang = /^!\s+/.exec(rest); bang !== null; bang = /^!\s+/.exec(rest)) {
    negated = !negated;
    rest = rest.slice(bang[0].length);
  }
  const flip = (kind: TestKind): TestKind => (!negated ? kind : kind === 'match' ? 'mismatch' : kind === 'mismatch' ? 'match' : kind === 'empty' ? 'nonempty' : 'empty');
  const regex = rest.includes('=~') ? REGEX_TEST.exec(rest) : null;
  if (regex !== null) {
    const pattern = regexPattern(regex[3] ?? '', script, patterns);
    if (pattern === null || !safePattern(pattern)) return null;
    if (regex[1] !== undefined) negated = !negated;
    return { name: regex[2] as string, kind: flip('match') };
  }
  // `echo "$N" | grep -qE '^[0-9]+$'` is no check: grep matches line by line, so `1` followed by a newline and
  // anything at all passes, and that newline is what a `$GITHUB_ENV` write or a `${{ }}` splice needs.
  if (rest.includes('grep')) return null;
  rest = rest.replace(TRAILING_REDIRECTIONS, '');
  const integer = rest.includes(' -') ? INTEGER_TEST.exec(rest) : null;
  if (integer !== null && rest.startsWith('[') === (integer[3] !== undefined)) return { name: (integer[1] ?? integer[2]) as string, kind: flip('match') };
  const emptiness = EMPTINESS.exec(rest);
  if (emptiness !== null && emptiness[2] !== undefined && (rest.startsWith('test') || /\]$/.test(rest))) {
    return { name: emptiness[2], kind: flip(emptiness[1] === 'z' ? 'empty' : 'nonempty') };
  }
  return null;
}

/**
 * A list with `[[ A || B ]]` (or `&&`) inside a test read as `[[ A ]] || [[ B ]]`, when that keeps its meaning:
 * the test is the whole list, or joined to it by the same operator as inside it. Each part keeps the test's
 * offsets. `[[ -z "$N" || ! "$N" =~ ^[0-9]+$ ]]` is then an emptiness test or'ed with a pattern test.
 */
function expandTests(parts: readonly Part[]): readonly Part[] {
  if (!parts.some((p) => /^(?:!\s+)?\[\[/.test(p.text) && (p.text.includes('||') || p.text.includes('&&')))) return parts;
  const out: Part[] = [];
  for (const [i, part] of parts.entries()) {
    // `! [[ A && B ]]`, the whole list: `! [[ A ]] || ! [[ B ]]` (and `! [[ A || B ]]`: `! [[ A ]] && ! [[ B ]]`), by De Morgan.
    const negated = parts.length === 1 ? /^!\s+\[\[\s+(.*)\s+\]\]$/s.exec(part.text)?.[1] : undefined;
    if (negated !== undefined) {
      const ops = [...negated.matchAll(/\s(\|\||&&)\s/g)].map((m) => m[1]);
      const op = ops[0];
      if (op !== undefined && ops.every((o) => o === op) && !/[()]/.test(negated.replace(/=~\s+\S+/g, '=~ P'))) {
        negated.split(op === '||' ? /\s\|\|\s/ : /\s&&\s/).forEach((test, j) => {
          out.push({ start: part.start, end: part.end, text: `! [[ ${test.trim()} ]]`, op: j === 0 ? part.op : op === '&&' ? '||' : '&&' });
        });
        continue;
      }
    }
    const inner = /^\[\[\s+(.*)\s+\]\]$/s.exec(part.text)?.[1];
    const ops = inner === undefined ? [] : [...inner.matchAll(/\s(\|\||&&)\s/g)].map((m) => m[1]);
    const op = ops[0];
    // Parentheses group tests, except inside a `=~` pattern (`^[a-z]+(/[a-z]+)*$`), which is one word.
    const uniform = op !== undefined && ops.every((o) => o === op) && !/[()]/.test((inner ?? '').replace(/=~\s+\S+/g, '=~ P'));
    const outer = parts.filter((_, j) => j !== i).map((p) => p.op).filter((o) => o !== null);
    if (inner === undefined || !uniform || (parts.length > 1 && (outer.some((o) => o !== op) || (i > 0 && part.op !== op)))) {
      out.push(part);
      continue;
    }
    inner.split(op === '||' ? /\s\|\|\s/ : /\s&&\s/).forEach((test, j) => {
      out.push({ start: part.start, end: part.end, text: `[[ ${test.trim()} ]]`, op: j === 0 ? part.op : (op as '&&' | '||') });
    });
  }
  return out;
}

/** Uniform `&&` (`and`) or `||` (`or`) list, or mixed (null). A single part is both. */
function listKind(parts: readonly Part[]): { and: boolean; or: boolean } {
  const ops = parts.slice(1).map((p) => p.op);
  return { and: ops.every((o) => o === '&&'), or: ops.every((o) => o === '||') };
}

/** True when the list succeeding means `name` matched (or is empty). */
function passesOnlyChecked(kinds: (TestKind | null)[], list: { and: boolean; or: boolean }): boolean {
  if (!kinds.includes('match')) return false;
  return list.and || (list.or && kinds.every((k) => k === 'match' || k === 'empty'));
}

/** True when the list failing means `name` matched (or is empty). */
function failsOnlyChecked(kinds: (TestKind | null)[], list: { and: boolean; or: boolean }): boolean {
  if (!kinds.includes('mismatch')) return false;
  return list.or || (list.and && kinds.every((k) => k === 'mismatch' || k === 'nonempty'));
}

/** What a command does to the script and `name`: fails or ends it, or empties the variable. */
function effect(text: string, name: string, afterTest: boolean): CheckOutcome | null {
  const t = text.trim();
  if (/^(?:exit\s+[1-9]\d*|return\s+[1-9]\d*|false)\s*(?:[;#].*)?$/.test(t)) return 'fail';
  // `|| (echo bad; exit 1)`: the subshell fails, and the step's shell (`bash -e`) stops on the list's last command.
  if (/^\((?:\s*(?:echo|printf)\b[^()`;&|]*;)?\s*exit\s+[1-9]\d*\s*;?\s*\)$/.test(t)) return 'fail';
  // A bare `exit` returns the status of the command before it: the failed test's, right after one.
  if (/^(?:exit|return)\s*$/.test(t)) return afterTest ? 'fail' : 'stop';
  if (/^exit\s+0\s*$/.test(t)) return 'stop';
  if (new RegExp(String.raw`^(?:(?:export|local)\s+)?${name}=(?:""|'')?$|^unset\s+(?:-v\s+)?${name}$`).test(t)) return 'clear';
  return null;
}

const STRENGTH: Record<CheckOutcome, number> = { fail: 3, stop: 2, clear: 1, branch: 0 };

// ---------------------------------------------------------------------------------------------------------
// Blocks

type Keyword = 'if' | 'then' | 'elif' | 'else' | 'fi' | 'do' | 'done' | 'loop' | 'case' | 'esac' | '{' | '}';

interface Token {
  keyword: Keyword | null;
  parts: Part[];
  /** Offsets of the statement (or of the keyword, for a keyword alone). */
  start: number;
  end: number;
  arm: boolean;
  /** For `{` opening the last part of a list (`[[ ... ]] || { echo bad; exit 1; }`): the list before it, and the operator. */
  list?: Part[];
  listOp?: '&&' | '||';
}

const KEYWORD = /^(if|then|elif|else|fi|do|done|while|until|for|select|case|esac|\{|\})(?=\s|$)/;

/** A statement as keywords and plain commands (`then X=""` is `then` and `X=""`). */
function tokens(statement: Statement, out: Token[]): void {
  let parts = statement.parts;
  for (let guard = 0; guard < 8 && parts.length > 0; guard++) {
    const first = parts[0] as Part;
    const match = KEYWORD.exec(first.text);
    if (match === null) {
      const last = parts[parts.length - 1] as Part;
      // `cmd || {` / `name() {`: a group opens at the end.
      if (parts.length > 1 && /^\{(\s|$)/.test(last.text)) {
        out.push({ keyword: '{', parts: [], start: last.start, end: last.start + 1, arm: false, list: parts.slice(0, -1), ...(last.op === null ? {} : { listOp: last.op }) });
        parts = [rest(last, 1)];
        continue;
      }
      // `name() {`, `function name {`, `name() { body`: a function's body is a block.
      // Both forms hold a `{`: most statements are not tried.
      const header = first.text.includes('{') ? /^(?:function\s+)?[\w.:-]+\s*\(\s*\)\s*\{(?=\s|$)|^function\s+[\w.:-]+\s*\{(?=\s|$)/.exec(first.text) : null;
      if (header !== null) {
        out.push({ keyword: '{', parts: [], start: first.start + header[0].length - 1, end: first.start + header[0].length, arm: false });
        const body = rest(first, header[0].length);
        parts = body.text === '' ? parts.slice(1) : [body, ...parts.slice(1)];
        continue;
      }
      out.push({ keyword: null, parts, start: first.start, end: statement.end, arm: statement.arm });
      return;
    }
    const word = match[1] as string;
    const keyword: Keyword = word === 'while' || word === 'until' || word === 'for' || word === 'select' ? 'loop' : (word as Keyword);
    const remainder = rest(first, word.length);
    if (keyword === 'if' || keyword === 'elif' || keyword === 'loop' || keyword === 'case') {
      out.push({ keyword, parts: remainder.text === '' ? parts.slice(1) : [remainder, ...parts.slice(1)], start: first.start, end: statement.end, arm: statement.arm });
      return;
    }
    out.push({ keyword, parts: [], start: first.start, end: first.start + word.length, arm: false });
    // `fi || exit 1` keeps its operator: the command after it does not always run.
    parts = remainder.text === '' ? parts.slice(1) : [remainder, ...parts.slice(1)];
  }
  const last = out[out.length - 1];
  if (last !== undefined && statement.arm) last.arm = true;
}

/** `part` without its first `skip` characters (and the blanks after them). */
function rest(part: Part, skip: number): Part {
  let start = part.start + skip;
  let offset = skip;
  while (offset < part.text.length && blank(part.text[offset])) {
    start++;
    offset++;
  }
  return { start, end: part.end, text: part.text.slice(offset), op: null };
}

interface Body {
  start: number;
  /** Plain statements directly in the body (not in nested blocks). */
  commands: Token[];
  /** Ranges that last until the body ends. */
  open: { name: string; from: number; outcome: CheckOutcome }[];
}

interface Branch {
  condition: Part[] | null;
  isElse: boolean;
  body: Body;
  end: number;
}

interface Frame {
  kind: 'root' | 'if' | 'loop' | 'case' | 'group';
  body: Body;
  /** `if`: the statements of the condition being read (null while in a branch). */
  condition: Part[][] | null;
  branches: Branch[];
  /** `loop`: still in the header (before `do`). */
  header: boolean;
  /** `case`: the variable tested and where its branches start. */
  caseOf?: { name: string; from: number };
  /** `group`: the list it ends (`|| {`), and the operator before it. */
  list?: Part[];
  listOp?: '&&' | '||';
}

function newBody(start: number): Body {
  return { start, commands: [], open: [] };
}

/** The strongest effect on `name` among the body's own commands (`exit 1`, `false`, `name=""`). */
function bodyEffect(body: Body, name: string): CheckOutcome | null {
  let best: CheckOutcome | null = null;
  for (const command of body.commands) {
    const parts = command.parts;
    const last = parts[parts.length - 1];
    if (last === undefined) continue;
    // `echo bad && exit 1` is `exit 1` after a message.
    const message = parts.slice(0, -1).every((p) => /^(?:echo|printf)\b/.test(p.text) && (p.op === null || p.op === '&&'));
    if (!message || (last.op !== null && last.op !== '&&')) continue;
    const found = effect(last.text, name, false);
    if (found !== null && (best === null || STRENGTH[found] > STRENGTH[best])) best = found;
  }
  return best;
}

function analyse(script: string, errexit: boolean): ShellChecks {
  const exitsAt = errexitAt(script, errexit);
  const ranges = new Map<string, CheckedRange[]>();
  const tests = new Map<string, [number, number][]>();
  const root: Frame = { kind: 'root', body: newBody(0), condition: null, branches: [], header: false };
  const addRange = (name: string, from: number, to: number, outcome: CheckOutcome): void => {
    if (to <= from || (!ranges.has(name) && ranges.size >= MAX_NAMES)) return;
    const list = ranges.get(name) ?? [];
    if (list.length < 256) list.push({ from, to, outcome });
    ranges.set(name, list);
  };
  const failing = new Set<string>();
  const patterns = new Map<string, string | null>();
  const assignments = new Map<string, Map<number, number>>();
  // Offsets of `break`, `continue` and `return`, found once; and a bound on the statements read for assignments.
  let jumps: number[] | null = null;
  let budget = MAX_ASSIGNMENT_READS;
  const jumpBetween = (from: number, to: number): boolean => {
    jumps ??= [...script.matchAll(/\b(?:break|continue|return)\b/g)].map((m) => m.index ?? 0);
    let low = 0;
    let high = jumps.length;
    while (low < high) {
      const middle = (low + high) >>> 1;
      if ((jumps[middle] as number) < from) low = middle + 1;
      else high = middle;
    }
    return low < jumps.length && (jumps[low] as number) < to;
  };
  /**
   * The assignments of `name` among the body's own statements before its check ending at `from`, with no `break`,
   * `continue` or `return` between: the check guards the value each gives (`validatedAssignment`).
   */
  const checkedAssignments = (body: Body, name: string, from: number): void => {
    if (!assignments.has(name) && assignments.size >= MAX_NAMES) return;
    for (const command of body.commands) {
      if (command.start >= from || --budget < 0) break;
      const text = script.slice(command.start, command.end);
      for (const offset of assignmentOffsets(text, name)) {
        const at = command.start + offset;
        if (jumpBetween(at, from)) continue;
        const known = assignments.get(name) ?? new Map<number, number>();
        if (known.size >= 256) return;
        const before = known.get(at);
        if (before === undefined || from < before) known.set(at, from);
        assignments.set(name, known);
      }
    }
  };
  const closeBody = (body: Body, end: number): void => {
    for (const open of body.open) {
      addRange(open.name, open.from, end, open.outcome);
      if (body === root.body && open.outcome === 'fail') failing.add(open.name);
      checkedAssignments(body, open.name, open.from);
    }
  };
  /** The tests of a list, recorded as reads that carry nothing; per variable tested, the kind of each part. */
  const listTests = (parts: readonly Part[]): Map<string, (TestKind | null)[]> => {
    const found = parts.map((p) => classify(p.text, script, patterns));
    const byName = new Map<string, (TestKind | null)[]>();
    found.forEach((test, i) => {
      if (test === null) return;
      const part = parts[i] as Part;
      const spans = tests.get(test.name) ?? [];
      if (spans.length < 256) spans.push([part.start, part.end]);
      tests.set(test.name, spans);
      if (!byName.has(test.name)) byName.set(test.name, found.map((t) => (t !== null && t.name === test.name ? t.kind : null)));
    });
    return byName;
  };
  const stack: Frame[] = [root];
  const frame = (): Frame => stack[stack.length - 1] as Frame;
  const all: Token[] = [];
  for (const statement of splitStatements(script)) tokens(statement, all);
  for (const token of all) {
    const current = frame();
    switch (token.keyword) {
      case null: {
        if (current.kind === 'if' && current.condition !== null) {
          current.condition.push(token.parts);
          break;
        }
        if (current.kind === 'loop' && current.header) break;
        current.body.commands.push(token);
        plainList(token, current.body);
        if (current === root) bareTest(token);
        break;
      }
      case 'if':
        stack.push({ kind: 'if', body: newBody(token.end), condition: [token.parts], branches: [], header: false });
        break;
      case 'elif':
      case 'else': {
        if (current.kind !== 'if' || current.condition !== null) return EMPTY;
        const branch = current.branches[current.branches.length - 1] as Branch;
        branch.end = token.start;
        closeBody(branch.body, token.start);
        if (token.keyword === 'elif') current.condition = [token.parts];
        else {
          const body = newBody(token.end);
          current.branches.push({ condition: null, isElse: true, body, end: -1 });
          current.body = body;
        }
        break;
      }
      case 'then': {
        if (current.kind !== 'if' || current.condition === null) return EMPTY;
        const condition = current.condition.length === 1 ? (current.condition[0] as Part[]) : null;
        if (condition !== null) listTests(condition);
        const body = newBody(token.end);
        current.branches.push({ condition, isElse: false, body, end: -1 });
        current.body = body;
        current.condition = null;
        break;
      }
      case 'fi': {
        if (current.kind !== 'if' || current.condition !== null || current.branches.length === 0) return EMPTY;
        const branch = current.branches[current.branches.length - 1] as Branch;
        branch.end = token.start;
        closeBody(branch.body, token.start);
        stack.pop();
        ifChecks(current, token.end, frame().body);
        break;
      }
      case 'loop':
        stack.push({ kind: 'loop', body: newBody(token.end), condition: null, branches: [], header: true });
        break;
      case 'do':
        if (current.kind !== 'loop' || !current.header) return EMPTY;
        current.header = false;
        current.body = newBody(token.end);
        break;
      case 'done':
        if (current.kind !== 'loop' || current.header) return EMPTY;
        closeBody(current.body, token.start);
        stack.pop();
        break;
      case 'case': {
        const head = /^["']?\$\{?([A-Za-z_]\w*)\}?["']?\s+in\b/.exec(token.parts[0]?.text ?? '');
        const from = token.parts[0] === undefined || head === null ? -1 : token.parts[0].start + head[0].length;
        if (head !== null && token.parts[0] !== undefined) {
          const spans = tests.get(head[1] as string) ?? [];
          spans.push([token.parts[0].start, from]);
          tests.set(head[1] as string, spans);
        }
        stack.push({ kind: 'case', body: newBody(token.end), condition: null, branches: [], header: false, ...(head === null ? {} : { caseOf: { name: head[1] as string, from } }) });
        break;
      }
      case 'esac': {
        if (current.kind !== 'case') return EMPTY;
        closeBody(current.body, token.start);
        stack.pop();
        if (current.caseOf !== undefined && caseValidates(script, current.caseOf.from)) frame().body.open.push({ name: current.caseOf.name, from: token.end, outcome: 'fail' });
        break;
      }
      case '{':
        stack.push({ kind: 'group', body: newBody(token.end), condition: null, branches: [], header: false, ...(token.list === undefined || token.listOp === undefined ? {} : { list: token.list, listOp: token.listOp }) });
        break;
      case '}': {
        if (current.kind !== 'group') return EMPTY;
        closeBody(current.body, token.start);
        stack.pop();
        if (current.list !== undefined) groupChecks(current, token.start, token.end, frame().body);
        break;
      }
    }
    // The end of a `case` branch (`;;`) ends the checks made in it.
    const inner = frame();
    if (token.arm && inner.kind === 'case') {
      closeBody(inner.body, token.end);
      inner.body = newBody(token.end);
    }
  }
  if (stack.length !== 1) return EMPTY;
  closeBody(root.body, script.length);

  /** `test || exit 1`, `test && Y="$X"`, `! test && exit 1`, `[ -z "$X" ] || test || exit 1`. */
  function plainList(token: Token, body: Body): void {
    const parts = token.parts;
    if (parts.length < 2) return;
    const last = parts[parts.length - 1] as Part;
    const list = expandTests(parts.slice(0, -1));
    const shape = listKind(list);
    for (const [name, kinds] of listTests(list)) {
      const onlyChecked = last.op === '||' ? passesOnlyChecked(kinds, shape) : failsOnlyChecked(kinds, shape);
      const runsOnMatch = last.op === '&&' ? passesOnlyChecked(kinds, shape) : failsOnlyChecked(kinds, shape);
      const outcome = effect(last.text, name, true);
      if (outcome !== null && onlyChecked) body.open.push({ name, from: token.end, outcome });
      else if (outcome === null && runsOnMatch) addRange(name, last.start, token.end, 'branch');
    }
  }

  /**
   * A test that is a whole statement of the top level (`[[ "$N" =~ ^[0-9]+$ ]]`), where `-e` is set: a failure
   * stops the script. Not after `!`, which bash's `-e` ignores.
   */
  function bareTest(token: Token): void {
    const part = token.parts[0];
    if (token.parts.length !== 1 || part === undefined || part.text.startsWith('!') || !exitsAt(part.start)) return;
    const test = classify(part.text, script, patterns);
    if (test === null || test.kind !== 'match') return;
    listTests(token.parts);
    root.body.open.push({ name: test.name, from: token.end, outcome: 'fail' });
  }

  /** An `if` whose condition tests a variable: its branches that run only on a match, and what holds after `fi`. */
  function ifChecks(block: Frame, end: number, parent: Body): void {
    const first = block.branches[0];
    if (first?.condition === undefined || first.condition === null) return;
    const condition = expandTests(first.condition);
    const shape = listKind(condition);
    const others = block.branches.slice(1);
    const onlyElse = others.length === 1 && others[0]?.isElse === true ? (others[0] as Branch) : null;
    for (const [name, kinds] of listTests(condition)) {
      if (passesOnlyChecked(kinds, shape)) {
        addRange(name, first.body.start, first.end, 'branch');
        // Every other way through fails or empties the variable: after `fi` it is checked.
        const effects = others.map((b) => bodyEffect(b.body, name));
        if (others.length > 0 && others[others.length - 1]?.isElse === true && effects.every((e) => e !== null)) {
          parent.open.push({ name, from: end, outcome: weakest(effects as CheckOutcome[]) });
        }
      }
      if (failsOnlyChecked(kinds, shape)) {
        if (onlyElse !== null) addRange(name, onlyElse.body.start, onlyElse.end, 'branch');
        const outcome = bodyEffect(first.body, name);
        if (outcome !== null) parent.open.push({ name, from: end, outcome });
      }
    }
  }

  /** `test || { echo bad; exit 1; }`, `test && { Y="$X"; }`. */
  function groupChecks(group: Frame, closeAt: number, end: number, parent: Body): void {
    const op = group.listOp;
    if (group.list === undefined || op === undefined) return;
    const list = expandTests(group.list);
    const shape = listKind(list);
    for (const [name, kinds] of listTests(list)) {
      const onlyChecked = op === '||' ? passesOnlyChecked(kinds, shape) : failsOnlyChecked(kinds, shape);
      const runsOnMatch = op === '&&' ? passesOnlyChecked(kinds, shape) : failsOnlyChecked(kinds, shape);
      const outcome = bodyEffect(group.body, name);
      if (outcome !== null && onlyChecked) parent.open.push({ name, from: end, outcome });
      else if (outcome === null && runsOnMatch) addRange(name, group.body.start, closeAt, 'branch');
    }
  }

  return { ranges: cutAtAssignments(script, ranges), tests, failing, assignments };
}

function weakest(outcomes: CheckOutcome[]): CheckOutcome {
  return outcomes.reduce((a, b) => (STRENGTH[b] < STRENGTH[a] ? b : a));
}

/** `X=...`, `export X=...`, `X+=...`, `read -r X`, `for X in`: an assignment of X (the name is group 1, 2 or 3). */
const ASSIGNMENT = /(?:^|[\s;&|({])(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?([A-Za-z_]\w*)\+?=(?!(?:""|'')?(?:\s|;|$))|\bread\s+(?:-\w+\s+)*((?:[A-Za-z_]\w*\s+)*[A-Za-z_]\w*)|\bfor\s+([A-Za-z_]\w*)\s+in\b/gm;

/** The names an `ASSIGNMENT` match assigns: `N=`, each of `read A B`, `for N in`. */
function assignedNames(match: RegExpMatchArray): string[] {
  return match[1] !== undefined ? [match[1]] : match[2] !== undefined ? match[2].split(/\s+/) : [match[3] ?? ''];
}

/** The offset, in the text matched over, at which an `ASSIGNMENT` match assigns `name` (one of `assignedNames`). */
function assignedOffset(match: RegExpMatchArray, name: string): number {
  const base = match.index ?? 0;
  return match[1] !== undefined ? base + match[0].length - name.length - (match[0].endsWith('+=') ? 2 : 1) : base + match[0].lastIndexOf(name);
}

/**
 * Each range ends where the script assigns its variable a new value (`X=$(cat f)`; `X=""` keeps it checked).
 * One pass over the script for all the variables.
 */
function cutAtAssignments(script: string, ranges: Map<string, CheckedRange[]>): Map<string, CheckedRange[]> {
  const at = new Map<string, number[]>();
  if (ranges.size > 0) {
    for (const match of script.matchAll(ASSIGNMENT)) {
      for (const name of assignedNames(match)) {
        if (!ranges.has(name)) continue;
        const list = at.get(name) ?? [];
        if (list.length < 256) list.push(assignedOffset(match, name));
        at.set(name, list);
      }
    }
  }
  const result = new Map<string, CheckedRange[]>();
  for (const [name, list] of ranges) {
    const offsets = at.get(name) ?? [];
    const cut: CheckedRange[] = [];
    for (const range of list) {
      const next = offsets.find((a) => a >= range.from && a < range.to);
      const to = next ?? range.to;
      if (to > range.from) cut.push({ ...range, to });
    }
    if (cut.length > 0) result.set(name, cut);
  }
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// `case`

/** The branches of a `case` starting at `from` (bounded): each branch's patterns and whether its body fails. */
function caseBranches(script: string, from: number): { patterns: string; fails: boolean }[] | null {
  const end = script.indexOf('esac', from);
  if (end === -1 || end - from > 4000) return null;
  const body = script.slice(from, end);
  const branches: { patterns: string; fails: boolean }[] = [];
  for (const part of body.split(';;')) {
    const close = part.indexOf(')');
    if (close === -1) continue;
    branches.push({ patterns: part.slice(0, close).trim().replace(/^\(/, ''), fails: /\bexit\s+[1-9]|\bfalse\b|\breturn\s+[1-9]/.test(part.slice(close + 1)) });
  }
  return branches;
}

/**
 * True when a `case` lets only listed values through: its catch-all `*)` fails and every other pattern is a
 * literal word (an allow-list), or a branch that fails matches anything but digits (`*[!0-9]*`): what passes is
 * digits or nothing, and the empty value carries no code either.
 */
function caseValidates(script: string, from: number): boolean {
  const branches = caseBranches(script, from);
  if (branches === null || branches.length === 0) return false;
  const alternatives = (b: { patterns: string }) => b.patterns.split('|').map((p) => p.trim().replace(/^["']|["']$/g, ''));
  const catchAll = branches.find((b) => alternatives(b).includes('*'));
  if (catchAll?.fails === true && branches.every((b) => b === catchAll || alternatives(b).every((p) => /^[\w./@:+-]+$/.test(p)))) return true;
  const number = branches.findIndex((b) => b.fails && alternatives(b).some((p) => /^\*\[!\^?[0-9a-zA-Z_.-]+\]\*$/.test(p) || /^\*\[\^?!?[0-9]+\]\*$/.test(p)));
  // The first branch that matches wins: one before it that passes a glob (`*) ;;`) lets anything through.
  return number !== -1 && branches.slice(0, number).every((b) => b.fails || alternatives(b).every((p) => /^[\w./@:+-]*$/.test(p)));
}
