/**
 * A small, forgiving reader for the shell scripts of `run:` steps. It is not a shell parser: it splits a
 * script into logical lines, pipelines and commands well enough for pattern rules, keeps offsets so
 * findings point at the right place, and never throws.
 *
 * Many rules read the same scripts, so every function here is memoised and returns shared, read-only
 * results: a script is split once per scan, not once per rule. The memos are forgotten when a scan ends
 * (model/scan-cache.ts), so a long run over many repositories does not keep every script it saw.
 */

import { ScanMemo } from './model/scan-cache.js';

const CACHE_LIMIT = 50_000;

/** A bounded memo of this module, forgotten when a scan ends. */
function memo<K, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new ScanMemo<K, V>(CACHE_LIMIT);
  return (key: K) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    cache.set(key, value);
    return value;
  };
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c;
}

/** The characters `String.prototype.trim` removes (JavaScript white space and line terminators). */
function isTrimmed(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 || code === 0x1680 || (code >= 0x2000 && code <= 0x200a) || code === 0x2028 || code === 0x2029 ||
    code === 0x202f || code === 0x205f || code === 0x3000 || code === 0xfeff
  );
}

/** The first index of `text[start, end)` that `trim` keeps, or `end`. */
function trimStartIndex(text: string, start: number, end: number): number {
  while (start < end && isTrimmed(text.charCodeAt(start))) start++;
  return start;
}

/** One past the last index of `text[start, end)` that `trim` keeps, or `start`. */
function trimEndIndex(text: string, start: number, end: number): number {
  while (end > start && isTrimmed(text.charCodeAt(end - 1))) end--;
  return end;
}

const CARRIAGE_RETURN = 0x0d;
const BACKSLASH = 0x5c;
const HASH = 0x23;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const BACKTICK = 0x60;

/**
 * Results are shared by every rule that reads the same script, so callers must not change them (the types
 * are read-only; nothing is frozen at run time, which would cost a transition per object).
 */
export interface ScriptSpan {
  readonly text: string;
  /** Offset of `text` in the script. */
  readonly offset: number;
}

export interface Pipeline {
  /** The commands of `a | b | c`, in order. */
  readonly commands: readonly ScriptSpan[];
  readonly offset: number;
}

/** A logical line of a script (from `logicalLines`): it keeps its own pipelines once they are split. */
class LogicalLine implements ScriptSpan {
  #pipelines: readonly Pipeline[] | undefined;
  constructor(
    public text: string,
    readonly offset: number,
  ) {}

  pipelines(): readonly Pipeline[] {
    return (this.#pipelines ??= splitPipelines(this));
  }
}

/**
 * Lines with backslash continuations joined, and a line that ends in `&&` or `||` joined with the next command
 * (bash reads on to it, past blank and comment lines); blank lines and whole-line `#` comments dropped.
 */
export const logicalLines: (script: string) => readonly ScriptSpan[] = memo((script: string) => splitLogicalLines(script, false));

/**
 * `logicalLines`, and a quoted word after a `-c` option that a line leaves open (`docker run IMAGE bash -c "`, `sh -c '`,
 * `python -c "`) goes on to the line where the quote closes: that word is one argument, the script a nested shell
 * runs, with its line breaks (and its blank and `#` lines, which are not comments there) kept. The lines in between
 * are not commands of this script. A quote that never closes takes the rest of the script (the shell would not run
 * it). Other quotes are not read across lines, as in `logicalLines` (a here-document's apostrophe opens none).
 */
export const logicalLinesWithScripts: (script: string) => readonly ScriptSpan[] = memo((script: string) => splitLogicalLines(script, true));

/** Where a quote read by `QuoteScan` opened after a `-c` option (`bash -c "`): the opening of a nested script. */
const SCRIPT_OPTION = /(?:^|[\s])-[a-zA-Z]*c[ \t]+$/;

/**
 * The quotes of a pending logical line, read as it grows (each character once): the quote open at its end, and whether
 * that quote opened a `-c` script. An unquoted `#` after a blank ends the reading up to the next line break.
 */
class QuoteScan {
  quote = 0;
  script = false;
  private cursor = 0;
  private comment = false;

