import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'invalid-workflow',
    category: 'BEST-PRAC-3',
    title: 'File could not be analysed',
    severity: 'INFO',
    surface: 'workflow',
    description:
      'A workflow, action or Dependabot file has a YAML syntax error, is not a mapping, or exceeds the size, nesting or alias-expansion limits, so no other rule could check it.',
    recommendation: 'Fix the YAML so the file parses (GitHub rejects it too), or split an oversized generated file.',
  },
  create: (context) => ({
    invalidFile(file, problem) {
      context.report({
        node: { kind: 'scalar', start: problem.offset, end: problem.offset, value: null, style: 'plain' },
        file,
        message: `${file.path} could not be analysed: ${problem.message}.`,
        key: problem.message,
      });
    },
  }),
});
