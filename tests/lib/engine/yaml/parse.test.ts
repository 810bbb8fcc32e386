import { describe, expect, it } from 'vitest';
import { parseYamlFull } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';

/** Where the full parser reports a problem, as `line:column message`, or `ok`. */
function outcome(text: string): string {
  const result = parseYamlFull(text);
  if (result.ok) return 'ok';
  const { line, column } = new SourceFile('x.yml', text).position(result.problem.offset);
  return `${line}:${column} ${result.problem.message}`;
}

const nested = (levels: number) => `on: push\njobs:\n${Array.from({ length: levels }, (_, i) => `${' '.repeat(i + 1)}a:`).join('\n')} x\n`;

describe('parseYamlFull', () => {
  it('rejects a repeated key at the repeated key, comparing keys by value as the yaml library does', () => {
    expect(outcome('on: push\njobs:\n  a:\n    runs-on: x\n  a:\n    runs-on: y\n')).toBe('5:3 YAML syntax error: Map keys must be unique');
    expect(outcome('env: {A: 1, B: 2, A: 3}\n')).toBe('1:19 YAML syntax error: Map keys must be unique');
    expect(outcome('a: 1\n0x1: 2\n1: 3\n')).toBe('3:1 YAML syntax error: Map keys must be unique');
    expect(outcome('1: a\n"1": b\n')).toBe('ok');
    expect(outcome('.nan: a\n.NaN: b\n')).toBe('ok');
  });

  it('resolves an alias to the last anchor of its name before it', () => {
    const result = parseYamlFull('a: &x 1\nb: *x\nc: &x 2\nd: *x\n');
    expect(result.ok && result.root.kind === 'map' ? result.root.pairs.map((p) => (p.value.kind === 'scalar' ? p.value.value : null)) : null).toEqual([1, 1, 2, 2]);
    expect(outcome('a: *x\nb: &x 1\n')).toMatch(/^1:4 /);
  });

  it('reports deep block nesting the same way at any depth, before the recursive parser could run out of stack', () => {
    // Past about a thousand levels the yaml library overflows the stack in a cold process but not in a
    // warm one; the pre-scan keeps such files away from it, so the finding does not depend on the process.
    expect(outcome(nested(65))).toBe('66:65 the document nests deeper than 64 levels');
    for (const levels of [200, 1_000, 1_400, 5_000]) expect(outcome(nested(levels))).toBe('130:129 the document nests deeper than 64 levels');
    expect(outcome(`${'- '.repeat(50_000)}x\n`)).toBe('1:1 the document nests deeper than 64 levels');
  });

  it('does not count the lines of a block scalar as nesting', () => {
    const script = Array.from({ length: 300 }, (_, i) => `${' '.repeat(10 + i)}echo ${i}`).join('\n');
    expect(outcome(`on: push\njobs:\n  a:\n    steps:\n      - run: | # deeper and deeper\n${script}\n      - run: >-\n${script}\n`)).toBe('ok');
  });
});