  read(text: string): void {
    const length = text.length;
    let i = this.cursor;
    for (; i < length; i++) {
      const c = text.charCodeAt(i);
      if (this.comment) {
        if (c === 0x0a) this.comment = false;
        continue;
      }
      if (this.quote !== 0) {
        if (c === BACKSLASH && this.quote === DOUBLE_QUOTE) i++;
        else if (c === this.quote) this.quote = 0;
        continue;
      }
      if (c === BACKSLASH) i++;
      else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
        this.quote = c;
        // Only the few characters before the quote are read: bounded work per quote.
        this.script = SCRIPT_OPTION.test(text.slice(Math.max(0, i - 24), i));
      } else if (c === HASH && (i === 0 || isSpace(text.charCodeAt(i - 1)))) this.comment = true;
    }
    this.cursor = Math.min(i, length);
  }
}

function splitLogicalLines(script: string, scripts: boolean): readonly ScriptSpan[] {
  const lines: LogicalLine[] = [];
  let pending: LogicalLine | null = null;
  // The pending line's last physical line ended in `&&` or `||`: it waits for the next command.
  let list = false;
  // With `scripts`: the pending line's quotes, and whether its last physical line left a `-c` script's quote open.
  let quotes: QuoteScan | null = null;
  let inScript = false;
  let lastEnd = 0;
  const length = script.length;
  // One physical line per turn, `script[start, end)`; a script ending in a newline has a last, empty line.
  for (let start = 0; start <= length; ) {
    let end = script.indexOf('\n', start);
    if (end === -1) end = length;
    const next = end + 1;
    if (end > start && script.charCodeAt(end - 1) === CARRIAGE_RETURN) end--;
    if (inScript && pending !== null && quotes !== null) {
      // Inside a nested script's quote: the line break and the line, as written, are the script's.
      pending.text += `\n${script.slice(start, end)}`;
      quotes.read(pending.text);
      inScript = quotes.quote !== 0;
      if (inScript) {
        start = next;
        continue;
      }
      // After the closing quote the line goes on as any other: to the next line after `&&`, `||` or a backslash.
      const escapedHere = end > start && script.charCodeAt(end - 1) === BACKSLASH && (end - 1 === start || script.charCodeAt(end - 2) !== BACKSLASH);
      list = escapedHere || endsInList(script, start, end);
      lastEnd = end;
      if (!list) {
        lines.push(pending);
        pending = null;
        quotes = null;
      }
      start = next;
      continue;
    }
    // A trailing backslash continues the line, unless it is itself escaped (`\\`).
    const escaped =
      end > start && script.charCodeAt(end - 1) === BACKSLASH && (end - 1 === start || script.charCodeAt(end - 2) !== BACKSLASH);
    const bodyEnd = escaped ? end - 1 : end;
    if (pending === null || list) {
      if (!escaped) {
        const first = trimStartIndex(script, start, end);
        if (first === end || script.charCodeAt(first) === HASH) {
          start = next;
          continue;
        }
      }
    }
    if (pending === null) pending = new LogicalLine(script.slice(start, bodyEnd), start);
    // After `&&` or `||` the line breaks (and skipped lines) become spaces of their length: offsets stay the script's.
    else if (list) pending.text += `${' '.repeat(start - lastEnd)}${script.slice(start, bodyEnd)}`;
    else pending.text += ` ${script.slice(trimStartIndex(script, start, bodyEnd), bodyEnd)}`;
    list = !escaped && endsInList(script, start, end);
    lastEnd = bodyEnd;
    if (scripts && !escaped) {
      quotes ??= new QuoteScan();
      quotes.read(pending.text);
      inScript = quotes.quote !== 0 && quotes.script;
    }
    if (!escaped && !list && !inScript) {
      lines.push(pending);
      pending = null;
      quotes = null;
    }
    start = next;
  }
  if (pending !== null) lines.push(pending);
  return lines;
}

/** True when `script[start, end)` ends in `&&` or `||` (trailing blanks aside). Quotes are not read: a string that ends so is rare. */
function endsInList(script: string, start: number, end: number): boolean {
  let last = end;
  while (last > start && (script.charCodeAt(last - 1) === 0x20 || script.charCodeAt(last - 1) === 0x09)) last--;
  if (last - start < 2) return false;
  const a = script.charCodeAt(last - 2);
  const b = script.charCodeAt(last - 1);
  return a === b && (a === 0x26 || a === 0x7c);
}

