/**
 * Reads what a Go test expects without running Go: the test files are parsed with tree-sitter's Go grammar
 * (`web-tree-sitter` and the `tree-sitter-go` package's WebAssembly build: a full Go parser, so every
 * construct of the language parses; writing one by hand would be longer and less complete) and their
 * statements are evaluated symbolically. Strings, numbers, composite literals, `+`, `[]byte(...)`, variables,
 * `for ... range` over literal tables, `t.Run` subtests and `if` statements are evaluated as Go would; calls
 * the peer defines (its scanners and test helpers) are handed to an adapter, which returns host values
 * (findings of a workflow, a count of them). An `if` whose body fails the test (`t.Error*`, `t.Fatal*`) is an
 * assertion: the negation of its condition, read through the host values, is what the test expects.
 *
 * Nothing is executed; a value the evaluator cannot know is `opaque`, and an assertion it cannot read is
 * counted and listed, never guessed.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Language, Parser, type Node } from 'web-tree-sitter';

export type Value =
  | { k: 'str'; s: string }
  | { k: 'num'; n: number }
  | { k: 'bool'; b: boolean }
  | { k: 'nil' }
  | { k: 'list'; items: Value[] }
  | { k: 'map'; entries: [Value, Value][] }
  | { k: 'struct'; type: string; keyed: Map<string, Value>; positional: Value[] }
  | { k: 'tuple'; items: Value[] }
  | { k: 'func'; node: Node; scope: Scope }
  /** A package-level name the evaluator does not define (a type, an enum constant of another package). */
  | { k: 'name'; name: string }
  | { k: 'pred'; p: Pred }
  | { k: 'host'; tag: string; data: unknown }
  | { k: 'opaque'; why: string };

/** A condition over host values, as an `if` states it. */
export type Pred =
  | { t: 'atom'; host: Value & { k: 'host' }; op: string; value: Value }
  | { t: 'not'; p: Pred }
  | { t: 'and'; a: Pred; b: Pred }
  | { t: 'or'; a: Pred; b: Pred }
  | { t: 'other'; text: string };

export const OPAQUE = (why: string): Value => ({ k: 'opaque', why });
export const str = (s: string): Value => ({ k: 'str', s });

export class Scope {
  private readonly vars = new Map<string, Value>();
  constructor(readonly parent: Scope | null) {}
  lookup(name: string): Value | undefined {
    return this.vars.get(name) ?? this.parent?.lookup(name);
  }
  define(name: string, value: Value): void {
    if (name !== '_') this.vars.set(name, value);
  }
  /** Sets the nearest enclosing variable of that name (defining it here when there is none). */
  assign(name: string, value: Value): void {
    if (name === '_') return;
    if (!this.setExisting(name, value)) this.vars.set(name, value);
  }
  private setExisting(name: string, value: Value): boolean {
    if (this.vars.has(name)) {
      this.vars.set(name, value);
      return true;
    }
    return this.parent?.setExisting(name, value) ?? false;
  }
}

/** Where an assertion or a value comes from: the file and 1-based line, and the subtest path. */
export interface Site {
  file: string;
  line: number;
  test: string;
}

/** What the adapter of one peer supplies: the meaning of the calls and values the peer defines. */
export interface Host {
  /**
   * A call the evaluator does not know (`name` is `f` or `pkg.f` or `x.method`; `receiver` is the value
   * before the dot for a method call). `undefined`: not the host's either, the result is opaque.
   */
  call(name: string, args: Value[], site: Site, receiver?: Value): Value | undefined;
  /** `x.field` on a host value. */
  field?(value: Value & { k: 'host' }, name: string): Value | undefined;
  /** `append(list, elem)` where `elem` or `list` is a host value; `guard` is the enclosing `if` condition. */
  append?(list: Value, elem: Value, guard: Pred | null): Value | undefined;
  /** The element a `for range` over a host value binds (evaluated once, symbolically). */
  element?(value: Value & { k: 'host' }): Value | undefined;
  /** An assertion: `expected` must hold, as the failing `if` at `site` says. */
  assertion(expected: Pred, site: Site): void;
  /** A failing `if` whose condition is about no host value (a description, a category, an error). */
  otherAssertion?(site: Site, text: string): void;
}

