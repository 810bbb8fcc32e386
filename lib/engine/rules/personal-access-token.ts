import { occurrencesIn } from '../analysis/file-scalars.js';
import { fileMayUseSecrets, mayUseSecrets, secretUses } from '../analysis/secrets.js';
import { expressionsOf, type ExpressionOccurrence } from '../expressions/extract.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowReport } from '../rule.js';
import { keyText, type YMap, type YNode } from '../yaml/model.js';

/**
 * Secret names that say they hold a GitHub token (`GH_PAT`, `GH_TOKEN`, `BOT_GITHUB_TOKEN`,
 * `GH_RELEASE_TOKEN`): a stored one is a personal access token, since installation tokens expire in an
 * hour and the job token is `GITHUB_TOKEN` (user secrets may not start with `GITHUB_`).
 */
const GITHUB_PAT_NAME = /(?:^|_)(?:GH|GITHUB)_(?:PAT|TOKEN)(?:_|$)|(?:^|_)(?:GH|GITHUB)(?:_[A-Z0-9]+){0,4}_(?:TOKEN|PAT)$/i;
/** Names that say "personal access token". */
const PAT_NAME = /(?:^|_)PAT(?:_|$)|PERSONAL_ACCESS_TOKEN|PERSONAL_TOKEN/i;
/** Services whose PATs are not GitHub's (`VSCE_PAT` publishes to the VS Code Marketplace). */
const OTHER_SERVICE = /VSCE|OVSX|AZURE|DEVOPS|NUGET|DOCKER|QUAY|JFROG|ARTIFACTORY|GITLAB|BITBUCKET|HUGGINGFACE|JIRA|ATLASSIAN|SNYK|FIGMA|NOTION|(?:^|_)(?:ADO|AZDO|DH|HF)(?:_|$)/i;
/** `with:` inputs and `env:` variables through which actions and tools take a GitHub token. */
const TOKEN_INPUT = /token|(?:^|[-_])pat$/i;
const TOKEN_ENV = /^(?:GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GH_PAT|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN)$/;

type Position = { kind: 'with'; key: string; step: Step | null } | { kind: 'env'; key: string } | { kind: 'run'; line: string } | { kind: 'secrets'; key: string } | { kind: 'other' };

/** Whether a secret of this name, used at this position, is a GitHub personal access token. */
function isGithubPat(name: string, position: Position): boolean {
  if (name.toUpperCase() === 'GITHUB_TOKEN') return false;
  if (GITHUB_PAT_NAME.test(name)) return true;
  if (!PAT_NAME.test(name)) return false;
  // A PAT given as a registry password (`docker/login-action`) is the registry's, not GitHub's.
  if (!OTHER_SERVICE.test(name)) return !((position.kind === 'with' || position.kind === 'secrets') && /password/i.test(position.key));
  // `VSCE_PAT`, `OVSX_PAT` ...: a PAT of another service, unless it goes where a GitHub token goes.
  switch (position.kind) {
    case 'with':
      return TOKEN_INPUT.test(position.key);
    case 'env':
      return TOKEN_ENV.test(position.key);
    case 'run':
      return /github|\bgh\s/i.test(position.line);
    case 'secrets':
      return TOKEN_INPUT.test(position.key);
    default:
      return false;
  }
}

function describe(position: Position): string {
  switch (position.kind) {
    case 'with':
      return position.step?.uses !== undefined && typeof position.step.uses.value === 'string'
        ? `passed as \`${position.key}\` to \`${position.step.uses.value.replace(/@.*$/, '')}\``
        : `passed as \`with.${position.key}\``;
    case 'env':
      return `exported as \`${position.key}\``;
    case 'run':
      return 'used in a script';
    case 'secrets':
      return `passed to the reusable workflow as \`${position.key}\``;
    default:
      return 'used';
  }
}

export default defineWorkflowRule({
  meta: {
    id: 'personal-access-token',
    category: 'CICD-SEC-2',
    title: 'Long-lived personal access token used in a workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A secret named like a personal access token (`*_PAT`, `PAT_*`, `*PERSONAL_ACCESS_TOKEN*`, `GH_TOKEN`, `*_GH_TOKEN`, `*_GITHUB_TOKEN`) is passed to an action, a tool or a script as a GitHub token. A PAT does not expire with the run and acts with all of its owner\'s access.',
    recommendation:
      'Use the job\'s `GITHUB_TOKEN` with the `permissions:` the job needs, or a GitHub App installation token minted per run (`actions/create-github-app-token`) scoped to the repositories and permissions required.',
  },
  create: (context) => {
    // Offsets are per file: remember them per scalar (each belongs to one file), not across the repository.
    const seen = new WeakMap<object, Set<number>>();
    const reportOccurrence = (occurrence: ExpressionOccurrence, position: Position, job: Job | null | undefined) => {
      if (occurrence.expr === null || !mayUseSecrets(occurrence.span.source)) return;
      const offsets = seen.get(occurrence.scalar) ?? new Set<number>();
      seen.set(occurrence.scalar, offsets);
      if (offsets.has(occurrence.offset)) return;
      const use = secretUses(occurrence.expr).find((u) => u.kind === 'named' && !u.tested && isGithubPat(u.name, position));
      if (use?.kind !== 'named') return;
      offsets.add(occurrence.offset);
      const report: WorkflowReport = {
        node: occurrence.scalar,
        offset: occurrence.offset,
        message: `\`secrets.${use.name}\`, by its name a personal access token, is ${describe(position)}; unlike the job token it outlives the run and carries its owner's access.`,
      };
      context.report(job === undefined ? report : { ...report, job });
    };
    /** Every PAT carried by the `${{ }}` of `node`. */
    const check = (model: Workflow | Action, node: YNode, position: Position, job: Job | null | undefined) => {
      for (const occurrence of occurrencesIn(model, node)) reportOccurrence(occurrence, position, job);
    };
    const checkMap = (model: Workflow | Action, map: YMap | undefined, kind: 'with' | 'env' | 'secrets', step: Step | null, job: Job | null | undefined) => {
      for (const pair of map?.pairs ?? []) {
        const key = keyText(pair.key);
        check(model, pair.value, kind === 'with' ? { kind, key, step } : { kind, key }, job);
      }
    };
    return {
      workflow(workflow) {
        if (!fileMayUseSecrets(workflow)) return;
        checkMap(workflow, workflow.env, 'env', null, null);
      },
      job(job) {
        const workflow = job.workflow;
        if (!fileMayUseSecrets(workflow)) return;
        checkMap(workflow, job.env, 'env', null, job);
        checkMap(workflow, job.with, 'with', null, job);
        if (job.secrets?.kind === 'map') checkMap(workflow, job.secrets, 'secrets', null, job);
      },
      step(step) {
        // Only `secrets.*` is reported: a file whose expressions never name the context has nothing to report.
        if (!fileMayUseSecrets(step.owner)) return;
        const file = step.owner.file;
        checkMap(step.owner, step.env, 'env', step, undefined);
        checkMap(step.owner, step.with, 'with', step, undefined);
        const run = step.run;
        if (run !== undefined && typeof run.value === 'string') {
          const script = run.value;
          for (const occurrence of expressionsOf(file, run)) {
            if (!mayUseSecrets(occurrence.span.source)) continue;
            const start = script.lastIndexOf('\n', occurrence.span.start) + 1;
            const end = script.indexOf('\n', occurrence.span.end);
            reportOccurrence(occurrence, { kind: 'run', line: script.slice(start, end === -1 ? script.length : end) }, undefined);
          }
        }
      },
    };
  },
});
