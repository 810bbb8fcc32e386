/**
 * Where the standard output of a script's commands goes: the job log, a step output, `$GITHUB_ENV`, the job
 * summary, or a file (or another command) that keeps it out of the log. Shared by `secret-in-log` (a secret
 * printed) and `unredacted-secrets` (a piece of a secret printed). A command's own redirect decides; without
 * one, the redirect of the compound command around it does (`{ ...; } >> "$GITHUB_ENV"`, `( ... ) > file`,
 * `for ...; do ...; done > file`, `if ...; fi | tee out`): a group's, subshell's or loop's redirect applies to
 * every command inside it.
 */
import { commandName, pipelines, words, type ScriptSpan } from '../shell.js';

export type Destination = 'log' | 'output' | 'env' | 'summary';

/** Commands that write their arguments to standard output (or the host), lower-cased. */
export const PRINTERS: ReadonlySet<string> = new Set(['echo', 'printf', 'print', 'puts', 'printenv', 'write-host', 'write-output', 'write-information', 'out-host']);
/** Commands that pass (a transformation of) their input on to standard output. */
export const FILTERS: ReadonlySet<string> = new Set(['base64', 'xxd', 'od', 'hexdump', 'rev', 'tr', 'sed', 'awk', 'cut', 'head', 'tail', 'fold', 'jq', 'cat', 'sort', 'uniq', 'tee', 'tee-object']);

/** Where a redirect or file argument sends data; null for an ordinary file or /dev/null. */
export function destinationOf(target: string): Destination | null {
  if (/GITHUB_OUTPUT|GITHUB_STATE/.test(target)) return 'output';
  if (/GITHUB_ENV/.test(target)) return 'env';
  if (/GITHUB_STEP_SUMMARY/.test(target)) return 'summary';
  if (target === '&2' || target === '&1' || target === '/dev/stderr' || target === '/dev/stdout') return 'log';
  return null;
}

/** The standard-output redirect of a command, if any: its destination, or null for a file. */
export function redirectOf(command: string): { destination: Destination | null } | undefined {
  let target: string | undefined;
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '>') {
      const fd = command[i - 1];
      // `2>` and `2>&1` redirect standard error; `>&2` sends standard output to the log too.
      if (fd !== undefined && /[02-9]/.test(fd)) continue;
      let j = i + 1;
      if (command[j] === '>') j++;
      while (command[j] === ' ') j++;
      const rest = /^(&[0-9]|"[^"]*"|'[^']*'|[^\s;|&<>]+)/.exec(command.slice(j, j + 300));
      if (rest?.[1] !== undefined) {
        target = rest[1].replace(/^["']|["']$/g, '');
        i = j + rest[1].length - 1;
      }
    }
  }
  if (target === undefined) return undefined;
  return { destination: destinationOf(target) };
}

/**
 * Reserved words that start a command list without being its command (`{ echo x`, `do echo x`, `then echo x`),
 * and a case arm's pattern (`release) echo x`, `*) echo x`).
 */
