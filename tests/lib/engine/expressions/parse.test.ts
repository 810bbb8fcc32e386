import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual } from 'node:util';
import { Lexer, Parser } from '@actions/expressions';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CONTEXTS, contextPath, FUNCTIONS, githubTokens, lexTokens, parseExpression } from '../../../../lib/engine/expressions/parse.js';
import { resetScanCaches } from '../../../../lib/engine/model/scan-cache.js';
import { skipReason } from '../../../support/skips.js';

/** GitHub's parser alone, as parseExpression called it before plain paths were read directly. */
function reference(source: string) {
  try {
    return new Parser(new Lexer(source).lex().tokens, CONTEXTS, []).parse();
  } catch {
    return null;
  }
}

describe('parseExpression', () => {
  it('builds the tree of a plain context path exactly as GitHub’s parser does', () => {
    const paths = [
      'github',
      'GITHUB.Event.Pull_Request',
      'secrets.NPM_TOKEN',
      'steps.build-1.outputs.dir_name',
      'needs.*.result',
      'github.event.*.labels.*',
      'env.true.null.NaN',
      `github.${'a.'.repeat(40)}b`,
    ];
    for (const source of paths) {
      resetScanCaches();
      const expr = parseExpression(source);
      expect(expr).not.toBeNull();
      expect(expr).toStrictEqual(reference(source));
    }
    expect(contextPath(parseExpression('needs.*.Result')!)).toEqual(['needs', '*', 'result']);
  });

  it('builds a path compared with a string exactly as GitHub’s parser does', () => {
    const comparisons = [
      "github.event_name == 'push'",
      "matrix.os!='ubuntu-latest'",
      "needs.*.result == ''",
      "inputs.name \t==  'it''s ''quoted'''  ",
      "steps.a-b.outputs.c_d != 'x y'",
    ];
    for (const source of comparisons) {
      resetScanCaches();
      const expr = parseExpression(source);
      expect(expr).not.toBeNull();
      expect(expr).toStrictEqual(reference(source));
    }
  });

  it('leaves everything else to GitHub’s parser, errors included', () => {
    const others = [
      'true', 'null', 'NaN', 'foo.bar', '*', '_x.y', 'github.', 'github..x', 'github.*x', 'github.x*', 'github.-x', 'github.0',
      'github .x', "github['x']", 'github.x == 1', `github.${'a.'.repeat(60)}b`, 'steps.a$b.x',
      "github.x === 'a'", "github.x = 'a'", "github.x ! = 'a'", "github.x == 'a", "github.x == 'a'b", "github.x == 'a' && b",
      "github.x == 'a\nb'", "true == 'a'", "foo.x == 'a'", "github.x\r== 'a'", "github.x == 'a' ",
    ];
    for (const source of others) {
      resetScanCaches();
      expect(parseExpression(source)).toStrictEqual(reference(source));
    }
    expect(parseExpression('foo.bar')).toBeNull();
    expect(parseExpression(`github.${'a.'.repeat(60)}b`)).toBeNull();
  });
});

/** GitHub's parser with the functions parseExpression declares, as parseExpression called it before it lexed itself (blank text: undefined). */
function referenceWithFunctions(source: string) {
  try {
    return new Parser(new Lexer(source).lex().tokens, CONTEXTS, FUNCTIONS).parse();
  } catch {
    return null;
  }
}

/** Both lexers agree (tokens with their ranges and values, or both throw) and parseExpression builds the reference tree. */
function agrees(source: string): boolean {
  const ours = lexTokens(source);
  const theirs = githubTokens(source);
  if (!isDeepStrictEqual(ours, theirs)) return false;
  resetScanCaches();
  return isDeepStrictEqual(parseExpression(source), source === '' ? null : referenceWithFunctions(source));
}

describe('lexTokens', () => {
  it('lexes as GitHub’s lexer does, including its errors, lines and columns', () => {
    const samples = [
      '', ' ', 'a', 'github.event_name', "format('{0}', github.x)", "a == 'it''s'", "'x''y''z'", "'a\nb' == c",
      'x\n  && y', '1.5', '.5', '-1', '+2', '1e3', '0x1F', '1..2', '1a', 'NaN', 'Infinity', 'x.NaN', 'x.true', 'true.x',
      'a = b', 'a & b', 'a | b', 'a&&b||!c', 'a >= 1 && b <= 2 || c < 3 && d > 4', 'a[0]', "a['b'].c", 'a.*.b', '*', 'a\tb',
      'a\rb', 'a\u00a0b', 'a\u2028b', 'a\vb', '\u00a0', 'a\u00e9', 'é', "'unterminated", "''", "'''", "a'b", 'a-b_c9',
      '_', '-', '.', '..', 'a.', 'a..b', '(a)', ')', 'f(', 'hashFiles()', 'always(1)', 'unknown(x)', 'foo', 'a$b', '${{ a }}',
      'a\n\nb', "'x\ny' && 'p\nq'", ' a ', 'a\r\nb', '\u0000', 'a\u0000b', "'\u0000'",
    ];
    for (const source of samples) expect(agrees(source), JSON.stringify(source)).toBe(true);
  });

  it('lexes generated expressions as GitHub’s lexer does', () => {
    const piece = fc.constantFrom(
      'github', 'event', 'x', 'a-b', '_c', 'NaN', 'true', 'null', 'Infinity', '1', '2.5', '-3', '+4', '.', '..', '*', '(', ')', '[', ']',
      ',', '!', '!=', '==', '=', '<', '<=', '>', '>=', '&&', '&', '||', '|', ' ', '  ', '\t', '\n', '\r', "'", "''", "'s'", "'a\nb'",
      'contains', 'always', 'hashFiles', 'é', '\u00a0', '\u2029', '$', '#', '0x10', '1e2',
    );
    fc.assert(fc.property(fc.array(piece, { maxLength: 14 }), (pieces) => agrees(pieces.join(''))), { numRuns: 20_000 });
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (source) => agrees(source)), { numRuns: 5_000 });
  });

  const corpus = fileURLToPath(new URL('../../../../../shared/corpus/real/', import.meta.url));
  const manifest = `${corpus}MANIFEST.tsv`;
  const sources = new Set<string>();
  if (existsSync(manifest)) {
    for (const row of readFileSync(manifest, 'utf8').split('\n').slice(1)) {
      const [repo = '', path = ''] = row.split('\t');
      if (repo === '') continue;
      const text = readFileSync(`${corpus}${repo.replace('/', '__')}/${path}`, 'utf8');
      for (const m of text.matchAll(/\$\{\{([\s\S]*?)\}\}/g)) sources.add((m[1] ?? '').trim());
      for (const m of text.matchAll(/^\s*(?:- )?if:\s*(.+)$/gm)) sources.add((m[1] ?? '').trim());
    }
  }
  const noCorpus = sources.size === 0 ? 'needs the shared corpus (../shared/corpus/real) beside the project' : null;
  it.skipIf(noCorpus !== null)(`lexes and parses every expression of the corpus as GitHub’s parser does${skipReason(noCorpus)}`, () => {
    const disagree = [...sources].filter((source) => !agrees(source));
    expect(disagree).toEqual([]);
    expect(sources.size).toBeGreaterThan(1000);
  }, 120_000);
});
