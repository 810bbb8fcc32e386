import type { SourceFile } from './yaml/source.js';

const DIRECTIVE = /#\s*chainbreaker:\s*ignore(?:\[([^\]]*)\])?/i;

/** The rules a directive on this line names: `null` for none, `'all'` for a bare `ignore`. */
function directive(line: string): Set<string> | 'all' | null {
  const match = DIRECTIVE.exec(line);
  if (match === null) return null;
  const list = match[1];
  if (list === undefined) return 'all';
  return new Set(list.split(',').map((id) => id.trim()).filter((id) => id !== ''));
}

/**
 * True when `# chainbreaker: ignore[rule]` (or a bare `ignore`) is on the finding's line, or alone on
 * the line above it.
 */
export function isSuppressed(file: SourceFile, line: number, ruleId: string): boolean {
  if (line < 1) return false;
  const here = directive(file.lineText(line));
  if (here === 'all' || here?.has(ruleId)) return true;
  if (line === 1) return false;
  const above = file.lineText(line - 1);
  if (!above.trimStart().startsWith('#')) return false;
  const previous = directive(above);
  return previous === 'all' || previous?.has(ruleId) === true;
}