const LEADING_KEYWORDS = /^(?:(?:\{|\(|!|do|then|else|elif|\(?[\w*.|"'-]{1,100}\))\s+)+/;

/** A piece of a pipeline without the reserved words that open a list (`do echo x` -> `echo x`). */
export function stripLeadingKeywords(command: string): string {
  return command.replace(LEADING_KEYWORDS, '');
}

/** The command of a piece of a pipeline, reserved words that open a list taken off (`do echo x` -> `echo`). */
export function producerName(command: string): string {
  return commandName(stripLeadingKeywords(command))?.toLowerCase() ?? '';
}

/**
 * Where a pipeline's output goes, for output its first command makes: consumed by a command that is not a
 * filter (`| docker login --password-stdin`), or written by a filter to a file (`| base64 -d -o key`): null; a
 * redirect or `tee` of the last command: its destination; otherwise the compound command's around it
 * (`enclosing`), or the log.
 */
export function pipelineDestination(commands: readonly ScriptSpan[], enclosing: Destination | null | undefined): Destination | null {
  const last = commands[commands.length - 1];
  if (last === undefined) return null;
  const through = commands.slice(1).map((c) => commandName(c.text)?.toLowerCase() ?? '');
  if (through.some((c) => !FILTERS.has(c))) return null;
  if (commands.slice(1).some((c) => words(c.text).some((w) => /^(?:-o|-out|--out|--output)(?:=|$)/.test(w)))) return null;
  const teeTarget = through.includes('tee') || through.includes('tee-object') ? destinationOf(last.text) : null;
  const redirect = redirectOf(last.text);
  if (redirect === undefined) return teeTarget ?? (enclosing === undefined ? 'log' : enclosing);
  return redirect.destination ?? teeTarget;
}

/** A here-document's start outside quotes (`cat <<EOF`, `<<-'END'`): its delimiter, or null. */
export function heredocDelimiter(text: string): string | null {
  return heredocStart(text)?.delimiter ?? null;
}

/**
 * A here-document's start outside quotes: its delimiter, whether the delimiter is quoted (`<<'EOF'`, `<<"EOF"`,
 * `<<\EOF`: the shell expands nothing in the body), and whether leading tabs are stripped (`<<-`); null when none.
 */
export function heredocStart(text: string): { delimiter: string; quoted: boolean; tabs: boolean } | null {
  if (!text.includes('<<')) return null;
  let quote: string | null = null;
  for (let i = 0; i < text.length - 1; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"') i++;
      continue;
    }
    if (c === '"' || c === "'") quote = c;
    else if (c === '\\') i++;
    else if (c === '<' && text[i + 1] === '<') {
      // `<<<` is a here-string, not a here-document.
      if (text[i + 2] === '<' || text[i - 1] === '<') {
        i += 2;
        continue;
      }
      const match = /^<<(-?)\s*(?:(['"])([A-Za-z_][A-Za-z0-9_]*)\2|(\\?)([A-Za-z_][A-Za-z0-9_]*))/.exec(text.slice(i, i + 80));
      const delimiter = match?.[3] ?? match?.[5];
      if (match !== null && delimiter !== undefined) return { delimiter, quoted: match[2] !== undefined || match[4] === '\\', tabs: match[1] === '-' };
    }
  }
  return null;
}

/** The lines of a here-document body that start after line `index`: the index of its last line (the delimiter's), or the script's end. */
export function heredocEnd(lines: readonly ScriptSpan[], index: number, delimiter: string): number {
  for (let j = index + 1; j < lines.length; j++) if ((lines[j] as ScriptSpan).text.trim() === delimiter) return j;
  return lines.length - 1;
}

type BlockKind = 'group' | 'subshell' | 'loop' | 'if' | 'case';

const CLOSERS: readonly [RegExp, BlockKind][] = [
  [/^\}/, 'group'],
  [/^\)/, 'subshell'],
  [/^done\b/, 'loop'],
  [/^fi\b/, 'if'],
  [/^esac\b/, 'case'],
];
const OPENER_WORDS: Readonly<Record<string, BlockKind>> = { for: 'loop', while: 'loop', until: 'loop', select: 'loop', if: 'if', case: 'case' };
/** A line that may open or close a compound command (and so is read command by command). */
const MAY_BLOCK = /[{}()]|\b(?:for|while|until|select|if|case|done|fi|esac)\b/;
/** A script with a closer followed by a redirect or a pipe somewhere: only those have enclosing destinations. */
const CLOSER_REDIRECT = /(?:\}|\)|\bdone|\bfi|\besac)[ \t]*(?:[<>|&]|\d>)/;
/** At most this many nested compound commands are told apart; deeper ones are read as part of the outer one. */
const MAX_DEPTH = 32;

/**
 * For each pipeline of a script's logical lines, the destination its compound command gives it, where one
 * does: keyed `<line>:<pipeline>`, or `<line>:*` for every pipeline of a line inside the block. Here-document
 * bodies are data, not commands, and are skipped (their lines belong to the command that reads them).
 */
export function enclosingDestinations(script: string, lines: readonly ScriptSpan[]): ReadonlyMap<string, Destination | null> {
  const result = new Map<string, Destination | null>();
  if (!CLOSER_REDIRECT.test(script)) return result;
  // The units of the script in order: a whole line, or a pipeline of a line that may open or close a block.
  const units: string[] = [];
  const stack: { kind: BlockKind; unit: number }[] = [];
  const close = (kind: BlockKind, unit: number, commands: readonly ScriptSpan[]) => {
    let at = stack.length - 1;
    while (at >= 0 && stack[at]?.kind !== kind) at--;
    if (at < 0) return;
    const opener = stack[at] as { kind: BlockKind; unit: number };
    stack.length = at;
    // What follows the closing word: `} >> "$GITHUB_ENV"`, `done | sort > out`.
    const first = commands[0] as ScriptSpan;
    const rest = [{ text: first.text.replace(/^(?:\}|\)|done|fi|esac)/, '').trim(), offset: first.offset }, ...commands.slice(1)];
    const hasRedirect = rest.length > 1 || redirectOf(rest[0]?.text ?? '') !== undefined;
    if (!hasRedirect) return;
    const destination = pipelineDestination(rest, undefined);
    for (let u = opener.unit; u <= unit; u++) {
      const key = units[u] as string;
      if (!result.has(key)) result.set(key, destination);
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as ScriptSpan;
    const delimiter = heredocDelimiter(line.text);
    if (!MAY_BLOCK.test(line.text)) {
      units.push(`${i}:*`);
    } else {
      pipelines(line).forEach((pipeline, p) => {
        const unit = units.length;
        units.push(`${i}:${p}`);
        const text = (pipeline.commands[0] as ScriptSpan).text;
        const closer = CLOSERS.find(([pattern]) => pattern.test(text));
        if (closer !== undefined) {
          close(closer[1], unit, pipeline.commands);
          return;
        }
        const opened = text.startsWith('{') ? 'group' : text.startsWith('(') && !text.startsWith('((') && !/\)/.test(text) ? 'subshell' : OPENER_WORDS[words(text)[0] ?? ''];
        if (opened !== undefined && stack.length < MAX_DEPTH) stack.push({ kind: opened, unit });
      });
    }
    if (delimiter !== null) i = heredocEnd(lines, i, delimiter);
  }
  return result;
}

/** The destination `enclosingDestinations` gives pipeline `p` of line `i`; undefined where no compound command redirects it. */
export function enclosingAt(map: ReadonlyMap<string, Destination | null>, line: number, pipeline: number): Destination | null | undefined {
  if (map.size === 0) return undefined;
  const own = map.get(`${line}:${pipeline}`);
  return own !== undefined || map.has(`${line}:${pipeline}`) ? own : map.get(`${line}:*`);
}

/** What a script does with the text at an offset: the command that prints it and where that output goes. */
export interface Printed {
  /** `echo`, `printf`, `cat` (of a here-document) ... */
  command: string;
  destination: Destination;
}

/**
 * Where the text at `offset` of a script goes when a command prints it: the printing command (`echo`, `printf`
 * ..., or `cat` of a here-document whose body holds it) and its destination; null when the command holding it
 * prints nothing (`curl -H "$X"`, an assignment) or its output goes to a file or another command. `lines` are
 * the script's logical lines, `enclosing` what `enclosingDestinations` gives for them.
 */
export function printedAt(lines: readonly ScriptSpan[], enclosing: ReadonlyMap<string, Destination | null>, offset: number): Printed | null {
  // The logical line holding the offset (lines are in script order).
  let low = 0;
  let high = lines.length - 1;
  let found = -1;
  while (low <= high) {
    const mid = (low + high) >> 1;
    if ((lines[mid] as ScriptSpan).offset <= offset) {
      found = mid;
      low = mid + 1;
    } else high = mid - 1;
  }
  if (found === -1) return null;
  // A here-document's body belongs to the command that reads it: find the line that opened it, if any.
  let index = found;
  for (let i = 0; i < found; i++) {
    const delimiter = heredocDelimiter((lines[i] as ScriptSpan).text);
    if (delimiter === null) continue;
    const end = heredocEnd(lines, i, delimiter);
    if (found > i && found <= end) {
      if (found === end && (lines[end] as ScriptSpan).text.trim() === delimiter) return null;
      index = i;
      break;
    }
    i = end;
  }
  const line = lines[index] as ScriptSpan;
  const all = pipelines(line);
  for (let p = 0; p < all.length; p++) {
    const pipeline = all[p] as (typeof all)[number];
    const first = pipeline.commands[0] as ScriptSpan;
    const next = all[p + 1];
    const inBody = index !== found && first.text.includes('<<');
    // The pipeline holding the offset (its commands until the next pipeline), or the one reading the body.
    if (!inBody && (index !== found || offset < first.offset || (next !== undefined && offset >= next.offset))) continue;
    if (!inBody && pipeline.commands.length > 1) {
      // Only the first command's arguments are what the pipeline prints.
      const second = pipeline.commands[1] as ScriptSpan;
      if (offset >= second.offset) return null;
    }
    const name = producerName(first.text);
    if (!(PRINTERS.has(name) || (inBody && name === 'cat'))) return null;
    const destination = pipelineDestination(pipeline.commands, enclosingAt(enclosing, index, p));
    return destination === null ? null : { command: name, destination };
  }
  return null;
}
