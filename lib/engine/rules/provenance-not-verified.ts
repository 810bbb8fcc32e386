import { hasAll, hasAny, scriptOf, wordMask } from '../analysis/file-scripts.js';
import { publishesForReal, publishingStep } from '../analysis/publishing.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getText, type YNode } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { flatMap } from '../model/arrays.js';
import { copyImages, IMAGE_COPY, localTransport, WORD } from '../analysis/run-model/pushes.js';

/** Something the job takes in that another run, repository or registry produced. */
interface Intake {
  step: Step;
  /** What it is, for the message. */
  what: string;
  /** Offset in the `run:` value, when the intake is a command. */
  at?: number;
  /** The command itself writes what it read to a registry (an image copy): no later publish is needed. */
  republishes: boolean;
}

/** Registries on the runner itself or throwaway ones: a copy there is a test fixture, not a release. */
const SCRATCH_REGISTRY = /\b(?:localhost|127\.0\.0\.1)(?::\d+)?\/|\bttl\.sh\b|\bkind-registry\b/;
const RELEASE_DOWNLOAD = /\bgh\s+release\s+download\b/g;
/** `gh run download <id>` reads the artifacts of another run (the same run would use actions/download-artifact). */
const RUN_DOWNLOAD = /\bgh\s+run\s+download\b([^\n]*)/g;
const DOCKER_PULL = new RegExp(String.raw`\bdocker\s+(?:image\s+)?pull\s+(?:--\S+\s+)*(${WORD})`, 'g');
const DOCKER_TAG = new RegExp(String.raw`\bdocker\s+(?:image\s+)?tag\s+(${WORD})`, 'g');

/** Actions that fetch release assets or another run's artifacts. */
const FETCH_ACTIONS: Record<string, { what: string; when?: (step: Step) => boolean }> = {
  'actions/download-artifact': {
    what: "another run's artifacts (`actions/download-artifact` with `run-id`)",
    when: (s) => {
      const runId = getText(s.with, 'run-id');
      return runId !== null && !/github\.run_id/.test(runId);
    },
  },
  'dawidd6/action-download-artifact': { what: "another workflow run's artifacts (`dawidd6/action-download-artifact`)" },
  'dsaltares/fetch-gh-release-asset': { what: 'release assets (`dsaltares/fetch-gh-release-asset`)' },
  'robinraju/release-downloader': { what: 'release assets (`robinraju/release-downloader`)' },
};

/**
 * What counts as verifying: a provenance or signature check, or a checksum compared against a list
 * (`sha256sum -c`). Anywhere in the job: the check usually covers what the job fetched.
 */
const VERIFY_TEXT =
  /\bgh\s+(?:attestation\s+verify|release\s+verify(?:-asset)?)\b|\bcosign\s+verify(?:-blob|-attestation|-blob-attestation)?\b|\bslsa-verifier\b|\b(?:sha(?:1|224|256|384|512)sum|shasum)\b[^\n]*(?:\s-c\b|--check\b)|\bgpg2?\b[^\n]*--verify\b|\bminisign\b[^\n]*\s-V\b|\bnotation\s+verify\b|\bsigstore\b[^\n]*\bverify\b/;
/** `slsa-framework/slsa-verifier/actions/installer`: installed to verify. */
const VERIFY_ACTIONS = new Set(['slsa-framework/slsa-verifier']);

function script(step: Step): string | null {
  return typeof step.run?.value === 'string' ? step.run.value : null;
}

/** The words each intake pattern above needs in a script (file-scripts.ts): the patterns run only where they can match. */
const COPIES = wordMask('crane', 'skopeo', 'regctl', 'oras');
const GH_DOWNLOADS = wordMask('gh', 'download');
const DOCKER_PULLS = wordMask('docker', 'pull');
const DOCKER_TAGS = wordMask('docker', 'tag');
const ANY_INTAKE = wordMask('crane', 'skopeo', 'regctl', 'oras', 'gh', 'docker');

/** A literal `@sha256:` reference names exactly the bytes the maintainer chose: content-addressed, so verified. */
function pinnedByDigest(ref: string): boolean {
  return /@sha256:[0-9a-f]{64}\b/i.test(ref) && !ref.includes('${{');
}

/**
 * Whether an image reference is the repository owner's own (`first-party` or `local` in the run model: an image
 * or namespace the repository's workflows push to, the owner's namespace on ghcr.io / Docker Hub / Quay): a copy
 * of it between the owner's registries takes in nothing someone else published. Also true for an image the same
 * run pushed before `step` reads it (at `offset` of its script): its own output, read back to copy or retag.
 */
type Owned = (reference: string, step: Step, offset: number) => boolean;

