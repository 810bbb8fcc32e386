import { publishingStep } from '../analysis/publishing.js';
import { ATTESTING_ACTIONS } from '../data/attestation-actions.js';
import { defineWorkflowRule } from '../rule.js';

/** `actions/attest*` steps that attest provenance (an SBOM attestation says what is inside, not how it was built). */
const PROVENANCE_ACTIONS = new Set(ATTESTING_ACTIONS.map((a) => a.slug).filter((slug) => slug !== 'actions/attest-sbom'));

export default defineWorkflowRule({
  meta: {
    id: 'provenance-not-isolated',
    category: 'CICD-SEC-9',
    title: 'Provenance attested in the job that builds',
    severity: 'INFO',
    surface: 'workflow',
    description:
      'A job attests build provenance (`actions/attest-build-provenance`, `actions/attest`, Sigstore) after running its own build commands: every command of the build (and every dependency it runs) holds the same OIDC identity and could sign a provenance statement for something else. SLSA Build Level 3 needs the provenance produced by an isolated job the build cannot influence.',
    recommendation:
      'Build in one job, pass the artifact digests as job outputs, and attest in a separate job that runs no build code, or use the isolated SLSA generator (`slsa-framework/slsa-github-generator`).',
  },
  create: (context) => ({
    job(job) {
      const attest = job.steps.find((s) => s.usesRef?.kind === 'repository' && PROVENANCE_ACTIONS.has(s.usesRef.slug));
      if (attest?.uses === undefined) return;
      // Build code ran earlier in the same job, other than the publishing commands themselves: the run model's
      // executions of the workspace (a build tool in a directory, a script by its path, a local action), on the
      // job's checkout or on a source tree another job handed over. A job that only downloads what another job
      // built (artifacts, digests) or attests an image pushed elsewhere, and runs no build, does not build what it
      // attests.
      const runs = context.runs;
      const run = runs.job(job);
      const built = run.executions.some((t) => {
        // Scripts only, as before: a publishing command (`npm publish`) ships what was built.
        if (t.step.index >= attest.index || t.step.job !== job || t.step.run === undefined || publishingStep(t.step) !== null) return false;
        // A registry package is not the job's source; a downloaded program run by its path is another job's build.
        return t.execution.kind !== 'registry' && !(t.code?.kind === 'download' && t.execution.kind === 'file');
      });
      if (!built) return;
      context.report({
        node: attest.uses,
        message: `Job \`${job.id}\` attests provenance in the same job that ran its build scripts: code of the build holds the identity that signs the provenance.`,
      });
    },
  }),
});
