import { Lexer, Parser } from '@actions/expressions';
import { describe, expect, it } from 'vitest';
import { contextPath, parseExpression } from '../../../../lib/engine/expressions/parse.js';
import { resetScanCaches } from '../../../../lib/engine/model/scan-cache.js';

const CONTEXTS = ['github', 'env', 'vars', 'job', 'jobs', 'steps', 'runner', 'secrets', 'strategy', 'matrix', 'needs', 'inputs'];

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