let language: Language | null = null;

/** A parser for Go source (the grammar is loaded once per process). */
export async function goParser(): Promise<Parser> {
  if (language === null) {
    await Parser.init();
    const require = createRequire(import.meta.url);
    language = await Language.load(await readFile(require.resolve('tree-sitter-go/tree-sitter-go.wasm')));
  }
  const parser = new Parser();
  parser.setLanguage(language);
  return parser;
}

/** The text of a Go string literal's value (interpreted escapes decoded; raw strings as they are, less `\r`). */
export function stringValue(node: Node): string {
  if (node.type === 'raw_string_literal') return node.text.slice(1, -1).replace(/\r/g, '');
  let out = '';
  for (const child of node.namedChildren) {
    if (child === null) continue;
    out += child.type === 'escape_sequence' ? unescape(child.text) : child.text;
  }
  return out;
}

function unescape(seq: string): string {
  const simple: Record<string, string> = { n: '\n', t: '\t', r: '\r', '"': '"', "'": "'", '\\': '\\', a: '\x07', b: '\b', f: '\f', v: '\v' };
  const c = seq[1] ?? '';
  if (c in simple) return simple[c]!;
  if (c === 'x' || c === 'u' || c === 'U') return String.fromCodePoint(Number.parseInt(seq.slice(2), 16));
  if (/[0-7]/.test(c)) return String.fromCharCode(Number.parseInt(seq.slice(1), 8));
  return seq;
}

const FAILING = /^(Error|Errorf|Fatal|Fatalf|Fail|FailNow)$/;

/** Whether a statement list fails the test when it runs (a `t.Error*` / `t.Fatal*` call, or a `panic`). */
export function fails(node: Node): boolean {
  if (node.type === 'call_expression') {
    const fn = node.childForFieldName('function');
    if (fn?.type === 'selector_expression' && FAILING.test(fn.childForFieldName('field')?.text ?? '')) return true;
    if (fn?.type === 'identifier' && fn.text === 'panic') return true;
  }
  if (node.type === 'func_literal') return false;
  return node.namedChildren.some((c) => c !== null && fails(c));
}

class Return {
  constructor(readonly value: Value) {}
}

/** Evaluates the declarations and test functions of a Go package's files. */
export class GoEvaluator {
  /** Package-level declarations by name, evaluated on first use. */
  private readonly decls = new Map<string, { node: Node; file: string }>();
  private readonly values = new Map<string, Value>();
  readonly functions = new Map<string, { node: Node; file: string }>();
  private readonly global = new Scope(null);
  private steps = 0;

  constructor(
    private readonly host: Host,
    /** Work bound per test function (statements and expressions evaluated). */
    private readonly budget = 200_000,
  ) {}

  /** Adds a parsed file's package-level constants, variables and functions. */
  addFile(root: Node, file: string): void {
    for (const decl of root.namedChildren) {
      if (decl === null) continue;
      if (decl.type === 'function_declaration') {
        const name = decl.childForFieldName('name')?.text;
        if (name !== undefined) this.functions.set(name, { node: decl, file });
      } else if (decl.type === 'const_declaration' || decl.type === 'var_declaration') {
        for (const spec of decl.namedChildren) {
          if (spec === null) continue;
          for (const name of spec.childrenForFieldName('name')) if (name !== null) this.decls.set(name.text, { node: spec, file });
        }
      }
    }
  }