/**
 * Splits a logical line into pipelines at unquoted `;`, `&&`, `||` and `&`, and each pipeline into
 * commands at unquoted `|`. A trailing unquoted `#` comment is dropped. A line from `logicalLines` is split
 * once per scan; any other span is split on every call.
 */
export function pipelines(line: ScriptSpan): readonly Pipeline[] {
  return line instanceof LogicalLine ? line.pipelines() : splitPipelines(line);
}

/*
 * Most lines are one pipeline of one command, so the lists start as literals of one element (null until
 * then): an empty `[]` would get room for 17 elements at its first push.
 */

/** `commands` with `text[start, end)` (trimmed, when not blank) added. A plain function: no closure per line. */
function withCommand(commands: ScriptSpan[] | null, line: ScriptSpan, start: number, end: number): ScriptSpan[] | null {
  const text = line.text;
  const first = trimStartIndex(text, start, end);
  if (first === end) return commands;
  const command = { text: text.slice(first, trimEndIndex(text, first, end)), offset: line.offset + first };
  if (commands === null) return [command];
  commands.push(command);
  return commands;
}

/** `result` with the pipeline of `commands` added, if it has any. */
function withPipeline(result: Pipeline[] | null, commands: ScriptSpan[] | null): Pipeline[] | null {
  if (commands === null) return result;
  const pipeline = { commands, offset: (commands[0] as ScriptSpan).offset };
  if (result === null) return [pipeline];
  result.push(pipeline);
  return result;
}

/** The pipelines of a blank line (shared: results are read-only). */
const NO_PIPELINES: readonly Pipeline[] = [];

/** `;`, `&`, `|`, `(` or `!`: what may stand right before a command word such as `[[`. */
function isListChar(c: number): boolean {
  return c === 0x3b || c === 0x26 || c === 0x7c || c === 0x28 || c === 0x21;
}

/** Keywords after which the next word is a command (`if [[ ... ]]`). */
const COMMAND_KEYWORDS = new Set(['if', 'elif', 'while', 'until', 'then', 'do', 'else', '!', 'time']);

/**
 * True when the word at `at` is where a command starts: the command's first word (nothing but blanks since `from`, the
 * current command's start), or right after `;`, `&`, `|`, `(`, `!`, or after a keyword such as `if`.
 */
function atCommandWord(text: string, from: number, at: number): boolean {
  let j = at - 1;
  if (j >= 0 && !isSpace(text.charCodeAt(j)) && !isListChar(text.charCodeAt(j))) return false;
  while (j >= from && isSpace(text.charCodeAt(j))) j--;
  if (j < from || isListChar(text.charCodeAt(j))) return true;
  let k = j;
  while (k >= from && !isSpace(text.charCodeAt(k)) && !isListChar(text.charCodeAt(k))) k--;
  return COMMAND_KEYWORDS.has(text.slice(k + 1, j + 1));
}

/** The ASCII characters `splitPipelines` acts on outside quotes; it steps over every other one. */
const PIPELINE_SYNTAX = new Uint8Array(128);
for (const c of '\\"\'`()$#|&;[]') PIPELINE_SYNTAX[c.charCodeAt(0)] = 1;

