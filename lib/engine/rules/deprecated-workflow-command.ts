import { stepWhere } from '../analysis/step-label.js';
import { defineWorkflowRule } from '../rule.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

/** The replacement of each deprecated command. */
const REPLACEMENTS: Record<string, string> = {
  'set-output': '`echo "name=value" >> "$GITHUB_OUTPUT"`',
  'save-state': '`echo "name=value" >> "$GITHUB_STATE"`',
  'set-env': '`echo "NAME=value" >> "$GITHUB_ENV"`',
  'add-path': '`echo "/dir" >> "$GITHUB_PATH"`',
};

/**
 * `::command` at the start of what is printed (after a quote, a space or a parenthesis, not inside
 * `::warning::set-output ...`), followed by its parameters (` name=`) or its `::` separator.
 */
const COMMAND = /(?<![^\s"'(`])::(set-output|save-state|set-env|add-path)(?=[\s:])/g;

const MAX_PER_SCRIPT = 100;

export default defineWorkflowRule({
  meta: {
    id: 'deprecated-workflow-command',
    category: 'BEST-PRAC-3',
    title: 'Deprecated workflow command',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A `run:` script prints a deprecated workflow command (`::set-output`, `::save-state`, `::set-env`, `::add-path`). GitHub disabled `::set-env` and `::add-path` because printed text could inject them, and warns on or drops the others.',
    recommendation:
      'Write to the environment files instead: `$GITHUB_OUTPUT` for outputs, `$GITHUB_STATE` for state, `$GITHUB_ENV` for variables and `$GITHUB_PATH` for the PATH.',
  },
  create: (context) => ({
    step(step) {
      const run = step.run;
      if (run === undefined || typeof run.value !== 'string' || !run.value.includes('::')) return;
      const script = run.value;
      let reported = 0;
      // One pass over the whole script (not a split and a search per line): commands are rare.
      for (const match of script.matchAll(COMMAND)) {
        const end = match.index + match[0].length;
        // Read line by line, `::set-output` at the end of a line has nothing after it: not a command.
        if (script.charCodeAt(end) === 0x0a) continue;
        // A commented-out line prints nothing.
        if (script.slice(script.lastIndexOf('\n', match.index) + 1, match.index).trimStart().startsWith('#')) continue;
        // A hostile script could repeat a command thousands of times; a hundred findings make the point.
        if (reported++ >= MAX_PER_SCRIPT) return;
        const name = match[1] ?? '';
        context.report({
          node: run,
          offset: valueOffsetToSource(step.owner.file, run, match.index),
          message: `${stepWhere(step)} prints the deprecated \`::${name}\` command; use ${REPLACEMENTS[name] ?? 'the environment files'} instead.`,
        });
      }
    },
  }),
});
