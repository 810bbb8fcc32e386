import type { Job, Step, Workflow } from '../model/workflow.js';
import { hasAny, scriptOf, wordMask, type WordMask } from './file-scripts.js';
import { getText, isTruthy, get } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';
import { flatMap } from '../model/arrays.js';

export type Registry = 'npm' | 'pypi' | 'crates' | 'rubygems' | 'nuget' | 'maven' | 'container' | 'github-release' | 'other';

export interface PublishingStep {
  step: Step;
  registry: Registry;
  /** What gave it away, for finding messages: `npm publish`, `pypa/gh-action-pypi-publish` ... */
  evidence: string;
}

/**
 * Shell commands that publish a package, image or release. `needs`: words the script must contain for the
 * pattern to match, each mask at least one of its words (see file-scripts.ts), so most scripts run no pattern.
 */
const COMMANDS: { pattern: RegExp; registry: Registry; evidence: string; needs: WordMask[] }[] = [
  { pattern: /\b(npm|pnpm)\s+publish\b/, registry: 'npm', evidence: 'npm publish', needs: [wordMask('npm', 'pnpm'), wordMask('publish')] },
  { pattern: /\byarn\s+(npm\s+)?publish\b/, registry: 'npm', evidence: 'yarn publish', needs: [wordMask('yarn'), wordMask('publish')] },
  { pattern: /\bbun\s+publish\b/, registry: 'npm', evidence: 'bun publish', needs: [wordMask('bun'), wordMask('publish')] },
  { pattern: /\btwine\s+upload\b/, registry: 'pypi', evidence: 'twine upload', needs: [wordMask('twine'), wordMask('upload')] },
  {
    pattern: /\b(poetry|uv|hatch|flit|pdm)\s+publish\b/,
    registry: 'pypi',
    evidence: 'Python package publish',
    needs: [wordMask('poetry', 'uv', 'hatch', 'flit', 'pdm'), wordMask('publish')],
  },
  { pattern: /\bcargo\s+publish\b/, registry: 'crates', evidence: 'cargo publish', needs: [wordMask('cargo'), wordMask('publish')] },
  { pattern: /\bgem\s+push\b/, registry: 'rubygems', evidence: 'gem push', needs: [wordMask('gem'), wordMask('push')] },
  { pattern: /\b(dotnet\s+nuget|nuget)\s+push\b/, registry: 'nuget', evidence: 'nuget push', needs: [wordMask('nuget'), wordMask('push')] },
  { pattern: /\bmvn\b[^\n]*\bdeploy\b|\bgradlew?\b[^\n]*\bpublish\w*/, registry: 'maven', evidence: 'Maven/Gradle publish', needs: [wordMask('mvn', 'gradle', 'gradlew')] },
  {
    pattern: /\b(docker|podman|buildah)\s+(image\s+)?push\b|\bdocker\s+buildx\s+build\b[^\n]*--push\b/,
    registry: 'container',
    evidence: 'image push',
    needs: [wordMask('docker', 'podman', 'buildah'), wordMask('push')],
  },
  { pattern: /\bgh\s+release\s+(create|upload)\b/, registry: 'github-release', evidence: 'gh release', needs: [wordMask('gh'), wordMask('release')] },
  {
    pattern: /(?:^|[\s;&|(])goreleaser\s+(?:[^\n]*\s)?release\b/m,
    registry: 'github-release',
    evidence: 'goreleaser release',
    needs: [wordMask('goreleaser'), wordMask('release')],
  },
];

/** Any word some publishing command needs: a script with none of them publishes nothing. */
const ANY_COMMAND = wordMask('npm', 'pnpm', 'yarn', 'bun', 'twine', 'poetry', 'uv', 'hatch', 'flit', 'pdm', 'cargo', 'gem', 'nuget', 'mvn', 'gradle', 'gradlew', 'docker', 'podman', 'buildah', 'gh', 'goreleaser');

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

const stepCache = new ScanCache<Step, PublishingStep | null>();
const jobCache = new ScanCache<Job, readonly PublishingStep[]>();
const workflowCache = new ScanCache<Workflow, readonly PublishingStep[]>();

/** How a step publishes, or null (read once per step: several rules ask). */
export function publishingStep(step: Step): PublishingStep | null {
  const cached = stepCache.get(step);
  if (cached !== undefined) return cached;
  const result = readPublishingStep(step);
  stepCache.set(step, result);
  return result;
}

function readPublishingStep(step: Step): PublishingStep | null {
  const script = scriptOf(step);
  if (script !== null && hasAny(script.words, ANY_COMMAND)) {
    for (const command of COMMANDS) {
      if (command.needs.every((mask) => hasAny(script.words, mask)) && command.pattern.test(script.text)) {
        return { step, registry: command.registry, evidence: command.evidence };
      }
    }
  }
  if (step.usesRef?.kind === 'repository') {
    const slug = step.usesRef.slug;
    const known = ACTIONS[slug];
    if (known !== undefined && (known.when?.(step) ?? true)) return { step, registry: known.registry, evidence: slug };
  }
  return null;
}

/** The publishing steps of a job, in order (read once per job). */
export function publishingSteps(job: Job): readonly PublishingStep[] {
  let result = jobCache.get(job);
  if (result === undefined) {
    result = flatMap(job.steps, (s) => {
      const p = publishingStep(s);
      return p === null ? [] : [p];
    });
    jobCache.set(job, result);
  }
  return result;
}

/** Every publishing step of a workflow, in file order (read once per workflow). */
export function workflowPublishingSteps(workflow: Workflow): readonly PublishingStep[] {
  let result = workflowCache.get(workflow);
  if (result === undefined) {
    result = flatMap(workflow.jobs, (job) => publishingSteps(job));
    workflowCache.set(workflow, result);
  }
  return result;
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

/** `gh release create` options that take a value (the rest of its options are flags). */
const GH_RELEASE_VALUE_OPTIONS = new Set(['-t', '--title', '-n', '--notes', '-F', '--notes-file', '--target', '-R', '--repo', '--discussion-category', '--notes-start-tag', '--fail-on-no-commits']);

/** The words of a command line after `gh release create`, lines joined at `\`, quotes kept together. */
function ghReleaseCreateArgs(script: string): string[][] {
  const joined = script.replace(/\\\r?\n/g, ' ');
  const result: string[][] = [];
  for (const match of joined.matchAll(/\bgh\s+release\s+create\b([^\n;&|]{0,2000})/g)) {
    result.push([...(match[1] ?? '').matchAll(/"(?:[^"\\]|\\.)*"|'[^']*'|\S+/g)].map((m) => m[0]));
  }
  return result;
}

/**
 * True when a publishing step ships files a build produced, not only a tag or a release of the source: every
 * registry upload does; a GitHub release only with assets (`gh release create <tag> <files>`, `gh release
 * upload`, `files:` of softprops/action-gh-release, `artifacts:` of ncipollo/release-action, goreleaser,
 * svenstaro/upload-release-action). `gh release create v1 --generate-notes` and `actions/create-release`
 * publish the tagged source, which GitHub archives itself: no cache entry reaches it.
 */
export function shipsBuild(p: PublishingStep): boolean {
  if (p.registry !== 'github-release') return true;
  const script = p.step.run?.value;
  if (typeof script === 'string') {
    if (/\bgh\s+release\s+upload\b|\bgoreleaser\b/.test(script)) return true;
    return ghReleaseCreateArgs(script).some((args) => {
      const positional: string[] = [];
      for (let i = 0; i < args.length; i++) {
        const word = args[i] as string;
        if (word.startsWith('-')) {
          if (!word.includes('=') && GH_RELEASE_VALUE_OPTIONS.has(word)) i++;
          continue;
        }
        positional.push(word);
      }
      // The first is the tag; anything after it is an asset.
      return positional.length > 1;
    });
  }
  switch (p.evidence) {
    case 'softprops/action-gh-release':
      return get(p.step.with, 'files') !== undefined;
    case 'ncipollo/release-action':
      return get(p.step.with, 'artifacts') !== undefined;
    case 'actions/create-release':
      return false;
    default:
      return true;
  }
}
