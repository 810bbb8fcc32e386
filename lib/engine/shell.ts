/**
 * A small, forgiving reader for the shell scripts of `run:` steps. It is not a shell parser: it splits a
 * script into logical lines, pipelines and commands well enough for pattern rules, keeps offsets so
 * findings point at the right place, and never throws.
 *
 * Many rules read the same scripts, so every function here is memoised and returns frozen results:
 * a script is split once per scan, not once per rule. The engine empties the memos when a scan ends
 * (`clearShellCaches`), so a long run over many repositories does not keep every script it saw.
 */

const CACHE_LIMIT = 50_000;
const caches: Map<unknown, unknown>[] = [];

/** Forgets every memoised result (the scan calls it when it is done; results stay correct either way). */
export function clearShellCaches(): void {
  for (const cache of caches) cache.clear();
}

/** A bounded memo: cleared wholesale when full, which keeps it deterministic and cheap. */
function memo<K, V>(compute: (key: K) => V): (key: K) => V {
  const cache = new Map<K, V>();
  caches.push(cache as Map<unknown, unknown>);
  return (key: K) => {
    const hit = cache.get(key);
    if (hit !== undefined) return hit;
    const value = compute(key);
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(key, value);
    return value;
  };
}

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x09 || code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c;
}

export interface ScriptSpan {
  text: string;
  /** Offset of `text` in the script. */
  offset: number;
}

export interface Pipeline {
  /** The commands of `a | b | c`, in order. */
  commands: ScriptSpan[];
  offset: number;
}

/** Lines with backslash continuations joined; blank lines and whole-line `#` comments dropped. */
export const logicalLines: (script: string) => readonly ScriptSpan[] = memo(splitLogicalLines);

function splitLogicalLines(script: string): readonly ScriptSpan[] {
  const lines: ScriptSpan[] = [];
  let pending: ScriptSpan | null = null;
  let offset = 0;
  for (const raw of script.split('\n')) {
    const lineOffset = offset;
    offset += raw.length + 1;
    const line = raw.replace(/\r$/, '');
    const continued = /(^|[^\\])\\$/.test(line);
    const body = continued ? line.slice(0, -1) : line;
    if (pending === null) {
      if (!continued && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
      pending = { text: body, offset: lineOffset };
    } else {
      pending.text += ` ${body.trimStart()}`;
    }
    if (!continued) {
      lines.push(pending);
      pending = null;
    }
  }
  if (pending !== null) lines.push(pending);
  for (const line of lines) Object.freeze(line);
  return Object.freeze(lines);
}

const pipelineCache = new WeakMap<ScriptSpan, readonly Pipeline[]>();

/**
 * Splits a logical line into pipelines at unquoted `;`, `&&`, `||` and `&`, and each pipeline into
 * commands at unquoted `|`. A trailing unquoted `#` comment is dropped.
 */
export function pipelines(line: ScriptSpan): readonly Pipeline[] {
  const hit = pipelineCache.get(line);
  if (hit !== undefined) return hit;
  const result = splitPipelines(line);
  for (const pipeline of result) {
    for (const command of pipeline.commands) Object.freeze(command);
    Object.freeze(pipeline.commands);
    Object.freeze(pipeline);
  }
  Object.freeze(result);
  // Only frozen lines (from logicalLines) are stable enough to cache by identity.
  if (Object.isFrozen(line)) pipelineCache.set(line, result);
  return result;
}

/** Adds `text[start, end)` (trimmed, when not blank) to `commands`. A plain function: no closure per line. */
function pushCommand(commands: ScriptSpan[], line: ScriptSpan, start: number, end: number): void {
  const chunk = line.text.slice(start, end);
  const lead = chunk.length - chunk.trimStart().length;
  if (chunk.trim() !== '') commands.push({ text: chunk.trim(), offset: line.offset + start + lead });
}

/** Ends a pipeline: moves its commands, if any, to `result` and returns the next pipeline's (empty) list. */
function endPipeline(result: Pipeline[], commands: ScriptSpan[], line: ScriptSpan): ScriptSpan[] {
  if (commands.length === 0) return commands;
  result.push({ commands, offset: commands[0]?.offset ?? line.offset });
  return [];
}

function splitPipelines(line: ScriptSpan): Pipeline[] {
  const result: Pipeline[] = [];
  let commands: ScriptSpan[] = [];
  let start = 0;
  let quote: string | null = null;
  let depth = 0;
  const text = line.text;
  // Neighbours are read only inside the string: an index past either end deoptimizes the loop ("out of bounds").
  const last = text.length - 1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote !== null) {
      if (c === '\\' && quote === '"') i++;
      else if (c === quote) quote = null;
      continue;
    }
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '"' || c === "'" || c === '`') {
      quote = c;
      continue;
    }
    if (c === '(' || (c === '$' && i < last && text[i + 1] === '(')) {
      if (c === '$') i++;
      depth++;
      continue;
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    if (c === '#' && (i === 0 || isSpace(text.charCodeAt(i - 1)))) {
      pushCommand(commands, line, start, i);
      commands = endPipeline(result, commands, line);
      start = text.length;
      break;
    }
    if (c === '|' && i < last && text[i + 1] === '|') {
      pushCommand(commands, line, start, i);
      commands = endPipeline(result, commands, line);
      i++;
      start = i + 1;
    } else if (c === '|') {
      pushCommand(commands, line, start, i);
      start = i + 1;
    } else if (c === '&' && i < last && text[i + 1] === '&') {
      pushCommand(commands, line, start, i);
      commands = endPipeline(result, commands, line);
      i++;
      start = i + 1;
    } else if (c === ';' || (c === '&' && (i === last || text[i + 1] !== '>') && (i === 0 || text[i - 1] !== '>'))) {
      pushCommand(commands, line, start, i);
      commands = endPipeline(result, commands, line);
      start = i + 1;
    }
  }
  if (start < text.length) {
    pushCommand(commands, line, start, text.length);
    endPipeline(result, commands, line);
  } else if (commands.length > 0) result.push({ commands, offset: commands[0]?.offset ?? line.offset });
  return result;
}