  /** The value of a package-level constant or variable, or undefined. */
  packageValue(name: string): Value | undefined {
    const cached = this.values.get(name);
    if (cached !== undefined) return cached;
    const decl = this.decls.get(name);
    if (decl === undefined) return undefined;
    this.values.set(name, OPAQUE('recursive declaration'));
    const names = decl.node.childrenForFieldName('name').map((n) => n?.text);
    const valueList = decl.node.childForFieldName('value');
    const exprs = valueList === null ? [] : valueList.namedChildren.filter((n) => n !== null);
    const site: Site = { file: decl.file, line: decl.node.startPosition.row + 1, test: '' };
    const evaluated = exprs.length === names.length ? exprs.map((e) => this.expr(e, this.global, site, null)) : [];
    names.forEach((n, i) => n !== undefined && this.values.set(n, evaluated[i] ?? OPAQUE(`declaration of ${n} without a value`)));
    return this.values.get(name);
  }

  /** Runs one top-level function (a test) symbolically. */
  runFunction(name: string): void {
    const fn = this.functions.get(name);
    const body = fn?.node.childForFieldName('body');
    if (fn === undefined || body === null || body === undefined) return;
    this.steps = 0;
    try {
      this.block(body, new Scope(this.global), { file: fn.file, line: fn.node.startPosition.row + 1, test: name }, null);
    } catch (e) {
      if (!(e instanceof Return || e instanceof BudgetExceeded)) throw e;
    }
  }

  private tick(): void {
    if (++this.steps > this.budget) throw new BudgetExceeded();
  }

  private statements(block: Node): Node[] {
    const list = block.namedChildren.find((c) => c?.type === 'statement_list');
    return (list ?? block).namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
  }

  private block(block: Node, scope: Scope, site: Site, guard: Pred | null): void {
    for (const stmt of this.statements(block)) this.statement(stmt, scope, site, guard);
  }

  private at(node: Node, site: Site): Site {
    return { file: site.file, line: node.startPosition.row + 1, test: site.test };
  }

  private statement(node: Node, scope: Scope, site: Site, guard: Pred | null): void {
    this.tick();
    switch (node.type) {
      case 'short_var_declaration':
      case 'assignment_statement': {
        const left = node.childForFieldName('left')?.namedChildren.filter((c): c is Node => c !== null) ?? [];
        const right = node.childForFieldName('right')?.namedChildren.filter((c): c is Node => c !== null) ?? [];
        const op = node.childForFieldName('operator')?.text ?? (node.type === 'short_var_declaration' ? ':=' : '=');
        let values = right.map((r) => this.expr(r, scope, this.at(node, site), guard));
        if (values.length === 1 && left.length > 1) {
          const only = values[0]!;
          values = only.k === 'tuple' ? only.items : left.map(() => only);
        }
        left.forEach((l, i) => {
          let v = values[i] ?? OPAQUE('unmatched assignment');
          if (op === '+=' && l.type === 'identifier') v = binary('+', scope.lookup(l.text) ?? OPAQUE('unknown'), v);
          else if (op !== ':=' && op !== '=') v = OPAQUE(`${op} assignment`);
          if (l.type !== 'identifier') return;
          if (op === ':=') scope.define(l.text, v);
          else scope.assign(l.text, v);
        });
        return;
      }
      case 'var_declaration':
      case 'const_declaration':
        for (const spec of node.namedChildren) {
          if (spec === null) continue;
          const names = spec.childrenForFieldName('name').filter((n): n is Node => n !== null);
          const exprs = spec.childForFieldName('value')?.namedChildren.filter((c): c is Node => c !== null) ?? [];
          const values = exprs.map((e) => this.expr(e, scope, this.at(node, site), guard));
          names.forEach((n, i) => scope.define(n.text, values[i] ?? (exprs.length === 0 ? { k: 'list', items: [] } : OPAQUE('unmatched declaration'))));
        }
        return;
      case 'expression_statement':
        this.expr(node.namedChildren[0]!, scope, this.at(node, site), guard);
        return;
      case 'inc_statement':
      case 'dec_statement': {
        const target = node.namedChildren[0];
        if (target?.type === 'identifier') {
          const v = scope.lookup(target.text);
          scope.assign(target.text, v?.k === 'num' && guard === null ? { k: 'num', n: v.n + (node.type === 'inc_statement' ? 1 : -1) } : OPAQUE('counter'));
        }
        return;
      }
      case 'if_statement':
        this.ifStatement(node, new Scope(scope), site, guard);
        return;
      case 'for_statement':
        this.forStatement(node, scope, site, guard);
        return;
      case 'block':
        this.block(node, new Scope(scope), site, guard);
        return;
      case 'return_statement': {
        const list = node.namedChildren.find((c) => c?.type === 'expression_list');
        const values = list?.namedChildren.filter((c): c is Node => c !== null).map((e) => this.expr(e, scope, this.at(node, site), guard)) ?? [];
        // A return under a condition the evaluator cannot decide ends nothing: both outcomes are read.
        if (guard === null) throw new Return(values.length === 1 ? values[0]! : { k: 'tuple', items: values });
        return;
      }
      case 'defer_statement':
      case 'go_statement':
        return;
      case 'labeled_statement':
        for (const c of node.namedChildren) if (c !== null && c.type !== 'label_name') this.statement(c, scope, site, guard);
        return;
      default:
        // switch, select, break, continue, goto, type declarations: nothing a rule test expects is read there.
        return;
    }
  }