function splitPipelines(line: ScriptSpan): readonly Pipeline[] {
  let result: Pipeline[] | null = null;
  let commands: ScriptSpan[] | null = null;
  let start = 0;
  let quote = 0;
  let depth = 0;
  // Inside a `[[ ... ]]` test: its `&&`, `||`, `(` and `)` are the test's own operators, not a list or a subshell.
  let test = false;
  const text = line.text;
  const length = text.length;
  // Neighbours are read only inside the string: an index past either end deoptimizes the loop ("out of bounds").
  const last = length - 1;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    if (quote !== 0) {
      if (c === BACKSLASH && quote === DOUBLE_QUOTE) i++;
      else if (c === quote) quote = 0;
      continue;
    }
    if (c < 128 && PIPELINE_SYNTAX[c] === 0) continue;
    if (c === 0x5b /* [ */ || c === 0x5d /* ] */) {
      // `[[` as a word of its own (at a command's start, after blanks, `!` or an operator) opens a test; `]]` as one closes it.
      if (i < last && text.charCodeAt(i + 1) === c && (i + 1 === last || isSpace(text.charCodeAt(i + 2)) || text.charCodeAt(i + 2) === 0x3b)) {
        if (c === 0x5b && depth === 0 && atCommandWord(text, start, i)) test = true;
        else if (c === 0x5d && test && (i === 0 || isSpace(text.charCodeAt(i - 1)))) test = false;
        i++;
      }
      continue;
    }
    if (test) {
      if (c === BACKSLASH) i++;
      else if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === BACKTICK) quote = c;
      else if (c === 0x24 /* $ */ && i < last && text.charCodeAt(i + 1) === 0x28) {
        // A command substitution inside the test: read it as one (its own lists are not this line's).
        let nested = 0;
        for (i++; i < length; i++) {
          const d = text.charCodeAt(i);
          if (d === 0x28) nested++;
          else if (d === 0x29 && --nested === 0) break;
        }
      }
      continue;
    }
    if (c === BACKSLASH) {
      i++;
      continue;
    }
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE || c === BACKTICK) {
      quote = c;
      continue;
    }
    if (c === 0x28 /* ( */ || (c === 0x24 /* $ */ && i < last && text.charCodeAt(i + 1) === 0x28)) {
      if (c === 0x24) i++;
      depth++;
      continue;
    }
    if (c === 0x29 /* ) */) {
      if (depth > 0) depth--;
      continue;
    }
    if (depth > 0) continue;
    if (c === HASH && (i === 0 || isSpace(text.charCodeAt(i - 1)))) {
      commands = withCommand(commands, line, start, i);
      start = length;
      break;
    }
    if (c === 0x7c /* | */) {
      commands = withCommand(commands, line, start, i);
      if (i < last && text.charCodeAt(i + 1) === 0x7c) {
        result = withPipeline(result, commands);
        commands = null;
        i++;
      }
      start = i + 1;
    } else if (c === 0x26 /* & */ && i < last && text.charCodeAt(i + 1) === 0x26) {
      result = withPipeline(result, withCommand(commands, line, start, i));
      commands = null;
      i++;
      start = i + 1;
    } else if (
      c === 0x3b /* ; */ ||
      (c === 0x26 && (i === last || text.charCodeAt(i + 1) !== 0x3e /* > */) && (i === 0 || text.charCodeAt(i - 1) !== 0x3e))
    ) {
      result = withPipeline(result, withCommand(commands, line, start, i));
      commands = null;
      start = i + 1;
    }
  }
  if (start < length) commands = withCommand(commands, line, start, length);
  return withPipeline(result, commands) ?? NO_PIPELINES;
}

/** Every pipeline of a script. */
export const scriptPipelines: (script: string) => readonly Pipeline[] = memo((script: string) => {
  const result: Pipeline[] = [];
  for (const line of logicalLines(script)) for (const pipeline of pipelines(line)) result.push(pipeline);
  return result;
});

/** Shell words of a command, quotes removed (no expansion). */
export const words: (command: string) => readonly string[] = memo(splitWords);

/**
 * Words are cut from the command in runs (`command.slice`): a word without quotes or backslashes is one
 * slice; a quote or an escape ends a run and starts the next after it.
 */
function splitWords(command: string): string[] {
  const result: string[] = [];
  // The current word's text before `run`, and where its pending run of literal characters starts.
  let current = '';
  let run = 0;
  let inWord = false;
  let quote = 0;
  const length = command.length;
  for (let i = 0; i < length; i++) {
    const c = command.charCodeAt(i);
    if (quote !== 0) {
      if (c === quote) {
        current += command.slice(run, i);
        quote = 0;
        run = i + 1;
      } else if (c === BACKSLASH && quote === DOUBLE_QUOTE && i + 1 < length) {
        // `\x` in double quotes is `x`: drop the backslash, keep the next character whatever it is.
        current += command.slice(run, i);
        run = ++i;
      }
      continue;
    }
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      current += command.slice(run, i);
      run = i + 1;
      quote = c;
      inWord = true;
    } else if (isSpace(c)) {
      if (inWord) result.push(current + command.slice(run, i));
      current = '';
      run = i + 1;
      inWord = false;
    } else if (c === BACKSLASH && i + 1 < length) {
      current += command.slice(run, i);
      run = ++i;
      inWord = true;
    } else {
      inWord = true;
    }
  }
  if (inWord) result.push(current + command.slice(run, length));
  return result;
}

/** The program a command runs, skipping `sudo`, `env X=1`, leading assignments, `time` and `timeout N`. */
export const commandName: (command: string) => string | null = memo(findCommandName);

