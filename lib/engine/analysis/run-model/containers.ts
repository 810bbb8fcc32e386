/**
 * What a job's container (`jobs.<id>.container`) is given, for the rules whose severity follows what a
 * compromised image could take (unpinned-image).
 *
 * Every step of the job runs in it but `docker://` steps and docker actions, which get containers of their own:
 * `run:` scripts through `docker exec`, JavaScript actions with the runner's Node mounted in, the steps of
 * composite actions. The runner mounts its work directory into it (the workspace, the tool cache, the file
 * commands), not the Docker socket, and does not run it privileged unless its `options:` say so. So the image's
 * code sees:
 * - the `env:` of the container, the job and the workflow, and each of those steps' `env:`, `with:` and script
 *   (a `${{ secrets.X }}` is expanded into the script before it runs);
 * - the job's token when one of those steps names it (`github.token`, `secrets.GITHUB_TOKEN`), or when an action
 *   runs in it: actions take the token through inputs that default to `github.token` (`actions/checkout`'s
 *   `token`, which it also persists in the workspace's `.git/config`);
 * - OIDC: with `id-token: write` every step's environment carries `ACTIONS_ID_TOKEN_REQUEST_URL` / `_TOKEN`;
 * - on a self-hosted runner, the work directory (tool cache, workspace), which stays on the machine for later jobs;
 * - the job's publish: what is shipped is built in it;
 * - with the Docker socket, a host directory above it or privileges in its `volumes:` / `options:`, the machine,
 *   and through the runner's memory everything the job holds.
 * The job's other secrets (those only a `docker://` step or a service gets, or `container.credentials`, which the
 * runner uses to pull the image) never reach it.
 */
import type { Job, Step } from '../../model/workflow.js';
import type { RepositoryModel } from '../../model/repository.js';
import { isGithubToken, secretOccurrences } from '../secrets.js';
import { get, type YNode } from '../../yaml/model.js';
import type { SourceFile } from '../../yaml/source.js';
import { splitAsHeld, type Holdings } from './holdings.js';
import { containerMounts, type ServiceMount } from './services.js';
import { carriesToken } from './handed.js';

export interface ContainerAccess {
  /** Stored secrets that reach the container (never `GITHUB_TOKEN`), in file order. */
  secrets: readonly string[];
  /** How the job's token reaches it, in words (`action \`actions/checkout\` runs in it …`); null when it does not. */
  token: string | null;
  /** Mounts and options of its definition that reach past it (services.ts). */
  mounts: readonly ServiceMount[];
}

/** A step as it runs in a job (run-model/index.ts `CalledStep`). */
interface Called {
  step: Step;
}

/** Whether a node carries the job's token: handed.ts `carriesToken` (kept there so that handed.ts imports nothing of the run model that imports it). */
export { carriesToken };

function stepLabel(step: Step): string {
  return step.name !== null ? `step \`${step.name}\`` : step.uses !== undefined ? `step \`${String(step.uses.value)}\`` : `step ${step.index + 1}`;
}

/** The steps of a job that run in its container: all but `docker://` steps and docker actions of the repository. */
function runsInContainer(repository: RepositoryModel, step: Step): boolean {
  if (step.usesRef?.kind === 'docker') return false;
  return repository.localAction(step)?.using !== 'docker';
}

/** What the container of `job` (defined by `definition`, the value of `container:`) is given; `steps`: the job's steps as they run. */
export function containerAccess(job: Job, definition: YNode, steps: readonly Called[], repository: RepositoryModel): ContainerAccess {
  const workflowFile = job.workflow.file;
  const secrets = new Set<string>();
  let token: string | null = null;
  const add = (file: SourceFile, node: YNode | undefined, where: () => string): void => {
    if (node === undefined) return;
    for (const use of secretOccurrences(file, node)) if (!isGithubToken(use.name)) secrets.add(use.name);
    if (token === null && carriesToken(file, node)) token = `${where()} names it`;
  };
  const env = definition.kind === 'map' ? get(definition, 'env') : undefined;
  add(workflowFile, env, () => "the container's `env:`");
  add(workflowFile, job.env, () => "the job's `env:`");
  add(workflowFile, job.workflow.env, () => "the workflow's `env:`");
  let action: Step | null = null;
  for (const { step } of steps) {
    if (!runsInContainer(repository, step)) continue;
    const file = step.owner.file;
    add(file, step.with, () => `${stepLabel(step)} (its \`with:\`)`);
    add(file, step.env, () => `${stepLabel(step)} (its \`env:\`)`);
    add(file, step.run, () => `${stepLabel(step)} (its script)`);
    if (action === null && (step.usesRef?.kind === 'repository' || (step.usesRef?.kind === 'local' && repository.localAction(step)?.using !== 'composite'))) action = step;
  }
  if (token === null && action !== null) {
    const uses = String(action.uses?.value ?? '').replace(/@.*$/, '');
    token = `action \`${uses}\` runs in it, and actions take the job's token through inputs that default to \`github.token\``;
  }
  return { secrets: [...secrets], token, mounts: definition.kind === 'map' ? containerMounts(definition) : [] };
}

/**
 * What a job container given `access` holds, from what its job holds: everything, with the machine, when its
 * definition gives it the Docker socket or privileges; otherwise the secrets and the token that reach it, and the
 * job's OIDC, self-hosted machine and publish, which every step in it reaches.
 */
export function containerHoldings(access: ContainerAccess, job: Holdings): Holdings {
  if (access.mounts.some((m) => m.reach === 'host')) return job;
  return {
    token: access.token !== null ? job.token : { kind: 'scopes', writes: [] },
    ...splitAsHeld(job, access.secrets),
    inheritsSecrets: false,
    dynamicSecrets: null,
    oidc: job.oidc,
    selfHosted: job.selfHosted,
    ...(job.runnerOpenToForks !== undefined ? { runnerOpenToForks: job.runnerOpenToForks } : {}),
    publishes: job.publishes,
    tokenWriter: access.token !== null ? job.tokenWriter : null,
  };
}