  private ifStatement(node: Node, scope: Scope, site: Site, guard: Pred | null): void {
    const init = node.childForFieldName('initializer');
    if (init !== null) this.statement(init, scope, site, guard);
    const condNode = node.childForFieldName('condition')!;
    const cond = this.expr(condNode, scope, this.at(node, site), guard);
    const consequence = node.childForFieldName('consequence');
    const alternative = node.childForFieldName('alternative');
    const runElse = (g: Pred | null) => {
      if (alternative === null) return;
      if (alternative.type === 'if_statement') this.ifStatement(alternative, new Scope(scope), site, g);
      else this.block(alternative, new Scope(scope), site, g);
    };
    if (cond.k === 'bool') {
      if (cond.b) {
        if (consequence !== null) this.block(consequence, new Scope(scope), site, guard);
      } else runElse(guard);
      return;
    }
    const pred: Pred = cond.k === 'pred' ? cond.p : { t: 'other', text: condNode.text };
    if (consequence !== null && fails(consequence)) {
      if (mentionsHost(pred)) this.host.assertion(negate(pred), this.at(node, site));
      else this.host.otherAssertion?.(this.at(node, site), condNode.text);
    }
    if (consequence !== null) this.block(consequence, new Scope(scope), site, and(guard, pred));
    runElse(and(guard, negate(pred)));
  }

  private forStatement(node: Node, scope: Scope, site: Site, guard: Pred | null): void {
    const body = node.childForFieldName('body');
    if (body === null) return;
    const range = node.namedChildren.find((c) => c?.type === 'range_clause');
    if (range === undefined || range === null) {
      // A counted or conditional loop: its body is read once, its variables unknown.
      const inner = new Scope(scope);
      const clause = node.namedChildren.find((c) => c?.type === 'for_clause');
      const init = clause?.childForFieldName('initializer');
      if (init !== null && init !== undefined) this.statement(init, inner, site, guard);
      for (const v of declaredNames(init)) inner.define(v, OPAQUE('loop variable'));
      this.block(body, inner, site, guard);
      return;
    }
    const left = range.childForFieldName('left')?.namedChildren.filter((c): c is Node => c !== null) ?? [];
    const over = this.expr(range.childForFieldName('right')!, scope, this.at(node, site), guard);
    const bind = (key: Value, value: Value) => {
      const inner = new Scope(scope);
      if (left[0] !== undefined) inner.define(left[0].text, key);
      if (left[1] !== undefined) inner.define(left[1].text, value);
      this.block(body, inner, site, guard);
    };
    if (over.k === 'list') over.items.forEach((item, i) => bind({ k: 'num', n: i }, item));
    else if (over.k === 'map') for (const [key, value] of over.entries) bind(key, value);
    else if (over.k === 'str') [...over.s].forEach((ch, i) => bind({ k: 'num', n: i }, { k: 'num', n: ch.codePointAt(0)! }));
    else if (over.k === 'host') bind(OPAQUE('index'), this.host.element?.(over) ?? OPAQUE('element'));
    else bind(OPAQUE('index'), OPAQUE('element'));
  }

