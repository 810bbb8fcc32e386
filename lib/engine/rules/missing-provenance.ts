import { parseRefVersion, compareVersions, versionComment } from '../analysis/action-version.js';
import { publishesForReal, workflowPublishingSteps, type PublishingStep } from '../analysis/publishing.js';
import { isFullSha } from '../model/uses.js';
import type { RunModel } from '../analysis/run-model/index.js';
import type { Step, Workflow } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { scriptPipelines, words } from '../shell.js';
import { get, getText, isMap, keyText, scalarText } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

/** Actions that attest or sign what the workflow builds. */
const SIGNING_ACTIONS = new Set([
  'actions/attest-build-provenance',
  'actions/attest',
  'actions/attest-sbom',
  'slsa-framework/slsa-github-generator',
  'sigstore/cosign-installer',
  'sigstore/gh-action-sigstore-python',
  'crazy-max/ghaction-import-gpg',
  'rubygems/release-gem',
  'philips-labs/slsa-provenance-action',
  'astral-sh/attest-action',
]);

/**
 * Signing or attestation commands, and the settings that turn provenance on (`python -m pypi_attestations sign`
 * makes Sigstore attestations with the job's OIDC identity, which `twine upload --attestations` uploads to PyPI).
 */
const SIGNING_TEXT =
  /attest-build-provenance|\battestations\s*:\s*['"]?true|\bpypi[-_]attestations\s+sign\b|\btwine\b[^\n]*\s--attestations\b|\bcosign\s+(sign|attest)|\bgh\s+attestation\b|--provenance\b|\bNPM_CONFIG_PROVENANCE\s*:\s*['"]?true|\bsigstore\b|\bgpg-private-key\s*:|\b[A-Z_]*(GPG|SIGNING)_[A-Z_]*(KEY|PASSPHRASE|PASSWORD)\b/;

/** Signing commands whose program and flag may be apart on a line; checked line by line to stay linear. */
function signsOnALine(text: string): boolean {
  if (!/\b(gpg2?|minisign|signtool)\b/.test(text)) return false;
  return text.split('\n').some(
    (line) =>
      (/\bgpg2?\b/.test(line) && /--detach-sign|--clearsign|--sign\b|\s-[a-z]*b[a-z]*\s/.test(line)) ||
      (/\bminisign\b/.test(line) && /\s-S\b/.test(line)) ||
      (/\bsigntool\b/.test(line) && /\bsign\b/.test(line)),
  );
}

/** Whether a GitHub release step uploads files (a notes-only release has nothing to attest). */
function uploadsAssets(step: Step): boolean {
  if (step.usesRef?.kind === 'repository') {
    const slug = step.usesRef.slug;
    if (slug === 'actions/create-release') return false;
    if (slug === 'softprops/action-gh-release') return get(step.with, 'files') !== undefined;
    if (slug === 'ncipollo/release-action') return get(step.with, 'artifacts') !== undefined;
    return true;
  }
  const script = typeof step.run?.value === 'string' ? step.run.value : '';
  for (const pipeline of scriptPipelines(script)) {
    for (const command of pipeline.commands) {
      const list = words(command.text);
      const at = list.findIndex((w, i) => w === 'gh' && list[i + 1] === 'release');
      const verb = at === -1 ? undefined : list[at + 2];
      if (verb === 'upload') return true;
      if (verb !== 'create') continue;
      // `gh release create <tag> [files…]`: files are the positionals after the tag.
      const positionals: string[] = [];
      for (let i = at + 3; i < list.length; i++) {
        const word = list[i] ?? '';
        if (RELEASE_VALUE_OPTIONS.test(word)) i++;
        else if (!word.startsWith('-')) positionals.push(word);
      }
      // An unquoted `$FLAGS` may expand to options: count as files only words that look like paths.
      if (positionals.slice(1).some((w) => /[/*.]/.test(w))) return true;
    }
  }
  return /\bgoreleaser\b/.test(script);
}

const RELEASE_VALUE_OPTIONS = /^(-[tnFR]|--(title|notes|notes-file|target|discussion-category|notes-start-tag|repo))$/;

/** pypa/gh-action-pypi-publish uploads attestations by default since v1.11 when it publishes with trusted publishing. */
function pypiAttests(step: Step): boolean {
  if (step.usesRef?.kind !== 'repository') return false;
  if (get(step.with, 'password') !== undefined || getText(step.with, 'attestations')?.toLowerCase() === 'false') return false;
  const ref = step.usesRef.ref;
  const version = isFullSha(ref) && step.uses !== undefined ? versionComment(step.owner.file, step.uses) : parseRefVersion(ref.replace(/^release\//, ''));
  // A branch (`release/v1`) or an unlabelled SHA: the current release line, which attests.
  if (version === null || version.floating) return true;
  return compareVersions(version.parts, [1, 11, 0]) >= 0;
}

/** Provenance the publishing step produces itself. */
function stepHasProvenance(p: PublishingStep, workflow: Workflow): boolean {
  switch (p.registry) {
    case 'pypi':
      return pypiAttests(p.step);
    case 'npm':
      // npm publishes provenance with `--provenance`, `publishConfig.provenance` or trusted publishing, all of which need an OIDC token.
      return hasIdTokenWrite(workflow, p.step);
    case 'container':
      // docker/build-push-action and bake-action (BuildKit) add a provenance attestation unless `provenance: false`.
      return (p.evidence === 'docker/build-push-action' || p.evidence === 'docker/bake-action') && getText(p.step.with, 'provenance')?.toLowerCase() !== 'false';
    default:
      return false;
  }
}

function hasIdTokenWrite(workflow: Workflow, step: Step): boolean {
  const grants = (node: ReturnType<typeof get>): boolean => {
    if (node?.kind === 'scalar') return scalarText(node) === 'write-all';
    return isMap(node) && node.pairs.some((pair) => keyText(pair.key) === 'id-token' && scalarText(pair.value) === 'write');
  };
  return grants(workflow.permissions) || (step.job !== null && grants(step.job.permissions));
}

const signingStep = (s: Step): boolean => s.usesRef?.kind === 'repository' && SIGNING_ACTIONS.has(s.usesRef.slug);

/**
 * Whether the workflow attests or signs: in its own text, in a step that uses a signing action, or in one of the
 * repository's own composite actions its steps call (`uses: ./.github/actions/sign`, an action that runs `cosign
 * sign` and `cosign attest`), through their own calls: the run model's steps of each job (`calledSteps`).
 */
function signs(workflow: Workflow, runs: RunModel): boolean {
  if (SIGNING_TEXT.test(workflow.file.text) || signsOnALine(workflow.file.text)) return true;
  if (workflow.jobs.some((job) => (job.usesRef?.kind === 'repository' && SIGNING_ACTIONS.has(job.usesRef.slug)) || job.steps.some(signingStep))) return true;
  const read = new Set<string>();
  return workflow.jobs.some((job) =>
    runs.job(job).steps.some(({ step }) => {
      if (step.owner === workflow) return false;
      if (signingStep(step)) return true;
      const text = step.owner.file.text;
      if (read.has(step.owner.file.path)) return false;
      read.add(step.owner.file.path);
      return SIGNING_TEXT.test(text) || signsOnALine(text);
    }),
  );
}

export default defineWorkflowRule({
  meta: {
    id: 'missing-provenance',
    category: 'CICD-SEC-9',
    title: 'Release published without provenance',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A workflow publishes a package, image or release assets and nothing in it attests or signs them (`actions/attest-build-provenance`, the SLSA generator, `npm publish --provenance`, PyPI attestations, `cosign sign`, GPG), so users cannot check that an artifact was built from this repository by this workflow.',
    recommendation:
      'Add `actions/attest-build-provenance` after the build (with `id-token: write` and `attestations: write`), or use the registry\'s own provenance: `npm publish --provenance`, trusted publishing with pypa/gh-action-pypi-publish, `cosign sign` for images.',
  },
  create: (context) => ({
    workflow(workflow) {
      const published = workflowPublishingSteps(workflow).filter(
        // crates.io has no provenance or signature support to ask for.
        (p) => p.registry !== 'crates' && publishesForReal(p) && (p.registry !== 'github-release' || uploadsAssets(p.step)),
      );
      // Any attestation or signature the workflow makes counts: it usually covers the same artifacts.
      if (published.length === 0 || signs(workflow, context.runs) || published.some((p) => stepHasProvenance(p, workflow))) return;
      const first = published[0];
      if (first === undefined) return;
      const step = first.step;
      const run = step.run;
      const script = typeof run?.value === 'string' ? run.value : null;
      const at = script === null ? -1 : script.search(/\b(npm|pnpm|yarn|twine|poetry|uv|hatch|flit|pdm|cargo|gem|dotnet|nuget|mvn|gradlew?|docker|podman|buildah|gh|goreleaser)\b/);
      context.report({
        node: step.uses ?? run ?? step.node,
        offset: run !== undefined && step.uses === undefined && at >= 0 ? valueOffsetToSource(workflow.file, run, at) : undefined,
        job: step.job,
        message: `This workflow publishes with ${first.evidence}${
          step.name === null ? '' : ` (step \`${step.name}\`)`
        } but no step attests or signs what it publishes, so consumers cannot verify where the artifacts were built.`,
      });
    },
  }),
});

