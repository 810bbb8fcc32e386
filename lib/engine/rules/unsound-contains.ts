import { expressionSites, type ExpressionSite } from '../analysis/expression-sites.js';
import { contextPath, FunctionCall, functionName, Literal, walkExpression, type Expr } from '../expressions/parse.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';

/** `contains('<string literal>', <non-literal>)`: the literal is searched for the value as a substring. */
function substringAllowList(expr: Expr): { list: string; value: Expr } | null {
  let found: { list: string; value: Expr } | null = null;
  walkExpression(expr, (node) => {
    if (found !== null || !(node instanceof FunctionCall) || functionName(node) !== 'contains') return;
    const [haystack, needle] = node.args;
    if (!(haystack instanceof Literal) || typeof haystack.token.value !== 'string') return;
    if (needle === undefined || needle instanceof Literal) return;
    found = { list: haystack.token.value, value: needle };
  });
  return found;
}

/** Function names are case-insensitive and have no escapes: an expression calls `contains` only if its text says so. */
const CONTAINS = /contains/i;

function check(context: WorkflowRuleContext, site: ExpressionSite) {
  if (!CONTAINS.test(site.source)) return;
  const hit = substringAllowList(site.expr);
  if (hit === null) return;
  context.report({
    node: site.scalar,
    offset: site.offset,
    job: site.job,
    message: `\`contains('${hit.list.slice(0, 60)}', ${contextPath(hit.value)?.join('.') ?? '…'})\` matches any substring of the string literal, not just its entries: a shorter or partial value passes the check.`,
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'unsound-contains',
    category: 'CICD-SEC-1',
    title: 'Substring check used as an allow-list',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      '`contains(\'<string>\', <context>)` with a string literal as the first argument tests whether the value is a substring of that string, so a shorter or crafted value passes: `contains(\'refs/heads/main refs/heads/dev\', github.ref)` accepts `refs/heads/m` or `main refs`.',
    recommendation:
      'Compare exactly (`github.ref == \'refs/heads/main\' || github.ref == \'refs/heads/dev\'`) or search a real list: `contains(fromJSON(\'["refs/heads/main", "refs/heads/dev"]\'), github.ref)`.',
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