  expr(node: Node, scope: Scope, site: Site, guard: Pred | null): Value {
    this.tick();
    switch (node.type) {
      case 'interpreted_string_literal':
      case 'raw_string_literal':
        return str(stringValue(node));
      case 'int_literal':
        return { k: 'num', n: Number(node.text.replace(/_/g, '')) };
      case 'float_literal':
        return { k: 'num', n: Number(node.text.replace(/_/g, '')) };
      case 'rune_literal':
        return { k: 'num', n: (unescapeRune(node.text).codePointAt(0) ?? 0) };
      case 'true':
        return { k: 'bool', b: true };
      case 'false':
        return { k: 'bool', b: false };
      case 'nil':
        return { k: 'nil' };
      case 'identifier':
        return scope.lookup(node.text) ?? this.packageValue(node.text) ?? { k: 'name', name: node.text };
      case 'parenthesized_expression':
        return this.expr(node.namedChildren[0]!, scope, site, guard);
      case 'type_conversion_expression':
        return this.expr(node.childForFieldName('operand')!, scope, site, guard);
      case 'unary_expression': {
        const op = node.childForFieldName('operator')?.text ?? '';
        const v = this.expr(node.childForFieldName('operand')!, scope, site, guard);
        if (op === '!') return v.k === 'bool' ? { k: 'bool', b: !v.b } : v.k === 'pred' ? { k: 'pred', p: negate(v.p) } : v.k === 'host' ? { k: 'pred', p: { t: 'not', p: truthy(v) } } : OPAQUE('!');
        if (op === '-' && v.k === 'num') return { k: 'num', n: -v.n };
        if (op === '&' || op === '*') return v;
        return OPAQUE(`unary ${op}`);
      }
      case 'binary_expression': {
        const op = node.childForFieldName('operator')?.text ?? '';
        const a = this.expr(node.childForFieldName('left')!, scope, site, guard);
        const b = this.expr(node.childForFieldName('right')!, scope, site, guard);
        return binary(op, a, b, node.text);
      }
      case 'composite_literal':
        return this.composite(node.childForFieldName('type'), node.childForFieldName('body')!, scope, site, guard);
      case 'func_literal':
        return { k: 'func', node, scope };
      case 'selector_expression': {
        const operand = this.expr(node.childForFieldName('operand')!, scope, site, guard);
        const field = node.childForFieldName('field')!.text;
        if (operand.k === 'struct') return operand.keyed.get(field) ?? OPAQUE(`field ${field}`);
        if (operand.k === 'host') return this.host.field?.(operand, field) ?? OPAQUE(`field ${field}`);
        if (operand.k === 'name') return { k: 'name', name: `${operand.name}.${field}` };
        return OPAQUE(`field ${field}`);
      }
      case 'index_expression': {
        const operand = this.expr(node.childForFieldName('operand')!, scope, site, guard);
        const index = this.expr(node.childForFieldName('index')!, scope, site, guard);
        if (operand.k === 'list' && index.k === 'num') return operand.items[index.n] ?? OPAQUE('index out of range');
        if (operand.k === 'map') return operand.entries.find(([key]) => same(key, index))?.[1] ?? OPAQUE('missing key');
        if (operand.k === 'host') return this.host.element?.(operand) ?? OPAQUE('element');
        return OPAQUE('index');
      }
      case 'call_expression':
        return this.call(node, scope, site, guard);
      default:
        return OPAQUE(node.type);
    }
  }

