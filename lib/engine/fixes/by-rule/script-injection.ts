import { declaredShell } from '../../analysis/step-shell.js';
import { expressionsOf } from '../../expressions/extract.js';
import type { Step } from '../../model/workflow.js';
import { getPair, getText, keyText } from '../../yaml/model.js';
import { valueOffsetToSource } from '../../yaml/offsets.js';
import { indentUnit, insertAfterPair, insertBeforePair, isBlockMap } from '../edit.js';
import { stepAt } from '../locate.js';
import { defineFixer, type TextEdit } from '../types.js';

type Shell = 'bash' | 'pwsh';

/** The shell a `run:` step uses: its declared `shell:` (analysis/step-shell.ts `declaredShell`, which says how this reading differs), else the runner's default. */
function shellOf(step: Step): Shell | string {
  const job = step.job;
  const declared = declaredShell(step);
  if (declared !== null) {
    const name = declared.trim().split(/\s+/)[0] ?? '';
    if (name === 'bash' || name === 'sh') return 'bash';
    if (name === 'pwsh' || name === 'powershell') return 'pwsh';
    return name;
  }
  const runsOn = job === null ? '' : JSON.stringify(job.node.pairs.find((p) => keyText(p.key) === 'runs-on')?.value ?? '');
  return /windows/i.test(runsOn) ? 'pwsh' : 'bash';
}

/** `github.event.issue.title` -> `ISSUE_TITLE`; a name the step's environment does not use for something else. */
function variableName(source: string, taken: ReadonlyMap<string, string>): string {
  const words = source.replace(/\[.*?\]/g, '').split('.').filter((w) => /^[A-Za-z_][\w-]*$/.test(w));
  const base = (words.slice(-2).join('_') || 'VALUE').replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
  const name = /^[A-Z_]/.test(base) ? base : `V_${base}`;
  for (let i = 1; ; i++) {
    const candidate = i === 1 ? name : `${name}_${i}`;
    const existing = taken.get(candidate);
    if (existing === undefined || existing === source) return candidate;
  }
}

/** Quote context of `offset` on its line, for bash: inside '…', inside "…", or none. */
function bashQuote(line: string): 'single' | 'double' | 'none' {
  let state: 'single' | 'double' | 'none' = 'none';
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (state === 'single') {
      if (c === "'") state = 'none';
    } else if (c === '\\') i++;
    else if (c === '"') state = state === 'double' ? 'none' : 'double';
    else if (c === "'" && state === 'none') state = 'single';
  }
  return state;
}

function reference(shell: Shell, name: string, context: 'single' | 'double' | 'none'): string | null {
  if (shell === 'pwsh') return context === 'single' ? null : `$env:${name}`;
  if (context === 'double') return `\${${name}}`;
  if (context === 'single') return `'"\${${name}}"'`;
  return `"\${${name}}"`;
}

/**
 * Moves an attacker-controlled expression out of a `run:` script into the step's `env:` and uses the
 * variable, quoted, in the script (bash and sh: `"${NAME}"`; pwsh: `$env:NAME`). The value then reaches
 * the shell as data, never as code. cmd expands `%NAME%` before it parses the line, so there is no safe
 * rewrite for it; action inputs executed as code (github-script) are left to a person.
 */
export default defineFixer({
  ruleId: 'script-injection',
  safe: true,
  propose({ model, offset, file }) {
    const step = stepAt(model, offset);
    const run = step?.run;
    if (step === undefined || run === undefined || model.kind === 'dependabot' || run.start > offset || offset >= run.end) {
      return { skipped: 'only expressions in `run:` scripts are rewritten; move this one into `env:` by hand' };
    }
    const shell = shellOf(step);
    if (shell !== 'bash' && shell !== 'pwsh') return { skipped: `no safe rewrite for shell \`${shell}\`` };
    if (run.style !== 'literal' && run.style !== 'folded' && run.style !== 'plain') return { skipped: 'the script is a quoted YAML string' };
    const occurrences = expressionsOf(file, run);
    const target = occurrences.find((o) => o.offset === offset);
    if (target === undefined) return { skipped: 'the expression was not found' };
    const env = getPair(step.node, 'env');
    if (env !== undefined && !isBlockMap(file.text, env.value)) return { skipped: 'the step’s `env:` is not a block mapping' };
    const taken = new Map<string, string>();
    if (env?.value.kind === 'map') {
      for (const pair of env.value.pairs) {
        const value = getText(env.value, keyText(pair.key)) ?? '';
        const inner = /^\$\{\{\s*(.*?)\s*\}\}$/.exec(value.trim());
        taken.set(keyText(pair.key), inner?.[1] ?? `\0${value}`);
      }
    }
    const name = variableName(target.span.source, taken);
    const edits: TextEdit[] = [];
    for (const occurrence of occurrences) {
      if (occurrence.span.source !== target.span.source || !occurrence.span.terminated) continue;
      const start = occurrence.offset;
      const end = valueOffsetToSource(file, run, occurrence.span.end - 1) + 1;
      if (file.text.slice(start, end).replace(/\s/g, '') !== `\${{${occurrence.span.source.replace(/\s/g, '')}}}`) return { skipped: 'the expression spans lines' };
      if (run.style === 'plain' && start === run.start) return { skipped: 'the script starts with the expression' };
      const lineStartOffset = file.text.lastIndexOf('\n', start - 1) + 1;
      // In a heredoc quotes are literal text (and `<<'EOF'` does not expand variables): leave it to a person.
      if (/<<-?\s*['"]?[A-Za-z_]/.test(file.text.slice(run.start, start))) return { skipped: 'the expression may sit in a heredoc, where the rewrite would change the text' };
      // `'${{ x }}'` as a whole quoted word becomes `"${X}"` (bash) rather than `''"${X}"''`.
      if (shell === 'bash' && file.text[start - 1] === "'" && file.text[end] === "'" && bashQuote(file.text.slice(lineStartOffset, start)) === 'single') {
        edits.push({ start: start - 1, end: end + 1, text: `"\${${name}}"` });
        continue;
      }
      const replacement = reference(shell, name, shell === 'bash' ? bashQuote(file.text.slice(lineStartOffset, start)) : /'[^']*$/.test(file.text.slice(lineStartOffset, start).replace(/"[^"]*"/g, '')) ? 'single' : 'none');
      if (replacement === null) return { skipped: 'the expression sits inside a single-quoted PowerShell string' };
      edits.push({ start, end, text: replacement });
    }
    if (!taken.has(name)) {
      const unit = model.kind === 'workflow' ? indentUnit(file.text, model.root) : 2;
      const value = `\${{ ${target.span.source} }}`;
      const last = env?.value.kind === 'map' ? env.value.pairs.at(-1) : undefined;
      const runPair = getPair(step.node, 'run');
      const edit =
        env?.value.kind === 'map' && last !== undefined
          ? insertAfterPair(file.text, env.value, last, name, value, unit)
          : runPair === undefined
            ? null
            : (insertBeforePair(file.text, step.node, runPair, 'env', [`${name}: ${value}`], unit) ?? insertAfterPair(file.text, step.node, step.node.pairs.at(-1) ?? runPair, 'env', [`${name}: ${value}`], unit));
      if (edit === null) return { skipped: 'the step is not a block mapping' };
      edits.push(edit);
    }
    return { edits, safe: true };
  },
});
