/**
 * A dated snapshot of GitHub Security Advisories for the GitHub Actions ecosystem, shipped as data so
 * scans stay offline and deterministic. Sources: the GitHub Advisory Database (ecosystem "actions") and
 * the maintainers' own advisories, checked by hand. Advisories rated low by GitHub are left out, and so
 * are those about a repository's own workflows rather than an action others use.
 *
 * Refresh: add an entry per new advisory (and per action it names), then bump ADVISORY_SNAPSHOT_DATE.
 */
export const ADVISORY_SNAPSHOT_DATE = '2026-11-22';

export interface ActionAdvisory {
  /** The GHSA id. */
  id: string;
  cve: string | null;
  /** `owner/repo`, lower case. Sub-path actions (`owner/repo/sub@v1`) share the repository's advisories. */
  action: string;
  /** One line: what is wrong with the affected versions. */
  summary: string;
  /** Affected versions as `[introduced, fixed)` ranges; `fixed` absent when no release fixes it. */
  ranges: { introduced: string; fixed?: string }[];
  /** Tags the advisory names one by one (compared without a leading `v`). */
  versions?: string[];
  /** Commits known to carry malicious code: affected however they are referenced. */
  commits?: string[];
  /**
   * A compromise moved tags to malicious commits: a tag in the range may have run that code, but a SHA pin
   * of a genuine release did not, so SHA pins match only the listed `commits`.
   */
  compromise: boolean;
  /** The first safe version, for the recommendation. */
  upgrade: string;
}