  private composite(typeNode: Node | null, body: Node, scope: Scope, site: Site, guard: Pred | null, fieldNames: string[] = []): Value {
    const type = typeNode?.type ?? 'elided';
    const typeText = typeNode?.text ?? '';
    // The element type of a slice or map literal, for elided elements: `{"a", 1}` in `[]struct{...}{...}`.
    const elementType = type === 'map_type' ? typeNode?.childForFieldName('value') : type === 'slice_type' || type.endsWith('array_type') ? typeNode?.childForFieldName('element') : null;
    const elementFields = elementType?.type === 'struct_type' ? structFields(elementType) : [];
    const elementValue = (el: Node): Value => {
      const inner = el.namedChildren[0];
      if (inner === null || inner === undefined) return OPAQUE('empty element');
      // An elided element type: `{...}` inside `[]T{...}` is a T.
      if (inner.type === 'literal_value') return this.composite(null, inner, scope, site, guard, elementFields);
      return this.expr(inner, scope, site, guard);
    };
    const elements = body.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment');
    const isMap = type === 'map_type';
    if (isMap) {
      return {
        k: 'map',
        entries: elements
          .filter((e) => e.type === 'keyed_element')
          .map((e) => [elementValue(e.childForFieldName('key')!), elementValue(e.childForFieldName('value')!)] as [Value, Value]),
      };
    }
    if (type === 'slice_type' || type === 'array_type' || type === 'implicit_length_array_type') {
      return { k: 'list', items: elements.map((e) => (e.type === 'keyed_element' ? elementValue(e.childForFieldName('value')!) : elementValue(e))) };
    }
    // A struct (named, anonymous or elided): keyed fields or positional values. An elided element with
    // unkeyed values in a slice of slices reads the same way.
    const keyed = new Map<string, Value>();
    const positional: Value[] = [];
    const ownFields = typeNode?.type === 'struct_type' ? structFields(typeNode) : fieldNames;
    for (const e of elements) {
      if (e.type === 'keyed_element') keyed.set(e.childForFieldName('key')!.text, elementValue(e.childForFieldName('value')!));
      else {
        const v = elementValue(e);
        const name = ownFields[positional.length];
        if (name !== undefined) keyed.set(name, v);
        positional.push(v);
      }
    }
    return { k: 'struct', type: typeText, keyed, positional };
  }

  private call(node: Node, scope: Scope, site: Site, guard: Pred | null): Value {
    const fn = node.childForFieldName('function')!;
    const argNodes = node.childForFieldName('arguments')?.namedChildren.filter((c): c is Node => c !== null && c.type !== 'comment') ?? [];
    const args = () => argNodes.map((a) => (isType(a) ? { k: 'name' as const, name: a.text } : this.expr(a, scope, site, guard)));
    const here = this.at(node, site);
    if (fn.type === 'identifier') {
      switch (fn.text) {
        case 'len': {
          const [v] = args();
          if (v?.k === 'str') return { k: 'num', n: v.s.length };
          if (v?.k === 'list') return { k: 'num', n: v.items.length };
          if (v?.k === 'map') return { k: 'num', n: v.entries.length };
          return this.host.call('len', v === undefined ? [] : [v], here) ?? OPAQUE('len');
        }
        case 'append': {
          const [list, ...elems] = args();
          let out: Value = list ?? { k: 'list', items: [] };
          for (const elem of elems) {
            if (out.k === 'list' && elem.k !== 'host' && guard === null) out = { k: 'list', items: [...out.items, elem] };
            else out = this.host.append?.(out, elem, guard) ?? OPAQUE('append');
          }
          return out;
        }
        case 'string':
          return args()[0] ?? OPAQUE('string()');
        default:
          break;
      }
    }
    if (fn.type === 'selector_expression') {
      const operand = fn.childForFieldName('operand')!;
      const field = fn.childForFieldName('field')!.text;
      // t.Run(name, func(t *testing.T) {...}): the subtest's body runs under its name.
      if (field === 'Run' && argNodes.length === 2 && argNodes[1]!.type === 'func_literal') {
        const name = this.expr(argNodes[0]!, scope, here, guard);
        const body = argNodes[1]!.childForFieldName('body');
        if (body !== null) {
          const inner: Site = { ...site, test: `${site.test}/${name.k === 'str' ? name.s.replace(/ /g, '_') : '?'}` };
          try {
            this.block(body, new Scope(scope), inner, guard);
          } catch (e) {
            if (!(e instanceof Return)) throw e;
          }
        }
        return OPAQUE('t.Run');
      }
      if (operand.type === 'identifier' && (operand.text === 't' || operand.text === 'b')) return OPAQUE(`t.${field}`);
      const receiver = this.expr(operand, scope, here, guard);
      const qualified = receiver.k === 'name' ? `${receiver.name}.${field}` : field;
      if (qualified === 'strings.TrimPrefix' || qualified === 'strings.TrimSpace' || qualified === 'strings.Repeat' || qualified === 'strings.ReplaceAll') {
        return stringsCall(qualified, args());
      }
      return this.host.call(qualified, args(), here, receiver.k === 'name' ? undefined : receiver) ?? OPAQUE(`call ${qualified}`);
    }
    if (fn.type === 'identifier') {
      const local = scope.lookup(fn.text);
      if (local?.k === 'func') return this.callFunc(local, args(), here);
      return this.host.call(fn.text, args(), here) ?? OPAQUE(`call ${fn.text}`);
    }
    return OPAQUE('call');
  }