function intakes(job: Job, owned: Owned): Intake[] {
  const found: Intake[] = [];
  const pulled: string[] = [];
  for (const step of job.steps) {
    const run = scriptOf(step);
    if (run !== null && hasAny(run.words, ANY_INTAKE)) {
      const text = run.text;
      if (hasAny(run.words, COPIES)) {
        for (const m of text.matchAll(IMAGE_COPY)) {
          const images = copyImages(m[2] ?? '');
          const source = (images[0] ?? '').replace(/^["']|["']$/g, '');
          if (source === '') continue;
          // From or to a local layout, archive or daemon (`skopeo copy oci:image:tag docker-daemon:app`): the job's own
          // files, or a copy that publishes nothing.
          if (localTransport(source) || (images.length >= 2 && localTransport(images[images.length - 1] ?? ''))) continue;
          if (pinnedByDigest(source) || SCRATCH_REGISTRY.test(text) || owned(source, step, m.index ?? 0)) continue;
          found.push({ step, what: `an image someone else publishes (\`${source.slice(0, 120)}\`, copied with \`${(m[1] ?? '').replace(/\s+/, ' ')}\`)`, at: m.index, republishes: true });
        }
      }
      if (hasAll(run.words, GH_DOWNLOADS)) {
        for (const m of text.matchAll(RELEASE_DOWNLOAD)) found.push({ step, what: 'release assets (`gh release download`)', at: m.index, republishes: false });
        for (const m of text.matchAll(RUN_DOWNLOAD)) {
          if (!/github\.run_id|GITHUB_RUN_ID/.test(m[1] ?? '')) found.push({ step, what: "another run's artifacts (`gh run download`)", at: m.index, republishes: false });
        }
      }
      // A pull of an image this run pushed reads back its own output.
      if (hasAll(run.words, DOCKER_PULLS)) for (const m of text.matchAll(DOCKER_PULL)) if (!pinnedByDigest(m[1] ?? '') && !owned((m[1] ?? '').replace(/^["']|["']$/g, ''), step, m.index ?? 0)) pulled.push(m[1] ?? '');
      // A pulled image retagged for a push: it is republished as it was pulled.
      if (pulled.length > 0 && hasAll(run.words, DOCKER_TAGS)) {
        for (const m of text.matchAll(DOCKER_TAG)) {
          const source = m[1] ?? '';
          if (pulled.includes(source) && !owned(source.replace(/^["']|["']$/g, ''), step, m.index ?? 0)) found.push({ step, what: `a pulled image retagged for this project (\`docker tag ${source}\`)`, at: m.index, republishes: false });
        }
      }
    }
    if (step.usesRef?.kind === 'repository') {
      const fetch = FETCH_ACTIONS[step.usesRef.slug];
      if (fetch !== undefined && step.usesRef.path === '' && (fetch.when?.(step) ?? true)) found.push({ step, what: fetch.what, republishes: false });
    }
  }
  return found;
}

function verifies(job: Job): boolean {
  return job.steps.some((s) => {
    const text = script(s);
    if (text !== null && VERIFY_TEXT.test(text)) return true;
    return s.usesRef?.kind === 'repository' && VERIFY_ACTIONS.has(s.usesRef.slug);
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'provenance-not-verified',
    category: 'CICD-SEC-9',
    title: 'Artifact republished without verifying where it came from',
    severity: 'LOW',
    surface: 'workflow',
    description:
      "A job publishes something it did not build: release assets it downloaded (`gh release download`, release-asset actions), another run's artifacts (`gh run download`, `actions/download-artifact` with `run-id`), or container images it copies between registries (`crane copy`, `skopeo copy`, `docker pull` + `docker tag`), and nothing in the job checks their provenance, signature or checksum (`gh attestation verify`, `cosign verify`, `slsa-verifier`, `sha256sum -c`), so a tampered artifact is shipped under the project's name.",
    recommendation:
      'Verify what the job takes in before it publishes it: `gh attestation verify <file> --repo <owner>/<repo>` for release assets and artifacts, `cosign verify` (or `gh attestation verify oci://...`) for images, or copy images by a digest the workflow names.',
  },
  create: (context) => ({
    job(job) {
      const taken = intakes(job, (reference, step, offset) => {
        const owner = context.runs.imageOwnershipOf(reference);
        // The owner's image, or one this very run pushed earlier (its own output, read back to copy or retag).
        return owner === 'first-party' || owner === 'local' || context.runs.imagePushedBefore(step, reference, offset) !== null;
      });
      if (taken.length === 0 || verifies(job)) return;
      const publishes = flatMap(job.steps, (s) => {
        const p = publishingStep(s);
        return p !== null && publishesForReal(p) ? [p] : [];
      });
      for (const intake of taken) {
        // The same step or a later one publishes (a step may download and upload in one script).
        const later = publishes.find((p) => p.step.index >= intake.step.index);
        const sink = intake.republishes ? 'pushes it to a registry of its own' : later === undefined ? null : `publishes with ${later.evidence}`;
        if (sink === null) continue;
        const run = intake.step.run;
        const node: YNode = intake.at !== undefined && run !== undefined ? run : (intake.step.uses ?? intake.step.node);
        context.report({
          node,
          offset: intake.at !== undefined && run !== undefined ? valueOffsetToSource(job.workflow.file, run, intake.at) : undefined,
          message: `This job takes in ${intake.what} and ${sink}, but no step verifies its provenance, signature or checksum, so whoever could alter it upstream (the release, the other run, the source registry) ships through this workflow.`,
        });
        // One finding per job: the fix (verify what the job takes in) is the same for every intake.
        return;
      }
    },
  }),
});
