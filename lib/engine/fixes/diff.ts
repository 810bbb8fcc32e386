import { createTwoFilesPatch } from 'diff';

/** A unified diff of one file (`--- a/path`, `+++ b/path`, 3 lines of context), '' when nothing changed. */
export function unifiedDiff(path: string, before: string, after: string): string {
  if (before === after) return '';
  const patch = createTwoFilesPatch(`a/${path}`, `b/${path}`, before, after, undefined, undefined, { context: 3 });
  // jsdiff starts with a `====` separator line; a unified diff starts at `---`.
  const start = patch.indexOf('--- ');
  return start === -1 ? patch : patch.slice(start);
}