  private callFunc(fn: Value & { k: 'func' }, args: Value[], site: Site): Value {
    const inner = new Scope(fn.scope);
    const params = fn.node.childForFieldName('parameters')?.namedChildren ?? [];
    let i = 0;
    for (const p of params) for (const n of p?.childrenForFieldName('name') ?? []) if (n !== null) inner.define(n.text, args[i++] ?? OPAQUE('missing argument'));
    const body = fn.node.childForFieldName('body');
    try {
      if (body !== null) this.block(body, inner, site, null);
    } catch (e) {
      if (e instanceof Return) return e.value;
      throw e;
    }
    return OPAQUE('no return');
  }
}

class BudgetExceeded extends Error {}

/** The field names of a struct type, in order (`a, b string` gives two). */
function structFields(node: Node): string[] {
  const list = node.namedChildren.find((c) => c?.type === 'field_declaration_list');
  return (list?.namedChildren ?? []).flatMap((f) => (f?.type === 'field_declaration' ? f.childrenForFieldName('name').flatMap((n) => (n === null ? [] : [n.text])) : []));
}

function declaredNames(node: Node | null | undefined): string[] {
  if (node === null || node === undefined || node.type !== 'short_var_declaration') return [];
  return (node.childForFieldName('left')?.namedChildren ?? []).filter((c): c is Node => c !== null).map((c) => c.text);
}

function isType(node: Node): boolean {
  return /_type$/.test(node.type) || node.type === 'type_identifier';
}

function unescapeRune(text: string): string {
  const inner = text.slice(1, -1);
  return inner.startsWith('\\') ? unescape(inner) : inner;
}

function stringsCall(name: string, args: Value[]): Value {
  const [a, b, c] = args;
  if (a?.k !== 'str') return OPAQUE(name);
  if (name === 'strings.TrimSpace') return str(a.s.trim());
  if (name === 'strings.TrimPrefix' && b?.k === 'str') return str(a.s.startsWith(b.s) ? a.s.slice(b.s.length) : a.s);
  if (name === 'strings.Repeat' && b?.k === 'num') return str(a.s.repeat(Math.max(0, Math.min(b.n, 10_000))));
  if (name === 'strings.ReplaceAll' && b?.k === 'str' && c?.k === 'str') return str(a.s.split(b.s).join(c.s));
  return OPAQUE(name);
}

export function same(a: Value, b: Value): boolean {
  if (a.k === 'str' && b.k === 'str') return a.s === b.s;
  if (a.k === 'num' && b.k === 'num') return a.n === b.n;
  if (a.k === 'bool' && b.k === 'bool') return a.b === b.b;
  if (a.k === 'nil' && b.k === 'nil') return true;
  if (a.k === 'name' && b.k === 'name') return a.name === b.name;
  return false;
}

function truthy(v: Value & { k: 'host' }): Pred {
  return { t: 'atom', host: v, op: '==', value: { k: 'bool', b: true } };
}

