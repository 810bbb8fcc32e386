import type { Job, Step, Workflow } from '../model/workflow.js';
import { actionSlug } from '../model/uses.js';
import { getText, isTruthy, get } from '../yaml/model.js';

export type Registry = 'npm' | 'pypi' | 'crates' | 'rubygems' | 'nuget' | 'maven' | 'container' | 'github-release' | 'other';

export interface PublishingStep {
  step: Step;
  registry: Registry;
  /** What gave it away, for finding messages: `npm publish`, `pypa/gh-action-pypi-publish` ... */
  evidence: string;
}

/** Shell commands that publish a package, image or release. */
const COMMANDS: { pattern: RegExp; registry: Registry; evidence: string }[] = [
  { pattern: /\b(npm|pnpm)\s+publish\b/, registry: 'npm', evidence: 'npm publish' },
  { pattern: /\byarn\s+(npm\s+)?publish\b/, registry: 'npm', evidence: 'yarn publish' },
  { pattern: /\bbun\s+publish\b/, registry: 'npm', evidence: 'bun publish' },
  { pattern: /\btwine\s+upload\b/, registry: 'pypi', evidence: 'twine upload' },
  { pattern: /\b(poetry|uv|hatch|flit|pdm)\s+publish\b/, registry: 'pypi', evidence: 'Python package publish' },
  { pattern: /\bcargo\s+publish\b/, registry: 'crates', evidence: 'cargo publish' },
  { pattern: /\bgem\s+push\b/, registry: 'rubygems', evidence: 'gem push' },
  { pattern: /\b(dotnet\s+nuget|nuget)\s+push\b/, registry: 'nuget', evidence: 'nuget push' },
  { pattern: /\bmvn\b[^\n]*\bdeploy\b|\bgradlew?\b[^\n]*\bpublish\w*/, registry: 'maven', evidence: 'Maven/Gradle publish' },
  { pattern: /\b(docker|podman|buildah)\s+(image\s+)?push\b|\bdocker\s+buildx\s+build\b[^\n]*--push\b/, registry: 'container', evidence: 'image push' },
  { pattern: /\bgh\s+release\s+(create|upload)\b/, registry: 'github-release', evidence: 'gh release' },
  { pattern: /(?:^|[\s;&|(])goreleaser\s+(?:[^\n]*\s)?release\b/m, registry: 'github-release', evidence: 'goreleaser release' },
];

/** Actions that publish. `when` narrows actions that publish only with some input. */
const ACTIONS: Record<string, { registry: Registry; when?: (step: Step) => boolean }> = {
  'pypa/gh-action-pypi-publish': { registry: 'pypi' },
  'js-devtools/npm-publish': { registry: 'npm' },
  'changesets/action': { registry: 'npm', when: (s) => getText(s.with, 'publish') !== null },
  'rubygems/release-gem': { registry: 'rubygems' },
  'rust-lang/crates-io-auth-action': { registry: 'crates' },
  'docker/build-push-action': { registry: 'container', when: (s) => isTruthy(get(s.with, 'push')) || /\$\{\{/.test(getText(s.with, 'push') ?? '') },
  'docker/bake-action': { registry: 'container', when: (s) => isTruthy(get(s.with, 'push')) || /\$\{\{/.test(getText(s.with, 'push') ?? '') },
  'elgohr/publish-docker-github-action': { registry: 'container' },
  'redhat-actions/push-to-registry': { registry: 'container' },
  'softprops/action-gh-release': { registry: 'github-release' },
  'ncipollo/release-action': { registry: 'github-release' },
  'goreleaser/goreleaser-action': { registry: 'github-release' },
  'actions/create-release': { registry: 'github-release' },
  'svenstaro/upload-release-action': { registry: 'github-release' },
  'gradle/gradle-build-action': { registry: 'maven', when: (s) => /publish/.test(getText(s.with, 'arguments') ?? '') },
};

/** How a step publishes, or null. */
export function publishingStep(step: Step): PublishingStep | null {
  if (step.run !== undefined && typeof step.run.value === 'string') {
    for (const command of COMMANDS) {
      if (command.pattern.test(step.run.value)) return { step, registry: command.registry, evidence: command.evidence };
    }
  }
  if (step.usesRef?.kind === 'repository') {
    const slug = actionSlug(step.usesRef);
    const known = ACTIONS[slug];
    if (known !== undefined && (known.when?.(step) ?? true)) return { step, registry: known.registry, evidence: slug };
  }
  return null;
}

export function publishingSteps(job: Job): PublishingStep[] {
  return job.steps.flatMap((s) => {
    const p = publishingStep(s);
    return p === null ? [] : [p];
  });
}

/** Every publishing step of a workflow, in file order. */
export function workflowPublishingSteps(workflow: Workflow): PublishingStep[] {
  return workflow.jobs.flatMap(publishingSteps);
}

/** Triggered by tags or releases: `push: tags`, `release`, or `registry_package`. */
export function isReleaseTriggered(workflow: Workflow): boolean {
  return workflow.triggers.some(
    (t) => t.name === 'release' || t.name === 'registry_package' || (t.name === 'push' && get(t.config, 'tags') !== undefined),
  );
}

/** Flags and targets that make a publish command a rehearsal: nothing reaches a real registry. */
const REHEARSAL = /--dry-run\b|--snapshot\b|--skip[-=]publish\b|\bgoreleaser\s+(check|build)\b|\b(localhost|127\.0\.0\.1)(:\d+)?\b|\bttl\.sh\b/;

/**
 * False for publishing steps that only rehearse: `npm publish --dry-run`, `cargo publish --dry-run`,
 * goreleaser `--snapshot`/`check`/`build`/`install-only`, pushes to a registry on the runner itself or
 * to the throwaway `ttl.sh`. The evidence of `publishingStep` is kept as it is; callers that care about real releases
 * (provenance, signing) filter with this.
 */
export function publishesForReal(p: PublishingStep): boolean {
  if (typeof p.step.run?.value === 'string') return !REHEARSAL.test(p.step.run.value);
  if (p.evidence === 'goreleaser/goreleaser-action' && isTruthy(get(p.step.with, 'install-only'))) return false;
  if (p.evidence === 'goreleaser/goreleaser-action') {
    const args = getText(p.step.with, 'args') ?? '';
    return !REHEARSAL.test(args) && !/^\s*(check|build)\b/.test(args);
  }
  return true;
}
