import { MISFEATURES, type Misfeature } from '../data/misfeatures.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getMap, getPair, getScalar, keyText, type YMap, type YScalar } from '../yaml/model.js';

const SHELLS = MISFEATURES.filter((m): m is Extract<Misfeature, { kind: 'shell' }> => m.kind === 'shell');
const INPUTS = MISFEATURES.filter((m): m is Extract<Misfeature, { kind: 'input' }> => m.kind === 'input');

/** A `run:` step that takes its shell from the defaults (it names none). */
function ownDefault(step: Step): boolean {
  return step.run !== undefined && getScalar(step.node, 'shell') === undefined;
}

/** A `run:` step whose script expands a `${{ }}` value (GitHub substitutes it into the text before the shell parses it). */
function expands(step: Step): boolean {
  return step.run !== undefined && typeof step.run.value === 'string' && step.run.value.includes('${{');
}

/** The scalar of `defaults.run.shell` of a workflow or job mapping. */
function defaultShell(node: YMap): YScalar | undefined {
  return getScalar(getMap(getMap(node, 'defaults'), 'run'), 'shell');
}

export default defineWorkflowRule({
  meta: {
    id: 'misfeature',
    category: 'BEST-PRAC-5',
    title: 'Hazardous GitHub Actions feature in use',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A feature GitHub Actions permits but that is hazardous, from a table with a source per entry (in the rule\'s documentation): the Windows `cmd` shell, `actions/setup-python` `pip-install`, `actions/checkout` with `ssh-key` or with `submodules`. Each finding has the severity of its entry (LOW or INFO).',
    recommendation: 'Replace the feature as the finding says.',
  },
  create: (context) => {
    /** `scripts`: the `run:` steps the shell runs; none of them expanding a `${{ }}` value leaves nothing to misparse. */
    const checkShell = (node: YScalar | undefined, scripts: () => readonly Step[]) => {
      if (node === undefined || typeof node.value !== 'string') return;
      const text = node.value.trim();
      const entry = SHELLS.find((m) => m.shell.test(text));
      if (entry === undefined) return;
      const quiet = entry.severity !== 'INFO' && !scripts().some(expands);
      context.report({
        node,
        severity: quiet ? 'INFO' : entry.severity,
        message: `\`shell: ${text}\`: ${entry.why}.${quiet ? ' INFO: no script it runs here expands a `${{ }}` value, so nothing is left to misparse; only later edits could add one.' : ''}`,
        recommendation: entry.fix,
        key: entry.id,
      });
    };
    return {
      workflow(workflow) {
        checkShell(defaultShell(workflow.root), () => workflow.jobs.filter((j) => defaultShell(j.node) === undefined).flatMap((j) => j.steps.filter(ownDefault)));
      },
      job(job) {
        checkShell(defaultShell(job.node), () => job.steps.filter(ownDefault));
      },
      step(step) {
        checkShell(getScalar(step.node, 'shell'), () => [step]);
        const ref = step.usesRef;
        if (ref?.kind !== 'repository' || ref.path !== '') return;
        const slug = ref.slug;
        for (const entry of INPUTS) {
          if (entry.action !== slug) continue;
          const pair = getPair(step.with, entry.input);
          if (pair === undefined || pair.value.kind !== 'scalar') continue;
          const value = pair.value.value === null ? '' : String(pair.value.value).trim();
          if (value === '' || (entry.value !== undefined && !entry.value.test(value))) continue;
          context.report({
            node: pair.key,
            severity: entry.severity,
            message: `\`${entry.action}\` with \`${keyText(pair.key)}\`: ${entry.why}.`,
            recommendation: entry.fix,
            key: `${entry.id}:${step.index}`,
          });
        }
      },
    };
  },
});
