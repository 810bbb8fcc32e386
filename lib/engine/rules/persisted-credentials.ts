import { hasAny, scriptOf, wordMask } from '../analysis/file-scripts.js';
import { compareVersions, parseRefVersion, parseVersion, versionComment, type RefVersion } from '../analysis/action-version.js';
import { outsiderCodeAfter } from '../analysis/outsider-code.js';
import { holdingFacts, runFact } from '../analysis/run-model/facts.js';
import { ONLY_JOB_TOKEN } from '../analysis/run-model/ownership.js';
import { minorWrites, readOnlyToken, tokenHandsOverNothing } from '../analysis/run-model/holdings.js';
import { isGithubToken, valueSecrets } from '../analysis/secrets.js';
import { stepLabel } from '../analysis/step-label.js';
import { normalizeLocalPath } from '../model/repository.js';
import type { Job, Step } from '../model/workflow.js';
import { describeStep } from '../analysis/describe.js';
import { approvalBindsCode, whoText, type RunModel } from '../analysis/run-model/index.js';
import { defineWorkflowRule } from '../rule.js';
import { get, getScalar, getText, isTruthy, type YNode } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';
import { gitlessImage, type GitlessImage } from '../data/gitless-images.js';
import { isCheckoutAction } from '../model/uses.js';

/** The version a step's action runs: its tag, or the version comment beside a SHA pin. */
function stepVersion(step: Step): RefVersion | null {
  if (step.usesRef?.kind !== 'repository' || step.uses === undefined) return null;
  return parseRefVersion(step.usesRef.ref) ?? versionComment(step.owner.file, step.uses);
}

/** The releases `olderThan` compares with, parsed once. */
const V4_0_0 = parseVersion('4.0.0');
const V4_4_0 = parseVersion('4.4.0');
const V6_0_0 = parseVersion('6.0.0');

/** True when the version is known and every release it can name is older than `target`. */
function olderThan(version: RefVersion | null, target: readonly number[]): boolean {
  if (version === null) return false;
  const newest = [...version.parts];
  while (newest.length < 3) newest.push(Number.MAX_SAFE_INTEGER);
  return compareVersions(newest, target) < 0;
}

function isAction(step: Step, slug: string): boolean {
  return step.usesRef?.kind === 'repository' && step.usesRef.slug === slug;
}

/** `persist-credentials` as written: false, true, or not literal (absent or an expression). */
function persistSetting(value: YNode | undefined): 'false' | 'true' | 'default' {
  if (value?.kind !== 'scalar') return 'default';
  if (value.value === false || (typeof value.value === 'string' && value.value.trim().toLowerCase() === 'false')) return 'false';
  if (isTruthy(value)) return 'true';
  return 'default';
}

/**
 * The `path:` patterns of an `actions/upload-artifact` step that include the `.git` directory of a
 * checkout into `checkoutDir` ('' for the workspace root).
 */
function uploadsGitDirectory(upload: Step, checkoutDir: string): string | null {
  const path = getText(upload.with, 'path');
  if (path === null) return null;
  for (const raw of path.split('\n')) {
    const pattern = raw.trim();
    if (pattern === '' || pattern.startsWith('!')) continue;
    const withoutWorkspace = pattern.replace(/^\$\{\{\s*github\.workspace\s*\}\}/, '.');
    if (withoutWorkspace.includes('${{')) continue;
    const normalized = normalizeLocalPath(withoutWorkspace.replace(/\/\*\*?$/, ''));
    const segments = normalized.split('/');
    const root = normalized === '' || normalized === '*' || normalized === '**';
    if (root || segments.includes('.git') || normalized === checkoutDir || checkoutDir.startsWith(`${normalized}/`)) return pattern;
  }
  return null;
}

const ARCHIVERS = wordMask('tar', 'zip', '7z');
const ARCHIVE = /\b(?:tar|zip|7z)\b[^\n|;&]*?\s(?:\.|\.\/|\*|"?\$GITHUB_WORKSPACE"?|"?\$\{\{\s*github\.workspace\s*\}\}"?)(?=\s|$)/;

