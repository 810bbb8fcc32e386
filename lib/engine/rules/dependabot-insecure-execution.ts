import { defineWorkflowRule } from '../rule.js';
import { getPair, scalarText } from '../yaml/model.js';

export default defineWorkflowRule({
  meta: {
    id: 'dependabot-insecure-execution',
    category: 'CICD-SEC-3',
    title: 'Dependabot allowed to execute external code',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'An `updates` entry of the Dependabot configuration sets `insecure-external-code-execution: allow`, so manifest code from any dependency (setup.py, gemspecs, mix.exs, build scripts) runs during updates with access to the registry credentials Dependabot holds.',
    recommendation:
      'Remove `insecure-external-code-execution: allow` (the default is `deny`); if an update really needs code execution, scope the entry to that ecosystem and directory and give it no private registry credentials.',
  },
  create: (context) => ({
    dependabot(config) {
      for (const update of config.updates) {
        const pair = getPair(update.node, 'insecure-external-code-execution');
        if (pair === undefined || scalarText(pair.value)?.trim().toLowerCase() !== 'allow') continue;
        context.report({
          node: pair.value,
          job: null,
          message: `The \`${update.ecosystem ?? 'unnamed'}\` update entry sets \`insecure-external-code-execution: allow\`: dependency manifests can run code while Dependabot holds this repository's registry credentials.`,
        });
      }
    },
  }),
});
