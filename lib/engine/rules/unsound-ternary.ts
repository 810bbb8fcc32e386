import { constantTruthiness, isConstant } from '../analysis/constant-expressions.js';
import { expressionSites, type ExpressionSite } from '../analysis/expression-sites.js';
import { Grouping, Logical, walkExpression, type Expr } from '../expressions/parse.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';

function unwrap(expr: Expr): Expr {
  let current = expr;
  while (current instanceof Grouping) current = current.group;
  return current;
}

function isOperator(expr: Expr, operator: '&&' | '||'): expr is Logical {
  return expr instanceof Logical && expr.operator.lexeme === operator;
}

/**
 * The "true values" of `cond && value || fallback` pseudo-ternaries that are falsy, so the expression
 * yields the fallback exactly when `cond` holds.
 */
export function falsyTrueValues(expr: Expr): Expr[] {
  if (isConstant(expr)) return [];
  const values: Expr[] = [];
  walkExpression(expr, (node) => {
    if (!isOperator(node, '||') || isConstant(node)) return;
    for (const operand of node.args.slice(0, -1)) {
      const and = unwrap(operand);
      if (!isOperator(and, '&&')) continue;
      const value = and.args[and.args.length - 1];
      if (value !== undefined && constantTruthiness(value) === false) values.push(value);
    }
  });
  return values;
}

function check(context: WorkflowRuleContext, site: ExpressionSite) {
  // In a condition only truthiness counts, and `a && b || c` is then plain boolean logic.
  if (site.condition) return;
  // Without both operators in its text an expression has no `&& … ||` (string literals may hold them: then it is parsed).
  if (!site.source.includes('||') || !site.source.includes('&&')) return;
  const [value] = falsyTrueValues(site.expr);
  if (value === undefined) return;
  context.report({
    node: site.scalar,
    offset: site.offset,
    job: site.job,
    message: `\`${site.source.slice(0, 80)}\` uses \`&& … ||\` as a ternary, but its middle operand is always falsy, so the expression always yields the fallback after \`||\`.`,
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'unsound-ternary',
    category: 'BEST-PRAC-2',
    title: 'a && b || c used as a ternary where b can be falsy',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'An expression uses `cond && value || fallback` as a ternary where `value` is falsy (`\'\'`, `false`, `0`, `null`): GitHub expressions short-circuit on truthiness, so the result is `fallback` even when `cond` is true.',
    recommendation:
      'Invert the condition so the falsy value comes last (`!cond && fallback || \'\'`), or use `case(cond, value, fallback)` on runners that support it.',
  },
  create: (context) => ({
    workflow(workflow) {
      for (const site of expressionSites(workflow)) check(context, site);
    },
    action(action) {
      for (const site of expressionSites(action)) check(context, site);
    },
  }),
});
