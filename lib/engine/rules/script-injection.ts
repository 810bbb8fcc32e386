import { codeSinkInputs, inJavaScriptCode, type CodeLanguage } from '../analysis/code-sinks.js';
import { describeStep, describeTaint } from '../analysis/describe.js';
import { describeGate, gateOf, stepTrust, type TrustPaths } from '../analysis/trust-guards.js';
import { controllerCeiling, unprivilegedOnly } from '../expressions/controller.js';
import { expressionsOf } from '../expressions/extract.js';
import { stepScope, type TaintLevel } from '../expressions/taint.js';
import { defineWorkflowRule } from '../rule.js';
import { severityRank, type Severity } from '../types.js';
import type { YScalar } from '../yaml/model.js';

const SEVERITY: Record<TaintLevel, Severity> = { arbitrary: 'HIGH', structured: 'MEDIUM', input: 'LOW', unknown: 'LOW' };

/** The less severe of two severities. */
function milder(a: Severity, b: Severity): Severity {
  return severityRank(a) >= severityRank(b) ? a : b;
}

interface Sink {
  node: YScalar;
  /** `the \`run:\` script`, `the \`script\` input of actions/github-script (JavaScript)` */
  label: string;
  language: CodeLanguage;
}

export default defineWorkflowRule({
  meta: {
    id: 'script-injection',
    category: 'CICD-SEC-4',
    title: 'Attacker-controlled expression expanded into a script',
    severity: 'HIGH',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A `${{ }}` expression whose value an outsider can choose (an issue title, a branch name, a comment body, directly or through env, step and job outputs) is pasted into a `run:` script, an `actions/github-script` script or another action input that is executed as code, so crafted text runs as commands.',
    recommendation:
      'Pass the value through an environment variable (`env: TITLE: ${{ github.event.issue.title }}`) and use it quoted in the script (`"$TITLE"`, `process.env.TITLE`), never as `${{ }}` inside the code.',
  },
  create: (context) => ({
    step(step) {
      const sinks: Sink[] = [];
      if (step.run !== undefined && typeof step.run.value === 'string') {
        sinks.push({ node: step.run, label: 'the `run:` script', language: 'shell' });
      }
      for (const input of codeSinkInputs(step)) {
        const slug = step.uses === undefined ? '' : String(step.uses.value).replace(/@.*$/, '');
        sinks.push({ node: input.node, label: `the \`${input.name}\` input of ${slug}`, language: input.language });
      }
      if (sinks.length === 0) return;
      const scope = stepScope(step);
      const file = step.owner.file;
      // The step's guards are worked out only for a tainted expression (most steps have none).
      let trust: TrustPaths | undefined;
      const issueComment = step.owner.kind === 'workflow' && step.owner.triggers.some((t) => t.name === 'issue_comment');
      for (const sink of sinks) {
        const occurrences = expressionsOf(file, sink.node);
        for (const occurrence of occurrences) {
          if (occurrence.expr === null) continue;
          const taint = context.taint.ofExpression(occurrence.expr, scope);
          if (taint === null) continue;
          trust ??= stepTrust(step);
          // Text a trusted author wrote (a same-repository pull request, a maintainer's comment) is not an
          // outsider's: the gate lowers the finding to hygiene and says so, it never hides it.
          const gate = gateOf(trust, taint.source, issueComment);
          // An outsider's value that reaches only `pull_request` runs runs with a read-only token and no secrets.
          const unprivileged = taint.controller === 'external' && unprivilegedOnly(context.taint.triggersOf(scope));
          // A JSON document pasted where JavaScript expects an expression is a literal, not code.
          if (taint.json === true && sink.language === 'JavaScript' && inJavaScriptCode(String(sink.node.value), occurrence.span.start, occurrences.map((o) => o.span))) continue;
          context.report({
            node: sink.node,
            offset: occurrence.offset,
            severity: gate.holds ? 'LOW' : milder(milder(SEVERITY[taint.level], controllerCeiling(taint.controller)), unprivileged ? 'MEDIUM' : 'HIGH'),
            message:
              `\`\${{ ${occurrence.span.source} }}\` in ${sink.label} of ${describeStep(step)} expands ${describeTaint(taint)} ` +
              `into ${sink.language} code before it runs${describeGate(gate)}` +
              (unprivileged && !gate.holds ? '; only `pull_request` brings it in, where a fork\'s run has a read-only token and no secrets.' : '.'),
          });
        }
      }
    },
  }),
});
