import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlFast } from '../../../../lib/engine/yaml/fast.js';
import { parseYamlFull } from '../../../../lib/engine/yaml/parse.js';

/**
 * The fast parser must build exactly the model the `yaml` library path builds, and must never accept a
 * document the `yaml` library rejects: whenever it is unsure it returns undefined (full parser).
 */
function agrees(text: string): boolean {
  const fast = parseYamlFast(text);
  if (fast === undefined) return true;
  const full = parseYamlFull(text);
  if (!full.ok) throw new Error(`fast parser accepted a document the yaml library rejects (${full.problem.message}):\n${text}`);
  expect(fast, text).toEqual(full.root);
  return true;
}

describe('fast YAML path', () => {
  it('builds the same model as the yaml library for the constructs workflows use', () => {
    const text = [
      '---',
      'name: CI # comment',
      '"on":',
      '  push:',
      '    branches: [main, "release/*", \'v1\']',
      '  workflow_dispatch:',
      'env: { A: 1, B: "two", C: true, D: ~, E: 0x1F, F: 1.5e3, G: .inf }',
      'jobs:',
      '  build:',
      '    runs-on: ubuntu-latest',
      '    steps:',
      '    - uses: actions/checkout@v4',
      '      with:',
      '        fetch-depth: 0',
      '    - name: Run',
      '      run: |',
      '        echo "${{ github.event.issue.title }}"',
      '',
      '        echo done  # not a comment in a block scalar',
      '    - run: >-',
      '        folded',
      '        text',
      '      if: github.ref == \'refs/heads/main\'',
      '    - run: "escaped \\t \\u00e9 \\"q\\""',
    ].join('\n');
    expect(parseYamlFast(text)).toBeDefined();
    expect(agrees(text)).toBe(true);
  });

  it.each([
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['tags', 'a: !!str 1\n'],
    ['a comment inside a multi-line plain scalar', 'a: one\n  # c\n  two\n'],
    ['a comment before a continuation line', 'a: one # c\n  two\n'],
    ['a multi-line plain scalar at the root', 'one\ntwo\n'],
    ['a tab at the start of a folded line', 'a: >\n  x\n  \ty\n'],
    ['a comment inside a flow collection over several lines', 'a: [x, # c\n  y]\n'],
    ['a flow line no deeper than its owner', 'x:\n  a: [b,\n  c]\n'],
    ['a flow key broken before its colon', 'a: {k\n  : v}\n'],
    ['a flow scalar broken over lines', 'a: [x\n  y]\n'],
    ['a flow collection over several lines at the root', '[a,\n b]\n'],
    ['a trailing whitespace line longer than a block scalar\'s indentation', 'a: |\n  x\n    \nb: 1\n'],
    ['a flow mapping used as a key', '- {a: 1}: x\n'],
    ['a scalar value after an outdented comment (the yaml library rejects some)', 'a:\n  b:\n\n# c\n    x\nd: 1\n'],
    ['a scalar entry after an outdented comment', 'a:\n  -\n\n# c\n    x\nd: 1\n'],
    ['an escaped line break in a multi-line quoted scalar', 'a: "one\\\n  two"\n'],
    ['a multi-line quoted scalar not indented past its key', 'a:\n  b: "one\n  two"\n'],
    ['tabs in indentation', 'a:\n\tb: 1\n'],
    ['CRLF line breaks', 'a: 1\r\nb: 2\r\n'],
    ['a second document', 'a: 1\n---\nb: 2\n'],
    ['keep chomping', 'a: |+\n  x\n\n'],
    ['complex keys', '? a\n: b\n'],
    ['duplicate keys', 'a: 1\na: 2\n'],
    ['nested mappings in a compact value', 'a: b: c\n'],
    ['an empty flow entry', 'a: [1, , 2]\n'],
    ['a closing line shallower than the owner', 'x:\n  a: [b,\n    c\n ]\n'],
    ['an inner collection closed at the owner\'s depth', 'x:\n  a: [[b,\n  ], c]\n'],
    ['bad indentation', 'a:\n    b: 1\n  c: 2\n'],
  ])('leaves %s to the full parser', (_what, text) => {
    expect(parseYamlFast(text)).toBeUndefined();
  });

  it.each([
    ['a continued value', 'a: one\n  two\n   three  \nb: 1\n'],
    ['empty lines inside', 'a: one\n\n  two\n\n\n  three\n'],
    ['a value on its own lines', 'a:\n  one\n  two\n'],
    ['a sequence item', '- one\n  two\n- three\n'],
    ['a pipeline run over two lines', 'steps:\n  - run: echo -n "$X" |\n      base64 --decode > out\n    env:\n      X: 1\n'],
    ['indicators in continuation lines', 'a: b\n  - c [d] {e} ? f "g" &h *i !j |k >l\n'],
    ['a number that is not one', 'a: 1\n  2\n'],
    ['more-indented lines in a folded scalar', 'a: >\n  x\n    y\n  z\n\n    w\n\n  v\n'],
    ['a folded scalar starting more indented', 'a: >-\n  x\n    y\nb: >\n\n  p\n   q\n'],
    ['flow collections over several lines', 'a: [\n    x,\n\n    "y", {k: v,\n      l: [1,\n   2]}\n  ]\nb: {\n  c: d }\n'],
    ['trailing commas in flow collections', 'a: [1, 2, ]\nb: [1,2,]\nc: {x: 1, }\nd: [1,\n  2,\n]\n'],
    ['a flow collection closed at its owner\'s depth', 'x:\n  a: [b,\n    c\n  ]\n  e: {f: 1,\n    g: 2\n  }\n  h:\n  - [i,\n    j\n  ]\n'],
    ['flow collections as sequence entries and block values', 'm:\n  - { p: "a", q: 1 }\n  - [x, y]\nn:\n  { r: s }\n'],
    ['whitespace lines longer than a block scalar\'s indentation', 'a: |\n  x\n     \n  y\nb: >\n  x\n     \n  y\n'],
  ])('builds the same model as the yaml library for %s', (_what, text) => {
    expect(parseYamlFast(text), text).toBeDefined();
    expect(agrees(text)).toBe(true);
  });

  it.each([
    ["a space before a key's colon", 'jobs:\n  a :\n    name : x\n    b  : ":"\n    c:\n    - d : 1\n      e   :\n'],
    ['multi-line quoted scalars', 'a: "one  \n  two\n\n\n    three  "\nb:\n- \'it\'\'s\n  \'\'x\'\'\'\n- "\n  y\n  "  # c\nc: \'p\n\n  q\'\n'],
    ['a plain value starting with a colon', 'env:\n  A: :16:8\n  B: ::x\n  C: :a:b # c\n  D: :x\n    :y\nE:\n- :z\n'],
  ])('builds the same model as the yaml library for %s', (_what, text) => {
    expect(parseYamlFast(text), text).toBeDefined();
    expect(agrees(text)).toBe(true);
  });

  it('positions an empty value where the yaml library does', () => {
    const text = 'on:\n  workflow_dispatch:   # manual\n  push:\njobs: {}\n';
    expect(agrees(text)).toBe(true);
    expect(parseYamlFast(text)).toMatchObject({ pairs: [{ value: { pairs: [{ value: { start: 27, value: null } }, {}] } }, {}] });
  });

  it('agrees with the yaml library on generated documents', () => {
    const scalar = fc.oneof(
      fc.constantFrom('a', 'on', 'true', 'False', 'null', '~', '1', '-2', '0o17', '0x1F', '1.5', '.5', '1e3', '.inf', '.NaN', 'x: y', 'a #b', 'a#b', '"q"', "'s'", "'it''s'", '"\\n"', '- x', '[a]', '{a: 1}', '|', '>', '*a', '&a', '!t', '@x', '`x`', '%x', '', ' ', '${{ x }}', 'a:b', 'http://x', ':x', '::x', ':1:2', ':', ': x', ':#', '?x', '"open', "'open", '"a  b ', "'it''s"),
      fc.string({ maxLength: 6 }),
    );
    const key = fc.constantFrom('a', 'b', 'on', 'run', '"q"', "'s'", '1', 'x y', '-k', 'a:b', 'a ', 'b  ', '"q" ', ':k', '1 ');
    const indent = fc.constantFrom('', ' ', '  ', '   ', '    ');
    const line = fc.oneof(
      fc.tuple(indent, key, scalar).map(([i, k, v]) => `${i}${k}: ${v}`),
      fc.tuple(indent, key).map(([i, k]) => `${i}${k}:`),
      fc.tuple(indent, scalar).map(([i, v]) => `${i}- ${v}`),
      fc.tuple(indent, key, scalar).map(([i, k, v]) => `${i}- ${k}: ${v}`),
      fc.tuple(indent, scalar).map(([i, v]) => `${i}${v}`),
      fc.constantFrom('', '# c', '  # c', '---', 'run: |', 'run: >-', 'run: >', '  |', '  >', '      text', '   more text', '  - [a, "b", {c: d}]'),
      // Continuation lines of multi-line plain scalars, and more-indented lines of folded ones.
      fc.tuple(indent, fc.constantFrom('and more', '- dash', 'x: y', 'x:', '#c', 'a #c', '[x]', '?', ' ', '\tt', 'p: ', '"q"', '[a,', 'b]', '{k: v,', 'l: w}', '[', ']', '{', '}', 'c,', '"d",', '- [e,', '- {f: g,', 'h]: i', 'close"', "close'", 'x" y', "'' z'", '"', "'", 'a # b"', 'c\\'), fc.constantFrom('', ' ', '  ')).map(
        ([i, t, extra]) => `${i}${extra}${t}`,
      ),
    );
    fc.assert(fc.property(fc.array(line, { maxLength: 12 }), (lines) => agrees(lines.join('\n'))), { numRuns: 3000 });
  });

  const corpus = fileURLToPath(new URL('../../../../../shared/corpus/real/', import.meta.url));
  const manifest = `${corpus}MANIFEST.tsv`;
  const files = existsSync(manifest)
    ? readFileSync(manifest, 'utf8')
        .split('\n')
        .slice(1)
        .filter((l) => l !== '')
        .map((l) => {
          const [repo = '', path = ''] = l.split('\t');
          return readFileSync(`${corpus}${repo.replace('/', '__')}/${path}`, 'utf8');
        })
    : [];

  it.skipIf(files.length === 0)('agrees on every corpus file it accepts, and accepts most of them', () => {
    let accepted = 0;
    for (const text of files) {
      if (parseYamlFast(text) !== undefined) accepted++;
      agrees(text);
    }
    // A coverage check, not a timing one: falling back is correct but slow.
    expect(accepted / files.length).toBeGreaterThan(0.9);
  });

  it.skipIf(files.length === 0)('never accepts a mutated corpus file the yaml library rejects', () => {
    const mutation = fc.record({
      file: fc.nat({ max: Math.max(0, files.length - 1) }),
      at: fc.nat(),
      remove: fc.nat({ max: 3 }),
      insert: fc.constantFrom('', ' ', '  ', '\n', ':', '- ', '#', '"', "'", '[', ']', '{', '}', ',', '|', '>', '\t', '&a', '*a', '? ', '\n  ', '\n    x', ' #', ': '),
    });
    fc.assert(
      fc.property(mutation, ({ file, at, remove, insert }) => {
        const text = files[file] ?? '';
        const pos = text.length === 0 ? 0 : at % text.length;
        return agrees(text.slice(0, pos) + insert + text.slice(pos + remove));
      }),
      { numRuns: 3000 },
    );
  });
});