/**
 * A `run:` step that archives the whole workspace, `.git` included (`tar -cf build.tar .`), from the
 * workspace root: no `working-directory:`, no earlier `cd`, no `-C` and no `.git` exclusion.
 */
function archivesWorkspace(step: Step): boolean {
  // `ARCHIVE` needs one of the archivers as a word: most scripts have none (file-scripts.ts).
  const found = scriptOf(step);
  if (found === null || !hasAny(found.words, ARCHIVERS)) return false;
  const script = found.text;
  if (get(step.node, 'working-directory') !== undefined) return false;
  const match = ARCHIVE.exec(script);
  if (match === null) return false;
  const before = script.slice(0, match.index);
  return !/(^|[\s;&(])(cd|pushd)\s/.test(before) && !/\s(-C|--directory)\b|--exclude|\s-x\s/.test(match[0]);
}

const ARCHIVE_FILE = /\.(?:tar|tgz|zip|7z|gz|zst|xz|bz2)$/;

interface Upload {
  step: Step;
  /** Includes hidden files such as `.git`. */
  hidden: boolean;
  /** The first archive file it uploads (`build.tar.gz`), if any. */
  archiveFile: string | null;
}

const uploadCache = new ScanCache<readonly Step[], Upload[]>();
const archiveCache = new ScanCache<readonly Step[], Step[]>();

/** The artifact uploads of a job or composite action, read once per step list. */
function uploadsOf(steps: readonly Step[]): Upload[] {
  let uploads = uploadCache.get(steps);
  if (uploads === undefined) {
    uploads = steps
      .filter((s) => isAction(s, 'actions/upload-artifact'))
      .map((s) => ({
        step: s,
        hidden: includesHiddenFiles(s),
        archiveFile: (getText(s.with, 'path') ?? '').split('\n').map((p) => p.trim()).find((p) => ARCHIVE_FILE.test(p)) ?? null,
      }));
    uploadCache.set(steps, uploads);
  }
  return uploads;
}

/** The steps that archive the workspace, read once per step list (and only where an upload could ship one). */
function archivesOf(steps: readonly Step[]): Step[] {
  let archives = archiveCache.get(steps);
  if (archives === undefined) {
    archives = steps.filter(archivesWorkspace);
    archiveCache.set(steps, archives);
  }
  return archives;
}

/**
 * The upload after a checkout that ships its `.git` (with the credentials in .git/config): directly, or in an
 * archive of the workspace made after the checkout, in a job run the checkout runs in. Without such an upload there is none.
 */
function leakingUpload(step: Step, steps: readonly Step[], checkoutDir: string, sameRun: (a: Step, b: Step) => boolean): { step: Step; pattern: string | null; archive: Step | undefined } | undefined {
  // Later in the job, and in a job run the checkout is part of (an upload under an `if:` that excludes the checkout's runs ships none of its .git).
  const after = (s: Step) => s.index > step.index && sameRun(step, s);
  const uploads = uploadsOf(steps).filter((u) => after(u.step));
  if (uploads.length === 0) return undefined;
  const direct = uploads
    .filter((u) => u.hidden)
    .map((u) => ({ step: u.step, pattern: uploadsGitDirectory(u.step, checkoutDir), archive: undefined as Step | undefined }))
    .find((u) => u.pattern !== null);
  if (direct !== undefined) return direct;
  const archive = archivesOf(steps).find(after);
  return archive === undefined
    ? undefined
    : uploads.filter((u) => u.step.index > archive.index && u.archiveFile !== null && sameRun(archive, u.step)).map((u) => ({ step: u.step, pattern: u.archiveFile, archive }))[0];
}

/**
 * Whether an upload's artifact can be downloaded only once the workflow run has completed: upload-artifact v1 to
 * v3 (the old artifact backend, retired on github.com). v4 and later, and a version the workflow does not show
 * (a SHA pin without a version comment), make it downloadable while the run goes on.
 */
function downloadableAfterRunOnly(upload: Step): boolean {
  return olderThan(stepVersion(upload), V4_0_0);
}

/**
 * The credential a checkout persists, from its `token:` input: the job's GITHUB_TOKEN (no input, or the job's
 * token passed explicitly), which expires when the job ends; a stored secret (a personal access token, a
 * deploy key's token), which lives until someone revokes it; or another value (a token a step minted), whose
 * lifetime the workflow does not show and which is taken as possibly still valid. A secret handed through an
 * environment variable (`token: ${{ env.X }}`, `X: ${{ secrets.Y }}` in an `env:`) is that secret.
 */
function persistedCredential(step: Step): { text: string; expiresWithJob: boolean; lifetime: string } {
  const token = getScalar(step.with, 'token');
  if (token === undefined || typeof token.value !== 'string' || token.value.trim() === '' || ONLY_JOB_TOKEN.test(token.value)) {
    return { text: "the job's GITHUB_TOKEN", expiresWithJob: true, lifetime: '' };
  }
  const carried = valueSecrets(step, token);
  const secret = carried.find((s) => !isGithubToken(s));
  if (secret === undefined && carried.length > 0) return { text: "the job's GITHUB_TOKEN", expiresWithJob: true, lifetime: '' };
  return secret === undefined
    ? { text: 'the token passed as `token:`', expiresWithJob: false, lifetime: 'the workflow does not show how long the token passed as `token:` lives, so it may still be valid when the artifact is downloaded' }
    : { text: `\`secrets.${secret}\``, expiresWithJob: false, lifetime: `\`secrets.${secret}\` is a stored secret, which does not expire with the job, so the artifact hands it over whenever it is downloaded` };
}

/** Actions that install nothing into the job's container. */
const INSTALL_NOTHING = new Set(['actions/checkout', 'actions/cache', 'actions/download-artifact', 'actions/upload-artifact']);
/**
 * A package manager named as a word (`apt-get install`, `apk add`, `dnf install`: whatever it installs may bring
 * git along), or `git` itself (a step that runs git, or installs it some other way, says that it is there). Both
 * plain word tests, linear in the script.
 */
const PACKAGE_MANAGER = /\b(?:apt-get|apt|aptitude|dpkg|dnf|yum|microdnf|tdnf|rpm|zypper|apk|pacman|conda|mamba|micromamba|brew|nix-env|nix|spack)\b/;
const GIT_WORD = /(?:^|[^\w.$-])git(?![\w.-])/m;
/** A container option that mounts something in (`-v`, `--volume`, `--volumes-from`, `--mount`): the runner's git, possibly. */
const VOLUME_OPTION = /(?:^|\s)(?:-v|--volume|--mount)/;

/**
 * The job container of a checkout's job when it is an official image known to ship without git
 * (data/gitless-images.ts), and nothing before the checkout in the job may have put git there: no earlier `run:`
 * step that runs a package manager's install or names git, no earlier action other than ones that install nothing,
 * and no `options:` that mount a volume (which could bring the runner's git in). actions/checkout then downloads the files through
 * the REST API and writes no `.git` at all: it persists no credential.
 */
function gitlessContainer(step: Step): { image: string; entry: GitlessImage } | null {
  const job = step.job;
  if (job === null || job.container === undefined) return null;
  const container = job.container;
  const image = container.kind === 'scalar' ? container : getScalar(container, 'image');
  if (image === undefined || typeof image.value !== 'string') return null;
  const options = container.kind === 'scalar' ? undefined : getScalar(container, 'options');
  if (options !== undefined && (typeof options.value !== 'string' || VOLUME_OPTION.test(options.value))) return null;
  const entry = gitlessImage(image.value);
  if (entry === null) return null;
  for (const earlier of job.steps) {
    if (earlier.index >= step.index) break;
    if (earlier.usesRef !== undefined) {
      if (earlier.usesRef.kind !== 'repository' || !INSTALL_NOTHING.has(earlier.usesRef.slug)) return null;
      continue;
    }
    const script = scriptOf(earlier);
    if (script === null || PACKAGE_MANAGER.test(script.text) || GIT_WORD.test(script.text)) return null;
  }
  return { image: image.value, entry };
}

/** Where a job's read-only token comes from, in words (the run model's holdings say that it is read-only). */
function readOnlyWhy(step: Step): string {
  const job = step.job;
  if (job?.permissions !== undefined) return "the job's `permissions:` grant no write scope";
  if (job?.workflow.permissions !== undefined) return "the workflow's `permissions:`, which the job inherits, grant no write scope";
  return "the repository's settings make the default token read-only";
}

/** Whether an upload step includes hidden files such as `.git`: opt-in since upload-artifact v4.4. */
function includesHiddenFiles(upload: Step): boolean {
  return isTruthy(get(upload.with, 'include-hidden-files')) || olderThan(stepVersion(upload), V4_4_0);
}

/** A condition that lets only Dependabot's runs through (`github.actor == 'dependabot[bot]'`), with no `||`. */
const DEPENDABOT_ONLY = /\b(?:github\.(?:actor|triggering_actor)|github\.event\.(?:pull_request\.user|sender)\.login)\s*==\s*['"]dependabot\[bot\]['"]/;
/** A checkout `ref:` naming the pull request's head (the update branch, or its commit). */
const HEAD_REF = /\bgithub\.(?:event\.pull_request\.head\.(?:ref|sha)|head_ref)\b/;
/** Executions that build in containers rather than on the runner. */
const CONTAINER_BUILD = /^docker\/|\b(?:docker|podman|buildah|nerdctl)\b|\bkaniko\b|\bbuildx\b/;
/** Pull request events whose runs Dependabot's pull requests start. */
const PR_EVENTS = new Set(['pull_request', 'pull_request_target']);

function conditionText(node: YNode | undefined): string {
  return node?.kind === 'scalar' && typeof node.value === 'string' ? node.value : '';
}

/**
 * A job that runs only for Dependabot's pull requests, checks out the update (its branch or commit) and then
 * builds it: the first step that runs code from that checkout, in words (`step 2 of job \`x\` (line 14) runs
 * \`npm ci\``), or null. The update brings a dependency's new release, which whoever publishes it wrote
 * (install scripts, code the build loads); it runs before anyone has reviewed the pull request. `unseen`: the
 * only such steps run a task runner's target (`make tidy`), whose recipe is in a file the scan does not read
 * (the run model's `recipes`): whether it loads the update's code is not shown.
 */
function dependabotBuild(context: { runs: RunModel }, step: Step): { text: string; unseen: string | null } | null {
  const job = step.job;
  if (job === null || !job.workflow.triggers.some((t) => PR_EVENTS.has(t.name))) return null;
  const condition = `${conditionText(job.if)}\n${conditionText(step.if)}`;
  if (!DEPENDABOT_ONLY.test(condition) || condition.includes('||')) return null;
  const ref = getText(step.with, 'ref');
  const onPullRequest = job.workflow.triggers.some((t) => t.name === 'pull_request');
  if (!(ref !== null ? HEAD_REF.test(ref) : onPullRequest)) return null;
  const run = context.runs.job(job);
  const entry = run.workspace.find((e) => e.step === step && e.kind === 'checkout');
  if (entry === undefined) return null;
  // A container build (`docker/bake-action`, `docker build`) runs the update's code in BuildKit's containers,
  // which see only what the Dockerfile copies in: the workflow does not show that `.git/config` is among it.
  const sinks = context.runs.sinksOf(run, entry).filter((t) => !CONTAINER_BUILD.test(t.execution.evidence));
  const sink = sinks.find((t) => t.execution.recipes === undefined) ?? sinks[0];
  if (sink === undefined) return null;
  const line = job.workflow.file.position(sink.step.node.start).line;
  return { text: `${describeStep(sink.step)} (line ${line}) runs ${sink.execution.evidence}`, unseen: sink.execution.recipes ?? null };
}

export default defineWorkflowRule({
  meta: {
    id: 'persisted-credentials',
    category: 'CICD-SEC-6',
    title: 'Checkout leaves the token in .git/config',
    severity: 'LOW',
    surface: 'workflow',
    fix: { safe: true },
    description:
      '`actions/checkout` without `persist-credentials: false` leaves the token it used in the git configuration for every later step of the job. MEDIUM when an outsider\'s code or text runs in the job after the checkout, in a run the checkout is part of (a pull request checkout a later step runs, event text in a script), or when a job that runs only for Dependabot\'s pull requests builds the update it checked out with a package manager or build tool (the new release\'s code runs beside the token; only a task runner\'s target, `make tidy`, whose recipe the scan does not read, is LOW, naming what to check); HIGH when a later step uploads the checkout\'s `.git` directory as an artifact someone can download while the token is still valid (upload-artifact v4 and later, or a stored secret as the token); the job\'s GITHUB_TOKEN in an upload-artifact v3 artifact, downloadable only after the run, when the token has expired, is not escalated, nor is a job GITHUB_TOKEN with no write scope (LOW: whoever takes it can only read); a job GITHUB_TOKEN whose only write scopes change no code, release or package (`pull-requests: write`), or outsider code that runs only after a maintainer\'s per-run approval that binds the commit that runs (not a check of the labels a pull request keeps while new commits are pushed), is LOW where an outsider\'s code runs.',
    recommendation:
      'Set `persist-credentials: false` on `actions/checkout`, and give the token only to the step that pushes (for example through `git remote set-url` or the action that needs it).',
  },
  create: (context) => ({
    step(step) {
      if (!isCheckoutAction(step.usesRef) || step.uses === undefined) return;
      const setting = persistSetting(get(step.with, 'persist-credentials'));
      if (setting === 'false') return;
      // In a job container without git (and nothing before that installs it), checkout downloads the files through
      // the REST API: no `.git`, so no git configuration to hold the token.
      if (gitlessContainer(step) !== null) return;

      // Since checkout v6 the credentials live in a file under $RUNNER_TEMP, not in .git/config:
      // later steps can still use them, but an uploaded workspace no longer carries them.
      const checkoutVersion = stepVersion(step);
      const inGitConfig = checkoutVersion === null || olderThan(checkoutVersion, V6_0_0);
      const checkoutDir = normalizeLocalPath(getText(step.with, 'path') ?? '');
      const steps = step.job?.steps ?? (step.owner.kind === 'action' ? step.owner.steps : []);
      const upload = inGitConfig ? leakingUpload(step, steps, checkoutDir, (a, b) => context.runs.sameRun(a, b)) : undefined;

      // An explicit `persist-credentials: true` is a deliberate choice (the job pushes): only the
      // upload that leaks it is reported.
      if (setting === 'true' && upload === undefined) return;

      const { text: credential, expiresWithJob, lifetime } = persistedCredential(step);
      // MEDIUM only where an outsider's code or text runs in the job after this checkout, in a run this checkout
      // is part of (the run model: a pull request checkout or download a later step runs, or event text expanded
      // into a script, on a step an outsider can start; a checkout under an `if:` that excludes that code's run
      // leaves nothing for it to read): that code can read the token from the git configuration. A privileged
      // trigger alone is not that.
      // A later checkout into the same directory replaces this one's credentials (checkout removes the
      // configured token before it sets its own, or none): code that runs after it, on every run it runs on (no `if:`
      // of its own, or the code's own, or it is the checkout that brings that code), finds that checkout's token,
      // not this one's (reported there). Read once per checkout: the first such checkout with no `if:` cuts every
      // later step off; of those with one, the first few are kept to compare (bounded work in a job of many).
      const { cut, conditional } = laterCheckouts(step, steps, checkoutDir, (a, b) => context.runs.sameRun(a, b));
      const replaced = (runner: Step, withSteps: readonly Step[]) =>
        runner.index > cut || conditional.some((later) => later.index < runner.index && (withSteps.includes(later) || sameCondition(later.if, runner.if)));
      const outsider = outsiderCodeAfter(context, step, replaced);
      // The job's own token with no write scope (the run model's holdings: `permissions:` of the job or its
      // workflow grant none, or the settings make the default token read-only): whoever takes it can do no more
      // than read, so the finding is LOW whoever runs after the checkout or downloads the workspace.
      const readOnly = expiresWithJob && step.job !== null && readOnlyToken(context.runs.job(step.job).holdings, context.runs.defaultToken);
      const readOnlyText = readOnly ? ` The job's GITHUB_TOKEN is read-only here (${readOnlyWhy(step)}): whoever takes it can read the repository at most, so this is LOW.` : '';
      // The job's own token whose only write scopes change no code, release or package (the run model's holdings:
      // `pull-requests: write`, `issues: write`): what it persists is not worth taking, whatever runs after it.
      const holdings = step.job === null ? null : context.runs.job(step.job).holdings;
      const minorOnly = expiresWithJob && !readOnly && holdings !== null && tokenHandsOverNothing(holdings, context.runs.defaultToken);
      const minorText = minorOnly && holdings !== null ? ` The job's GITHUB_TOKEN writes only ${minorWrites(holdings).map((w) => `\`${w}: write\``).join(', ') || 'what changes no code'} here (no scope that changes code, releases or packages): whoever takes it cannot push code or publish, so this is LOW.` : '';
      // A maintainer approves each run, the approval binds the code (not a label the pull request keeps while new
      // commits come, which any later label event reuses) and the approved commit is what runs (no race after the
      // approval), as for untrusted-checkout: LOW (docs/severity.md, the approval row).
      const approved = outsider !== null && approvalBindsCode(outsider.reach) && !outsider.race;
      const approvedText = approved
        ? ' A maintainer approves each run before that code runs, and the approved commit is what runs, so this is LOW.'
        : outsider !== null && outsider.reach.level === 'approval' && !outsider.race
          ? ` A maintainer's approval stands in the way, but it does not bind the code: ${whoText(outsider.reach)}.`
          : '';
      const uploaded =
        upload === undefined
          ? ''
          : (upload.archive === undefined ? '' : `step \`${stepLabel(upload.archive)}\` archives the workspace, .git included, then `) +
            `step \`${stepLabel(upload.step)}\` uploads \`${upload.pattern ?? ''}\`${upload.archive === undefined ? ', .git included,' : ''} as an artifact`;
      // The old artifact backend (upload-artifact v1-v3) serves an artifact only once the run has completed, when
      // the job's GITHUB_TOKEN has expired with its job: whoever downloads it gets a dead token. A stored secret
      // lives on, and v4 artifacts can be downloaded while the job, and its token, still run.
      const expired = upload !== undefined && expiresWithJob && downloadableAfterRunOnly(upload.step);
      if (upload !== undefined && !expired && !readOnly) {
        context.report({
          node: step.uses,
          severity: 'HIGH',
          message:
            `\`actions/checkout\` leaves ${credential} in .git/config, and ${uploaded} anyone who can read the run can download` +
            (expiresWithJob ? ' while the run is still going, before the token expires with its job.' : `; ${lifetime}.`),
          // For the attack paths: what the job's token holds (only when it is the token that leaks), and when the
          // step runs (run-model/facts.ts).
          facts: step.job === null ? [] : [...holdingFacts(context.runs.job(step.job)).filter((f) => expiresWithJob || (f !== 'holds:token' && f !== 'token:default')), ...runFact(context.runs, step)],
        });
        return;
      }
      const version = upload === undefined ? null : stepVersion(upload.step)?.normalized;
      // A Dependabot-only job that builds the update: the new release's code runs beside the token.
      const build = outsider === null && upload === undefined ? dependabotBuild(context, step) : null;
      if (build !== null && build.unseen !== null) {
        // Only a task runner's target runs from the checkout: its recipe is not in the scan, so neither is whether
        // it builds, tests or installs the update (`make tidy` that runs `go mod tidy` runs none of its code).
        context.report({
          node: step.uses,
          severity: 'LOW',
          message:
            `\`actions/checkout\` does not set \`persist-credentials: false\`, so ${credential} stays in the git configuration for every later step of the job, which runs only for Dependabot's pull requests and checks out the update: ${build.text} there, a target whose recipe is in the repository's ${build.unseen}, which the scan does not read.` +
            (readOnly
              ? readOnlyText
              : ` LOW: the workflow does not show that the updated dependency's code runs; check the target's recipe: if it builds, tests or installs the project (the new release's install scripts or code then run with ${credential} in reach, before anyone reviews the pull request), set \`persist-credentials: false\`; a command that only rewrites the manifests (\`go mod tidy\`) runs none of it.`),
          facts: holdingFacts(context.runs.job(step.job as Job)),
        });
        return;
      }
      if (build !== null) {
        context.report({
          node: step.uses,
          severity: readOnly || minorOnly ? 'LOW' : 'MEDIUM',
          message:
            `\`actions/checkout\` does not set \`persist-credentials: false\`, so ${credential} stays in the git configuration for every later step of the job, which runs only for Dependabot's pull requests and checks out the update: ${build.text} there, so the updated dependency's code (an install script, code the build loads), written by whoever publishes that release, runs with the token in reach before anyone reviews the pull request.` +
            (readOnly ? readOnlyText : minorOnly ? minorText : ` MEDIUM: one upstream party (the package's maintainer, or whoever takes over their account) can take ${credential}${expiresWithJob ? ' and its write scopes' : credential.startsWith('`secrets.') ? ', which outlives the run' : ''}.`),
          facts: holdingFacts(context.runs.job(step.job as Job)),
        });
        return;
      }
      context.report({
        node: step.uses,
        severity: outsider !== null && !readOnly && !minorOnly && !approved ? 'MEDIUM' : 'LOW',
        message:
          `\`actions/checkout\` does not set \`persist-credentials: false\`, so ${credential} stays in the git configuration for every later step of the job` +
          (outsider !== null ? `, where an outsider's code or text runs: ${outsider.text}.` : '.') +
          (upload === undefined
            ? ''
            : expired
              ? ` ${uploaded.charAt(0).toUpperCase()}${uploaded.slice(1)} with upload-artifact v${version ?? '3'}, which can be downloaded only once the run has completed, after the token expired with its job, so whoever downloads it gets no live token; upload-artifact v3 and older are retired, and moving to v4 or later, whose artifacts can be downloaded during the run, would ship a live token: set \`persist-credentials: false\` first.`
              : ` ${uploaded.charAt(0).toUpperCase()}${uploaded.slice(1)} anyone who can read the run can download while the job still runs.`) +
          (readOnly && (outsider !== null || (upload !== undefined && !expired)) ? readOnlyText : '') +
          (outsider !== null && !readOnly ? (minorOnly ? minorText : approvedText) : ''),
      });
    },
  }),
});

/** Two conditions as written, whitespace and a `${{ }}` around them aside. */
function sameCondition(a: YNode | undefined, b: YNode | undefined): boolean {
  const fold = (node: YNode | undefined) => conditionText(node).replace(/^\s*\$\{\{([\s\S]*)\}\}\s*$/, '$1').replace(/\s+/g, ' ').trim();
  return fold(a) !== '' && fold(a) === fold(b);
}

/** How many conditional later checkouts into the same directory are compared with each step that runs code. */
const MAX_CONDITIONAL_CHECKOUTS = 8;

/**
 * The later checkouts of `steps` into `dir` in a run `step` is part of: `cut`, the index of the first with no `if:` of
 * its own (Infinity when none), and the first few before it that have one.
 */
function laterCheckouts(step: Step, steps: readonly Step[], dir: string, sameRun: (a: Step, b: Step) => boolean): { cut: number; conditional: Step[] } {
  const conditional: Step[] = [];
  for (const later of steps) {
    if (later.index <= step.index || !isCheckoutAction(later.usesRef) || normalizeLocalPath(getText(later.with, 'path') ?? '') !== dir || !sameRun(step, later)) continue;
    if (later.if === undefined) return { cut: later.index, conditional };
    if (conditional.length < MAX_CONDITIONAL_CHECKOUTS) conditional.push(later);
  }
  return { cut: Infinity, conditional };
}
