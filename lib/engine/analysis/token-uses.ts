/**
 * Write scopes a step uses through what it publishes, which the per-action table (data/permissions.ts) cannot
 * tell by one input: excessive-permissions reads these before it calls a grant unused.
 *
 * - `id-token: write` for publishing with OIDC: npm trusted publishing and provenance through
 *   `changesets/action`'s `publish:` command (`changeset publish` runs `npm publish`, which from npm 11.5
 *   exchanges the job's OIDC token for a publish token when the registry trusts the workflow, and signs
 *   provenance with it), `js-devtools/npm-publish` without a `token:` (its OIDC mode), and a release tool
 *   (goreleaser) in a job that installs cosign, whose keyless signing takes the job's OIDC token.
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

/** GitHub Packages' container registries. */
const GITHUB_REGISTRY = /(?:^|[\s,/"'=])(?:ghcr\.io|docker\.pkg\.github\.com)\b/i;
/** The job's own token named in a value. */
const JOB_TOKEN = /\bgithub\.token\b|\bsecrets\.GITHUB_TOKEN\b/i;

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
  return null;
}