export const ACTION_ADVISORIES: readonly ActionAdvisory[] = [
  {
    id: 'GHSA-mrrh-fwg8-r2c3',
    cve: 'CVE-2025-30066',
    action: 'tj-actions/changed-files',
    summary: 'supply-chain compromise (March 2025): every tag up to v45.0.7 was repointed to a commit that dumped CI secrets into the workflow log',
    ranges: [{ introduced: '0', fixed: '46.0.1' }],
    commits: ['0e58ed8671d6b60d0890c21b07f8835ace038e67'],
    compromise: true,
    upgrade: '46.0.1',
  },
  {
    id: 'GHSA-mcph-m25j-8j63',
    cve: 'CVE-2023-51664',
    action: 'tj-actions/changed-files',
    summary: 'changed file names are returned unescaped, so a crafted file name injects commands into steps that use the outputs',
    ranges: [{ introduced: '0', fixed: '41.0.0' }],
    compromise: false,
    upgrade: '41.0.0',
  },
  {
    id: 'GHSA-qmg3-hpqr-gqvc',
    cve: 'CVE-2025-30154',
    action: 'reviewdog/action-setup',
    summary: 'supply-chain compromise (11 March 2025, 18:42-20:31 UTC): the v1 tag pointed to a commit that dumped CI secrets into the workflow log',
    ranges: [],
    versions: ['1'],
    commits: ['f0d342d24037bb11d26b9bd8496e0808ba32e9ec'],
    compromise: true,
    upgrade: 'a full commit SHA of a release made after the incident (v1 was retagged to 3f401fe1d58fe77e10d665ab713057375e39b887)',
  },
  {
    id: 'GHSA-8v8w-v8xg-79rf',
    cve: 'CVE-2023-49291',
    action: 'tj-actions/branch-names',
    summary: 'branch names are echoed unsanitised, so a crafted branch name injects commands',
    ranges: [{ introduced: '0', fixed: '7.0.7' }],
    compromise: false,
    upgrade: '9.0.0',
  },
  {
    id: 'GHSA-gq52-6phf-x2r6',
    cve: 'CVE-2025-54416',
    action: 'tj-actions/branch-names',
    summary: 'outputs are unescaped with `eval printf`, so a crafted branch name injects commands',
    ranges: [{ introduced: '0', fixed: '9.0.0' }],
    compromise: false,
    upgrade: '9.0.0',
  },
  {
    id: 'GHSA-ghm2-rq8q-wrhc',
    cve: 'CVE-2023-52137',
    action: 'tj-actions/verify-changed-files',
    summary: 'changed file names are returned unescaped, so a crafted file name injects commands into steps that use the outputs',
    ranges: [{ introduced: '0', fixed: '17.0.0' }],
    compromise: false,
    upgrade: '17.0.0',
  },
  {
    id: 'GHSA-cxww-7g56-2vh6',
    cve: 'CVE-2024-42471',
    action: 'actions/download-artifact',
    summary: 'artifact extraction follows `../` paths (zip slip), so a crafted artifact writes files outside the target directory',
    ranges: [{ introduced: '4.0.0', fixed: '4.1.3' }],
    compromise: false,
    upgrade: '4.1.3',
  },
  {
    id: 'GHSA-5xr6-xhww-33m4',
    cve: null,
    action: 'dawidd6/action-download-artifact',
    summary: 'artifacts are searched in forks by default, so a fork can plant the artifact a privileged workflow downloads',
    ranges: [{ introduced: '0', fixed: '6.0.0' }],
    compromise: false,
    upgrade: '6.0.0',
  },
  {
    id: 'GHSA-vqf5-2xx6-9wfm',
    cve: 'CVE-2025-24362',
    action: 'github/codeql-action',
    summary: 'debug artifacts of failed runs can contain the job environment, including secrets and the job token',
    ranges: [
      { introduced: '2.26.11', fixed: '3.0.0' },
      { introduced: '3.26.11', fixed: '3.28.3' },
    ],
    compromise: false,
    upgrade: '3.28.3',
  },
  {
    id: 'GHSA-4mgv-m5cm-f9h7',
    cve: 'CVE-2021-32074',
    action: 'hashicorp/vault-action',
    summary: 'multi-line secrets are not masked in the workflow log',
    ranges: [{ introduced: '0', fixed: '2.2.0' }],
    compromise: false,
    upgrade: '2.2.0',
  },
  {
    id: 'GHSA-g86g-chm8-7r2p',
    cve: 'CVE-2021-32724',
    action: 'check-spelling/check-spelling',
    summary: 'a crafted pull request can make the action leak the job token (symlink attack on `pull_request_target`)',
    ranges: [{ introduced: '0', fixed: '0.0.19' }],
    compromise: false,
    upgrade: '0.0.19',
  },
  {
    id: 'GHSA-6q4m-7476-932w',
    cve: 'CVE-2023-27581',
    action: 'rlespinasse/github-slug-action',
    summary: '`github.head_ref` is expanded into a script, so a crafted branch name injects commands',
    ranges: [{ introduced: '4.0.0', fixed: '4.4.1' }],
    compromise: false,
    upgrade: '4.4.1',
  },
  {
    id: 'GHSA-h3qr-39j9-4r5v',
    cve: 'CVE-2023-30853',
    action: 'gradle/gradle-build-action',
    summary: 'with the configuration cache on, secrets from the environment are saved into cache entries that untrusted workflows can read',
    ranges: [{ introduced: '0', fixed: '2.4.2' }],
    compromise: false,
    upgrade: '2.4.2',
  },
  {
    id: 'GHSA-65rg-554r-9j5x',
    cve: 'CVE-2024-48908',
    action: 'lycheeverse/lychee-action',
    summary: 'the `lycheeVersion` input is expanded into a script, so a crafted value injects commands',
    ranges: [{ introduced: '0', fixed: '2.0.2' }],
    compromise: false,
    upgrade: '2.0.2',
  },
  {
    id: 'GHSA-f79p-9c5r-xg88',
    cve: 'CVE-2025-58178',
    action: 'sonarsource/sonarqube-scan-action',
    summary: 'action inputs are evaluated as shell expressions, so a crafted argument injects commands',
    ranges: [{ introduced: '4.0.0', fixed: '5.3.1' }],
    compromise: false,
    upgrade: '5.3.1',
  },
  {
    id: 'GHSA-69fq-xp46-6x23',
    cve: 'CVE-2026-33634',
    action: 'aquasecurity/trivy-action',
    summary: 'supply-chain compromise (19 March 2026): tags 0.0.1 to 0.34.2 were repointed to a credential stealer',
    ranges: [{ introduced: '0', fixed: '0.35.0' }],
    compromise: true,
    upgrade: '0.35.0',
  },
  {
    id: 'GHSA-4xqx-pqpj-9fqw',
    cve: 'CVE-2020-14188',
    action: 'atlassian/gajira-create',
    summary: 'the issue summary is evaluated as code, so a crafted issue runs arbitrary commands',
    ranges: [{ introduced: '0', fixed: '2.0.1' }],
    compromise: false,
    upgrade: '2.0.1',
  },
];
