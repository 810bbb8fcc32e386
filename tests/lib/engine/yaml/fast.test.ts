import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseYamlFast } from '../../../../lib/engine/yaml/fast.js';
import { MAX_EXPANDED_NODES, parseYaml, parseYamlFull } from '../../../../lib/engine/yaml/parse.js';
import type { YNode } from '../../../../lib/engine/yaml/model.js';
import { skipReason } from '../../../support/skips.js';

/**
 * The model as plain data in which a node met a second time (an alias: the model shares the anchored
 * node) is `{ ref: n }`, n its first visit's number. Deep equality of two shapes is equality of the
 * models including which nodes are shared, which the rules see (walks visit a shared node once).
 */
function shape(root: YNode): unknown {
  const ids = new Map<YNode, number>();
  const walk = (node: YNode): unknown => {
    const id = ids.get(node);
    if (id !== undefined) return { ref: id };
    ids.set(node, ids.size);
    if (node.kind === 'scalar') return { ...node };
    if (node.kind === 'seq') return { kind: node.kind, start: node.start, end: node.end, items: node.items.map(walk) };
    return { kind: node.kind, start: node.start, end: node.end, pairs: node.pairs.map((p) => ({ key: walk(p.key), value: walk(p.value) })) };
  };
  return walk(root);
}

/**
 * The fast parser must build exactly the model the `yaml` library path builds, and must never accept a
 * document the `yaml` library rejects: whenever it is unsure it returns undefined (full parser).
 */
function agrees(text: string): boolean {
  const fast = parseYamlFast(text);
  if (fast === undefined) return true;
  const full = parseYamlFull(text);
  if (!full.ok) throw new Error(`fast parser accepted a document the yaml library rejects (${full.problem.message}):\n${JSON.stringify(text)}`);
  expect(shape(fast), JSON.stringify(text)).toEqual(shape(full.root));
  return true;
}

/** A document as written, with CRLF line breaks, with a byte order mark, and with both. */
function variants(text: string): [string, string][] {
  const crlf = text.replaceAll('\n', '\r\n');
  return [
    ['LF', text],
    ['CRLF', crlf],
    ['BOM', `\ufeff${text}`],
    ['BOM and CRLF', `\ufeff${crlf}`],
  ];
}

