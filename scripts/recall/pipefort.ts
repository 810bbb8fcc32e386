/**
 * Pipefort's expectations: the workflows its rule tests (`pkg/scanner/*_test.go`) embed, and what each
 * test asserts about them. The tests are Go: a workflow is a string literal (often a field of a table of
 * cases, sometimes concatenated with a loop variable) handed to a rule's `Check*` function, to `ScanBytes`
 * or to a test helper, and the assertion is an `if` that fails the test (`len(findings) != 1`,
 * `got != tc.want`, `!hasRule(got, RuleX)`). scripts/recall/go.ts evaluates the tests; this file says what
 * Pipefort's functions and helpers return.
 *
 * The rule a `Check*` function reports is read from its source: the `RuleID` constants its body names (or,
 * when it names none, those of the package functions it calls). Assertions on anything else (a
 * description, a category, a severity) are not rule expectations and are listed as unread.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Node } from 'web-tree-sitter';
import { type Case, type PeerReading, RecallInputError, unit, type Unmeasured } from './cases.js';
import { GoEvaluator, goParser, OPAQUE, type Pred, requiredAtoms, type Site, str, type Value } from './go.js';

/** Findings of one workflow as a test obtains them. */
interface Findings {
  yaml: string | null;
  /** The peer's rule ids the findings are limited to; null: every rule. */
  rules: string[] | null;
  /** How the fixture can be scanned: a GitHub workflow, or something this harness cannot reproduce. */
  origin: 'workflow' | 'gitlab' | 'online' | 'policy';
  /** A forbidden-uses policy, translated to our rule options. */
  policy?: { allow?: string[]; deny?: string[] };
}

type HostValue = Value & { k: 'host' };
const host = (tag: string, data: unknown): HostValue => ({ k: 'host', tag, data });
const findings = (f: Findings): HostValue => host('findings', f);

/** Test files that exercise something other than rules on workflows. */
const NOT_RULE_TESTS: Record<string, string> = {
  'inline_ignores_test.go': "Pipefort's own `# pipefort:ignore` comments (ours are `# chainbreaker: ignore[...]`)",
  'filters_test.go': "Pipefort's confidence and persona filters",
  'fingerprint_test.go': "Pipefort's finding fingerprints",
  'combos_test.go': "Pipefort's combinations, built from findings the test writes by hand",
  'combo_catalog_test.go': "Pipefort's combination catalog",
  'catalog_test.go': "Pipefort's rule catalog",
  'oidc_test.go': "Pipefort's OIDC inventory (no rule)",
  'secret_refs_test.go': "Pipefort's secret-reference inventory (no rule)",
  'reusable_workflow_refs_test.go': "Pipefort's reusable-workflow inventory (no rule)",
  'supplychain_github_test.go': "Pipefort's GitHub API client",
  'settings_test.go': 'repository settings given as Go structures, not workflows',
  'settings_gitlab_test.go': 'GitLab project settings',
  'repoconfig_test.go': "Pipefort's configuration file",
};