function findCommandName(command: string): string | null {
  const list = words(command);
  let i = 0;
  while (i < list.length) {
    const word = list[i] ?? '';
    // `list=(a b)`, `list+=("x y")`: an array assignment, whose parentheses hold values, not a command.
    if (/^[A-Za-z_][A-Za-z0-9_]*\+?=\(/.test(word)) return null;
    if (/^[A-Za-z_][A-Za-z0-9_]*(?:\[[^\]]*\])?\+?=/.test(word) || word === 'sudo' || word === 'time' || word === 'env' || word === 'exec' || word === 'command') {
      i++;
      continue;
    }
    if (word.startsWith('-') && i > 0 && list[i - 1] === 'sudo') {
      i++;
      continue;
    }
    if (word === 'nohup') {
      i++;
      continue;
    }
    if (word === 'timeout') {
      // timeout [-s SIGNAL] [-k DURATION] [--flags] DURATION command ...
      i++;
      while (i < list.length && (list[i] ?? '').startsWith('-')) i += /^-[sk]$/.test(list[i] ?? '') ? 2 : 1;
      if (/^\d+(\.\d+)?[smhd]?$/.test(list[i] ?? '')) i++;
      continue;
    }
    // Most words have no directory: skip the regular expression (and its new string) for them.
    return word.includes('/') ? word.replace(/^.*\//, '') : word;
  }
  return null;
}

/**
 * The operands of a command after its program (`program`: its `commandName` in lower case, matched in the words
 * without directory or case), its options (`-x`, `--x`) dropped: `sudo npx --yes tsc -p .` gives `tsc`, `.` for
 * `npx`. Every word, options dropped, when none matches.
 */
export function commandArgs(command: string, program: string): string[] {
  const list = words(command);
  return list.slice(list.findIndex((w) => w.replace(/^.*\//, '').toLowerCase() === program) + 1).filter((w) => !w.startsWith('-'));
}

/** `VAR=$(cat <<EOF`, `VAR="$(cat <<'EOF'"`: a here-document read by `cat` into a variable. */
const CAPTURED_HEREDOC = /(?:^|[\s;&|])([A-Za-z_]\w*)="?\$\(\s*cat\s+<<-?\s*(["']?)([A-Za-z_][\w-]*)\2\s*$/;

/**
 * The spans (start and end offsets) of here-document bodies a script only holds as text: read by `cat` into a
 * variable (`BODY=$(cat <<EOF` ... `EOF`) that no later line runs (`eval "$BODY"`, `bash -c "$BODY"`, `sh <<< "$BODY"`,
 * `echo "$BODY" | sh`). Their lines (an issue's body that shows a `curl` command, a release note) are not commands of
 * the script. A here-document fed to another command (`bash <<EOF`, `ssh host <<EOF`, `cat <<EOF > run.sh`) is not one.
 */
export const textHeredocBodies: (script: string) => readonly (readonly [number, number])[] = memo((script: string) => {
  if (!script.includes('<<')) return [];
  const lines = logicalLines(script);
  const spans: (readonly [number, number])[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = CAPTURED_HEREDOC.exec((lines[i] as ScriptSpan).text);
    if (open === null) continue;
    const [, variable, , delimiter] = open as unknown as [string, string, string, string];
    let end = i + 1;
    while (end < lines.length && (lines[end] as ScriptSpan).text.trim() !== delimiter) end++;
    if (end >= lines.length) break;
    const after = script.slice((lines[end] as ScriptSpan).offset);
    const use = new RegExp(`\\b(?:eval|bash|sh|zsh|dash|ksh|source|exec)\\b[^\\n]*\\$\\{?${variable}\\b|\\$\\{?${variable}\\}?"?\\s*\\|\\s*(?:sudo\\s+)?(?:bash|sh|zsh|dash|ksh)\\b`);
    if (!use.test(after)) spans.push([(lines[i + 1] as ScriptSpan).offset, (lines[end] as ScriptSpan).offset]);
    i = end;
  }
  return spans;
});

/** Whether `offset` of `script` lies in a here-document the script only holds as text (`textHeredocBodies`). */
export function inTextHeredoc(script: string, offset: number): boolean {
  const spans = textHeredocBodies(script);
  return spans.length > 0 && spans.some(([start, end]) => offset >= start && offset < end);
}
