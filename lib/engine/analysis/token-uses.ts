/**
 * Write scopes a step uses through what it publishes, which the per-action table (data/permissions.ts) cannot
 * tell by one input: excessive-permissions reads these before it calls a grant unused.
 *
 * - `id-token: write` for publishing with OIDC: npm trusted publishing and provenance through
 *   `changesets/action`'s `publish:` command (`changeset publish` runs `npm publish`, which from npm 11.5
 *   exchanges the job's OIDC token for a publish token when the registry trusts the workflow, and signs
 *   provenance with it), `js-devtools/npm-publish` without a `token:` (its OIDC mode), and a release tool
 *   (goreleaser) in a job that installs cosign, whose keyless signing takes the job's OIDC token, or a real goreleaser
 *   release (not `--snapshot`), whose configuration (not read here) can publish to npm with trusted publishing.
 * - `packages: write` for pushing images to GitHub's container registry: `docker/build-push-action` or
 *   `docker/bake-action` pushing a tag on `ghcr.io` (its `tags:`, or the images of the `docker/metadata-action`
 *   step whose tags it takes), `redhat-actions/push-to-registry` to `ghcr.io`, or any such push in a job that
 *   logs in to `ghcr.io` with the job's own token.
 *
 * `${{ env.X }}` in the inputs read is replaced by the literal `env:` the step sees (its own, its job's, its
 * workflow's).
 */
import type { Job, Step } from '../model/workflow.js';
import { get, getText, isTruthy } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';
import { visibleEnv } from './step-env.js';
import { stepExecutions } from './run-model/execution.js';
import { checkoutPersists } from './run-model/workspace.js';
import { actionPermissions } from '../data/permissions.js';
import { isCheckoutAction } from '../model/uses.js';

