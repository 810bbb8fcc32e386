import { MISFEATURES, type Misfeature } from '../data/misfeatures.js';
import { defineWorkflowRule } from '../rule.js';
import { getMap, getPair, getScalar, keyText, type YMap, type YScalar } from '../yaml/model.js';

const SHELLS = MISFEATURES.filter((m): m is Extract<Misfeature, { kind: 'shell' }> => m.kind === 'shell');
const INPUTS = MISFEATURES.filter((m): m is Extract<Misfeature, { kind: 'input' }> => m.kind === 'input');

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
    const checkShell = (node: YScalar | undefined) => {
      if (node === undefined || typeof node.value !== 'string') return;
      const text = node.value.trim();
      const entry = SHELLS.find((m) => m.shell.test(text));
      if (entry === undefined) return;
      context.report({ node, severity: entry.severity, message: `\`shell: ${text}\`: ${entry.why}.`, recommendation: entry.fix, key: entry.id });
    };
    return {
      workflow(workflow) {
        checkShell(defaultShell(workflow.root));
      },
      job(job) {
        checkShell(defaultShell(job.node));
      },
      step(step) {
        checkShell(getScalar(step.node, 'shell'));
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
