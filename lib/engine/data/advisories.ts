/**
 * A dated snapshot of GitHub Security Advisories for the GitHub Actions ecosystem, shipped as data so
 * scans stay offline and deterministic. Sources: the GitHub Advisory Database (ecosystem "actions"), the
 * maintainers' own advisories, and the list embedded in poutine (BoostSecurity's scanner, its
 * `opa/rego/external/osv.rego`), each entry saying which. Every advisory of the poutine list is kept, even
 * the few about a repository's own code rather than an action others use: they cost nothing when unused.
 *
 * Refresh: add an entry per new advisory (and per action it names), then bump ADVISORY_SNAPSHOT_DATE.
 */
export const ADVISORY_SNAPSHOT_DATE = '2026-11-22';

export interface ActionAdvisory {
  /** The GHSA id. */
  id: string;
  cve: string | null;
  /** `owner/repo`, lower case. Sub-path actions (`owner/repo/sub@v1`) share the repository's advisories unless `path` is set. */
  action: string;
  /** The sub-path (an action directory or a reusable workflow file) the advisory is about, lower case; absent for the whole repository. */
  path?: string;
  /** Where the entry comes from: the GitHub Advisory Database, a peer's embedded list, a maintainer's advisory. */
  source: string;
  /** When GitHub published the advisory (`YYYY-MM-DD`), when the source gives it; null otherwise. */
  published: string | null;
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
  /**
   * For a compromise whose tags were put back on genuine commits: when and how (one phrase). A tag in the
   * range then runs the original code again; only runs during the window took the malicious one, so such a
   * match is MEDIUM (rotate what those runs could read, upgrade) and starts no CRITICAL attack path.
   */
  restored?: string;
  /** The first safe version, for the recommendation. */
  upgrade: string;
  /**
   * MEDIUM when harm needs more than a crafted input to the job (another tenant of a shared runner, a
   * user opening a CSV, a failed run with debug artifacts); absent means HIGH.
   */
  severity?: 'MEDIUM';
  /**
   * For a bug an outsider exploits with crafted text (not a compromise): where that text has to come from for a
   * use to be exploitable. `reads`: event fields the action itself expands into its code; `inputs`: inputs it
   * runs as code (`'*'`: any input); `outputs`: its outputs carry the text unescaped, so the use is exploitable
   * when an output reaches a code sink of the workflow. A use none of these reaches under an outsider trigger
   * is LOW (upgrade anyway); the severity otherwise follows the run model, as a script injection's would.
   */
  injection?: { reads?: readonly string[]; inputs?: readonly string[] | '*'; outputs?: boolean };
  /**
   * A switch the advisory itself says must be on for the flaw to matter, beyond running an affected version
   * (source: the advisory): debug mode, a runner shared with other jobs. A use whose workflow turns none of its
   * ways on is LOW (upgrade anyway), and the finding names what is missing; one that does keeps `severity`.
   */
  needs?: AdvisoryPrecondition;
}

/** What must be on for an advisory to matter (`ActionAdvisory.needs`); any one of the ways listed turns it on. */
export interface AdvisoryPrecondition {
  /** The switch, in words: `debug mode`. */
  what: string;
  /** Inputs of the action's steps that turn it on when set (`debug: true`; an expression may). */
  inputs?: readonly string[];
  /** Environment variables that turn it on when the workflow sets them (workflow, job or the action's step `env:`). */
  env?: readonly string[];
  /** A machine other jobs or users share: a self-hosted runner (a GitHub-hosted runner is a fresh VM per job). */
  sharedRunner?: boolean;
  /**
   * An artifact an outsider can craft: another run's (the step names a `run-id`), or one uploaded in a run an
   * outsider starts (the workflow runs on a pull request, comment, issue or `workflow_run` event). A workflow that
   * only runs on pushes, tags, schedules, releases and dispatches downloads what its own code uploaded.
   */
  outsiderArtifact?: boolean;
  /** What can still turn it on outside the workflow's files, in words (a maintainer's act, a setting). */
  otherwise?: string;
  /**
   * Inputs that keep the flaw out of a step that sets them: `set` any value (`run_id`: the step names the run, so no
   * search happens), `false` a falsy literal (`allow_forks: false`). With this field the flaw is on for every step
   * that sets none of them, whatever the other ways say; a use whose steps all set one is LOW (upgrade anyway).
   */
  avoidedBy?: readonly { input: string; when: 'set' | 'false' }[];
}

