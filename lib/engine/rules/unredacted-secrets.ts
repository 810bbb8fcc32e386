import { carriedSecrets, fileMayUseSecrets, secretEnv } from '../analysis/secrets.js';
import { variableUses } from '../analysis/shell-vars.js';
import { occurrencesIn } from '../analysis/file-scalars.js';
import { FunctionCall, functionName, IndexAccess, walkExpression, type Expr } from '../expressions/parse.js';
import { defineWorkflowRule, type WorkflowReport } from '../rule.js';
import type { Action, Workflow } from '../model/workflow.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { keyText, type YNode, type YScalar } from '../yaml/model.js';
import { enclosingDestinations, printedAt, type Destination, type Printed } from '../analysis/log-destination.js';
import { ScanCache } from '../model/scan-cache.js';
import { logicalLines } from '../shell.js';
import { flatMap } from '../model/arrays.js';

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
    for (const name of flatMap(node.args, (a) => carriedSecrets(a))) {
      if (carried.has(name)) found.push({ name, field: fields.has(node) });
    }
  });
  return found;
}

const FROM_JSON = /fromjson/i;

/** `.Substring(` / `.slice(` ... on `$env:X` or `process.env.X`. */
const METHOD_PART = /^\.(?:substring|substr|slice|split|remove|replace)\s*\(/i;

const DESTINATION_TEXT: Record<Destination, string> = {
  log: 'the job log',
  summary: 'the job summary',
  output: 'a step output',
  env: '`$GITHUB_ENV`',
};

/** Printed where people read it (the log, the summary); a step output or `$GITHUB_ENV` is not printing. */
function inLog(printed: Printed | null): Printed | null {
  return printed !== null && (printed.destination === 'log' || printed.destination === 'summary') ? printed : null;
}

/** A `run:` script read once: where the text at an offset of it is printed. */
interface ScriptView {
  printedAt(offset: number): Printed | null;
}

const views = new ScanCache<YScalar, ScriptView>();

function scriptView(run: YScalar, script: string): ScriptView {
  let view = views.get(run);
  if (view === undefined) {
    const lines = logicalLines(script);
    let enclosing: ReadonlyMap<string, Destination | null> | undefined;
    view = { printedAt: (offset) => printedAt(lines, (enclosing ??= enclosingDestinations(script, lines)), offset) };
    views.set(run, view);
  }
  return view;
}

export default defineWorkflowRule({
  meta: {
    id: 'unredacted-secrets',
    category: 'CICD-SEC-6',
    title: 'Secret field accessed in a way that defeats log masking',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A secret is decoded with `fromJSON(secrets.X)` (usually to read one field) or cut into pieces in a script (`${VAR:0:8}`, `${VAR#prefix}`, `.Substring(...)`): GitHub masks only the exact stored value, so the field or piece appears in clear text wherever it is printed. LOW where the script holding it does not print it (a command consumes it, or it goes to a file, a step output or `$GITHUB_ENV`, also through the group, subshell or loop around it).',
    recommendation:
      'Store each value you need (a password, a key) as its own secret, or register the derived value with `echo "::add-mask::$VALUE"` before anything can print it.',
  },
  create: (context) => {
    /** The `run:` scripts being checked, so an expression inside one is judged by the command around it. */
    const scripts = new Set<YScalar>();
    const scriptWhere = (scalar: YScalar): ScriptView | null => (scripts.has(scalar) && typeof scalar.value === 'string' ? scriptView(scalar, scalar.value) : null);
    const checkExpressions = (model: Workflow | Action, node: YNode, job: WorkflowReport['job']) => {
      // Only a secret can be decoded: a file whose expressions never name the context has nothing to report.
      if (!fileMayUseSecrets(model)) return;
      for (const occurrence of occurrencesIn(model, node)) {
        // Only a `fromJSON(...)` call decodes (function names are case-insensitive, and have no escapes).
        if (occurrence.expr === null || !FROM_JSON.test(occurrence.span.source)) continue;
        const decoded = decodedSecrets(occurrence.expr)[0];
        if (decoded === undefined) continue;
        // Inside a script, only a command that prints it to the log shows it; elsewhere (`env:`, `with:`) the
        // value goes to whatever reads it, which may print it.
        const script = scriptWhere(occurrence.scalar);
        const printed = script === null ? undefined : inLog(script.printedAt(occurrence.span.start));
        const what = decoded.field
          ? `\`\${{ ${occurrence.span.source} }}\` reads a field of \`secrets.${decoded.name}\`; GitHub masks only the whole secret, so the field's value`
          : `\`\${{ ${occurrence.span.source} }}\` decodes \`secrets.${decoded.name}\` as JSON; the decoded value differs from the stored secret, so it`;
        context.report({
          node: occurrence.scalar,
          offset: occurrence.offset,
          job,
          ...(printed === null ? { severity: 'LOW' as const } : {}),
          message:
            printed === undefined
              ? `${what} ${decoded.field ? 'is' : 'is not masked and is'} printed in clear text wherever a step prints it.`
              : printed === null
                ? `${what} would appear in clear text wherever it is printed; this script does not print it (it goes to a command, a file, a step output or \`$GITHUB_ENV\`), so it is LOW.`
                : `${what} ${decoded.field ? 'is' : 'is not masked and is'} printed in clear text: \`${printed.command}\` writes it to ${DESTINATION_TEXT[printed.destination]}.`,
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
        if (step.run !== undefined) scripts.add(step.run);
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
          const printed = inLog(scriptView(step.run, script).printedAt(use.offset));
          const what = `\`${written}\` takes a piece of \`${use.name}\`, which holds \`secrets.${variable.secrets[0] ?? ''}\`; GitHub masks only the whole secret, so the piece`;
          context.report({
            node: step.run,
            offset: valueOffsetToSource(file, step.run, use.offset),
            ...(printed === null ? { severity: 'LOW' as const } : {}),
            message:
              printed === null
                ? `${what} would appear in clear text wherever it is printed; this script does not print it (it goes to a command, a variable, a file, a step output or \`$GITHUB_ENV\`), so it is LOW.`
                : `${what} is printed in clear text: \`${printed.command}\` writes it to ${DESTINATION_TEXT[printed.destination]}.`,
          });
        }
      },
    };
  },
});
