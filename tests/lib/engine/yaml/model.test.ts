import { describe, expect, it } from 'vitest';
import { get, stringScalars, type YMap } from '../../../../lib/engine/yaml/model.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';

function root(text: string): YMap {
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  return parsed.root;
}

describe('stringScalars', () => {
  const doc = root(`runs-on: [self-hosted, linux]
timeout-minutes: 30
strategy:
  matrix:
    os: [ubuntu-latest, 42, true]
    include:
      - name: x
`);

  it('lists the string values below a node in document order, keys and non-strings excluded', () => {
    expect(stringScalars(doc).map((s) => s.value)).toEqual(['self-hosted', 'linux', 'ubuntu-latest', 'x']);
    expect(stringScalars(get(doc, 'strategy')!).map((s) => s.value)).toEqual(['ubuntu-latest', 'x']);
  });

  it('answers a string scalar with itself, the same array every time', () => {
    const label = get(doc, 'runs-on');
    if (label?.kind !== 'seq') throw new Error('not a sequence');
    const first = label.items[0]!;
    expect(stringScalars(first)).toEqual([first]);
    expect(stringScalars(first)).toBe(stringScalars(first));
    expect(Object.isFrozen(stringScalars(first))).toBe(true);
  });

  it('answers a number or boolean scalar with nothing', () => {
    expect(stringScalars(get(doc, 'timeout-minutes')!)).toEqual([]);
  });
});