/** Every pipeline of a script. */
export const scriptPipelines: (script: string) => readonly Pipeline[] = memo((script: string) =>
  Object.freeze(logicalLines(script).flatMap((line) => pipelines(line))),
);

/** Shell words of a command, quotes removed (no expansion). */
export const words: (command: string) => readonly string[] = memo((command: string) => Object.freeze(splitWords(command)));

function splitWords(command: string): string[] {
  const result: string[] = [];
  let current = '';
  let inWord = false;
  let quote: string | null = null;
  for (let i = 0; i < command.length; i++) {
    const c = command[i] ?? '';
    if (quote !== null) {
      if (c === quote) quote = null;
      else if (c === '\\' && quote === '"' && i + 1 < command.length) current += command[++i];
      else current += c;
      continue;
    }
    if (c === '"' || c === "'") {
      quote = c;
      inWord = true;
    } else if (isSpace(c.charCodeAt(0))) {
      if (inWord) result.push(current);
      current = '';
      inWord = false;
    } else if (c === '\\' && i + 1 < command.length) {
      current += command[++i];
      inWord = true;
    } else {
      current += c;
      inWord = true;
    }
  }
  if (inWord) result.push(current);
  return result;
}

/** The program a command runs, skipping `sudo`, `env X=1`, leading assignments, `time` and `timeout N`. */
export const commandName: (command: string) => string | null = memo(findCommandName);

function findCommandName(command: string): string | null {
  const list = words(command);
  let i = 0;
  while (i < list.length) {
    const word = list[i] ?? '';
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word) || word === 'sudo' || word === 'time' || word === 'env' || word === 'exec' || word === 'command') {
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
    return word.replace(/^.*\//, '');
  }
  return null;
}
