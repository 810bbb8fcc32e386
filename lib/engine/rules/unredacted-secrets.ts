import { carriedSecrets, fileMayUseSecrets, secretEnv } from '../analysis/secrets.js';
import { variableUses } from '../analysis/shell-vars.js';
import { occurrencesIn } from '../analysis/file-scalars.js';
import { FunctionCall, functionName, IndexAccess, walkExpression, type Expr } from '../expressions/parse.js';
import { defineWorkflowRule, type WorkflowReport } from '../rule.js';
import type { Action, Workflow } from '../model/workflow.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { keyText, type YNode } from '../yaml/model.js';

/** `fromJSON(<secret>)` calls of an expression whose result is used as a value (a field of it, or itself). */
function decodedSecrets(expr: Expr): { name: string; field: boolean }[] {
  const found: { name: string; field: boolean }[] = [];
  const fields = new Set<Expr>();
  walkExpression(expr, (node) => {
    if (node instanceof IndexAccess) {
      let base: Expr = node.expr;
      while (base instanceof IndexAccess) base = base.expr;
      if (base instanceof FunctionCall) fields.add(base);
    }
  });
  // Secrets that only feed a test (`fromJSON(secrets.X).enabled == true`) are not printed anywhere.
  const carried = new Set(carriedSecrets(expr));
  walkExpression(expr, (node) => {
    if (!(node instanceof FunctionCall) || functionName(node) !== 'fromjson') return;
    for (const name of node.args.flatMap((a) => carriedSecrets(a))) {
      if (carried.has(name)) found.push({ name, field: fields.has(node) });
    }
  });
  return found;
}

const FROM_JSON = /fromjson/i;

/** `.Substring(` / `.slice(` ... on `$env:X` or `process.env.X`. */
const METHOD_PART = /^\.(?:substring|substr|slice|split|remove|replace)\s*\(/i;

export default defineWorkflowRule({
  meta: {
    id: 'unredacted-secrets',
    category: 'CICD-SEC-6',
    title: 'Secret field accessed in a way that defeats log masking',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A secret is decoded with `fromJSON(secrets.X)` (usually to read one field) or cut into pieces in a script (`${VAR:0:8}`, `${VAR#prefix}`, `.Substring(...)`): GitHub masks only the exact stored value, so the field or piece appears in clear text wherever it is printed.',
    recommendation:
      'Store each value you need (a password, a key) as its own secret, or register the derived value with `echo "::add-mask::$VALUE"` before anything can print it.',
  },
  create: (context) => {
    const checkExpressions = (model: Workflow | Action, node: YNode, job: WorkflowReport['job']) => {
      // Only a secret can be decoded: a file whose expressions never name the context has nothing to report.
      if (!fileMayUseSecrets(model)) return;
      for (const occurrence of occurrencesIn(model, node)) {
        // Only a `fromJSON(...)` call decodes (function names are case-insensitive, and have no escapes).
        if (occurrence.expr === null || !FROM_JSON.test(occurrence.span.source)) continue;
        const decoded = decodedSecrets(occurrence.expr)[0];
        if (decoded === undefined) continue;
        context.report({
          node: occurrence.scalar,
          offset: occurrence.offset,
          job,
          message: decoded.field
            ? `\`\${{ ${occurrence.span.source} }}\` reads a field of \`secrets.${decoded.name}\`; GitHub masks only the whole secret, so the field's value is printed in clear text.`
            : `\`\${{ ${occurrence.span.source} }}\` decodes \`secrets.${decoded.name}\` as JSON; the decoded value differs from the stored secret, so GitHub does not mask it.`,
        });
      }
    };
    return {
      workflow(workflow) {
        for (const pair of workflow.root.pairs) {
          if (keyText(pair.key) !== 'jobs') checkExpressions(workflow, pair.value, null);
        }
      },
      job(job) {
        // Steps are checked in `step`, with their scripts.
        for (const pair of job.node.pairs) {
          if (keyText(pair.key) !== 'steps') checkExpressions(job.workflow, pair.value, job);
        }
      },
      action(action) {
        for (const pair of action.root.pairs) {
          if (keyText(pair.key) !== 'runs') checkExpressions(action, pair.value, null);
        }
      },
      step(step) {
        const file = step.owner.file;
        checkExpressions(step.owner, step.node, step.job);
        const script = step.run?.value;
        if (step.run === undefined || typeof script !== 'string') return;
        const env = secretEnv(step);
        // A use names its variable literally (`$X`, `${X:0:4}`, `$env:X`, `process.env.X`): a script that
        // holds none of the names has none, and is not read.
        if (env.size === 0 || ![...env.keys()].some((name) => script.includes(name))) return;
        for (const use of variableUses(script)) {
          const variable = env.get(use.name);
          if (variable === undefined) continue;
          const piece = use.kind === 'part' || METHOD_PART.test(script.slice(use.offset + use.length, use.offset + use.length + 20));
          if (!piece) continue;
          const written = script.slice(use.offset, use.offset + use.length);
          context.report({
            node: step.run,
            offset: valueOffsetToSource(file, step.run, use.offset),
            message: `\`${written}\` takes a piece of \`${use.name}\`, which holds \`secrets.${variable.secrets[0] ?? ''}\`; GitHub masks only the whole secret, so the piece is printed in clear text.`,
          });
        }
      },
    };
  },
});
