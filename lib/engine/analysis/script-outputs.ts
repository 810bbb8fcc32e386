import { referencedEnvVars } from '../expressions/taint.js';
import { logicalLines, type ScriptSpan } from '../shell.js';

/** Offsets in a script: the raw extents of some of its lines, and the environment variables they read. */
export interface ScriptSources {
  /** `[start, end)` of each line (continuations included). */
  ranges: [number, number][];
  /** Variables read that the script does not assign: the environment's. */
  variables: Set<string>;
}

/**
 * Where a `run:` script's step output comes from: the lines that write it and the assignments of the shell
 * variables those lines read, followed transitively. Null when no line visibly writes the output (a program
 * the script runs may).
 */
export function outputSources(script: string, name: string): ScriptSources | null {
  const lines = logicalLines(script);
  const writes = outputWriteLines(lines, name);
  return writes === null ? null : feedingLines(script, lines, writes);
}

/**
 * `seeds` (logical lines of `script`) and the assignments of the shell variables they read, transitively.
 * Variables in `stop` (validated ones) are not followed.
 */
export function feedingLines(script: string, lines: readonly ScriptSpan[], seeds: readonly ScriptSpan[], stop: ReadonlySet<string> = new Set()): ScriptSources {
  const assignments = shellAssignments(lines);
  const ranges: [number, number][] = [];
  const variables = new Set<string>();
  const seen = new Set<string>();
  const visited = new Set<ScriptSpan>();
  const next = new Map(lines.map((line, i) => [line, lines[i + 1]?.offset ?? script.length]));
  const queue = [...seeds];
  while (queue.length > 0) {
    const line = queue.pop() as ScriptSpan;
    if (visited.has(line)) continue;
    visited.add(line);
    ranges.push([line.offset, next.get(line) ?? script.length]);
    for (const variable of referencedEnvVars(line.text)) {
      if (stop.has(variable)) continue;
      const assigned = assignments.get(variable);
      if (assigned === undefined) variables.add(variable);
      else if (!seen.has(variable)) {
        seen.add(variable);
        queue.push(...assigned);
      }
    }
  }
  return { ranges, variables };
}

/** `[[ "$X" =~ ^[0-9]+$ ]]`: a test of a variable against an anchored pattern without wildcards. */
const VALIDATION = /\$\{?([A-Za-z_]\w*)\}?["']?\s*=~\s*['"]?\^([^\s'"]*)\$/g;
const GREP_VALIDATION = /\bgrep\s+-[a-zA-Z]*[qx][a-zA-Z]*\s+(?:-E\s+)?['"]\^([^'"]*)\$['"][^\n]*?<<<\s*["']?\$\{?([A-Za-z_]\w*)/g;

/**
 * Variables a script checks against an anchored pattern (`[[ "$N" =~ ^[0-9]+$ ]]`, `grep -qE '^...$' <<< "$N"`)
 * when it also exits on failure somewhere: after the check their value has the pattern's shape.
 */
export function validatedVariables(script: string): Set<string> {
  const result = new Set<string>();
  if (!/\bexit\s+[1-9]|\bexit\s*$|\bfalse\b/m.test(script)) return result;
  for (const match of script.matchAll(VALIDATION)) {
    if (match[1] !== undefined && !/\.[*+]/.test(match[2] ?? '')) result.add(match[1]);
  }
  for (const match of script.matchAll(GREP_VALIDATION)) {
    if (match[2] !== undefined && !/\.[*+]/.test(match[1] ?? '')) result.add(match[2]);
  }
  return result;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The logical lines of a script that write step output `name` (`name=value`, `name<<EOF` and the lines of
 * its here-document, `::set-output name=name::`), or null when none is recognisable.
 */
function outputWriteLines(lines: readonly ScriptSpan[], name: string): ScriptSpan[] | null {
  const key = escapeRegExp(name);
  const write = new RegExp(`(?:^|[\\s"'{(>;|])${key}(=|<<\\s*['"]?(\\w+))|::set-output\\s+name=${key}::`, 'i');
  const found: ScriptSpan[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as ScriptSpan;
    const match = write.exec(line.text);
    if (match === null) continue;
    found.push(line);
    const delimiter = match[2];
    if (delimiter === undefined) continue;
    const end = new RegExp(`(?:^|[\\s"'])${escapeRegExp(delimiter)}(?:$|[\\s"'])`);
    for (i++; i < lines.length; i++) {
      const body = lines[i] as ScriptSpan;
      found.push(body);
      if (end.test(body.text)) break;
    }
  }
  return found.length > 0 ? found : null;
}

const ASSIGNMENT = /(?:^|[\s;&|({])(?:(?:export|local|readonly|declare(?:\s+-\w+)*)\s+)?([A-Za-z_]\w*)=|\bfor\s+([A-Za-z_]\w*)\s+in\b|\bread\s+(?:-\w+\s+)*([A-Za-z_]\w*)|\$([A-Za-z_]\w*)\s*=(?!=)/g;

/** Where each shell (or PowerShell) variable of a script is assigned. */
function shellAssignments(lines: readonly ScriptSpan[]): Map<string, ScriptSpan[]> {
  const result = new Map<string, ScriptSpan[]>();
  for (const line of lines) {
    for (const match of line.text.matchAll(ASSIGNMENT)) {
      const name = match[1] ?? match[2] ?? match[3] ?? match[4];
      if (name === undefined) continue;
      const list = result.get(name) ?? [];
      if (!list.includes(line)) list.push(line);
      result.set(name, list);
    }
  }
  return result;
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

