/**
 * poutine's expectations: its scanner test (`scanner/inventory_test.go`) scans `scanner/testdata` as one
 * repository and compares the findings with a literal list by `assert.ElementsMatch`, so the list is exact:
 * each (rule, file) it names must fire, and every other pair of a listed rule and a scanned file must not.
 * The test is Go; scripts/recall/go.ts evaluates it, and this file says what poutine's calls return.
 *
 * Only GitHub Actions files are compared (poutine also scans GitLab CI, Azure Pipelines and Tekton files).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { collectRepositoryFiles } from '../../lib/codehost/checkout.js';
import { classifyPath } from '../../lib/engine/paths.js';
import { type Case, type PeerReading, RecallInputError, unit, type Unmeasured } from './cases.js';
import { GoEvaluator, goParser, OPAQUE, type Value } from './go.js';

type HostValue = Value & { k: 'host' };
const host = (tag: string, data: unknown): HostValue => ({ k: 'host', tag, data });

interface Expected {
  rule: string;
  path: string;
  line: number | null;
}

export async function readPoutine(dir: string): Promise<PeerReading> {
  const scanner = join(dir, 'scanner');
  let names: string[];
  try {
    names = (await readdir(scanner)).filter((n) => n.endsWith('.go')).sort();
  } catch {
    throw new RecallInputError(`${dir} is not a checkout of poutine: scanner/ is missing; pass the repository's root directory`);
  }
  const parser = await goParser();
  const lists: { dir: string; expected: Expected[]; where: string }[] = [];
  const unread: PeerReading['unread'] = [];

  const evaluator = new GoEvaluator({
    call(name, args, site) {
      const [a0, a1, a2] = args;
      if ((name === 'ScanPackage' || name.endsWith('.ScanPackage')) && a2?.k === 'str') return { k: 'tuple', items: [host('package', a2.s), OPAQUE('error')] };
      if (name === 'assert.ElementsMatch') {
        const pick = (v: Value | undefined) => (v?.k === 'host' && v.tag === 'findings' ? (v.data as string) : null);
        const scanned = pick(a1) ?? pick(a2);
        const literal = a1?.k === 'list' ? a1 : a2?.k === 'list' ? a2 : null;
        if (scanned !== null && literal !== null) {
          const expected = literal.items.flatMap((item): Expected[] => {
            if (item.k !== 'struct') return [];
            const rule = item.keyed.get('RuleId');
            const meta = item.keyed.get('Meta');
            const path = meta?.k === 'struct' ? meta.keyed.get('Path') : undefined;
            const line = meta?.k === 'struct' ? meta.keyed.get('Line') : undefined;
            return rule?.k === 'str' && path?.k === 'str' ? [{ rule: rule.s, path: path.s, line: line?.k === 'num' ? line.n : null }] : [];
          });
          lists.push({ dir: scanned, expected, where: `scanner/${site.file}:${site.line}` });
        } else if (a0 !== undefined) unread.push({ where: `scanner/${site.file}:${site.line}`, text: `${site.test}: assert.ElementsMatch of values the harness could not read` });
        return OPAQUE(name);
      }
      return undefined;
    },
    field(value, name) {
      if (value.tag === 'package' && name === 'FindingsResults') return host('results', value.data);
      if (value.tag === 'results' && name === 'Findings') return host('findings', value.data);
      return undefined;
    },
    assertion() {},
  });
  const tests: string[] = [];
  for (const name of names) {
    const tree = parser.parse(await readFile(join(scanner, name), 'utf8'));
    if (tree === null) continue;
    evaluator.addFile(tree.rootNode, name);
    if (name.endsWith('_test.go')) for (const decl of tree.rootNode.namedChildren) if (decl?.type === 'function_declaration' && /^Test/.test(decl.childForFieldName('name')!.text)) tests.push(decl.childForFieldName('name')!.text);
  }
  for (const test of tests) evaluator.runFunction(test);
  if (lists.length === 0) throw new RecallInputError(`no test in ${scanner} compares a scan of its test data with a list of findings; is this a poutine checkout?`);

  const cases: Case[] = [];
  const unmeasured: Unmeasured[] = [];
  for (const list of lists) {
    const root = join(scanner, list.dir);
    const files = (await collectRepositoryFiles(root)).filter((f) => classifyPath(f.path) !== null);
    const scan = unit(files);
    const paths = new Set(files.map((f) => f.path));
    const rules = [...new Set(list.expected.map((e) => e.rule))].sort();
    for (const e of list.expected) {
      if (!paths.has(e.path)) {
        unmeasured.push({ check: e.rule, fixture: e.path, where: list.where, why: 'not a GitHub Actions file (GitLab CI, Azure Pipelines or Tekton)' });
      }
    }
    for (const rule of rules) {
      for (const path of [...paths].sort()) {
        const expected = list.expected.filter((e) => e.rule === rule && e.path === path);
        cases.push({
          check: rule,
          fixture: path,
          unit: scan,
          target: path,
          expect: expected.length > 0 ? 'fires' : 'clean',
          where: [`${list.where}${expected.length > 0 ? ` (lines ${expected.map((e) => e.line ?? '?').join(', ')})` : ''}`],
        });
      }
    }
  }
  return {
    peer: 'poutine',
    cases,
    unmeasured,
    unread,
    summary: `${lists.length} exact list(s) of findings (${lists.map((l) => `${l.expected.length} findings of a scan of scanner/${l.dir}, ${l.where}`).join('; ')})`,
  };
}
