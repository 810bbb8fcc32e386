import { describe, expect, it } from 'vitest';
import { carriedSecrets, secretEnv, secretUses, valueSecrets } from '../../../../lib/engine/analysis/secrets.js';
import { buildWorkflow } from '../../../../lib/engine/model/workflow.js';
import { parseYaml } from '../../../../lib/engine/yaml/parse.js';
import { SourceFile } from '../../../../lib/engine/yaml/source.js';
import { inRanges, singleQuotedRanges, substitutionRanges, variableUses } from '../../../../lib/engine/analysis/shell-vars.js';
import { parseExpression } from '../../../../lib/engine/expressions/parse.js';
import { expectLive } from '../../../support/liveness.js';

const uses = (source: string) =>
  secretUses(parseExpression(source) ?? (() => { throw new Error(source); })()).map((u) =>
    u.kind === 'named' ? `${u.name}${u.tested ? '?' : ''}` : u.kind,
  );

describe('secretUses', () => {
  it('names literal accesses and tells values from tests', () => {
    expect(uses('secrets.A')).toEqual(['A']);
    expect(uses("secrets['B-C']")).toEqual(['B-C']);
    expect(uses("secrets.A || secrets.B")).toEqual(['A', 'B']);
    expect(uses("secrets.A && secrets.B")).toEqual(['A?', 'B']);
    expect(uses("secrets.A != ''")).toEqual(['A?']);
    expect(uses("!secrets.A")).toEqual(['A?']);
    expect(uses("contains(secrets.A, 'x')")).toEqual(['A?']);
    expect(uses("format('{0}', secrets.A)")).toEqual(['A']);
    expect(uses("fromJSON(secrets.A).field")).toEqual(['A']);
  });

  it('tells whole-context and computed accesses apart', () => {
    expect(uses('toJSON(secrets)')).toEqual(['whole']);
    expect(uses('secrets[matrix.name]')).toEqual(['dynamic']);
    expect(uses('secrets.*')).toEqual(['dynamic']);
  });

  it('lists carried secrets only', () => {
    expect(carriedSecrets(parseExpression("secrets.A != '' && secrets.B"))).toEqual(['B']);
    expect(carriedSecrets(null)).toEqual([]);
  });
});

describe('variableUses', () => {
  const kinds = (text: string) => variableUses(text).map((u) => `${u.name}:${u.kind}@${u.offset}`);

  it('finds shell, PowerShell, cmd and Node reads with their kind', () => {
    expect(kinds('echo "$A ${B} ${C:-d} ${D:0:4} ${E#x} ${#F} ${G:+set}"')).toEqual([
      'A:value@6',
      'B:value@9',
      'C:value@14',
      'D:part@22',
      'E:part@31',
    ]);
    expect(kinds('Write-Host $env:TOKEN; echo %KEY%; console.log(process.env.X)')).toEqual(['TOKEN:value@11', 'KEY:value@28', 'X:value@47']);
  });

  it('skips single-quoted text, where the shell does not expand', () => {
    expect(kinds(`echo '$A' "$B" 'it''s $C'`)).toEqual(['B:value@11']);
  });

  it('finds quoted and substituted ranges', () => {
    expect(singleQuotedRanges(`a 'b' "c'd" 'e`)).toEqual([[2, 5], [12, 14]]);
    const ranges = substitutionRanges('x=$(a $(b) c) `d` $((1+2))');
    expect(ranges).toEqual([[2, 13], [14, 17], [18, 26]]);
    expect(inRanges(5, ranges)).toBe(true);
    expect(inRanges(13, ranges)).toBe(false);
  });

  it('stays fast on hostile input', () => {
    const text = `\${A${':'.repeat(150_000)}` + "'".repeat(150_001) + '$B '.repeat(150_000);
    expectLive('hostile shell variables', () => {
      variableUses(text);
      substitutionRanges(text);
    });
  });
});

describe('secretEnv', () => {
  function steps(text: string) {
    const parsed = parseYaml(text);
    if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
    return buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root).jobs.flatMap((j) => j.steps);
  }
  const WORKFLOW = `on: push
env:
  TOKEN: \${{ secrets.ORG_TOKEN }}
  PLAIN: hello
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      NPM: \${{ secrets.NPM_TOKEN }}
    steps:
      - run: echo "$TOKEN"
        env:
          TOKEN: \${{ secrets.STEP_TOKEN }}
      - run: echo "$NPM"
`;

  it('maps each variable carrying a secret to its innermost definition', () => {
    const [first, second] = steps(WORKFLOW);
    const one = secretEnv(first!);
    expect([...one.keys()].sort()).toEqual(['NPM', 'TOKEN']);
    expect(one.get('TOKEN')).toMatchObject({ secrets: ['STEP_TOKEN'], level: 'step' });
    expect(one.get('NPM')).toMatchObject({ secrets: ['NPM_TOKEN'], level: 'job' });
    const two = secretEnv(second!);
    expect(two.get('TOKEN')).toMatchObject({ secrets: ['ORG_TOKEN'], level: 'workflow' });
    expect(two.has('PLAIN')).toBe(false);
  });

  it('answers the same step with the same map, and each step with its own', () => {
    const [first, second] = steps(WORKFLOW);
    expect(secretEnv(first!)).toBe(secretEnv(first!));
    expect(secretEnv(second!)).not.toBe(secretEnv(first!));
  });
});

describe('valueSecrets', () => {
  const text = `on: push
env:
  TOKEN: \${{ secrets.ORG_TOKEN }}
  HAS_TOKEN: \${{ secrets.ORG_TOKEN != '' }}
jobs:
  build:
    runs-on: ubuntu-latest
    env:
      JOB_TOKEN: \${{ secrets['JOB_PAT'] }}
    steps:
      - uses: some/action@v1
        env:
          TOKEN: plain
          OWN: \${{ secrets.STEP_PAT }}
        with:
          a: \${{ env.own }}
          b: \${{ env['JOB_TOKEN'] }}
          c: \${{ env.TOKEN }}
          d: \${{ env.HAS_TOKEN }}
          e: \${{ env.OWN != '' && 'yes' }}
          f: \${{ secrets.DIRECT }}
      - uses: some/action@v1
        with:
          c: \${{ env.TOKEN }}
`;
  const parsed = parseYaml(text);
  if (!parsed.ok || parsed.root.kind !== 'map') throw new Error('not a mapping');
  const [first, second] = buildWorkflow(new SourceFile('.github/workflows/ci.yml', text), parsed.root).jobs.flatMap((j) => j.steps);
  const input = (step: typeof first, key: string) => (step?.with?.kind === 'map' ? step.with.pairs.find((p) => p.key.value === key)?.value : undefined);

  it('follows one environment variable to the secret it holds, the innermost env winning', () => {
    expect(valueSecrets(first!, input(first, 'a'))).toEqual(['STEP_PAT']);
    expect(valueSecrets(first!, input(first, 'b'))).toEqual(['JOB_PAT']);
    expect(valueSecrets(first!, input(first, 'f'))).toEqual(['DIRECT']);
    expect(valueSecrets(second!, input(second, 'c'))).toEqual(['ORG_TOKEN']);
  });

  it('names none for a variable the step overrides with text, one that only tests a secret, or a test of one', () => {
    expect(valueSecrets(first!, input(first, 'c'))).toEqual([]);
    expect(valueSecrets(first!, input(first, 'd'))).toEqual([]);
    expect(valueSecrets(first!, input(first, 'e'))).toEqual([]);
    expect(valueSecrets(first!, undefined)).toEqual([]);
  });
});