/** GitHub Packages' container registries. */
const GITHUB_REGISTRY = /(?:^|[\s,/"'=])(?:ghcr\.io|docker\.pkg\.github\.com)\b/i;
/** The job's own token named in a value: `github.token`, `secrets.GITHUB_TOKEN` (not a token another step minted). */
export const JOB_TOKEN = /\bgithub\.token\b|\bsecrets\.GITHUB_TOKEN\b/i;

/** An input's value with `${{ env.X }}` replaced by the literal `env:` value the step sees. */
export function inputWithEnv(step: Step, input: string): string | null {
  const value = getText(step.with, input);
  return value === null ? null : withEnv(step, value);
}

function withEnv(step: Step, value: string): string {
  return value.replace(/\$\{\{\s*env\.([\w-]+)\s*\}\}/g, (all, name: string) => {
    for (const env of [step.env, step.job?.env, step.job?.workflow.env]) {
      const found = getText(env, name);
      if (found !== null) return found;
    }
    return all;
  });
}

function slugOf(step: Step): string | null {
  const ref = step.usesRef;
  return ref?.kind === 'repository' ? (ref.path === '' ? ref.slug : `${ref.slug}/${ref.path.toLowerCase()}`) : null;
}

/** An action input that pushes: true as written, or an expression that is on for some runs. */
function pushes(step: Step): boolean {
  return isTruthy(get(step.with, 'push')) || /\$\{\{/.test(getText(step.with, 'push') ?? '');
}

const loginCache = new ScanCache<Job, boolean>();

/** True when a step of the job logs in to `ghcr.io` with the job's own token (`docker/login-action`, `docker login`). */
function logsInToGitHubRegistry(job: Job): boolean {
  let found = loginCache.get(job);
  if (found !== undefined) return found;
  found = job.steps.some((step) => {
    if (slugOf(step) === 'docker/login-action') {
      const registry = inputWithEnv(step, 'registry') ?? '';
      return GITHUB_REGISTRY.test(` ${registry}`) && JOB_TOKEN.test(getText(step.with, 'password') ?? '');
    }
    const script = typeof step.run?.value === 'string' ? step.run.value : '';
    if (!/\b(?:docker|podman|helm\s+registry|oras|crane\s+auth)\s+login\b/.test(script)) return false;
    const env = step.owner.file.text.slice(step.node.start, step.node.end);
    return GITHUB_REGISTRY.test(` ${withEnv(step, script)}`) && (JOB_TOKEN.test(env) || /\$\{?GITHUB_TOKEN\b/.test(script));
  });
  loginCache.set(job, found);
  return found;
}

/** Why a step uses `packages: write` by pushing to GitHub's container registry, or null. */
export function githubPackagesPush(step: Step): string | null {
  const slug = slugOf(step);
  const job = step.job;
  if (slug === 'docker/build-push-action' || slug === 'docker/bake-action') {
    if (!pushes(step)) return null;
    const tags = inputWithEnv(step, 'tags') ?? '';
    const images: string[] = [tags];
    const meta = /\$\{\{\s*steps\.([\w-]+)\.outputs\.tags\s*\}\}/.exec(tags);
    const metaStep = meta === null || job === null ? undefined : job.steps.find((s) => s.id === meta[1]);
    if (metaStep !== undefined) images.push(inputWithEnv(metaStep, 'images') ?? '');
    if (images.some((text) => GITHUB_REGISTRY.test(` ${text.replace(/\$\{\{\s*github\.repository(?:_owner)?\s*\}\}/g, 'x')}`))) return `${slug} pushes to ghcr.io`;
    return job !== null && logsInToGitHubRegistry(job) ? `${slug} pushes after a login to ghcr.io with the job's token` : null;
  }
  if (slug === 'redhat-actions/push-to-registry') return GITHUB_REGISTRY.test(` ${inputWithEnv(step, 'registry') ?? ''}`) ? `${slug} pushes to ghcr.io` : null;
  return null;
}

/** Why a step uses `id-token: write` to publish or sign with OIDC, or null. */
export function oidcPublish(step: Step): string | null {
  const slug = slugOf(step);
  if (slug === 'changesets/action' && (getText(step.with, 'publish') ?? '').trim() !== '') return 'changesets/action publishes (npm trusted publishing and provenance take the OIDC token)';
  if (slug === 'js-devtools/npm-publish' && (getText(step.with, 'token') ?? '').trim() === '') return 'js-devtools/npm-publish publishes with OIDC (no token given)';
  const job = step.job;
  const releases = slug === 'goreleaser/goreleaser-action' || (typeof step.run?.value === 'string' && /\bgoreleaser\s+release\b/.test(step.run.value));
  if (releases && job !== null && job.steps.some((s) => slugOf(s) === 'sigstore/cosign-installer')) return 'goreleaser signs with cosign, whose keyless signing takes the OIDC token';
  // A real release (not `--snapshot`): what goreleaser publishes is in its configuration file, which the scan does not
  // read, and its npm publishing (`npms:`) uses npm trusted publishing, which takes the OIDC token
  // (https://goreleaser.com/customization/npm/).
  const args = slug === 'goreleaser/goreleaser-action' ? (getText(step.with, 'args') ?? '') : typeof step.run?.value === 'string' ? step.run.value : '';
  if (releases && /\brelease\b/.test(args) && !/--snapshot\b/.test(args)) return "goreleaser releases with a configuration the scan does not read, whose npm publishing takes the OIDC token (trusted publishing)";
  return null;
}

/**
 * Action inputs named for a GitHub token (`github-token`, `repo-token`, `github_token`, `githubToken`,
 * `gh-token`): where an action takes the credential it acts on GitHub with, `${{ github.token }}` by default.
 * A bare `token` is the GitHub token of the actions the permissions table knows, and of others only when its
 * value is one (`githubCredential`): a service's own `token:` (a coverage or benchmark upload) is not.
 */
const GITHUB_TOKEN_INPUT = /^(?:github|repo|gh)[-_]?token$/i;
/**
 * True when `key` is an input through which the action of `step` takes a GitHub token: one named for it
 * (`github-token`, `repo-token`, `GITHUB_TOKEN`, `githubToken`), or a bare `token` of an action of GitHub's
 * (`actions/*`, `github/*`) or of one the permissions table lists as acting on the repository with it
 * (`peter-evans/create-pull-request`). A service's own `token:` is not (`codecov/codecov-action`'s is Codecov's,
 * and the table gives it no scope).
 */
export function takesGithubToken(step: Step, key: string): boolean {
  if (GITHUB_TOKEN_INPUT.test(key)) return true;
  if (!/^token$/i.test(key)) return false;
  const slug = slugOf(step);
  if (slug === null) return false;
  if (/^(?:actions|github)\//.test(slug)) return true;
  return Object.keys(actionPermissions(slug)?.scopes ?? {}).some((scope) => scope !== 'id-token');
}
/** Secrets named for GitHub, a bot, an app or a personal access token (`GH_PAT`, `BOT_TOKEN`, `RELEASE_APP_TOKEN`). */
const GITHUB_SECRET = /\bsecrets\.[\w-]*(?:GH|GITHUB|PAT|BOT|APP)[\w-]*/i;
/** Actions that mint a token (`actions/create-github-app-token`, `tibdex/github-app-token`): their output is a GitHub token. */
const TOKEN_MINTER = /token/i;

/** True when a value is a GitHub credential other than the job's: a token a minting step output, or a secret named for it. */
function githubCredential(step: Step, value: string): boolean {
  if (GITHUB_SECRET.test(value)) return true;
  const output = /\bsteps\.([\w-]+)\.outputs\.[\w-]*token\b/i.exec(value);
  const minter = output === null ? undefined : step.job?.steps.find((s) => s.id === output[1]);
  return minter !== undefined && TOKEN_MINTER.test(slugOf(minter) ?? '');
}
/** A value that is a token: an expression (a step's output, a secret), not a literal word. */
const EXPRESSION = /\$\{\{[^}]*\}\}/;
/** Variables `gh` (and the tools that follow its convention) read the token from, in that order. */
const GH_ENV = ['GH_TOKEN', 'GITHUB_TOKEN'] as const;
/** A script that talks to a remote with the credentials a checkout left (a push), or runs code that may. */
const GIT_WRITE = /\bgit\b[^\n;&|]*\s(?:push|tag)\b/;
/** Build tools and interpreters, which may run code that pushes. */
const RUNS_CODE = /(?:^|[\s;&|(])(?:make|just|task|rake|npm\s+run|yarn|pnpm|bun\s+run|npx|node|python3?|bash|sh|go\s+run|cargo\s+run)\b/m;
/** Tools that reach GitHub through their own credentials (a registry login), not `gh`'s. */
const REGISTRY_PUSH = /\b(?:docker|podman|buildah)\s+push\b|\bpublish\b|\b(?:semantic-release|release-it|goreleaser|changeset|lerna)\b/i;

/** The `env:` a step sees: its own over its job's over its workflow's, value text by name. */
function stepEnv(step: Step): Map<string, string> {
  const text = step.owner.file.text;
  return visibleEnv(step, (_, pair) => text.slice(pair.value.start, pair.value.end));
}

/** True when the job's own token reaches the step by name: in its inputs, its script or any `env:` it sees. */
function seesJobToken(step: Step): boolean {
  const text = step.owner.file.text;
  for (const node of [step.with, step.run]) if (node !== undefined && JOB_TOKEN.test(text.slice(node.start, node.end))) return true;
  for (const value of stepEnv(step).values()) if (JOB_TOKEN.test(value)) return true;
  return false;
}

/**
 * True when a step before `step` in its job leaves the job's token where git finds it: an `actions/checkout`
 * that persists its default credential (no `token:` other than the job's, `persist-credentials` not false), or
 * a step that names the job's token while it configures git (`gh auth setup-git`, `git config`, `git remote`).
 */
function jobTokenPersisted(step: Step): boolean {
  const job = step.job;
  if (job === null) return true;
  for (const earlier of job.steps.slice(0, step.index)) {
    if (isCheckoutAction(earlier.usesRef)) {
      if (!checkoutPersists(earlier)) continue;
      const token = getText(earlier.with, 'token') ?? '';
      if (!EXPRESSION.test(token) || JOB_TOKEN.test(token)) return true;
      continue;
    }
    const script = typeof earlier.run?.value === 'string' ? earlier.run.value : '';
    if (/\bgh\s+auth\b|\bgit\s+(?:config|remote)\b|\bsetup-git\b/.test(script) && seesJobToken(earlier)) return true;
  }
  return false;
}

/**
 * The other token a step acts on GitHub with, when every GitHub credential it holds is one (a GitHub App
 * installation token minted by `actions/create-github-app-token`, a personal access token in a secret), so
 * that it uses none of its job token's scopes; null when it may use the job's token:
 *
 * - an action given another token in its GitHub token input (`github-token:`, `repo-token:`, ...; a bare
 *   `token:` of an action the permissions table knows, or set to a minted token or a secret named for GitHub),
 *   with the job's token named in none of its inputs or `env:` (an action without that input reads
 *   `${{ github.token }}`, its action.yml default);
 * - a script whose `gh` reads another token (`GH_TOKEN`, else `GITHUB_TOKEN`, in the `env:` it sees) and that
 *   names the job's token nowhere, pushes to no registry and publishes nothing, and, when it pushes with git
 *   or runs a file that may, after no step left the job's token for git (a checkout without `token:`).
 *
 * The value named is the expression as written (`steps.app.outputs.token`).
 */
export function otherTokenOnly(step: Step): string | null {
  let found = otherTokenCache.get(step);
  if (found === undefined) {
    found = readOtherToken(step);
    otherTokenCache.set(step, found);
  }
  return found;
}

/** `otherTokenOnly` per step: excessive-permissions asks it per step per scope, and each answer walks the earlier steps. */
const otherTokenCache = new ScanCache<Step, string | null>();

function readOtherToken(step: Step): string | null {
  if (seesJobToken(step)) return null;
  const text = step.owner.file.text;
  if (step.usesRef !== undefined) {
    if (step.usesRef.kind !== 'repository') return null;
    const known = actionPermissions(slugOf(step) ?? '') !== undefined;
    const given = (step.with?.pairs ?? []).find((p) => {
      const name = String(p.key.value ?? '');
      const value = text.slice(p.value.start, p.value.end);
      if (!EXPRESSION.test(value)) return false;
      return GITHUB_TOKEN_INPUT.test(name) || (/^token$/i.test(name) && (known || githubCredential(step, value)));
    });
    return given === undefined ? null : tokenName(text.slice(given.value.start, given.value.end));
  }
  const script = typeof step.run?.value === 'string' ? step.run.value : null;
  if (script === null || REGISTRY_PUSH.test(script)) return null;
  const env = stepEnv(step);
  const name = GH_ENV.find((n) => env.has(n));
  const value = name === undefined ? undefined : env.get(name);
  if (value === undefined || !EXPRESSION.test(value)) return null;
  // git, and a file of the repository's or a build tool that may run it, take the credentials a checkout left.
  if (GIT_WRITE.test(script) || RUNS_CODE.test(script) || stepExecutions(step).some((e) => e.kind === 'file')) {
    if (jobTokenPersisted(step)) return null;
  }
  return tokenName(value);
}

/** `steps.app.outputs.token` from `${{ steps.app.outputs.token }}`; the text itself when it is not one expression. */
function tokenName(value: string): string {
  const one = /^\s*["']?\$\{\{\s*([^}]*?)\s*\}\}["']?\s*$/.exec(value);
  return one?.[1] ?? value.trim();
}
