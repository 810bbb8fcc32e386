import { ScanMemo } from '../model/scan-cache.js';
import { logicalLines, type ScriptSpan } from '../shell.js';
import { checkedAt, failingChecks, safePattern, shellChecks, validatedAssignment } from './shell-checks.js';

/** Environment variables a script reads: `$X`, `${X}`, `$env:X`, `%X%`, `process.env.X`. */
export function referencedEnvVars(script: string): Set<string> {
  const names = new Set<string>();
  // `$env:X` first: otherwise `$env` would be read as a variable named `env`.
  const pattern = /\$env:([A-Za-z_][A-Za-z0-9_]*)|\$\{?([A-Za-z_][A-Za-z0-9_]*)|%([A-Za-z_][A-Za-z0-9_]*)%|process\.env\.([A-Za-z_][A-Za-z0-9_]*)/g;
  // A fresh pattern each call, read with `exec` (it matches no empty text): `matchAll` would copy it once more.
  for (let match = pattern.exec(script); match !== null; match = pattern.exec(script)) {
    const name = match[1] ?? match[2] ?? match[3] ?? match[4];
    if (name !== undefined) names.add(name);
  }
  return names;
}

/** Offsets in a script: the raw extents of some of its lines, and the environment variables they read. */
export interface ScriptSources {
  /** `[start, end)` of each line (continuations included). */
  ranges: [number, number][];
  /** Variables read that the script does not assign: the environment's. */
  variables: Set<string>;
}

/** A script read once: its logical lines and, per line, what it assigns, reads and writes. */
interface ScriptIndex {
  script: string;
  lines: readonly ScriptSpan[];
  /** Where each shell (or PowerShell) variable is assigned. */
  assignments: Map<string, ScriptSpan[]>;
  /** The variables each line reads, by line number, worked out when a line is first asked about. */
  reads: (readonly string[] | undefined)[];
  /** Lower-cased names written as `name=`, `name<<` or `::set-output name=`, with the indexes of the lines doing so. */
  writes: Map<string, number[]>;
  /** The lines of here-document bodies, when first asked for. */
  heredocs?: ReadonlySet<number>;
}

/** `NAME=value`, `NAME+=value` (an append keeps the earlier assignments' values, which the fold has too), `for NAME in`, `read NAME`, PowerShell `$NAME = value`. */
const ASSIGNMENT = /(?:^|[\s;&|({])(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?([A-Za-z_]\w*)\+?=|\bfor\s+([A-Za-z_]\w*)\s+in\b|\bread\s+(?:-\w+\s+)*([A-Za-z_]\w*)|\$([A-Za-z_]\w*)\s*=(?!=)/g;
const WRITE = /(?:^|[\s"'{(>;|])([A-Za-z_][\w-]*)(?:=|<<)|::set-output\s+name=([\w-]+)::/g;
const INDEX_CACHE_LIMIT = 128;
/** The reads of a line without `$`, `%` or `process.env.` (shared: never changed). */
const NO_READS: readonly string[] = [];
/** Indexed scripts, forgotten when a scan ends. */
const indexCache = new ScanMemo<string, ScriptIndex>(INDEX_CACHE_LIMIT);

/** Indexes a script once (scripts are read again for every output and every write they contain). */
function indexOf(script: string): ScriptIndex {
  const cached = indexCache.get(script);
  if (cached !== undefined) return cached;
  const lines = logicalLines(script);
  const index: ScriptIndex = { script, lines, assignments: new Map(), reads: [], writes: new Map() };
  lines.forEach((line, i) => {
    const text = line.text;
    // Each pattern needs a literal piece: most lines (`make build`, `echo done`) are skipped without a regex run.
    const assigns = text.includes('=') || text.includes('for') || text.includes('read');
    const writes = text.includes('=') || text.includes('<<');
    // `exec` over the module's global patterns from `lastIndex` 0 (neither matches empty text): `matchAll` would copy
    // the pattern and make an iterator for every line.
    ASSIGNMENT.lastIndex = 0;
    if (assigns) for (let match = ASSIGNMENT.exec(text); match !== null; match = ASSIGNMENT.exec(text)) {
      const name = match[1] ?? match[2] ?? match[3] ?? match[4];
      if (name === undefined) continue;
      const list = index.assignments.get(name) ?? [];
      if (list[list.length - 1] !== line) list.push(line);
      index.assignments.set(name, list);
    }
    WRITE.lastIndex = 0;
    if (writes) for (let match = WRITE.exec(text); match !== null; match = WRITE.exec(text)) {
      const name = (match[1] ?? match[2] ?? '').toLowerCase();
      const list = index.writes.get(name) ?? [];
      if (list[list.length - 1] !== i) list.push(i);
      index.writes.set(name, list);
    }
  });
  indexCache.set(script, index);
  return index;
}

/** The number of `line` in the index's lines (they are in offset order), or -1 when it is not one of them. */
function lineNumber(index: ScriptIndex, line: ScriptSpan): number {
  const lines = index.lines;
  let low = 0;
  let high = lines.length - 1;
  while (low <= high) {
    const middle = (low + high) >>> 1;
    const offset = (lines[middle] as ScriptSpan).offset;
    if (offset < line.offset) low = middle + 1;
    else if (offset > line.offset) high = middle - 1;
    else return lines[middle] === line ? middle : -1;
  }
  return -1;
}

/** Raw end of a line of the index: where the next logical line starts (the script's end for others). */
function lineEnd(index: ScriptIndex, line: ScriptSpan): number {
  const number = lineNumber(index, line);
  return number === -1 ? index.script.length : (index.lines[number + 1]?.offset ?? index.script.length);
}

/** The variables a line of the index reads; undefined for a line that is not one of its lines. */
function lineReads(index: ScriptIndex, line: ScriptSpan): readonly string[] | undefined {
  const number = lineNumber(index, line);
  if (number === -1) return undefined;
  const text = line.text;
  return (index.reads[number] ??= text.includes('$') || text.includes('%') || text.includes('process.env.') ? [...referencedEnvVars(text)] : NO_READS);
}

/** The logical lines of a script. */
export function scriptLines(script: string): readonly ScriptSpan[] {
  return indexOf(script).lines;
}

/**
 * Where a `run:` script's step output comes from: the lines that write it and the assignments of the shell
 * variables those lines read, followed transitively. Null when no line visibly writes the output (a program
 * the script runs may).
 */
export function outputSources(script: string, name: string): ScriptSources | null {
  const writes = outputWriteLines(indexOf(script), name);
  return writes === null ? null : feedingLines(script, writes);
}

/**
 * `seeds` (logical lines of `script`, from `scriptLines`) and the assignments of the shell variables they read,
 * transitively. Variables in `stop` (validated ones) are not followed.
 */
export function feedingLines(script: string, seeds: readonly ScriptSpan[], stop: ReadonlySet<string> = new Set()): ScriptSources {
  const index = indexOf(script);
  const ranges: [number, number][] = [];
  const variables = new Set<string>();
  const seen = new Set<string>();
  const visited = new Set<ScriptSpan>();
  const queue = [...seeds];
  while (queue.length > 0) {
    const line = queue.pop() as ScriptSpan;
    if (visited.has(line)) continue;
    visited.add(line);
    ranges.push([line.offset, lineEnd(index, line)]);
    for (const variable of lineReads(index, line) ?? referencedEnvVars(line.text)) {
      if (stop.has(variable)) continue;
      const assigned = index.assignments.get(variable);
      if (assigned === undefined) variables.add(variable);
      else if (!seen.has(variable)) {
        seen.add(variable);
        queue.push(...assigned);
      }
    }
  }
  return { ranges, variables };
}

/** A value computed over the lines that feed some lines of a script, memoised per shell variable. */
export interface ScriptFold<T> {
  /** The combined value of `seeds`, of the assignments of the variables they read, transitively. */
  ofLines(seeds: readonly ScriptSpan[]): T;
  /** The value a variable carries where it is read: its assignments', or `external` for the environment's. */
  ofVariable(name: string): T;
}

const MAX_FOLD_DEPTH = 256;

/**
 * `URL=$(gh pr create --title "$TITLE" ...)`: a variable assigned the output of a command that prints an
 * identifier it made (a URL, a number, a hash, a date, a path), not the text it was given. Whatever tainted
 * the command's arguments does not flow into the variable. So is `N=$(gh api "/repos/$R/pulls?head=$BRANCH" --jq
 * '.[0].number')`, or `gh pr view "$BRANCH" --json number --jq .number` (`pr`, `issue`, `run`, `release`: `view` and
 * `list`), or a jq program whose last stage picks the number (`--jq '[.[] | select(.head.ref == $ENV.B) | .number]'`):
 * the number or id GitHub answers with, whatever steered the query.
 */
const OPAQUE_ASSIGNMENT =
  /^\s*(?:(?:export|local|readonly)\s+)?[A-Za-z_]\w*=["']?\$\(\s*(?:gh\s+(?:pr|issue|release)\s+create|git\s+rev-parse|git\s+log\s+[^)]*--format=%H|date|mktemp|uuidgen|sha256sum|md5sum|gh\s+(?:api|(?:pr|issue|run|release)\s+(?:view|list))\b(?=[^)]*\s(?:--jq|-q)[=\s]+(["']?)[.\w[\]]*\.(?:number|id|databaseId)\1\s*\)|[^\n]*?\s(?:--jq|-q)[=\s]+(["'])(?:(?!\2)[^\n]){0,300}?\|\s*\.(?:number|id|databaseId)\s*\]?\2\s*\)))\b[^\n]*\)["']?\s*$/;

/**
 * `LANG=$(awk ... <<< "$BODY" | tr -d '[:space:]')`, `FIRST=$(grep x file | head -n 1)`: a variable assigned the output of
 * a command substitution whose last command deletes every newline (`tr -d` of a set with `\n`, `[:space:]` or
 * `[:cntrl:]`, `tr '\n' ...`) or keeps one line (`head -n 1`; the substitution drops the line's own trailing
 * newline), followed by nothing but commands that work within a line (`sed 's/,$//'` with no `\n` in it, `cut`).
 * Whatever text fed it, the value holds no newline.
 */
const SINGLE_LINE_ASSIGNMENT =
  /^\s*(?:(?:export|local|readonly)\s+)?[A-Za-z_]\w*=["']?\$\((?:[^()]|\([^()]*\))*\|\s*(?:tr\s+(?:-d|--delete)\s+(?:'[^'\n]*(?:\\n|\[:space:\]|\[:cntrl:\])[^'\n]*'|"[^"\n]*(?:\\n|\[:space:\]|\[:cntrl:\])[^"\n]*")|tr\s+(?:-s\s+)?(['"])\\n\1\s+(?:'[^'\n]*'|"[^"\n]*"|\S+)|head\s+(?:-n\s*1|-1|--lines=1))(?:\s*\|\s*(?:sed\s+(?:-[Er]\s+)?'s(?:[^'\\\n]|\\[^n\n])*'|cut\s+[^|()\n]*))*\s*\)["']?\s*(?:[;&|#].*)?$/;

/** True for a line that assigns a variable a value that holds no newline (see `SINGLE_LINE_ASSIGNMENT`). */
export function singleLineAssignment(line: string): boolean {
  return SINGLE_LINE_ASSIGNMENT.test(line) && (line.match(/\$\(/g) ?? []).length === 1;
}

/** True for a line that assigns a variable the identifier a command printed (see `OPAQUE_ASSIGNMENT`). */
export function opaqueAssignment(line: string): boolean {
  return OPAQUE_ASSIGNMENT.test(line) && (line.match(/\$\(/g) ?? []).length === 1;
}

/**
 * `V="$INPUT"`, `V=${INPUT}` (after `export`, `local`, `readonly` or `declare`): a plain copy of one variable into
 * another, alone on its line or before a `;` or a comment. Global and multi-line, for `matchAll` over a script.
 */
export const PLAIN_COPY = /^[ \t]*(?:(?:export|local|readonly|declare)[ \t]+)?([A-Za-z_]\w*)=("?)\$(?:\{([A-Za-z_]\w*)\}|([A-Za-z_]\w*))\2[ \t]*(?:$|[;#])/gm;
const PLAIN_COPY_LINE = new RegExp(PLAIN_COPY.source);

/** A line that is nothing but a plain copy (`PLAIN_COPY`, with nothing after it): the copy and its source. */
export function plainCopy(line: string): { to: string; from: string } | null {
  const match = PLAIN_COPY_LINE.exec(line.trim());
  if (match === null || match[0].trimEnd().length !== line.trim().length) return null;
  return { to: match[1] as string, from: (match[3] ?? match[4]) as string };
}

/** A GitHub CLI read whose answer is GitHub's JSON: `gh api`, `gh pr|issue|run|release view|list`. */
const GH_READ = /^\s*gh\s+(?:api|(?:pr|issue|run|release)\s+(?:view|list))\s/;
/** Fields of GitHub's answers that hold an identifier, a SHA, a number, a state or a date: no text anyone writes. */
const IDENTIFIER_FIELDS = new Set(['number', 'id', 'databaseid', 'node_id', 'headrefoid', 'baserefoid', 'oid', 'sha', 'head_sha', 'state', 'isdraft', 'draft', 'merged', 'createdat', 'updatedat', 'created_at', 'updated_at', 'run_number', 'run_attempt', 'conclusion', 'status']);
/** Objects whose identifier fields a jq path goes through (`.head.sha`, `.[0].number`, `.pull_requests[0].number`). */
const PATH_OBJECTS = new Set(['head', 'base', 'pull_request', 'pull_requests', 'workflow_runs', 'commit', 'mergecommit', 'items']);

/**
 * `gh pr view "$BRANCH" --json number,headRefOid --jq '"number=\(.number)\nhead-sha=\(.headRefOid)"' >> "$GITHUB_OUTPUT"`:
 * a line that is one GitHub CLI read, whose `--jq` program (and `--json` list, when given) names only identifier
 * fields (`IDENTIFIER_FIELDS`, through `PATH_OBJECTS`), and whose output goes only to a file. It writes what GitHub
 * answers, whatever steered the query, as `opaqueAssignment` does for a variable. A line with another command, a
 * pipe, or a field anyone writes (`.title`, `.headRefName`, `.body`) is no such line.
 */
export function opaqueLookup(line: string): boolean {
  const text = line.replace(/\\\n/g, ' ');
  if (!GH_READ.test(text) || /\$\(|`/.test(text)) return false;
  // One command: its program is quoted (`--jq '...'`), and nothing but a redirect follows it outside quotes.
  const bare = text.replace(/'[^'\n]*'|"(?:[^"\\\n]|\\.)*"/g, '""');
  if (/[|;&]/.test(bare.replace(/>>?\s*"?\$\{?GITHUB_OUTPUT\}?"?\s*$/, '')) || !/>>?\s*"?\$\{?GITHUB_OUTPUT\b/.test(bare)) return false;
  const program = /\s(?:--jq|-q)[=\s]+(?:'([^'\n]*)'|"((?:[^"\\\n]|\\.)*)"|(\S+))/.exec(text);
  if (program === null) return false;
  const fields = [...(program[1] ?? program[2] ?? program[3] ?? '').matchAll(/\.\s*([A-Za-z_]\w*)/g)].map((m) => (m[1] as string).toLowerCase());
  if (fields.length === 0 || !fields.every((f) => IDENTIFIER_FIELDS.has(f) || PATH_OBJECTS.has(f))) return false;
  const json = /\s--json[=\s]+(?:'([^'\n]*)'|"([^"\n]*)"|(\S+))/.exec(text);
  const listed = json === null ? [] : (json[1] ?? json[2] ?? json[3] ?? '').split(',').map((f) => f.trim().toLowerCase());
  return listed.every((f) => IDENTIFIER_FIELDS.has(f));
}

/**
 * Folds a value over the data flow of a script: each line contributes `own(line, [start, end))` and the
 * values of the variables it reads, which come from the lines assigning them (each variable computed once)
 * or, for variables the script does not assign, from `external`. With `checked`, a read of a variable where the
 * script has checked it (`checkedLine`: after `[[ "$N" =~ ^[0-9]+$ ]] || exit 1`, inside
 * `if [[ "$RAW" =~ ^[0-9a-f]{40}$ ]]; then SHA="$RAW"; fi`) contributes nothing: it carries the checked shape,
 * not the text the variable was given; nor does, at a read after its check, an assignment whose value a check in
 * its own block guards (`validatedAssignment`: `RUN_ID="$INPUT"`, then `[[ "$RUN_ID" =~ ^[0-9]+$ ]] || exit 1`
 * inside an `if` whose `else` assigns it another way). Linear in the script however many lines are asked about
 * (a variable some of whose assignments are checked is folded once per set of them a read leaves out); chains
 * deeper than 256 assignments are cut.
 */
export function scriptFold<T>(
  script: string,
  fold: {
    own: (line: ScriptSpan, range: [number, number]) => T;
    external: (name: string) => T;
    combine: (a: T, b: T) => T;
    empty: T;
    checked?: boolean;
    /** The value a line gives the variable it assigns, from what it reads (`singleLineAssignment`: one line of it). */
    assigned?: (line: ScriptSpan, value: T) => T;
  },
): ScriptFold<T> {
  const index = indexOf(script);
  const memo = new Map<string, T>();
  const checked = fold.checked === true;
  const lineValue = (line: ScriptSpan, depth: number): T => {
    if (opaqueAssignment(line.text) || opaqueLookup(line.text)) return fold.empty;
    let value = fold.own(line, [line.offset, lineEnd(index, line)]);
    for (const name of lineReads(index, line) ?? []) {
      if (!checked || !checkedLine(script, name, line)) value = fold.combine(value, variableValue(name, depth + 1, checked ? line.offset : -1));
    }
    return fold.assigned === undefined ? value : fold.assigned(line, value);
  };
  /** Where each assignment line of a variable has its value checked (`validatedAssignment`), -1 for none; read once per variable. */
  const checkedFrom = new Map<string, number[]>();
  const assignmentChecks = (name: string, assigned: readonly ScriptSpan[]): number[] => {
    let found = checkedFrom.get(name);
    if (found === undefined) {
      const checks = shellChecks(script);
      found = checks.assignments.has(name) ? assigned.map((line) => validatedAssignment(script, checks, name, line.offset, lineEnd(index, line)) ?? -1) : [];
      checkedFrom.set(name, found);
    }
    return found;
  };
  /** The value `name` carries at a read at offset `at` (-1: wherever it is read). */
  const variableValue = (name: string, depth: number, at: number): T => {
    const assigned = index.assignments.get(name);
    // The assignments whose check comes before the read: their value reaches it only in the checked shape.
    const checks = assigned === undefined || at < 0 ? [] : assignmentChecks(name, assigned);
    const skipped = checks.map((from, i) => (from >= 0 && from <= at ? i : -1)).filter((i) => i >= 0);
    const key = skipped.length === 0 ? name : `${name}@${skipped.join(',')}`;
    const known = memo.get(key);
    if (known !== undefined || memo.has(key)) return known as T;
    if (assigned === undefined) {
      const value = fold.external(name);
      memo.set(key, value);
      return value;
    }
    if (depth > MAX_FOLD_DEPTH) return fold.empty;
    // A variable assigned from itself (`PATH="$PATH:x"`) reads its earlier value: empty while computing.
    memo.set(key, fold.empty);
    let value = fold.empty;
    assigned.forEach((line, i) => {
      if (!skipped.includes(i)) value = fold.combine(value, lineValue(line, depth));
    });
    memo.set(key, value);
    return value;
  };
  return {
    ofLines: (seeds) => seeds.reduce((acc, line) => fold.combine(acc, lineValue(line, 0)), fold.empty),
    ofVariable: (name) => variableValue(name, 0, -1),
  };
}

/** The lines that write step output `name` (see `outputSources`), or null. */
export function outputLines(script: string, name: string): ScriptSpan[] | null {
  return outputWriteLines(indexOf(script), name);
}

/** `X=$(jq -r '.number | tonumber' f)`: jq fails (and `bash -e` with it) unless the value is a number. */
const JQ_NUMBER = /^\s*(?:(?:export|local|readonly)\s+)?([A-Za-z_]\w*)=["']?\$\(\s*jq\b[^\n)]{0,200}?\b(?:tonumber|numbers)\b[^\n)]{0,200}\)["']?\s*(?:$|[;#&|])/gm;
/**
 * An assignment whose command substitution can print nothing but a count: its last stage counts what it reads on
 * standard input (`... | grep -c PATTERN`, `... | wc -l`, both with an optional `|| true`; with a file operand they
 * would print the file's name too), jq's `length` as the program's last filter (`jq -r '[.[] | ...] | length'`), or
 * shell arithmetic (`$(( a + b ))`).
 */
const COUNT_ASSIGNMENT = new RegExp(
  String.raw`^\s*(?:(?:export|local|readonly)\s+)?([A-Za-z_]\w*)=["']?\$(?:` +
    // `| grep -c PATTERN` (options with `c` among their letters, one pattern operand) or `| wc -l` at the end.
    String.raw`\([^\n]{0,400}?\|\s*(?:grep\s+(?:-[A-Za-z]+\s+)*-[A-Za-z]*c[A-Za-z]*\s+(?:"[^"\n]*"|'[^'\n]*'|[^\s"'|;&)<>]+)|wc\s+-[lcwm])\s*(?:\|\|\s*true\s*)?\)` +
    // `jq ... '... | length'` (the quoted program ends with `length`), reading a file or standard input.
    String.raw`|\(\s*(?:[^\n]{0,400}?\|\s*)?jq\s+(?:-[A-Za-z]+\s+)*'(?:[^'\n]*\|\s*)?length\s*'(?:\s+[^\s"'|;&)<>$]+)?\s*\)` +
    String.raw`|\(\([^\n()]{0,200}\)\)` +
    String.raw`)["']?\s*(?:$|[;#&|])`,
  'gm',
);
const numbersMemo = new ScanMemo<string, ReadonlySet<string>>(INDEX_CACHE_LIMIT);

/**
 * Variables a script assigns only a number: read by jq (`N=$(jq -r '.n | tonumber' f)`, which fails the step on
 * anything else), or a count (COUNT_ASSIGNMENT). A variable the script also assigns some other way is not one.
 */
function numberVariables(script: string): ReadonlySet<string> {
  let found = numbersMemo.get(script);
  if (found !== undefined) return found;
  const names = new Set<string>();
  if (script.includes('jq')) for (const match of script.matchAll(JQ_NUMBER)) if (match[1] !== undefined) names.add(match[1]);
  const counts = new Map<string, number>();
  if (/\b(?:grep|wc|jq)\b|\$\(\(/.test(script)) {
    for (const match of script.matchAll(COUNT_ASSIGNMENT)) {
      const name = match[1];
      if (name !== undefined) counts.set(name, (counts.get(name) ?? 0) + 1);
    }
  }
  for (const [name, count] of counts) {
    const assignments = script.match(new RegExp(String.raw`(?:^|[\s;&|({])(?:(?:export|local|readonly|declare)\s+)?${name}\+?=`, 'gm'))?.length ?? 0;
    const reads = script.match(new RegExp(String.raw`\bread\b[^\n;|&]*\b${name}\b|\bfor\s+${name}\b`, 'g'))?.length ?? 0;
    if (assignments === count && reads === 0) names.add(name);
  }
  found = names;
  numbersMemo.set(script, found);
  return found;
}

/**
 * Variables a script checks so that the step fails on any other value, and the rest of the job sees the checked
 * shape: against an anchored pattern of harmless characters (`[[ "$N" =~ ^[0-9]+$ ]] || exit 1`,
 * `if ! [[ $N =~ ^[1-9][0-9]*$ ]]; then exit 1; fi`; not a `grep`, which matches line by line) or an allow-list (`case "$N" in a|b) ;; *) exit 1 ;; esac`,
 * `case $N in ''|*[!0-9]*) exit 1 ;; esac`), see shell-checks.ts; or read as a number by jq
 * (`N=$(jq -r '.n | tonumber' f)`). With `errexit` (the step's shell starts with `-e`), a test alone as a statement
 * of the top level (`[[ "$N" =~ ^[0-9]+$ ]]`) too.
 */
export function validatedVariables(script: string, errexit = false): Set<string> {
  const result = failingChecks(shellChecks(script, errexit));
  for (const name of numberVariables(script)) result.add(name);
  return result;
}

/**
 * True when every read of `name` in `script[from, to)` sees a checked value (shell-checks.ts): after a check
 * that stops the script or empties the variable otherwise, inside a branch that runs only when it matched, or in
 * the test itself; or the variable holds a number jq read. False when the range reads it some other way.
 */
export function checkedReads(script: string, name: string, from: number, to: number): boolean {
  if (numberVariables(script).has(name)) return true;
  const checks = shellChecks(script);
  if (!checks.ranges.has(name) && !checks.tests.has(name)) return false;
  const text = script.slice(from, to);
  let any = false;
  for (const match of text.matchAll(expansionOf(name))) {
    if (!checkedAt(checks, name, from + (match.index ?? 0))) return false;
    any = true;
  }
  return any;
}

const expansions = new ScanMemo<string, RegExp>(1_000);

/**
 * `$name` and `${name}`, global: one pattern a variable for every range `checkedReads` is asked about (it is read only
 * through `matchAll`, which reads a copy, so the shared pattern's `lastIndex` stays 0).
 */
function expansionOf(name: string): RegExp {
  let pattern = expansions.get(name);
  if (pattern === undefined) {
    pattern = new RegExp(`\\$\\{?${name}\\b`, 'g');
    expansions.set(name, pattern);
  }
  return pattern;
}

/** `checkedReads` over one logical line of the script (from `scriptLines`). */
export function checkedLine(script: string, name: string, line: ScriptSpan): boolean {
  return checkedReads(script, name, line.offset, lineEnd(indexOf(script), line));
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The logical lines of a script that write step output `name` (`name=value`, `name<<EOF` and the lines of
 * its here-document, `::set-output name=name::`), or null when none is recognisable.
 */
function outputWriteLines(index: ScriptIndex, name: string): ScriptSpan[] | null {
  const all = writeLines(index, name);
  if (all === null) return null;
  // `PR_NUMBER=$(jq ...)` assigns a shell variable of the output's name (output names are matched without case):
  // not a write, when the script writes the output elsewhere (`echo "pr_number=$PR_NUMBER" >> "$GITHUB_OUTPUT"`).
  // `name=` or `name<<` (a global pattern read only through `matchAll`, which reads a copy of it), once for every line.
  const assignment = new RegExp(`(^|[\\s"'{(>;|])${escapeRegExp(name)}(?:=|<<)`, 'gi');
  const writes = all.filter((line) => !shellAssignmentOnly(line.text, assignment) || heredocBodies(index).has(lineNumber(index, line)));
  return writes.length > 0 ? writes : all;
}

/** The numbers of the lines of here-document bodies (`cat >> "$GITHUB_OUTPUT" <<EOF`, then `name=$X`), worked out once. */
function heredocBodies(index: ScriptIndex): ReadonlySet<number> {
  if (index.heredocs !== undefined) return index.heredocs;
  const bodies = new Set<number>();
  for (let i = 0; i < index.lines.length; i++) {
    const delimiter = /<<-?\s*['"]?([A-Za-z_][\w.-]*)/.exec((index.lines[i] as ScriptSpan).text.replace(/<<</g, ''))?.[1];
    if (delimiter === undefined) continue;
    for (i++; i < index.lines.length && (index.lines[i] as ScriptSpan).text.trim() !== delimiter; i++) bodies.add(i);
  }
  index.heredocs = bodies;
  return bodies;
}

/** True when every `name=` of a line (`pattern`, from `outputWriteLines`) assigns a shell variable (at the start of a command, outside quotes). */
function shellAssignmentOnly(text: string, pattern: RegExp): boolean {
  let any = false;
  for (const match of text.matchAll(pattern)) {
    const before = text.slice(0, (match.index ?? 0) + (match[1] ?? '').length);
    const quotes = (before.match(/["']/g) ?? []).length;
    if (quotes % 2 !== 0 || !/(?:^|[;&|]|\b(?:then|do|else|export|local|readonly|declare(?:\s+-\w+)*))\s*$/.test(before)) return false;
    any = true;
  }
  return any;
}

function writeLines(index: ScriptIndex, name: string): ScriptSpan[] | null {
  const found: ScriptSpan[] = [];
  const heredoc = new RegExp(`${escapeRegExp(name)}<<\\s*['"]?(\\w+)`, 'i');
  let skipTo = -1;
  for (const i of index.writes.get(name.toLowerCase()) ?? []) {
    if (i <= skipTo) continue;
    const line = index.lines[i] as ScriptSpan;
    found.push(line);
    const delimiter = heredoc.exec(line.text)?.[1];
    if (delimiter === undefined) continue;
    const end = new RegExp(`(?:^|[\\s"'])${escapeRegExp(delimiter)}(?:$|[\\s"'])`);
    for (skipTo = i + 1; skipTo < index.lines.length; skipTo++) {
      const body = index.lines[skipTo] as ScriptSpan;
      found.push(body);
      if (end.test(body.text)) break;
    }
  }
  return found.length > 0 ? found : null;
}

/**
 * The value expressions an `actions/github-script` script passes to `core.setOutput('<name>', ...)`, as
 * source text; null when it sets no such output (then the output may be the script's return value).
 */
export function githubScriptOutputValues(script: string, name: string): string[] | null {
  const values: string[] = [];
  const call = /\bsetOutput\(\s*(['"`])([^'"`]*)\1\s*,\s*([^\n;]*)/g;
  for (const match of script.matchAll(call)) {
    if ((match[2] ?? '').toLowerCase() === name.toLowerCase()) values.push(match[3] ?? '');
  }
  return values.length > 0 ? values : null;
}


/** What an `actions/github-script` script returns (its `result` output, as JSON): each `return`'s value, and an object's fields. */
export interface GithubScriptReturn {
  /** The source text of each returned value (for an object literal, the whole literal). */
  values: string[];
  /**
   * The fields of returned object literals, each with the source text of its value; a shorthand field
   * (`{ commit }`) or one holding a bare identifier has the value its `const`/`let`/`var` assigns on one line.
   */
  fields: Map<string, string[]>;
}

/** Bounds on a returned value read (the script is the scanned repository's). */
const MAX_RETURN_SCRIPT = 100_000;
const MAX_RETURNS = 20;
const MAX_RETURN_OBJECT = 4_000;
const MAX_RETURN_LOOKUPS = 40;

/**
 * What a github-script script returns, or null when it returns nothing (or is too large to read). A `return`
 * inside a callback is read too (a pattern over the text, not a parse): a field is counted where any returned
 * literal has it.
 */
export function githubScriptReturn(script: string): GithubScriptReturn | null {
  if (script.length > MAX_RETURN_SCRIPT) return null;
  const values: string[] = [];
  const fields = new Map<string, string[]>();
  let lookups = 0;
  // The value a name is assigned on one line (at most MAX_RETURN_LOOKUPS names read: each is a pass over the script).
  const assigned = (name: string): string | null =>
    lookups++ >= MAX_RETURN_LOOKUPS ? null : (new RegExp(`\\b(?:const|let|var)\\s+${escapeRegExp(name)}\\s*=\\s*([^\\n;]*)`).exec(script)?.[1] ?? null);
  for (const match of script.matchAll(/\breturn\b[ \t]*/g)) {
    if (values.length >= MAX_RETURNS) break;
    const from = (match.index ?? 0) + match[0].length;
    if (script[from] !== '{') {
      const value = /^[^\n;]*/.exec(script.slice(from))?.[0]?.trim() ?? '';
      if (value !== '') values.push(/^[A-Za-z_$][\w$]*$/.test(value) ? (assigned(value) ?? value) : value);
      continue;
    }
    // The object literal: to its matching brace, splitting fields at the commas of its top level.
    let depth = 0;
    let quote: string | null = null;
    let start = from + 1;
    const parts: string[] = [];
    let end = -1;
    for (let i = from; i < script.length && i < from + MAX_RETURN_OBJECT; i++) {
      const c = script[i] as string;
      if (quote !== null) {
        if (c === '\\') i++;
        else if (c === quote) quote = null;
        continue;
      }
      if (c === '"' || c === "'" || c === '`') quote = c;
      else if (c === '{' || c === '(' || c === '[') depth++;
      else if (c === '}' || c === ')' || c === ']') {
        depth--;
        if (depth === 0) {
          parts.push(script.slice(start, i));
          end = i;
          break;
        }
      } else if (c === ',' && depth === 1) {
        parts.push(script.slice(start, i));
        start = i + 1;
      }
    }
    if (end === -1) continue;
    values.push(script.slice(from, end + 1));
    for (const part of parts.slice(0, MAX_RETURN_LOOKUPS)) {
      const field = /^\s*['"]?([A-Za-z_$][\w$-]*)['"]?\s*(?::([^]*))?$/.exec(part);
      if (field === null) continue;
      const name = field[1] as string;
      const given = (field[2] ?? name).trim();
      const value = /^[A-Za-z_$][\w$]*$/.test(given) ? (assigned(given) ?? given) : given;
      fields.set(name, [...(fields.get(name) ?? []), value]);
    }
  }
  return values.length > 0 ? { values, fields } : null;
}

/** A JavaScript identifier an `actions/github-script` script checks before it goes on. */
export interface JsCheck {
  /** Offset in the script where the check starts (its `[`, its regular expression, its `Number(`). */
  from: number;
  /** Offset in the script where the check ends: uses after it see the checked shape. */
  at: number;
  /** True when a failed check fails the step (`throw`, `core.setFailed`, `process.exit`), not only ends the script. */
  fails: boolean;
}

const JS_IDENTIFIER = '([A-Za-z_$][\\w$]{0,60})';
/**
 * The checks an identifier passes: an anchored regular expression without `.*` / `.+` (`/^\d+$/.test(pr)`,
 * `pr.match(/^v\d+$/)`), an integer test (`Number.isInteger(pr)`, `Number.isInteger(Number(pr))`), an allow-list (`['a', 'b'].includes(x)`,
 * `ALLOWED.includes(x)`, `allowed.has(x)`). Each alternative captures the identifier.
 */
const JS_CHECK = new RegExp(
  [
    `\\/\\^(?:[^/\\n\\\\]|\\\\.){0,200}\\$\\/[gimsuy]{0,6}\\.test\\(\\s*${JS_IDENTIFIER}\\s*\\)`,
    `\\b${JS_IDENTIFIER}\\.match\\(\\s*\\/\\^(?:[^/\\n\\\\]|\\\\.){0,200}\\$\\/[gimsuy]{0,6}\\s*\\)`,
    `\\bNumber\\.is(?:Safe)?Integer\\(\\s*${JS_IDENTIFIER}\\s*\\)`,
    // `Number.isInteger(Number(pr))`, `Number.isInteger(+pr)`: `Number` takes only a number's text (blanks around
    // it, a sign, a `0x` prefix, an exponent), never a quote or a `;`. Not `parseInt(pr)`, which reads `1;rm` as 1.
    `\\bNumber\\.is(?:Safe)?Integer\\(\\s*Number\\(\\s*${JS_IDENTIFIER}\\s*\\)\\s*\\)`,
    `\\bNumber\\.is(?:Safe)?Integer\\(\\s*\\+\\s*${JS_IDENTIFIER}\\s*\\)`,
    `(?:\\]|\\b[A-Za-z_$][\\w$]{0,60})\\.(?:includes|has)\\(\\s*${JS_IDENTIFIER}\\s*\\)`,
  ].join('|'),
  'g',
);
/** What a failed check does next: fail the step, or end the script. */
const JS_FAIL = /^[^;{}]{0,80}?\)\s*(?:\{[^{}]{0,300}?)?\b(throw|core\.setFailed|process\.exit\s*\(\s*[1-9]|return)\b/;
/** A regular expression's counted quantifier (`{40}`, `{1,3}`), which a block's braces are not. */
const QUANTIFIERS = /\{\d{1,4}(?:,\d{0,4})?\}/g;
/** A number made from a value: it carries no code whatever it was given. */
export const JS_NUMBER = /^\s*(?:Number|parseInt|parseFloat|Math\.\w+)\s*\(|^\s*\+\s*[A-Za-z_$]/;

/**
 * True unless the check is a regular expression that lets a harmful character through: one not anchored at both
 * ends, with the `m` flag (`^` and `$` then match at every line, so a newline and anything after it pass), or
 * admitting characters other than letters, digits and `_ - . / : @ +` (`safePattern`, JavaScript's escapes).
 */
function jsPatternChecks(check: string): boolean {
  const literal = /\/(\^(?:[^/\n\\]|\\.)*\$)\/([a-z]*)/.exec(check);
  if (literal === null) return true;
  return !(literal[2] ?? '').includes('m') && safePattern(literal[1] ?? '', true, true);
}

/**
 * Identifiers an `actions/github-script` script checks with a guard that stops it otherwise:
 * `if (!/^\d+$/.test(pr)) { core.setFailed('bad'); return; }`, `if (!ALLOWED.includes(env)) throw new Error(...)`.
 * Also identifiers assigned a number (`const pr = parseInt(x, 10)`). Regular expressions that allow anything
 * (`.*`, `.+`) check nothing.
 */
export function githubScriptChecks(script: string): Map<string, JsCheck> {
  const result = new Map<string, JsCheck>();
  if (script.length > 200_000) return result;
  for (const match of script.matchAll(/^\s*(?:const|let|var)\s+([A-Za-z_$][\w$]{0,60})\s*=([^\n]*)$/gm)) {
    if (match[1] !== undefined && JS_NUMBER.test(match[2] ?? '')) result.set(match[1], { from: match.index ?? 0, at: (match.index ?? 0) + match[0].length, fails: false });
  }
  for (const match of script.matchAll(JS_CHECK)) {
    const name = match.slice(1).find((group) => group !== undefined);
    if (name === undefined || !jsPatternChecks(match[0])) continue;
    let start = match.index ?? 0;
    const end = start + match[0].length;
    // An array literal's allow-list: the check starts at its `[`.
    if (match[0].startsWith(']')) start = script.lastIndexOf('[', start);
    if (start < 0) continue;
    // Negated inside an `if (`: `if (!check)`, `if (x === '' || !check)`. A regular expression's quantifier
    // (`{40}` in `/^[0-9a-f]{40}$/` of a check beside it) is no block.
    const before = script.slice(Math.max(0, start - 200), start).replace(QUANTIFIERS, '_');
    if (!/!\s*$/.test(before) || !/\bif\s*\([^;{}]*$/.test(before)) continue;
    // Template literals' `${...}` are not blocks.
    const window = script.slice(end, end + 400).replace(/\$\{[^{}]{0,100}\}/g, '_').replace(QUANTIFIERS, '_');
    const after = JS_FAIL.exec(window);
    if (after === null) continue;
    const fails = after[1] !== 'return' || /\bcore\.setFailed\s*\(|\breturn\s+core\.setFailed\b/.test(window.slice(0, after[0].length + 20));
    const known = result.get(name);
    if (known === undefined || (!known.fails && fails)) result.set(name, { from: start, at: end, fails });
  }
  return result;
}

/**
 * A test an `actions/github-script` script makes of an environment variable it reads (`process.env.X`, directly
 * or through a `const` bound to it once): whether it equals one of `values` (`v === 'a'`, `v == 'a'`,
 * `['a', 'b'].includes(v)`; `negated` for `!==`, `!=`). Anything else is `unknown`: it may hold or not.
 */
export type JsTest =
  | { k: 'in'; env: string; values: readonly string[]; negated: boolean }
  | { k: 'and' | 'or'; args: readonly JsTest[] }
  | { k: 'not'; arg: JsTest }
  | { k: 'unknown' };

/** One literal an output may be set to, and the tests that all hold where it may be (each may be unknown). */
export interface JsSetting {
  value: string;
  when: readonly JsTest[];
}

/** Longest script, and most `if` branches, read for `githubScriptOutputSettings`. */
const MAX_SETTING_SCRIPT = 20_000;
const MAX_SETTING_BRANCHES = 64;
/** Text that lets a script set an output other than by `core.setOutput(<literal>, ...)` written in it. */
const SETTING_ESCAPES = /\b(?:require|import|eval|Function|exec|spawn|child_process)\b|GITHUB_OUTPUT|\$\{\{/;

type JsToken = { t: 'id' | 'str' | 'punct' | 'other'; v: string };

/** The tokens of a script (comments dropped, template literals and regular expressions as one `other`); null when it cannot be read. */
function jsTokens(script: string): JsToken[] | null {
  const tokens: JsToken[] = [];
  let i = 0;
  const n = script.length;
  const regexMayStart = () => {
    const last = tokens[tokens.length - 1];
    if (last === undefined) return true;
    if (last.t === 'punct') return !(last.v === ')' || last.v === ']' || last.v === '}');
    return last.t === 'id' && /^(?:return|typeof|case|in|of|else|do|void|throw|delete|new)$/.test(last.v);
  };
  while (i < n) {
    const c = script[i] as string;
    if (/\s/.test(c)) {
      i++;
      continue;
    }
    if (c === '/' && script[i + 1] === '/') {
      const end = script.indexOf('\n', i);
      i = end < 0 ? n : end;
      continue;
    }
    if (c === '/' && script[i + 1] === '*') {
      const end = script.indexOf('*/', i + 2);
      if (end < 0) return null;
      i = end + 2;
      continue;
    }
    if (c === "'" || c === '"') {
      let j = i + 1;
      let value = '';
      while (j < n && script[j] !== c) {
        if (script[j] === '\n') return null;
        if (script[j] === '\\') return null; // escapes: not read
        value += script[j];
        j++;
      }
      if (j >= n) return null;
      tokens.push({ t: 'str', v: value });
      i = j + 1;
      continue;
    }
    if (c === '`') {
      // A template literal: skipped whole, `${ }` with their braces.
      let j = i + 1;
      let depth = 0;
      while (j < n) {
        const d = script[j];
        if (d === '\\') j++;
        else if (depth === 0 && d === '`') break;
        else if (d === '$' && script[j + 1] === '{') {
          depth++;
          j++;
        } else if (depth > 0 && d === '{') depth++;
        else if (depth > 0 && d === '}') depth--;
        else if (depth > 0 && d === '`') return null;
        j++;
      }
      if (j >= n) return null;
      tokens.push({ t: 'other', v: '`' });
      i = j + 1;
      continue;
    }
    if (c === '/' && regexMayStart()) {
      let j = i + 1;
      let inClass = false;
      while (j < n && (inClass || script[j] !== '/')) {
        const d = script[j];
        if (d === '\n') return null;
        if (d === '\\') j++;
        else if (d === '[') inClass = true;
        else if (d === ']') inClass = false;
        j++;
      }
      if (j >= n) return null;
      j++;
      while (j < n && /[a-z]/.test(script[j] as string)) j++;
      tokens.push({ t: 'other', v: '/re/' });
      i = j;
      continue;
    }
    const word = /^[A-Za-z_$][\w$]*|^\d[\w.]*/.exec(script.slice(i, i + 200));
    if (word !== null) {
      tokens.push({ t: /^\d/.test(word[0]) ? 'other' : 'id', v: word[0] });
      i += word[0].length;
      continue;
    }
    const punct = /^(?:===|!==|==|!=|&&|\|\||=>|\?\.|\?\?|[=!<>]=?|[-+*%&|^~?:;,.(){}[\]])/.exec(script.slice(i, i + 3));
    if (punct === null) return null;
    tokens.push({ t: 'punct', v: punct[0] });
    i += punct[0].length;
  }
  return tokens;
}

/** The index of the token closing the bracket at `open`; -1 when none. */
function closing(tokens: readonly JsToken[], open: number, to: number): number {
  const pairs: Record<string, string> = { '(': ')', '[': ']', '{': '}' };
  const stack: string[] = [];
  for (let i = open; i < to; i++) {
    const tok = tokens[i] as JsToken;
    if (tok.t !== 'punct') continue;
    const close = pairs[tok.v];
    if (close !== undefined) stack.push(close);
    else if (tok.v === ')' || tok.v === ']' || tok.v === '}') {
      if (stack.pop() !== tok.v) return -1;
      if (stack.length === 0) return i;
    }
  }
  return -1;
}

/**
 * The literals an `actions/github-script` script may set output `name` to, each with where it may be set: the
 * conditions of the `if` / `else if` / `else` branches around its `core.setOutput('<name>', '<literal>')` (earlier
 * branches' conditions false, its own true). A condition compares a variable read from the environment with
 * literals, or is unknown. Null when the output may be set otherwise (a value that is not a literal, a name that
 * is not, code loaded from elsewhere, `${{ }}` in the script), or the script is too long to read.
 */
export function githubScriptOutputSettings(script: string, name: string): JsSetting[] | null {
  if (script.length > MAX_SETTING_SCRIPT || SETTING_ESCAPES.test(script) || name.toLowerCase() === 'result') return null;
  const tokens = jsTokens(script);
  if (tokens === null) return null;
  // Variables bound once to `process.env.X` (a `const`, or a `let` / `var` never assigned again).
  const bound = new Map<string, string>();
  const declared = new Map<string, number>();
  const assigned = new Set<string>();
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i] as JsToken;
    const next = tokens[i + 1];
    if (tok.t === 'id' && next?.t === 'punct' && next.v === '=') {
      const before = tokens[i - 1];
      const declaration = before?.t === 'id' && (before.v === 'const' || before.v === 'let' || before.v === 'var');
      if (declaration) declared.set(tok.v, (declared.get(tok.v) ?? 0) + 1);
      else assigned.add(tok.v);
      const value = tokens.slice(i + 2, i + 7).map((x) => x.v);
      const end = tokens[i + 7];
      if (declaration && value.join(' ') === `process . env . ${value[4] ?? ''}` && tokens[i + 6]?.t === 'id' && (end === undefined || end.v === ';' || end.t === 'id' || end.v === '}')) bound.set(tok.v, value[4] as string);
    }
    if (tok.t === 'id' && (tok.v === 'setOutput' || tok.v === 'core') && next?.v !== '(' && next?.v !== '.') return null;
  }
  for (const variable of [...bound.keys()]) if (assigned.has(variable) || declared.get(variable) !== 1) bound.delete(variable);
  const settings: JsSetting[] = [];
  let branches = 0;
  const operand = (list: readonly JsToken[]): string | null => {
    if (list.length === 1 && list[0]?.t === 'id') return bound.get(list[0].v) ?? null;
    if (list.length === 5 && list.map((x) => x.v).slice(0, 4).join(' ') === 'process . env .' && list[4]?.t === 'id') return list[4].v;
    return null;
  };
  const test = (list: readonly JsToken[]): JsTest => {
    // Outer parentheses, then `||`, then `&&`, then `!`, each at depth 0.
    while (list.length > 1 && list[0]?.v === '(' && closing(list, 0, list.length) === list.length - 1) list = list.slice(1, -1);
    for (const op of ['||', '&&'] as const) {
      const parts: JsToken[][] = [];
      let depth = 0;
      let from = 0;
      for (let i = 0; i < list.length; i++) {
        const v = (list[i] as JsToken).v;
        if ((list[i] as JsToken).t !== 'punct') continue;
        if (v === '(' || v === '[' || v === '{') depth++;
        else if (v === ')' || v === ']' || v === '}') depth--;
        else if (depth === 0 && (v === '?' || v === '??' || v === ',' || v === '=')) return { k: 'unknown' };
        else if (depth === 0 && v === op) {
          parts.push(list.slice(from, i));
          from = i + 1;
        }
      }
      if (parts.length > 0) {
        parts.push(list.slice(from));
        return { k: op === '||' ? 'or' : 'and', args: parts.map(test) };
      }
    }
    if (list[0]?.v === '!' && list[0].t === 'punct') return { k: 'not', arg: test(list.slice(1)) };
    // `v === 'a'`, `'a' !== v`
    const at = list.findIndex((x) => x.t === 'punct' && ['===', '==', '!==', '!='].includes(x.v));
    if (at > 0) {
      const left = list.slice(0, at);
      const right = list.slice(at + 1);
      const negated = (list[at] as JsToken).v.startsWith('!');
      const [variable, literal] = right.length === 1 && right[0]?.t === 'str' ? [operand(left), right[0].v] : left.length === 1 && left[0]?.t === 'str' ? [operand(right), left[0].v] : [null, null];
      return variable === null || literal === null ? { k: 'unknown' } : { k: 'in', env: variable, values: [literal], negated };
    }
    // `['a', 'b'].includes(v)`
    if (list[0]?.v === '[') {
      const end = closing(list, 0, list.length);
      const items = list.slice(1, end);
      const rest = list.slice(end + 1).map((x) => x.v);
      const variable = operand(list.slice(end + 4, -1));
      const literals = items.filter((_, i) => i % 2 === 0);
      if (end > 0 && rest[0] === '.' && rest[1] === 'includes' && rest[2] === '(' && rest[rest.length - 1] === ')' && variable !== null && items.every((x, i) => (i % 2 === 0 ? x.t === 'str' : x.v === ',')) && literals.length > 0) {
        return { k: 'in', env: variable, values: literals.map((x) => x.v), negated: false };
      }
    }
    return { k: 'unknown' };
  };
  const negate = (t: JsTest): JsTest => (t.k === 'unknown' ? t : { k: 'not', arg: t });
  // Reads tokens [from, to) under the tests `when`; false when the output may be set otherwise.
  const walk = (from: number, to: number, when: readonly JsTest[]): boolean => {
    for (let i = from; i < to; i++) {
      const tok = tokens[i] as JsToken;
      if (tok.t === 'id' && tok.v === 'if' && tokens[i - 1]?.v !== '.' && tokens[i + 1]?.v === '(') {
        let at = i;
        const earlier: JsTest[] = [];
        // An `if` / `else if` / `else` chain: each branch under the earlier conditions false and its own true.
        for (;;) {
          if (++branches > MAX_SETTING_BRANCHES) return false;
          let cond: JsTest | null = null;
          let bodyStart = at;
          if (tokens[at]?.v === 'if') {
            const close = closing(tokens, at + 1, to);
            if (close < 0) return false;
            cond = test(tokens.slice(at + 2, close));
            bodyStart = close + 1;
          }
          let bodyEnd: number;
          let nextAt: number;
          if (tokens[bodyStart]?.v === '{') {
            bodyEnd = closing(tokens, bodyStart, to);
            if (bodyEnd < 0) return false;
            nextAt = bodyEnd + 1;
          } else {
            // One statement: up to its `;` (a nested `if` without braces is not read: the output stays unknown).
            bodyEnd = bodyStart;
            while (bodyEnd < to && tokens[bodyEnd]?.v !== ';') {
              if (tokens[bodyEnd]?.v === 'if' || tokens[bodyEnd]?.v === '{') return false;
              bodyEnd++;
            }
            nextAt = bodyEnd + 1;
          }
          if (!walk(bodyStart, bodyEnd + (tokens[bodyStart]?.v === '{' ? 0 : 1), [...when, ...earlier.map(negate), ...(cond === null ? [] : [cond])])) return false;
          if (cond === null) {
            i = nextAt - 1;
            break;
          }
          earlier.push(cond);
          if (nextAt < to && tokens[nextAt]?.v === 'else') {
            at = nextAt + 1;
            continue;
          }
          i = nextAt - 1;
          break;
        }
        continue;
      }
      if (tok.t === 'id' && tok.v === 'setOutput' && tokens[i + 1]?.v === '(') {
        const close = closing(tokens, i + 1, to);
        const args = close < 0 ? [] : tokens.slice(i + 2, close);
        const key = args[0];
        if (key?.t !== 'str') return false;
        if (key.v.toLowerCase() !== name.toLowerCase()) continue;
        const value = args[2];
        if (args.length !== 3 || args[1]?.v !== ',' || value?.t !== 'str') return false;
        settings.push({ value: value.v, when });
      }
    }
    return true;
  };
  if (!walk(0, tokens.length, [])) return null;
  return settings.length > 0 ? settings : null;
}