const fixtures = fileURLToPath(new URL('../../../fixtures/yaml/', import.meta.url));

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
      '    - uses: actions/checkout@v3',
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
    ['tags', 'a: !!str 1\n'],
    ['an alias to an unknown anchor', 'a: *x\n'],
    ['an alias inside the node it names', 'a: &x [1, *x]\n'],
    ['an alias inside the mapping it names', 'a: &x\n  b: *x\n'],
    ['an anchor on a key', '- &x k: v\n'],
    ['an anchored empty value', 'a: &x\nb: *x\n'],
    ['an anchor inside a flow collection', 'a: [&x 1, *x]\n'],
    ['an alias used as a key', 'a: &x k\n*x : v\n'],
    ['an alias followed by more text', 'a: &x 1\nb: *x y\n'],
    ['an anchor name with unusual characters', 'a: &x/y 1\nb: *x/y\n'],
    ['a lone CR', 'a: 1\rb: 2\n'],
    ['a byte order mark after the start', 'a: 1\n\ufeffb: 2\n'],
    ['content after the document end marker', 'a: 1\n...\nb: 2\n'],
    ['a second document after the document end marker', 'a: 1\n...\n---\nb: 2\n'],
    ['a comment line inside a multi-line plain scalar', 'a: x\n  # c\n  y\n'],
    ['a comment inside a multi-line plain scalar', 'a: one\n  # c\n  two\n'],
    ['a comment before a continuation line', 'a: one # c\n  two\n'],
    ['a multi-line plain scalar at the root', 'one\ntwo\n'],
    ['a tab at the start of a folded line', 'a: >\n  x\n  \ty\n'],
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

  it.each([
    ['anchors and aliases', 'a: &x 1\nb: *x\n'],
    ['an alias to the latest anchor of its name', 'a: &x 1\nb: *x\nc: &x [2]\nd: *x\ne: {k: *x}\n'],
    ['an alias to an inner anchor of the same name', 'a: &x\n  b: &x 1\nc: *x\n'],
    ['an anchored mapping and sequence on their own lines', '- &m # c\n  k: v\n- *m\n- &s\n  - 1\n- *s\n'],
    ['an anchored sequence at its key\'s indentation', 'a: &s\n- 1\nb: *s\n'],
    ['merge keys (plain keys under YAML 1.2, as the yaml library reads them)', 'base: &b {x: 1}\nd:\n  <<: *b\n  y: 2\n'],
    ['an alias as the last value of a mapping (its end is the anchored node\'s)', 'a: &x\n  k: v\nb:\n  c: *x\n'],
    ['anchored block scalars and quoted scalars', 'a: &l |\n  x\nb: &q "y"\nc: [*l, *q]\n'],
    ['CRLF line breaks', 'a: 1\r\nb: |\r\n  x\r\n\r\n  y\r\nc: >\r\n  p\r\n  q\r\nd: "m\r\n  n"\r\ne: f\r\n  g\r\n'],
    ['a byte order mark', '\ufeffa: 1\n'],
    ['a document start after comments', '# c\n\n---\na: 1\n'],
    ['a document end marker', 'a: |\n  x\n\n...\n# c\n'],
    ['comments inside flow collections', 'x:\n  a: [b, # c\n    # d\n# e\n    f\n  ]\n'],
    ['one-pair mappings in a flow sequence', 'a: [cron: "x", b: [1], \'c\': d, e]\n'],
    ['a tab after a value', 'a: x\t \nb: "y"\t\n'],
    ['a comment line after a plain scalar', 'a:\n  x\n  # c\nb: 1\n'],
    // The fast path used to trim a no-break space off a key (`a` where the yaml library reads `a\u00a0`).
    ['no-break spaces at the end of keys and values', 'a\u00a0: b\u00a0\nc: [d\u00a0]\ne: f\n  g\u00a0\n'],
  ])('builds the same model as the yaml library for %s', (_what, text) => {
    expect(parseYamlFast(text), JSON.stringify(text)).toBeDefined();
    expect(agrees(text)).toBe(true);
  });

  it('shares an aliased node instead of copying it, as the full parser does', () => {
    const fast = parseYamlFast('a: &x\n  k: v\nb: *x\n');
    expect(fast?.kind === 'map' && fast.pairs[0]?.value === fast.pairs[1]?.value).toBe(true);
  });

  it.each(readdirSync(fixtures).filter((f) => f.endsWith('.yml')))('builds the same model as the yaml library for the fixture %s in every line break and BOM variant', (name) => {
    const text = readFileSync(`${fixtures}${name}`, 'utf8');
    for (const [variant, input] of variants(text)) {
      expect(parseYamlFast(input), `${name} (${variant})`).toBeDefined();
      expect(agrees(input)).toBe(true);
    }
  });

  it('declines an alias expansion bomb without expanding it, and the full parser reports it', () => {
    // "Billion laughs": each level names the previous one ten times, 10^9 nodes once expanded.
    const levels = ['a: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 9; i++) levels.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
    const bomb = `${levels.join('\n')}\n`;
    expect(parseYamlFast(bomb)).toBeUndefined();
    const result = parseYaml(bomb);
    expect(result.ok ? 'ok' : result.problem.message).toBe(`aliases expand the document beyond ${MAX_EXPANDED_NODES} nodes`);
    // The same bomb in block style.
    const block = ['a: &l0\n' + '  - x\n'.repeat(10)];
    for (let i = 1; i < 9; i++) block.push(`l${i}: &l${i}\n${`  - *l${i - 1}\n`.repeat(10)}`);
    expect(parseYamlFast(block.join(''))).toBeUndefined();
    expect(parseYamlFull(block.join('')).ok).toBe(false);
  });

  it('accepts aliases that expand to just under the node limit, sharing the nodes as the full parser does', () => {
    // 10 + 4 levels of 10 aliases: 11 + 10 * (11 + 10 * (...)) nodes, well under the limit.
    const levels = ['a: &l0 [x, x, x, x, x, x, x, x, x, x]'];
    for (let i = 1; i < 5; i++) levels.push(`l${i}: &l${i} [${Array.from({ length: 10 }, () => `*l${i - 1}`).join(', ')}]`);
    const text = `${levels.join('\n')}\n`;
    expect(parseYamlFast(text)).toBeDefined();
    expect(agrees(text)).toBe(true);
  });

  it('declines a document of more nodes than the limit even without aliases, as the full parser reports it', () => {
    const text = `a: [${'1,'.repeat(MAX_EXPANDED_NODES)}1]\n`;
    expect(parseYamlFast(text)).toBeUndefined();
    const result = parseYamlFull(text);
    expect(result.ok ? 'ok' : result.problem.message).toBe(`aliases expand the document beyond ${MAX_EXPANDED_NODES} nodes`);
  });

  it('ends a one-pair flow mapping whose value is an alias at the alias, not at the node it names', () => {
    // Found by the generated-documents property: the pair took the end of the anchored node (offset 12).
    for (const text of ['- &a\n   a: a \n- a: [k: *a]', '- &a\n   a: a \n- a: [k: *a , b]', 'x: &a [1]\ny: [k: *a]\n']) {
      expect(parseYamlFast(text), JSON.stringify(text)).toBeDefined();
      expect(agrees(text)).toBe(true);
    }
    expect(parseYamlFast('- &a\n   a: a \n- a: [k: *a]')).toMatchObject({ items: [{}, { pairs: [{ value: { items: [{ start: 20, end: 25 }] } }] }] });
  });

  it('positions an empty value where the yaml library does', () => {
    const text = 'on:\n  workflow_dispatch:   # manual\n  push:\njobs: {}\n';
    expect(agrees(text)).toBe(true);
    expect(parseYamlFast(text)).toMatchObject({ pairs: [{ value: { pairs: [{ value: { start: 27, value: null } }, {}] } }, {}] });
  });

  it('agrees with the yaml library on generated documents', () => {
    const scalar = fc.oneof(
      fc.constantFrom('a', 'on', 'true', 'False', 'null', '~', '1', '-2', '0o17', '0x1F', '1.5', '.5', '1e3', '.inf', '.NaN', 'x: y', 'a #b', 'a#b', '"q"', "'s'", "'it''s'", '"\\n"', '- x', '[a]', '{a: 1}', '|', '>', '*a', '&a', '!t', '@x', '`x`', '%x', '', ' ', '${{ x }}', 'a:b', 'http://x', ':x', '::x', ':1:2', ':', ': x', ':#', '?x', '"open', "'open", '"a  b ', "'it''s"),
      // Anchors and aliases, alone, before values, in flow collections; a tab after a value.
      fc.constantFrom('&a x', '&b', '&a [1, *b]', '*a', '*b', '*a # c', '*a x', '&a "q"', '&b |', '&a &b x', '&a *b', '[*a, b]', '{k: *a}', '[*a]', '[k: v, *b]', '[k: *a]', '&a # c', '*a:', 'x\t', '"q"\t ', '[a, # c', '[cron: "x"]', '[a: b: c]'),
      // Unicode spaces are not YAML white space: they belong to the scalar.
      fc.constantFrom('a\u00a0', '\u00a0a', 'a\u3000 ', '[a\u00a0]', '"a\u00a0 b\u00a0', 'a\u2003b', 'null\u00a0'),
      fc.string({ maxLength: 6 }),
    );
    const key = fc.constantFrom('a', 'b', 'on', 'run', '"q"', "'s'", '1', 'x y', '-k', 'a:b', 'a ', 'b  ', '"q" ', ':k', '1 ', 'a\u00a0', 'b\u3000 ', 'Null', 'TRUE', '~');
    const indent = fc.constantFrom('', ' ', '  ', '   ', '    ');
    const line = fc.oneof(
      fc.tuple(indent, key, scalar).map(([i, k, v]) => `${i}${k}: ${v}`),
      fc.tuple(indent, key).map(([i, k]) => `${i}${k}:`),
      fc.tuple(indent, scalar).map(([i, v]) => `${i}- ${v}`),
      fc.tuple(indent, key, scalar).map(([i, k, v]) => `${i}- ${k}: ${v}`),
      fc.tuple(indent, scalar).map(([i, v]) => `${i}${v}`),
      fc.constantFrom('', '# c', '  # c', '---', '...', '... # c', '...x', 'run: |', 'run: >-', 'run: >', '  |', '  >', '      text', '   more text', '  - [a, "b", {c: d}]', '<<: *a', '  <<: *b', '- *a', '- &a', '  - &b x'),
      // Continuation lines of multi-line plain scalars, and more-indented lines of folded ones.
      fc.tuple(indent, fc.constantFrom('and more', 'more\u00a0', '- dash', 'x: y', 'x:', '#c', 'a #c', '[x]', '?', ' ', '\tt', 'p: ', '"q"', '[a,', 'b]', '{k: v,', 'l: w}', '[', ']', '{', '}', 'c,', '"d",', '- [e,', '- {f: g,', 'h]: i', 'close"', "close'", 'x" y', "'' z'", '"', "'", 'a # b"', 'c\\'), fc.constantFrom('', ' ', '  ')).map(
        ([i, t, extra]) => `${i}${extra}${t}`,
      ),
    );
    // The whole document with LF or CRLF line breaks, with or without a byte order mark.
    const breaks = fc.constantFrom('\n', '\r\n');
    const bom = fc.constantFrom('', '\ufeff');
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), breaks, bom, (lines, lineBreak, mark) => agrees(mark + lines.join(lineBreak))),
      { numRuns: 4000 },
    );
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

  const noCorpus = files.length === 0 ? 'needs the shared corpus (../shared/corpus/real) beside the project' : null;
  it.skipIf(noCorpus !== null)(`agrees on every corpus file it accepts, and accepts most of them${skipReason(noCorpus)}`, () => {
    let accepted = 0;
    for (const text of files) {
      if (parseYamlFast(text) !== undefined) accepted++;
      agrees(text);
    }
    // A coverage check, not a timing one: falling back is correct but slow.
    expect(accepted / files.length).toBeGreaterThan(0.9);
  }, 180_000);

  it.skipIf(noCorpus !== null)(`never accepts a mutated corpus file the yaml library rejects${skipReason(noCorpus)}`, () => {
    const mutation = fc.record({
      file: fc.nat({ max: Math.max(0, files.length - 1) }),
      at: fc.nat(),
      remove: fc.nat({ max: 3 }),
      insert: fc.constantFrom('', ' ', '  ', '\n', ':', '- ', '#', '"', "'", '[', ']', '{', '}', ',', '|', '>', '\t', '&a', '*a', '&a ', ' *a', '? ', '\n  ', '\n    x', ' #', ': ', '\r', '\r\n', '\ufeff', '\n...\n', '\n---\n', ' # c\n'),
    });
    fc.assert(
      fc.property(mutation, ({ file, at, remove, insert }) => {
        const text = files[file] ?? '';
        const pos = text.length === 0 ? 0 : at % text.length;
        return agrees(text.slice(0, pos) + insert + text.slice(pos + remove));
      }),
      { numRuns: 3000 },
    );
  }, 180_000);
});
