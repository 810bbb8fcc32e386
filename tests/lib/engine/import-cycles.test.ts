import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(__dirname, '../../../lib/engine');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** Value imports (not `import type`) between the engine's own modules. */
function imports(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const result: string[] = [];
  for (const match of text.matchAll(/^import\s+(?!type\b)[^;]*?from\s+'(\.[^']+)';/gms)) {
    result.push(resolve(dirname(file), (match[1] as string).replace(/\.js$/, '.ts')));
  }
  return result;
}

function cycles(): string[][] {
  const graph = new Map(sources(ROOT).map((f) => [f, imports(f)]));
  const found: string[][] = [];
  const state = new Map<string, 'active' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string): void => {
    state.set(file, 'active');
    stack.push(file);
    for (const next of graph.get(file) ?? []) {
      if (!graph.has(next)) continue;
      if (state.get(next) === 'active') found.push([...stack.slice(stack.indexOf(next)), next].map((f) => relative(ROOT, f)));
      else if (state.get(next) === undefined) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of graph.keys()) if (state.get(file) === undefined) visit(file);
  return found;
}

describe('engine module graph', () => {
  it('taint analysis and script analysis import each other in one direction only', () => {
    const taintCycles = cycles().filter((cycle) => cycle.some((f) => f.startsWith('expressions/') || f.startsWith('analysis/')));
    expect(taintCycles).toEqual([]);
  });
});