function binary(op: string, a: Value, b: Value, text = ''): Value {
  if (op === '+' && a.k === 'str' && b.k === 'str') return str(a.s + b.s);
  if (a.k === 'num' && b.k === 'num') {
    switch (op) {
      case '+': return { k: 'num', n: a.n + b.n };
      case '-': return { k: 'num', n: a.n - b.n };
      case '*': return { k: 'num', n: a.n * b.n };
      case '==': return { k: 'bool', b: a.n === b.n };
      case '!=': return { k: 'bool', b: a.n !== b.n };
      case '<': return { k: 'bool', b: a.n < b.n };
      case '<=': return { k: 'bool', b: a.n <= b.n };
      case '>': return { k: 'bool', b: a.n > b.n };
      case '>=': return { k: 'bool', b: a.n >= b.n };
      default: return OPAQUE(op);
    }
  }
  if (op === '&&' || op === '||') {
    const pa = asPred(a, text);
    const pb = asPred(b, text);
    if (op === '&&') {
      if (a.k === 'bool') return a.b ? b : a;
      if (b.k === 'bool' && !b.b) return b;
      if (b.k === 'bool' && b.b) return a;
      return { k: 'pred', p: { t: 'and', a: pa, b: pb } };
    }
    if (a.k === 'bool') return a.b ? a : b;
    if (b.k === 'bool' && b.b) return b;
    if (b.k === 'bool' && !b.b) return a;
    return { k: 'pred', p: { t: 'or', a: pa, b: pb } };
  }
  if (['==', '!=', '<', '<=', '>', '>='].includes(op)) {
    if (a.k === 'host') return { k: 'pred', p: { t: 'atom', host: a, op, value: b } };
    if (b.k === 'host') return { k: 'pred', p: { t: 'atom', host: b, op: flip(op), value: a } };
    const known = (v: Value) => v.k === 'str' || v.k === 'bool' || v.k === 'nil';
    if ((op === '==' || op === '!=') && known(a) && known(b)) return { k: 'bool', b: same(a, b) === (op === '==') };
    if ((op === '==' || op === '!=') && a.k === 'name' && b.k === 'name') return { k: 'bool', b: same(a, b) === (op === '==') };
  }
  return { k: 'pred', p: { t: 'other', text } };
}

function asPred(v: Value, text: string): Pred {
  if (v.k === 'pred') return v.p;
  if (v.k === 'host') return truthy(v);
  return { t: 'other', text };
}

function flip(op: string): string {
  return ({ '<': '>', '<=': '>=', '>': '<', '>=': '<=' } as Record<string, string>)[op] ?? op;
}

export function negate(p: Pred): Pred {
  switch (p.t) {
    case 'not':
      return p.p;
    case 'and':
      return { t: 'or', a: negate(p.a), b: negate(p.b) };
    case 'or':
      return { t: 'and', a: negate(p.a), b: negate(p.b) };
    case 'atom': {
      const inverse: Record<string, string> = { '==': '!=', '!=': '==', '<': '>=', '>=': '<', '>': '<=', '<=': '>' };
      return { t: 'atom', host: p.host, op: inverse[p.op] ?? p.op, value: p.value };
    }
    default:
      return { t: 'not', p };
  }
}

function and(a: Pred | null, b: Pred): Pred {
  return a === null ? b : { t: 'and', a, b };
}

function mentionsHost(p: Pred): boolean {
  switch (p.t) {
    case 'atom':
      return true;
    case 'not':
      return mentionsHost(p.p);
    case 'and':
    case 'or':
      return mentionsHost(p.a) || mentionsHost(p.b);
    default:
      return false;
  }
}

/**
 * The atoms that must all hold for `p` to hold (the conjuncts of its top-level `and`s). A disjunction
 * yields nothing: either side may be what the test meant.
 */
export function requiredAtoms(p: Pred): (Pred & { t: 'atom' })[] {
  if (p.t === 'atom') return [p];
  if (p.t === 'and') return [...requiredAtoms(p.a), ...requiredAtoms(p.b)];
  if (p.t === 'not' && p.p.t === 'not') return requiredAtoms(p.p.p);
  return [];
}
