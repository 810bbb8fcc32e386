import { earlierForeignDownload, READS_FILE } from '../analysis/artifacts.js';
import { describeStep, describeTaint } from '../analysis/describe.js';
import { scriptFold, scriptLines, validatedVariables } from '../analysis/script-outputs.js';
import { describeGate, gateOf, stepTrust } from '../analysis/trust-guards.js';
import { outsiderControlled } from '../expressions/controller.js';
import { expressionsOf, type ExpressionOccurrence } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import { firstAtOrAfter, stepScope, stronger, type Taint } from '../expressions/taint.js';
import { isPrivileged, type Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { ScriptSpan } from '../shell.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

/** A redirect, `tee` or PowerShell cmdlet whose target is `$GITHUB_ENV` / `$GITHUB_PATH` (any spelling). */
const WRITE =
  />>?\s*["']?(?:\$\{?|\$env:|%)(GITHUB_ENV|GITHUB_PATH)\b|\btee\s+(?:-a\s+|--append\s+)?["']?\$\{?(GITHUB_ENV|GITHUB_PATH)\b|\b(?:Out-File|Add-Content|Set-Content)\b[^\n]{0,300}?\$env:(GITHUB_ENV|GITHUB_PATH)\b/i;
/** Commands that read a file (or standard input fed from one) into the value. */
const HEREDOC = /<<-?\s*['"]?(\w+)/;
/** Untrusted runner variables a script may read directly. */
const RUNNER_VARIABLES: Record<string, Taint> = {
  GITHUB_HEAD_REF: { level: 'arbitrary', controller: 'external', source: 'github.head_ref', via: ['$GITHUB_HEAD_REF'] },
};

/** What the lines feeding a write carry. */
interface Fed {
  taint: Taint | null;
  readsFile: boolean;
}

interface EnvWrite {
  line: ScriptSpan;
  target: string;
  /** The lines whose output the write captures: the line itself, a `{ ... }` group or loop it closes, a here-document. */
  seeds: ScriptSpan[];
}

function envWrites(lines: readonly ScriptSpan[]): EnvWrite[] {
  const writes: EnvWrite[] = [];
  lines.forEach((line, i) => {
    const match = WRITE.exec(line.text);
    if (match === null) return;
    const target = (match[1] ?? match[2] ?? match[3] ?? 'GITHUB_ENV').toUpperCase();
    const seeds = [line];
    if (/^\s*(\}|done\b)/.test(line.text)) {
      // `{ ...; } >> "$GITHUB_ENV"` and `for ...; do ...; done >> "$GITHUB_ENV"`: the block's lines.
      for (let j = i - 1; j >= 0; j--) {
        const previous = lines[j] as ScriptSpan;
        seeds.push(previous);
        if (/^\s*\{|\b(do|then)\s*$|^\s*(for|while|until)\b/.test(previous.text)) break;
      }
    }
    const heredoc = HEREDOC.exec(line.text);
    if (heredoc?.[1] !== undefined) {
      for (let j = i + 1; j < lines.length; j++) {
        const body = lines[j] as ScriptSpan;
        if (body.text.trim() === heredoc[1]) break;
        seeds.push(body);
      }
    }
    writes.push({ line, target, seeds });
  });
  return writes;
}

export default defineWorkflowRule({
  meta: {
    id: 'github-env-injection',
    category: 'CICD-SEC-4',
    title: 'Untrusted data written to GITHUB_ENV or GITHUB_PATH',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'In a workflow an outsider can trigger with the base repository\'s privileges, a `run:` script writes attacker-controlled text (pull request or issue data, directly or through env, outputs and shell variables, or the content of an artifact downloaded from another run) to `$GITHUB_ENV` or `$GITHUB_PATH`. A newline in it defines any variable (`NODE_OPTIONS`, `LD_PRELOAD`, `BASH_ENV`) or `PATH` entry for every later step of the job.',
    recommendation:
      'Do not route untrusted values through `$GITHUB_ENV`/`$GITHUB_PATH`: pass them to the steps that need them with `env:` or step outputs, and validate artifact contents (for example, that a pull request number is all digits) before any use.',
  },
  create: (context) => ({
    step(step) {
      const job = step.job;
      const run = step.run;
      if (job === null || run === undefined || typeof run.value !== 'string' || !/GITHUB_(ENV|PATH)/.test(run.value)) return;
      const workflow = job.workflow;
      if (!isPrivileged(workflow)) return;
      const script = run.value;
      const lines = scriptLines(script);
      const writes = envWrites(lines);
      if (writes.length === 0) return;
      const scope = stepScope(step);
      const occurrences = expressionsOf(workflow.file, run);
      const trust = stepTrust(step);
      const issueComment = workflow.triggers.some((t) => t.name === 'issue_comment');
      const download = earlierForeignDownload(step);
      const validated = validatedVariables(script);
      // What each line feeds into a write: the strongest taint, and whether it reads a file.
      const fold = scriptFold<Fed>(script, {
        own: (line, [from, to]) => {
          let taint: Taint | null = null;
          for (let i = firstAtOrAfter(occurrences, from); i < occurrences.length; i++) {
            const occurrence = occurrences[i] as ExpressionOccurrence;
            if (occurrence.span.start >= to) break;
            if (occurrence.expr !== null) taint = stronger(taint, context.taint.ofExpression(occurrence.expr, scope));
          }
          return { taint, readsFile: READS_FILE.test(line.text) };
        },
        external: (name) => {
          const runner = RUNNER_VARIABLES[name];
          const expr = parseExpression(`env.${name}`);
          const found = runner ?? (expr === null ? null : context.taint.ofExpression(expr, scope));
          // Read as `$NAME` in the script: name it so (the analyser says `env.name`).
          return { taint: found === null || runner !== undefined ? found : { ...found, via: [`$${name}`, ...found.via.slice(1)] }, readsFile: false };
        },
        combine: (a, b) => ({ taint: stronger(a.taint, b.taint), readsFile: a.readsFile || b.readsFile }),
        empty: { taint: null, readsFile: false },
        stop: validated,
      });
      for (const write of writes) {
        const { taint, readsFile } = fold.ofLines(write.seeds);
        const source = taint?.source ?? '';
        // Only values an outsider sets (at once, or through a merged commit) are an attack; a gate that vouches
        // for the value lowers the finding to hygiene and says why.
        const outsider = taint !== null && (taint.level === 'arbitrary' || taint.level === 'structured') && outsiderControlled(taint.controller);
        const gate = gateOf(trust, source, issueComment);
        const artifact = download !== null && readsFile;
        if (!outsider && !artifact) continue;
        const severity = artifact ? undefined : gate.holds ? 'LOW' : taint?.controller === 'external-after-merge' ? 'MEDIUM' : undefined;
        const what = outsider && taint !== null ? describeTaint(taint) : `the content of an artifact downloaded by ${describeStep(download as Step)}`;
        const effect =
          write.target === 'GITHUB_PATH'
            ? 'a directory it names is searched first for every command of the later steps'
            : 'a newline in it defines any environment variable (`NODE_OPTIONS`, `LD_PRELOAD`, `BASH_ENV` ...) for the later steps of the job';
        context.report({
          node: run,
          offset: valueOffsetToSource(workflow.file, run, write.line.offset),
          ...(severity === undefined ? {} : { severity }),
          message: `${describeStep(step)} writes ${what} to \`$${write.target}\`; ${effect}${artifact ? '' : describeGate(gate)}.`,
        });
      }
    },
  }),
});
