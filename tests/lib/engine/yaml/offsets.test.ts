import { describe, expect, it } from 'vitest';
import { valueOffsetToSource } from '../../../../lib/engine/yaml/offsets.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { getScalar, type YMap } from '../../../../lib/engine/yaml/model.js';
import { expectLive } from '../../../support/liveness.js';

function scalarOf(text: string, key = 'run') {
  const result = parseYaml(text);
  if (!result.ok) throw new Error(result.problem.message);
  const scalar = getScalar(result.root as YMap, key);
  if (scalar === undefined || typeof scalar.value !== 'string') throw new Error('no scalar');
  return { file: new SourceFile('x.yml', text), scalar, value: scalar.value };
}

/** The file text at the mapped position of every occurrence of `needle` in the value. */
function mapped(text: string, needle: string): string[] {
  const { file, scalar, value } = scalarOf(text);
  const found: string[] = [];
  for (let i = value.indexOf(needle); i !== -1; i = value.indexOf(needle, i + 1)) {
    const offset = valueOffsetToSource(file, scalar, i);
    const { line, column } = file.position(offset);
    found.push(`${line}:${column}:${text.slice(offset, offset + needle.length)}`);
  }
  return found;
}

describe('valueOffsetToSource', () => {
  it('maps offsets of a literal block scalar line by line, blank lines included', () => {
    expect(mapped('run: |\n  echo a\n\n    indented b\n  echo c\n', 'b')).toEqual(['4:14:b']);
    expect(mapped('run: |\n  echo a\n\n    indented b\n  echo c\n', 'echo')).toEqual(['2:3:echo', '5:3:echo']);
  });

  it('honours an explicit indentation indicator', () => {
    expect(mapped('run: |2\n    x\n  y\n', 'y')).toEqual(['3:3:y']);
    // The indicator after or before the chomping indicator, and in a folded header too.
    expect(mapped('run: |-2\n    x\n  y\n', 'y')).toEqual(['3:3:y']);
    expect(mapped('run: |+2\n    x\n  y\n', 'y')).toEqual(['3:3:y']);
    expect(mapped('run: |2-\n    x\n  y\n', 'y')).toEqual(['3:3:y']);
  });

  it('maps plain and quoted scalars', () => {
    expect(mapped('run: echo $A $B\n', '$B')).toEqual(['1:14:$B']);
    expect(mapped("run: 'echo $B'\n", '$B')).toEqual(['1:12:$B']);
  });

  it('stays linear for a script with thousands of positions to map', () => {
    // The quadratic mapping this guards against took 3.5 s for 20,000 lines; 60,000 would take ~30 s.
    const lines = Array.from({ length: 60_000 }, (_, i) => `  echo line${i}`).join('\n');
    const { file, scalar, value } = scalarOf(`run: |\n${lines}\n`);
    const last = expectLive('60,000 offsets in one script', () => {
      let at = 0;
      for (let i = value.indexOf('line'); i !== -1; i = value.indexOf('line', i + 1)) at = valueOffsetToSource(file, scalar, i);
      return at;
    });
    expect(file.position(last)).toEqual({ line: 60_001, column: 8 });
  });
});