export async function readPipefort(dir: string): Promise<PeerReading> {
  const scanner = join(dir, 'pkg', 'scanner');
  let names: string[];
  try {
    names = (await readdir(scanner)).filter((n) => n.endsWith('.go')).sort();
  } catch {
    throw new RecallInputError(`${dir} is not a checkout of Pipefort: pkg/scanner/ is missing; pass the repository's root directory`);
  }
  if (!names.some((n) => n.endsWith('_test.go'))) throw new RecallInputError(`${scanner} holds no *_test.go files; pass the root of a Pipefort checkout`);
  const parser = await goParser();

  const cases: Case[] = [];
  const unmeasured: Unmeasured[] = [];
  const unread: PeerReading['unread'] = [];
  const ruleConstants = new Map<string, string>();
  const sources = new Map<string, Node>();
  let tests = 0;

  // Pass 1: every file of the package, for constants, the rule catalog and the Check* functions.
  for (const name of names) {
    const tree = parser.parse(await readFile(join(scanner, name), 'utf8'));
    if (tree === null) continue;
    sources.set(name, tree.rootNode);
    for (const decl of tree.rootNode.namedChildren) {
      if (decl?.type !== 'const_declaration') continue;
      for (const spec of decl.namedChildren) {
        if (spec?.childForFieldName('type')?.text !== 'RuleID') continue;
        const value = spec.childForFieldName('value')?.namedChildren[0];
        const id = spec.childForFieldName('name')?.text;
        if (id !== undefined && value !== null && value !== undefined && /string_literal/.test(value.type)) ruleConstants.set(id, value.text.slice(1, -1));
      }
    }
  }
  if (ruleConstants.size === 0) throw new RecallInputError(`${scanner} declares no RuleID constants; pass the root of a Pipefort checkout`);

  const functionNodes = new Map<string, Node>();
  for (const [name, root] of sources) {
    if (name.endsWith('_test.go')) continue;
    for (const decl of root.namedChildren) if (decl?.type === 'function_declaration') functionNodes.set(decl.childForFieldName('name')!.text, decl);
  }
  const rulesOfMemo = new Map<string, string[]>();
  /** The rule ids a package function reports: the RuleID constants it names, else those of its callees. */
  const rulesOf = (fn: string, depth = 0): string[] => {
    const memo = rulesOfMemo.get(fn);
    if (memo !== undefined) return memo;
    const node = functionNodes.get(fn);
    if (node === undefined || depth > 3) return [];
    rulesOfMemo.set(fn, []);
    const direct = new Set<string>();
    const callees = new Set<string>();
    const walk = (n: Node) => {
      if (n.type === 'identifier' && ruleConstants.has(n.text)) direct.add(ruleConstants.get(n.text)!);
      if (n.type === 'call_expression' && n.childForFieldName('function')?.type === 'identifier') callees.add(n.childForFieldName('function')!.text);
      for (const c of n.namedChildren) if (c !== null) walk(c);
    };
    walk(node);
    const out = direct.size > 0 ? [...direct] : [...new Set([...callees].flatMap((c) => rulesOf(c, depth + 1)))];
    rulesOfMemo.set(fn, out.sort());
    return rulesOfMemo.get(fn)!;
  };

  const count = (f: Findings) => host('count', f);
  const filtered = (v: Value, rule: Value): Value => {
    if (v.k !== 'host' || v.tag !== 'findings') return OPAQUE('filter of unknown findings');
    const f = v.data as Findings;
    const id = ruleId(rule);
    if (id === null) return OPAQUE('filter by an unknown rule');
    return findings({ ...f, rules: f.rules === null || f.rules.includes(id) ? [id] : [] });
  };
  const ruleId = (v: Value): string | null => (v.k === 'str' && [...ruleConstants.values()].includes(v.s) ? v.s : null);
  const yamlOf = (v: Value | undefined): string | null => {
    if (v?.k === 'str') return v.s;
    if (v?.k === 'host' && (v.tag === 'workflow' || v.tag === 'tempfile' || v.tag === 'refs')) return (v.data as { yaml: string | null }).yaml;
    return null;
  };
  const isGitLab = (name: Value | undefined) => name?.k === 'str' && /(^|\/)\.gitlab-ci(\.ya?ml$|\/)/.test(name.s);
  const policyOf = (v: Value | undefined): Findings['policy'] | null => {
    if (v?.k !== 'struct') return v?.k === 'nil' ? {} : null;
    const list = (x: Value | undefined) => (x?.k === 'list' ? x.items.flatMap((i) => (i.k === 'str' ? [i.s] : [])) : undefined);
    const allow = list(v.keyed.get('Allow'));
    const deny = list(v.keyed.get('Deny'));
    return { ...(allow === undefined ? {} : { allow }), ...(deny === undefined ? {} : { deny }) };
  };
  const emptyStruct = (v: Value | undefined) => v?.k === 'struct' && v.keyed.size === 0 && v.positional.length === 0;

  let currentFile = '';
  const seen = new Map<string, number>();
  const expectation = (f: Findings, rules: string[] | null, expect: Case['expect'], site: Site) => {
    const where = `pkg/scanner/${site.file}:${site.line}`;
    const ids = rules ?? f.rules;
    if (ids === null || ids.length === 0) {
      unread.push({ where, text: `${site.test}: an expectation about all of Pipefort's rules together (${expect})` });
      return;
    }
    for (const check of ids) {
      const key = `${check}\0${site.test}`;
      const n = (seen.get(key) ?? 0) + 1;
      seen.set(key, n);
      const fixture = n === 1 ? site.test : `${site.test}#${n}`;
      if (f.origin === 'gitlab') {
        unmeasured.push({ check, fixture, where, why: 'a GitLab CI file: Chainbreaker scans GitHub Actions only' });
        continue;
      }
      if (f.origin === 'online') {
        unmeasured.push({ check, fixture, where, why: "the test supplies the remote state (tags, advisories, archived flags) through a fake auditor; the harness runs offline" });
        continue;
      }
      if (f.yaml === null) {
        unread.push({ where, text: `${site.test}: the workflow of this assertion could not be evaluated` });
        continue;
      }
      const files = [{ path: '.github/workflows/test.yml', text: f.yaml }];
      const options = f.policy === undefined ? undefined : { 'forbidden-uses': f.policy };
      cases.push({ check, fixture, unit: unit(files, options), target: '.github/workflows/test.yml', expect, where: [where] });
    }
  };

  const evaluator = new GoEvaluator({
    call(name, args, site) {
      const [a0, a1, a2] = args;
      switch (name) {
        case 'parseTestWorkflow': {
          const wf = host('workflow', { yaml: yamlOf(a1) });
          return { k: 'tuple', items: [wf, wf] };
        }
        case 'createTempFile':
          return host('tempfile', { yaml: yamlOf(a1) });
        case 'ScanFile':
          return { k: 'tuple', items: [a0?.k === 'host' && a0.tag === 'tempfile' ? findings({ yaml: yamlOf(a0), rules: null, origin: 'workflow' }) : OPAQUE('ScanFile of a path'), OPAQUE('error')] };
        case 'ScanBytes':
          return { k: 'tuple', items: [findings({ yaml: yamlOf(a1), rules: null, origin: isGitLab(a0) ? 'gitlab' : 'workflow' }), OPAQUE('error')] };
        case 'mustScanBytes':
          return findings({ yaml: yamlOf(a2), rules: null, origin: isGitLab(a1) ? 'gitlab' : 'workflow' });
        case 'scanGL':
          return findings({ yaml: yamlOf(a1), rules: null, origin: 'gitlab' });
        case 'scanWF':
          return filtered(findings({ yaml: yamlOf(a1), rules: null, origin: 'workflow' }), a2 ?? OPAQUE('rule'));
        case 'ruleCount': {
          const f = filtered(findings({ yaml: yamlOf(a1), rules: null, origin: 'workflow' }), a2 ?? OPAQUE('rule'));
          return f.k === 'host' ? count(f.data as Findings) : f;
        }
        case 'countRule': {
          const f = filtered(a0 ?? OPAQUE('findings'), a1 ?? OPAQUE('rule'));
          return f.k === 'host' ? count(f.data as Findings) : f;
        }
        case 'hasRule': {
          const f = filtered(a0 ?? OPAQUE('findings'), a1 ?? OPAQUE('rule'));
          return f.k === 'host' ? { k: 'pred', p: { t: 'atom', host: count(f.data as Findings), op: '>', value: { k: 'num', n: 0 } } } : f;
        }
        case 'wantRule':
        case 'wantNoRule': {
          const f = filtered(a1 ?? OPAQUE('findings'), a2 ?? OPAQUE('rule'));
          if (f.k === 'host') expectation(f.data as Findings, null, name === 'wantRule' ? 'fires' : 'clean', site);
          return f.k === 'host' && name === 'wantRule' ? host('finding', f.data) : OPAQUE(name);
        }
        case 'refsFrom':
          return host('refs', { yaml: yamlOf(a1) });
        case 'CollectActionRefsFromBytes':
          return host('refs', { yaml: yamlOf(a1) });
        case 'auditYAML':
          return findings({ yaml: yamlOf(a1), rules: null, origin: emptyStruct(a2) ? 'workflow' : 'online' });
        case 'len':
          return a0?.k === 'host' && a0.tag === 'findings' ? count(a0.data as Findings) : undefined;
        case 'CheckForbiddenUses': {
          const policy = policyOf(a1);
          return findings({ yaml: yamlOf(a0), rules: rulesOf(name), origin: policy === null ? 'online' : 'policy', ...(policy === null ? {} : { policy }) });
        }
        default:
          if (/^Check[A-Z]/.test(name) && functionNodes.has(name)) {
            const rules = rulesOf(name);
            return findings({ yaml: yamlOf(a1), rules: rules.length === 0 ? null : rules, origin: 'workflow' });
          }
          return undefined;
      }
    },
    field(value, name) {
      if (value.tag === 'finding' && name === 'RuleID') return host('ruleOf', value.data);
      return undefined;
    },
    element(value) {
      return value.tag === 'findings' ? host('finding', value.data) : undefined;
    },
    append(list, elem, guard) {
      if (elem.k !== 'host' || elem.tag !== 'finding') return undefined;
      const f = elem.data as Findings;
      const rule = guard === null ? null : requiredAtoms(guard).find((a) => a.host.tag === 'ruleOf' && a.op === '==' && a.value.k === 'str');
      if (list.k === 'host' && list.tag === 'findings') return list;
      return rule === null || rule === undefined ? findings(f) : filtered(findings(f), rule.value);
    },
    assertion(expected: Pred, site) {
      for (const atom of requiredAtoms(expected)) {
        if (atom.host.tag !== 'count' || atom.value.k !== 'num') continue;
        const expect = countExpectation(atom.op, atom.value.n);
        if (expect !== null) expectation(atom.host.data as Findings, null, expect, site);
        else unread.push({ where: `pkg/scanner/${site.file}:${site.line}`, text: `${site.test}: a count of findings ${atom.op} ${atom.value.n}` });
        return;
      }
      unread.push({ where: `pkg/scanner/${site.file}:${site.line}`, text: `${site.test}: no count of findings in the assertion` });
    },
    otherAssertion(site, text) {
      unread.push({ where: `pkg/scanner/${site.file}:${site.line}`, text: `${site.test}: ${text.replace(/\s+/g, ' ').slice(0, 120)}` });
    },
  });
  for (const [name, root] of sources) evaluator.addFile(root, name);

  for (const [name, root] of sources) {
    if (!name.endsWith('_test.go') || name.startsWith('gitlab_') || NOT_RULE_TESTS[name] !== undefined) continue;
    currentFile = name;
    for (const decl of root.namedChildren) {
      const fn = decl?.type === 'function_declaration' ? decl.childForFieldName('name')?.text : undefined;
      if (fn === undefined || !/^Test[A-Z_]/.test(fn)) continue;
      tests++;
      evaluator.runFunction(fn);
    }
  }
  void currentFile;
  const skippedFiles = names.filter((n) => n.endsWith('_test.go') && (n.startsWith('gitlab_') || NOT_RULE_TESTS[n] !== undefined));
  return {
    peer: 'pipefort',
    cases,
    unmeasured,
    unread,
    summary: `${tests} test functions of ${names.filter((n) => n.endsWith('_test.go')).length - skippedFiles.length} rule-test files in pkg/scanner (not read: ${skippedFiles.length} files that test GitLab, settings, inventories, filters or combinations)`,
  };
}

/** What `count <op> n` (the condition the test needs) says of a rule: fires, stays quiet, or neither. */
export function countExpectation(op: string, n: number): Case['expect'] | null {
  if (op === '==') return n > 0 ? 'fires' : 'clean';
  if ((op === '>' && n >= 0) || (op === '>=' && n >= 1) || (op === '!=' && n === 0)) return 'fires';
  if ((op === '<' && n === 1) || (op === '<=' && n === 0)) return 'clean';
  return null;
}

export { str };
