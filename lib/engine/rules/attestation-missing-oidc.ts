import { hasAny, scriptOf, wordMask } from '../analysis/file-scripts.js';
import { readPermissions } from '../analysis/permissions.js';
import { ATTESTING_ACTIONS, ISOLATED_BUILDERS, signsKeylessly } from '../data/attestation-actions.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import type { YScalar } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';

const mintCache = new ScanCache<Job, boolean>();

/** Whether the job's token may mint an OIDC token (read once per job: every step asks). */
function mayMintOidc(job: Job): boolean {
  let result = mintCache.get(job);
  if (result === undefined) {
    result = readMayMintOidc(job);
    mintCache.set(job, result);
  }
  return result;
}

/** Keyless signing in a script needs `cosign` among its words (file-scripts.ts). */
const COSIGN = wordMask('cosign');

/** Whether the job's token may mint an OIDC token: `id-token: write`, `write-all`, or an expression (unknown). */
function readMayMintOidc(job: Job): boolean {
  const node = job.permissions ?? job.workflow.permissions;
  // Without any `permissions:`, the default token never includes `id-token: write`.
  if (node === undefined) return false;
  const permissions = readPermissions(node);
  if (permissions.kind === 'write-all' || permissions.kind === 'other') return true;
  if (permissions.kind !== 'scopes') return false;
  return permissions.writes.some((w) => w.scope === 'id-token');
}

/** What in a step signs keylessly, or null. */
function keylessSigner(step: Step): { node: YScalar; what: string } | null {
  const ref = step.usesRef;
  if (ref?.kind === 'repository' && step.uses !== undefined) {
    const slug = ref.slug;
    if (ATTESTING_ACTIONS.some((a) => a.slug === slug)) return { node: step.uses, what: `\`${slug}\`` };
  }
  const script = scriptOf(step);
  if (script !== null && hasAny(script.words, COSIGN) && signsKeylessly(script.text)) {
    return { node: script.run, what: 'keyless `cosign` signing' };
  }
  return null;
}

export default defineWorkflowRule({
  meta: {
    id: 'attestation-missing-oidc',
    category: 'CICD-SEC-9',
    title: 'Attestation or keyless signing without id-token: write',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A job attests or signs keylessly (`actions/attest-build-provenance`, `actions/attest`, Sigstore, `cosign sign`/`attest` without `--key`) or calls the SLSA generator, but its token cannot mint an OIDC token (`id-token: write` missing): the signing step fails, or the release ships without the provenance it was meant to carry.',
    recommendation:
      'Grant `id-token: write` (and `attestations: write` for GitHub attestations) to that job only, not to the whole workflow.',
  },
  create: (context) => ({
    job(job) {
      if (mayMintOidc(job)) return;
      const ref = job.usesRef;
      if (ref?.kind === 'repository' && job.uses !== undefined && ISOLATED_BUILDERS.some((b) => b.slug === ref.slug)) {
        context.report({
          node: job.uses,
          message: `Job \`${job.id}\` calls the SLSA generator without granting \`id-token: write\`; the generator cannot sign the provenance.`,
        });
      }
    },
    step(step) {
      const job = step.job;
      if (job === null || mayMintOidc(job)) return;
      const signer = keylessSigner(step);
      if (signer === null) return;
      context.report({
        node: signer.node,
        message: `Job \`${job.id}\` uses ${signer.what}, which signs with the job's OIDC identity, but the job's token lacks \`id-token: write\`.`,
        key: `${job.id}:${step.index}`,
      });
    },
  }),
});