export const ACTION_ADVISORIES: readonly ActionAdvisory[] = [
  {
    id: 'GHSA-mrrh-fwg8-r2c3',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2025-30066',
    action: 'tj-actions/changed-files',
    summary: 'supply-chain compromise (March 2025): every tag up to v45.0.7 was repointed to a commit that dumped CI secrets into the workflow log',
    ranges: [{ introduced: '0', fixed: '46.0.1' }],
    commits: ['0e58ed8671d6b60d0890c21b07f8835ace038e67'],
    compromise: true,
    restored: 'GitHub restored the repository on 15 March 2025 with every tag back on its original commit',
    upgrade: '46.0.1',
  },
  {
    id: 'GHSA-mcph-m25j-8j63',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2024-01-02',
    cve: 'CVE-2023-51664',
    action: 'tj-actions/changed-files',
    summary: 'changed file names are returned unescaped, so a crafted file name injects commands into steps that use the outputs',
    ranges: [{ introduced: '0', fixed: '41.0.0' }],
    compromise: false,
    upgrade: '41.0.0',
    injection: { outputs: true },
  },
  {
    id: 'GHSA-qmg3-hpqr-gqvc',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2025-30154',
    action: 'reviewdog/action-setup',
    summary: 'supply-chain compromise (11 March 2025, 18:42-20:31 UTC): the v1 tag pointed to a commit that dumped CI secrets into the workflow log',
    ranges: [],
    versions: ['1'],
    commits: ['f0d342d24037bb11d26b9bd8496e0808ba32e9ec'],
    compromise: true,
    restored: 'the v1 tag was moved back to a genuine commit the same evening',
    upgrade: 'a full commit SHA of a release made after the incident (v1 was retagged to 3f401fe1d58fe77e10d665ab713057375e39b887)',
  },
  {
    id: 'GHSA-8v8w-v8xg-79rf',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-12-05',
    cve: 'CVE-2023-49291',
    action: 'tj-actions/branch-names',
    summary: 'branch names are echoed unsanitised, so a crafted branch name injects commands',
    ranges: [{ introduced: '0', fixed: '7.0.7' }],
    compromise: false,
    upgrade: '9.0.0',
    injection: { reads: ['github.head_ref'], outputs: true },
  },
  {
    id: 'GHSA-gq52-6phf-x2r6',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2025-54416',
    action: 'tj-actions/branch-names',
    summary: 'outputs are unescaped with `eval printf`, so a crafted branch name injects commands',
    ranges: [{ introduced: '0', fixed: '9.0.0' }],
    compromise: false,
    upgrade: '9.0.0',
    injection: { reads: ['github.head_ref'], outputs: true },
  },
  {
    id: 'GHSA-ghm2-rq8q-wrhc',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2024-01-02',
    cve: 'CVE-2023-52137',
    action: 'tj-actions/verify-changed-files',
    summary: 'changed file names are returned unescaped, so a crafted file name injects commands into steps that use the outputs',
    ranges: [{ introduced: '0', fixed: '17.0.0' }],
    compromise: false,
    upgrade: '17.0.0',
    injection: { outputs: true },
  },
  {
    id: 'GHSA-cxww-7g56-2vh6',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2024-09-03',
    cve: 'CVE-2024-42471',
    action: 'actions/download-artifact',
    summary: 'artifact extraction follows `../` paths (zip slip), so a crafted artifact writes files outside the target directory',
    ranges: [{ introduced: '4.0.0', fixed: '4.1.7' }],
    compromise: false,
    upgrade: '4.1.7',
    // The advisory: the flaw is exploited through a crafted artifact.
    needs: { what: 'an artifact an outsider crafts', outsiderArtifact: true },
  },
  {
    id: 'GHSA-5xr6-xhww-33m4',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: null,
    action: 'dawidd6/action-download-artifact',
    summary: 'artifacts are searched in forks by default, so a fork can plant the artifact a privileged workflow downloads',
    ranges: [{ introduced: '0', fixed: '6.0.0' }],
    compromise: false,
    upgrade: '6.0.0',
    // The advisory: the action searches workflow runs (by workflow, branch, commit, pull request) and, before 6.0.0,
    // takes a fork's run unless `allow_forks: false`; a step given `run_id` downloads from that run, no search.
    needs: {
      what: 'a search for the run to download from that may pick a fork\'s run',
      avoidedBy: [{ input: 'run_id', when: 'set' }, { input: 'allow_forks', when: 'false' }],
    },
  },
  {
    id: 'GHSA-vqf5-2xx6-9wfm',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2025-24362',
    action: 'github/codeql-action',
    summary: 'debug artifacts of failed runs can contain the job environment, including secrets and the job token',
    ranges: [
      { introduced: '2.26.11', fixed: '3.0.0' },
      { introduced: '3.26.11', fixed: '3.28.3' },
    ],
    compromise: false,
    upgrade: '3.28.3',
    severity: 'MEDIUM',
    // The advisory: debug artifacts are uploaded in debug mode only (the init action's `debug` input, or step or
    // runner debug logging, which `RUNNER_DEBUG` reflects).
    needs: {
      what: 'debug mode',
      inputs: ['debug'],
      env: ['ACTIONS_STEP_DEBUG', 'ACTIONS_RUNNER_DEBUG', 'RUNNER_DEBUG'],
      otherwise: 'only a maintainer re-running a failed run with debug logging, or setting `ACTIONS_STEP_DEBUG` as a repository secret or variable, turns it on',
    },
  },
  {
    id: 'GHSA-4mgv-m5cm-f9h7',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2022-05-24',
    cve: 'CVE-2021-32074',
    action: 'hashicorp/vault-action',
    summary: 'multi-line secrets are not masked in the workflow log',
    ranges: [{ introduced: '0', fixed: '2.2.0' }],
    compromise: false,
    upgrade: '2.2.0',
    severity: 'MEDIUM',
  },
  {
    id: 'GHSA-g86g-chm8-7r2p',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2022-07-29',
    cve: 'CVE-2021-32724',
    action: 'check-spelling/check-spelling',
    summary: 'a crafted pull request can make the action leak the job token (symlink attack on `pull_request_target`)',
    ranges: [{ introduced: '0', fixed: '0.0.19' }],
    compromise: false,
    upgrade: '0.0.19',
  },
  {
    id: 'GHSA-6q4m-7476-932w',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-03-13',
    cve: 'CVE-2023-27581',
    action: 'rlespinasse/github-slug-action',
    summary: '`github.head_ref` is expanded into a script, so a crafted branch name injects commands',
    ranges: [{ introduced: '4.0.0', fixed: '4.4.1' }],
    compromise: false,
    upgrade: '4.4.1',
    injection: { reads: ['github.head_ref'] },
  },
  {
    id: 'GHSA-h3qr-39j9-4r5v',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-05-01',
    cve: 'CVE-2023-30853',
    action: 'gradle/gradle-build-action',
    summary: 'with the configuration cache on, secrets from the environment are saved into cache entries that untrusted workflows can read',
    ranges: [{ introduced: '0', fixed: '2.4.2' }],
    compromise: false,
    upgrade: '2.4.2',
  },
  {
    id: 'GHSA-65rg-554r-9j5x',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2024-48908',
    action: 'lycheeverse/lychee-action',
    summary: 'the `lycheeVersion` input is expanded into a script, so a crafted value injects commands',
    ranges: [{ introduced: '0', fixed: '2.0.2' }],
    compromise: false,
    upgrade: '2.0.2',
    injection: { inputs: ['lycheeVersion'] },
  },
  {
    id: 'GHSA-f79p-9c5r-xg88',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2025-58178',
    action: 'sonarsource/sonarqube-scan-action',
    summary: 'action inputs are evaluated as shell expressions, so a crafted argument injects commands',
    ranges: [{ introduced: '4.0.0', fixed: '5.3.1' }],
    compromise: false,
    upgrade: '5.3.1',
    injection: { inputs: '*' },
  },
  {
    id: 'GHSA-69fq-xp46-6x23',
    source: 'GitHub Advisory Database, checked by hand',
    published: null,
    cve: 'CVE-2026-33634',
    action: 'aquasecurity/trivy-action',
    summary: 'supply-chain compromise (19 March 2026): tags 0.0.1 to 0.34.2 were repointed to a credential stealer',
    ranges: [{ introduced: '0', fixed: '0.35.0' }],
    compromise: true,
    upgrade: '0.35.0',
  },
  {
    id: 'GHSA-4xqx-pqpj-9fqw',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2022-10-07',
    cve: 'CVE-2020-14188',
    action: 'atlassian/gajira-create',
    summary: 'the issue summary is evaluated as code, so a crafted issue runs arbitrary commands',
    ranges: [{ introduced: '0', fixed: '2.0.1' }],
    compromise: false,
    upgrade: '2.0.1',
    injection: { inputs: ['summary'] },
  },

  // The advisories of poutine's embedded list that the snapshot lacked (GitHub Advisory Database data).
  {
    id: 'GHSA-f9qj-7gh3-mhj4',
    cve: 'CVE-2022-39326',
    action: 'kartverket/github-workflows',
    path: '.github/workflows/run-terraform.yml',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2022-10-19',
    summary: 'the reusable workflow runs `terraform plan` on pull-request code with the caller\'s credentials, so a pull request can run arbitrary code',
    ranges: [{ introduced: '0', fixed: '2.7.5' }],
    compromise: false,
    upgrade: '2.7.5',
  },
  {
    id: 'GHSA-634p-93h9-92vh',
    cve: 'CVE-2022-39217',
    action: 'some-natalie/ghas-to-csv',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2022-09-16',
    summary: 'alert fields are written to the CSV report without neutralising spreadsheet formulas (CSV injection)',
    ranges: [{ introduced: '0', fixed: '1' }],
    compromise: false,
    upgrade: '1.0.0',
    severity: 'MEDIUM',
  },
  {
    id: 'GHSA-7f32-hm4h-w77q',
    cve: null,
    action: 'rlespinasse/github-slug-action',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2024-02-03',
    summary: 'uses the deprecated `set-env` workflow command, which the runner reads from the step\'s output, so printed text can set environment variables',
    ranges: [{ introduced: '0', fixed: '1.1.1' }],
    compromise: false,
    upgrade: '4.4.1',
  },
  {
    id: 'GHSA-p756-rfxh-x63h',
    cve: 'CVE-2023-23939',
    action: 'azure/setup-kubectl',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-03-07',
    summary: 'the kubectl binary is installed world-writable, so another process on a shared runner can replace it (privilege escalation)',
    ranges: [{ introduced: '0', fixed: '3' }],
    compromise: false,
    upgrade: '3.0.0',
    severity: 'MEDIUM',
    // Another process on the machine must replace the binary: on a GitHub-hosted runner (a fresh VM per job) the
    // only other processes are the job's own, which hold what the job holds already.
    needs: {
      what: 'a runner shared with other jobs or users (a self-hosted machine)',
      sharedRunner: true,
      otherwise: 'on a GitHub-hosted runner, a fresh VM for each job, no one else runs a process beside it',
    },
  },
  {
    id: 'GHSA-rg3q-prf8-qxmp',
    cve: 'CVE-2023-30623',
    action: 'embano1/wip',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-04-24',
    summary: 'the pull request title is expanded into a script, so a crafted title injects commands',
    ranges: [{ introduced: '0', fixed: '2' }],
    compromise: false,
    upgrade: '2.0.0',
    injection: { reads: ['github.event.pull_request.title'] },
  },
  {
    id: 'GHSA-hw6r-g8gj-2987',
    cve: null,
    action: 'pytorch/pytorch',
    path: '.github/actions/filter-test-configs',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-08-30',
    summary: 'the composite action expands pull-request data into a script (expression injection, GHSL-2023-181)',
    ranges: [{ introduced: '0', fixed: '2.0.1' }],
    compromise: false,
    upgrade: '2.0.1',
    injection: { reads: ['github.head_ref', 'github.event.pull_request.title', 'github.event.workflow_run.head_branch'] },
  },
  {
    id: 'GHSA-99jg-r3f4-rpxj',
    cve: 'CVE-2023-50245',
    action: 'afichet/openexr-viewer',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2023-12-12',
    summary: 'a crafted OpenEXR file overflows a buffer in the viewer (memory corruption)',
    ranges: [{ introduced: '0', fixed: '0.6.1' }],
    compromise: false,
    upgrade: '0.6.1',
    severity: 'MEDIUM',
  },
  {
    id: 'GHSA-xj87-mqvh-88w2',
    cve: 'CVE-2024-42482',
    action: 'fish-shop/syntax-check',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2024-08-12',
    summary: 'file names from the `pattern` input are not delimited, so a crafted file name injects shell syntax into the check',
    ranges: [{ introduced: '0', fixed: '1.6.12' }],
    compromise: false,
    upgrade: '1.6.12',
  },
  {
    id: 'GHSA-7x29-qqmq-v6qc',
    cve: null,
    action: 'ultralytics/actions',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2024-08-12',
    summary: 'pull-request fields are expanded into scripts of the action (script injection)',
    ranges: [{ introduced: '0', fixed: '0.0.3' }],
    compromise: false,
    upgrade: '0.0.3',
    injection: { reads: ['github.head_ref', 'github.event.pull_request.title', 'github.event.pull_request.body'] },
  },
  {
    id: 'GHSA-pwf7-47c3-mfhx',
    cve: null,
    action: 'j178/prek-action',
    source: 'GitHub Advisory Database; poutine embedded list',
    published: '2025-09-29',
    summary: 'inputs are expanded into the composite action\'s scripts, so a crafted value injects code',
    ranges: [{ introduced: '0', fixed: '1.0.6' }],
    compromise: false,
    upgrade: '1.0.6',
    injection: { inputs: '*' },
  },
];
