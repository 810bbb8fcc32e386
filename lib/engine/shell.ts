/**
 * A small, forgiving reader for the shell scripts of `run:` steps. It is not a shell parser: it splits a
 * script into logical lines, pipelines and commands well enough for pattern rules, keeps offsets so
 * findings point at the right place, and never throws.
 */

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
export function logicalLines(script: string): ScriptSpan[] {
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
  return lines;
}

/**
 * Splits a logical line into pipelines at unquoted `;`, `&&`, `||` and `&`, and each pipeline into
 * commands at unquoted `|`. A trailing unquoted `#` comment is dropped.
 */
export function pipelines(line: ScriptSpan): Pipeline[] {
  const result: Pipeline[] = [];
  let commands: ScriptSpan[] = [];
  let start = 0;
  let quote: string | null = null;
  let depth = 0;
  const text = line.text;
  const flush = (end: number, endsPipeline: boolean) => {
    const chunk = text.slice(start, end);
    const lead = chunk.length - chunk.trimStart().length;
    if (chunk.trim() !== '') commands.push({ text: chunk.trim(), offset: line.offset + start + lead });
    if (endsPipeline && commands.length > 0) {
      result.push({ commands, offset: commands[0]?.offset ?? line.offset });
      commands = [];
    }
  };
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
    if (c === '(' || (c === '$' && text[i + 1] === '(')) {
      if (c === '$') i++;
      depth++;
      continue;
    }
    if (c === ')') {
      depth = Math.max(0, depth - 1);
      continue;
    }
    if (depth > 0) continue;
    if (c === '#' && (i === 0 || /\s/.test(text[i - 1] ?? ''))) {
      flush(i, true);
      start = text.length;
      break;
    }
    if (c === '|' && text[i + 1] === '|') {
      flush(i, true);
      i++;
      start = i + 1;
    } else if (c === '|') {
      flush(i, false);
      start = i + 1;
    } else if (c === '&' && text[i + 1] === '&') {
      flush(i, true);
      i++;
      start = i + 1;
    } else if (c === ';' || (c === '&' && text[i + 1] !== '>' && text[i - 1] !== '>')) {
      flush(i, true);
      start = i + 1;
    }
  }
  if (start < text.length) flush(text.length, true);
  else if (commands.length > 0) result.push({ commands, offset: commands[0]?.offset ?? line.offset });
  return result;
}

/** Every pipeline of a script. */
export function scriptPipelines(script: string): Pipeline[] {
  return logicalLines(script).flatMap(pipelines);
}

/** Shell words of a command, quotes removed (no expansion). */
export function words(command: string): string[] {
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
    } else if (/\s/.test(c)) {
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

/** The program a command runs, skipping `sudo`, `env X=1`, leading assignments and `time`. */
export function commandName(command: string): string | null {
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
    return word.replace(/^.*\//, '');
  }
  return null;
}
