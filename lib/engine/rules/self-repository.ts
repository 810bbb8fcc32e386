import { checkoutInputs } from '../analysis/pr-head.js';
import { workingDirectory } from '../analysis/run-model/execution.js';
import { leavesRoot, normalizeLocalPath } from '../model/repository.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { commandArgs, commandName, scriptPipelines } from '../shell.js';
import { getText } from '../yaml/model.js';
import { isCheckoutAction } from '../model/uses.js';

/** Earlier `actions/checkout` steps of the step's job. */
function earlierCheckouts(step: Step): Step[] {
  const job = step.job;
  if (job === null) return [];
  return job.steps.slice(0, step.index).filter((s) => isCheckoutAction(s.usesRef));
}

/** Where a checkout lands, relative to the workspace ('' for the root). */
function checkoutPath(step: Step): string {
  return normalizeLocalPath(getText(step.with, 'path') ?? '');
}

/**
 * A checkout input that names the run's own repository or revision, which is what a checkout without it takes:
 * `repository: ${{ github.repository }}`, `ref: ${{ github.ref }}` / `github.ref_name` / `github.sha`. The
 * workspace then holds the workflow's own commit (a branch named by `github.ref_name` may have moved on since
 * the run started, to a later commit of the same branch, which only people with write access push).
 */
function runsOwnCommit(name: string, value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const own = name === 'repository' ? /^\s*\$\{\{\s*github\.repository\s*\}\}\s*$/ : /^\s*\$\{\{\s*github\.(?:ref|ref_name|sha)\s*\}\}\s*$/;
  return own.test(value);
}

/** Package scripts that build (`npm run build`, `yarn package`, `pnpm run build:dist`, `npm run all`). */
const BUILD_SCRIPT = /^(build|package|bundle|dist|compile|all|prepare|pack)([:_-].*)?$|^(build|package|bundle|dist)/i;
/** Programs that compile or bundle an action's sources (`tsc`, `ncc build`, `esbuild`), run directly or by a package runner. */
const BUNDLERS = new Set(['tsc', 'ncc', '@vercel/ncc', 'esbuild', 'rollup', 'webpack', 'tsup', 'vite', 'typescript']);
const PACKAGE_MANAGERS = new Set(['npm', 'yarn', 'pnpm', 'bun']);
const RUNNERS = new Set(['npx', 'bunx', 'pnpx']);
/** Task-runner targets that build nothing. */
const NOT_BUILD_TARGETS = /^(test|tests|check|lint|fmt|format|clean|install|deps|help|vet)$/i;

/** True when a command builds the project it runs in (`npm run build`, `npx ncc build`, `make`, `go build`, `tsc`). */
function buildsProject(text: string): boolean {
  const program = commandName(text)?.toLowerCase();
  if (program === undefined || program === null) return false;
  const args = commandArgs(text, program);
  const [first = '', second = ''] = args;
  if (PACKAGE_MANAGERS.has(program)) {
    if (first === 'run' || first === 'run-script') return BUILD_SCRIPT.test(second);
    if (first === 'exec' || first === 'dlx' || first === 'x') return BUNDLERS.has(second.replace(/(?!^)@[^/]*$/, ''));
    return program !== 'npm' && BUILD_SCRIPT.test(first);
  }
  if (RUNNERS.has(program)) return BUNDLERS.has(first.replace(/(?!^)@[^/]*$/, ''));
  if (BUNDLERS.has(program)) return true;
  if (program === 'make' || program === 'gmake' || program === 'just' || program === 'task') return !NOT_BUILD_TARGETS.test(first);
  if (program === 'go' || program === 'cargo' || program === 'dotnet') return first === 'build' || first === 'publish';
  return false;
}

/**
 * True when an earlier step of the job builds the action at `target` in the workspace: a build command run in
 * the action's own directory (the step's `working-directory` or the `defaults.run` one, else the workspace root for
 * `uses: ./`). `uses: ./path` then deliberately runs the built files, which `$/path`
 * (the commit as pushed) would not.
 */
function builtInWorkspace(step: Step, target: string): boolean {
  const job = step.job;
  if (job === null) return false;
  return job.steps.slice(0, step.index).some((earlier) => {
    if (earlier.run === undefined || typeof earlier.run.value !== 'string' || earlier.run.value.length > 200_000) return false;
    // The directory the step runs in (its `working-directory`, else the job's or workflow's `defaults.run`).
    const dir = workingDirectory(earlier);
    // The action's own directory: a build of the project at the root builds no composite action under `.github/`.
    if (dir === null || target !== dir) return false;
    return scriptPipelines(earlier.run.value).some((p) => p.commands.some((c) => buildsProject(c.text)));
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'self-repository',
    category: 'CICD-SEC-3',
    title: 'Local action resolved from the workspace',
    severity: 'INFO',
    pedantic: true,
    surface: 'workflow',
    description:
      'A step runs `uses: ./path`, which GitHub resolves from the job\'s workspace: whatever a previous step checked out (or wrote) at that path runs. The self-repository form `uses: $/path` (GitHub, July 2026) runs the action from the workflow\'s own repository at the workflow\'s commit, whatever the workspace holds. LOW when an earlier checkout in the job fetches another ref or repository (not the run\'s own: `github.repository`, `github.ref`, `github.ref_name`, `github.sha`).',
    recommendation: 'Write `uses: $/path` (same path, without the leading `./`) so the action always comes from the workflow\'s own commit.',
  },
  create: (context) => ({
    step(step) {
      if (step.usesRef?.kind !== 'local' || step.usesRef.self === true || step.uses === undefined) return;
      const path = step.usesRef.path;
      // A path that climbs out of the workspace (`./../action/x`, after a job moved its checkout) names files
      // outside the repository: `$/` resolves inside it, so it is no replacement.
      if (leavesRoot(path)) return;
      const target = normalizeLocalPath(path);
      const checkouts = earlierCheckouts(step);
      // An action checked out on purpose into its own directory (testing an action at another ref) is not
      // in the workflow's repository at that path: `$/` cannot replace it.
      if (checkouts.some((s) => checkoutPath(s) !== '' && (target === checkoutPath(s) || target.startsWith(`${checkoutPath(s)}/`)))) return;
      // An action built by an earlier step (`npm run build`, `npx ncc build`): the job tests the built files on purpose.
      if (builtInWorkspace(step, target)) return;
      const replaced = checkouts.find((s) => checkoutPath(s) === '' && checkoutInputs(s).some((input) => !runsOwnCommit(input.name, input.node.value)));
      context.report({
        node: step.uses,
        ...(replaced !== undefined ? { severity: 'LOW' as const } : {}),
        message:
          replaced !== undefined
            ? `\`uses: ${path}\` runs whatever the workspace holds at that path, and an earlier checkout in this job fetches another ref or repository: that checkout's \`${path}\` is what runs.`
            : `\`uses: ${path}\` runs whatever the workspace holds at that path; \`uses: $/${path.replace(/^\.\//, '')}\` (GitHub's self-repository syntax, runner 2.336.0 or newer) pins it to the workflow's own commit, with no checkout needed.`,
        recommendation: `Write \`uses: $/${path.replace(/^\.\//, '')}\`.`,
      });
    },
  }),
});
