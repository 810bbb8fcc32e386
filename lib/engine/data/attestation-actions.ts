/**
 * Steps that produce signed provenance or signatures with the job's OIDC identity (Sigstore keyless
 * signing): they need `id-token: write`. Each entry says where its requirement is documented.
 */
export interface AttestingAction {
  slug: string;
  source: string;
}

export const ATTESTING_ACTIONS: readonly AttestingAction[] = [
  { slug: 'actions/attest-build-provenance', source: 'https://github.com/actions/attest-build-provenance#usage' },
  { slug: 'actions/attest', source: 'https://github.com/actions/attest#usage' },
  { slug: 'actions/attest-sbom', source: 'https://github.com/actions/attest-sbom#usage' },
  { slug: 'sigstore/gh-action-sigstore-python', source: 'https://github.com/sigstore/gh-action-sigstore-python#usage' },
  { slug: 'astral-sh/attest-action', source: 'https://github.com/astral-sh/attest-action' },
];

/** Reusable workflows that build and attest in an isolated job (SLSA Build L3): the provenance is not forgeable by the caller's steps. */
export const ISOLATED_BUILDERS: readonly AttestingAction[] = [
  { slug: 'slsa-framework/slsa-github-generator', source: 'https://github.com/slsa-framework/slsa-github-generator#generation-of-slsa3-provenance' },
];

const COSIGN_SIGN = /\bcosign\s+(?:sign|attest|sign-blob|attest-blob)\b/;
/** A key, a hardware key or an identity token given explicitly: the job's OIDC token is not used. */
const OWN_IDENTITY = /--(?:key|sk|identity-token)\b/;

/** Whether a script signs or attests with `cosign` keylessly, with the job's OIDC identity (a command continued over lines with `\` read whole). */
export function signsKeylessly(script: string): boolean {
  return script.replace(/\\\r?\n/g, ' ').split('\n').some((line) => COSIGN_SIGN.test(line) && !OWN_IDENTITY.test(line));
}
export const KEYLESS_COMMAND_SOURCE = 'https://docs.sigstore.dev/cosign/signing/overview/';
