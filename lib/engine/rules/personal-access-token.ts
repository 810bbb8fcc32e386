import { occurrencesIn } from '../analysis/file-scalars.js';
import { scriptOf } from '../analysis/file-scripts.js';
import { outsiderStarts, whoText, type Reach, type RunModel } from '../analysis/run-model/index.js';
import { checkoutPersists } from '../analysis/run-model/workspace.js';
import { isFullSha } from '../model/uses.js';
import { takesGithubToken } from '../analysis/token-uses.js';
import { getScalar, scalarText } from '../yaml/model.js';
import { unverifiedDownloads } from './download-without-checksum.js';
import { downloadOrigin } from '../analysis/download-origin.js';
import { outsiderSteering } from '../analysis/outsider-code.js';
import type { TaintAnalyzer } from '../expressions/taint.js';
import type { SourceFile } from '../yaml/source.js';
import { hitSeverity, scriptRemoteRuns } from './pipe-to-shell.js';
import type { Severity } from '../types.js';
import { fileMayUseSecrets, mayUseSecrets, secretUses } from '../analysis/secrets.js';
import { expressionsOf, type ExpressionOccurrence } from '../expressions/extract.js';
import type { Action, Job, Step, Workflow } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowReport } from '../rule.js';
import { keyText, type YMap, type YNode } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';
import { ScanCache } from '../model/scan-cache.js';

/**
 * Secret names that say they hold a GitHub token (`GH_PAT`, `GH_TOKEN`, `BOT_GITHUB_TOKEN`,
 * `GH_RELEASE_TOKEN`): a stored one is a personal access token, since installation tokens expire in an
 * hour and the job token is `GITHUB_TOKEN` (user secrets may not start with `GITHUB_`).
 */
const GITHUB_PAT_NAME = /(?:^|_)(?:GH|GITHUB)_(?:PAT|TOKEN)(?:_|$)|(?:^|_)(?:GH|GITHUB)(?:_[A-Z0-9]+){0,4}_(?:TOKEN|PAT)$/i;
/** Names that say "personal access token". */
const PAT_NAME = /(?:^|_)PAT(?:_|$)|PERSONAL_ACCESS_TOKEN|PERSONAL_TOKEN/i;
/** Services whose PATs are not GitHub's (`VSCE_PAT` publishes to the VS Code Marketplace). */
const OTHER_SERVICE = /VSCE|OVSX|AZURE|DEVOPS|NUGET|DOCKER|QUAY|JFROG|ARTIFACTORY|GITLAB|BITBUCKET|HUGGINGFACE|JIRA|ATLASSIAN|SNYK|FIGMA|NOTION|(?:^|_)(?:ADO|AZDO|DH|HF)(?:_|$)/i;
/** `with:` inputs and `env:` variables through which actions and tools take a GitHub token. */
const TOKEN_INPUT = /token|(?:^|[-_])pat$/i;
const TOKEN_ENV = /^(?:GITHUB_TOKEN|GH_TOKEN|GITHUB_PAT|GH_PAT|GH_ENTERPRISE_TOKEN|GITHUB_ENTERPRISE_TOKEN)$/;

/** Where a secret is given; an `env:` says whose (the step, job or workflow it covers: the steps that read it). */
type Position =
  | { kind: 'with'; key: string; step: Step | null }
  | { kind: 'env'; key: string; scope: Step | Job | Workflow | Action | null }
  | { kind: 'run'; line: string }
  | { kind: 'secrets'; key: string }
  | { kind: 'other' };

/** Names of what a GitHub App signs with, which `create-github-app-token` takes: keys and ids, not tokens. */
const NOT_A_TOKEN = /PRIVATE|(?:^|_)(?:APP|CLIENT)_?ID(?:_|$)|(?:^|_)(?:KEY|PEM|CERT|SECRET|PASSWORD|PASSPHRASE)$/i;
/** A reusable workflow's secret named for a GitHub token (`github-token`, `GH_TOKEN`). */
const GITHUB_TOKEN_SECRET = /^(?:github|repo|gh)[-_]?(?:token|pat)$/i;
/**
 * A script that talks to GitHub with the token in `GH_TOKEN` / `GITHUB_TOKEN`: `gh` and `hub`, a call to the
 * API (`curl https://api.github.com/...`, Octokit), or a release tool that reads it for GitHub.
 */
const GITHUB_CLIENT = /(?:^|[\s;&|(`'"])(?:gh|hub)\s+[a-z]|api\.github\.com|\boctokit\b|getOctokit|\b(?:semantic-release|goreleaser|release-it)\b/i;
/**
 * A line that hands a value to GitHub as a token: in a clone URL (`https://x-access-token:$T@github.com/...`), to
 * `gh auth login --with-token`, as `GH_TOKEN=` or `GITHUB_TOKEN=` of a command or the environment, an
 * `Authorization: token|Bearer` header of a call to `api.github.com`, or Octokit's `auth`.
 */
const GITHUB_TOKEN_LINE = /@github\.com\b|\bgh\s+auth\s+login\b|\b(?:GH|GITHUB)_TOKEN=|authorization:\s*(?:token|bearer)\b.*api\.github\.com|api\.github\.com.*authorization:\s*(?:token|bearer)\b|\bauth\s*:|getOctokit\s*\(|new\s+Octokit\s*\(/i;

/** How a secret is known to be a GitHub token: by its name, or by where it is given. */
type Evidence = 'name' | 'use';

/** Whether a secret of this name, used at this position, is a GitHub personal access token: by its name, by its use, or not. */
function isGithubPat(name: string, position: Position): Evidence | null {
  if (name.toUpperCase() === 'GITHUB_TOKEN') return null;
  if (byName(name, position)) return 'name';
  return usedAsGithubToken(name, position) ? 'use' : null;
}

/**
 * True when the secret's first word names the owner of the action it is given to (`CROWDIN_PERSONAL_TOKEN` in the
 * `env:` of `crowdin/github-action`, `DOCKERHUB_PAT` for `docker/login-action`): that service's own token, handed to
 * the service's own action, not a GitHub one. Both names of four characters or more, one the start of the other.
 */
function handedToNamesake(name: string, position: Position): boolean {
  const step = position.kind === 'with' ? position.step : position.kind === 'env' && position.scope !== null && 'usesRef' in position.scope ? (position.scope as Step) : null;
  const ref = step?.usesRef;
  if (ref?.kind !== 'repository') return false;
  const word = (name.split('_')[0] ?? '').toLowerCase();
  const owner = ref.owner.toLowerCase().replace(/[^a-z0-9]/g, '');
  if (word.length < 4 || owner.length < 4 || owner === 'github') return false;
  return owner.startsWith(word) || word.startsWith(owner);
}

function byName(name: string, position: Position): boolean {
  if (GITHUB_PAT_NAME.test(name)) return true;
  if (!PAT_NAME.test(name)) return false;
  // A PAT given as a registry password (`docker/login-action`) is the registry's, not GitHub's.
  if (!OTHER_SERVICE.test(name) && !handedToNamesake(name, position)) return !((position.kind === 'with' || position.kind === 'secrets') && /password/i.test(position.key));
  // The service's own action takes its own token in `token:` (`crowdin/github-action` with `CROWDIN_PERSONAL_TOKEN`):
  // only an input named for GitHub (`github-token`) takes a GitHub token there.
  if (position.kind === 'with' && handedToNamesake(name, position)) return /github|(?:^|[-_])gh(?:[-_]|$)/i.test(position.key);
  // `VSCE_PAT`, `OVSX_PAT` ...: a PAT of another service, unless it goes where a GitHub token goes.
  switch (position.kind) {
    case 'with':
      return TOKEN_INPUT.test(position.key);
    case 'env':
      return TOKEN_ENV.test(position.key);
    case 'run':
      return /github|\bgh\s/i.test(position.line);
    case 'secrets':
      return TOKEN_INPUT.test(position.key);
    default:
      return false;
  }
}

/**
 * True when the line gives the secret as the user of a URL that has a password after it
 * (`https://${{ secrets.BOT_USER }}:${{ secrets.BOT_TOKEN }}@github.com/...`): the password is the token.
 */
function userOfUrl(name: string, line: string): boolean {
  const at = line.search(new RegExp(`//\\$\\{\\{\\s*secrets\\.${name.replace(/[^\w-]/g, '')}\\s*\\}\\}:[^@/\n]{1,200}@`));
  return at !== -1;
}

/**
 * A stored secret given where a GitHub token goes, whatever its name: an action's GitHub token input
 * (token-uses.ts `takesGithubToken`: `github-token` of `actions/github-script`, `token` of `actions/checkout` or
 * `peter-evans/create-pull-request`, not a service's own `token:`), `GH_TOKEN` / `GITHUB_TOKEN` of an action step
 * or of scripts that run `gh`, `hub` or call the API, an `env:` variable a script hands to GitHub
 * (`GITHUB_TOKEN_LINE`), a script line that does so itself, or a reusable workflow's secret named for one. It is
 * not the job token (that is `secrets.GITHUB_TOKEN`) nor an installation token (minted per run, expiring within
 * the hour, never stored): a personal access token or a bot account's. A GitHub App's key or id is none.
 */
function usedAsGithubToken(name: string, position: Position): boolean {
  if (NOT_A_TOKEN.test(name)) return false;
  switch (position.kind) {
    case 'with':
      return position.step !== null && takesGithubToken(position.step, position.key);
    case 'secrets':
      return GITHUB_TOKEN_SECRET.test(position.key);
    case 'run':
      return GITHUB_TOKEN_LINE.test(position.line) && /github|\bgh\s/i.test(position.line) && !userOfUrl(name, position.line);
    case 'env':
      return envGivenToGithub(position.key, position.scope);
    default:
      return false;
  }
}

function isStep(scope: Step | Job | Workflow | Action): scope is Step {
  return !('kind' in scope) && !('steps' in scope);
}

/** The steps an `env:` covers. */
function stepsOf(scope: Step | Job | Workflow | Action): readonly Step[] {
  if (isStep(scope)) return [scope];
  if ('kind' in scope && scope.kind === 'workflow') return flatMap(scope.jobs, (job) => job.steps);
  return scope.steps;
}

/** The text of a step's code that may use its environment: its `run:` script, or `actions/github-script`'s `script`. */
function codeOf(step: Step): string | null {
  const script = scriptOf(step);
  if (script !== null) return script.text;
  return step.usesRef?.kind === 'repository' && step.usesRef.slug === 'actions/github-script' ? getScalar(step.with, 'script')?.value?.toString() ?? null : null;
}

/**
 * Whether an `env:` variable is handed to GitHub as a token: `GH_TOKEN` / `GITHUB_TOKEN` of an action step (the
 * variables actions and tools read GitHub's token from) or of a script that talks to GitHub; any other name when
 * a script it covers hands `$NAME` (`process.env.NAME`) to GitHub on one line.
 */
function envGivenToGithub(key: string, scope: Step | Job | Workflow | Action | null): boolean {
  if (scope === null) return false;
  const steps = stepsOf(scope);
  const direct = /^(?:GH|GITHUB)_TOKEN$/i.test(key);
  if (direct && isStep(scope) && scope.usesRef?.kind === 'repository') return true;
  // The key goes into a pattern: only a name a script can read (`FOO(` as an `env:` key would not compile).
  if (!direct && !/^[A-Za-z_]\w*$/.test(key)) return false;
  if (direct) {
    return steps.some((step) => {
      const code = codeOf(step);
      return code !== null && GITHUB_CLIENT.test(code);
    });
  }
  // The lines that hand a value to GitHub do not depend on the key: read once per step, and the key's pattern
  // built only when some step has such a line.
  let read: RegExp | null = null;
  return steps.some((step) => {
    const lines = tokenLines(step);
    if (lines.length === 0) return false;
    read ??= new RegExp(`\\$\\{?${key}\\b|\\benv\\.${key}\\b|\\$env:${key}\\b|\\benv\\[["']${key}["']\\]|environ(?:\\.get\\(|\\[)["']${key}["']`, 'i');
    const pattern = read;
    return lines.some((line) => pattern.test(line));
  });
}

const tokenLineCache = new ScanCache<Step, readonly string[]>();

/**
 * The lines of a step's code (a line a trailing `\\` continues joined to the next) that hand a value to GitHub as
 * a token (`GITHUB_TOKEN_LINE`) and name GitHub, `gh` or Octokit: where an `env:` variable read on the same line
 * is given to GitHub.
 */
function tokenLines(step: Step): readonly string[] {
  let lines = tokenLineCache.get(step);
  if (lines === undefined) {
    const code = codeOf(step);
    lines = code === null ? [] : code
      .replace(/\\\r?\n/g, ' ')
      .split('\n')
      .filter((line) => GITHUB_TOKEN_LINE.test(line) && /github|\bgh\s|octokit/i.test(line));
    tokenLineCache.set(step, lines);
  }
  return lines;
}

function describe(position: Position): string {
  switch (position.kind) {
    case 'with':
      return position.step?.uses !== undefined && typeof position.step.uses.value === 'string'
        ? `passed as \`${position.key}\` to \`${position.step.uses.value.replace(/@.*$/, '')}\``
        : `passed as \`with.${position.key}\``;
    case 'env':
      return `exported as \`${position.key}\``;
    case 'run':
      return 'used in a script';
    case 'secrets':
      return `passed to the reusable workflow as \`${position.key}\``;
    default:
      return 'used';
  }
}

/** The line of a script around `start`..`end`, with the lines a trailing `\\` continues joined to it. */
function logicalLine(script: string, start: number, end: number): string {
  let from = script.lastIndexOf('\n', start - 1) + 1;
  while (from > 1 && /\\\r?$/.test(script.slice(script.lastIndexOf('\n', from - 2) + 1, from - 1))) from = script.lastIndexOf('\n', from - 2) + 1;
  let to = script.indexOf('\n', end);
  // Only the end of the physical line before \`to\` decides whether it continues (not a test of the whole prefix).
  while (to !== -1 && /\\\r?$/.test(script.slice(Math.max(0, to - 2), to))) to = script.indexOf('\n', to + 1);
  return script.slice(from, to === -1 ? script.length : to);
}

/**
 * Where a script writes to a repository it names: `gh` acting with `--repo` / `-R owner/name`, an API call to
 * `repos/owner/name/...` that dispatches a workflow or a `repository_dispatch` event or is sent with a write method,
 * and a push to `github.com/owner/name`.
 */
const REPOSITORY_WRITES = [
  /\bgh\s+(?:pr|issue|release|workflow|label|secret|variable|repo)\s+(?:create|edit|merge|close|reopen|comment|review|run|delete|upload|set|sync|add|lock|unlock|transfer|clone)\b[^\n]*?\s(?:--repo|-R)[\s=]+["']?([\w.-]+\/[\w.-]+)/g,
  /\bgh\s+(?:pr|issue|release|workflow|label|secret|variable|repo)\s+(?:-R|--repo)[\s=]+["']?([\w.-]+\/[\w.-]+)["']?\s+[^\n]*?\b(?:create|edit|merge|close|comment|run|delete|upload|set)\b/g,
  /\brepos\/([\w.-]+\/[\w.-]+)\/(?:dispatches|actions\/workflows\/[^\s/]+\/dispatches)\b/g,
  /(?:-X\s*|--method\s+|--request\s+)(?:POST|PATCH|PUT|DELETE)\b[^\n]*?\brepos\/([\w.-]+\/[\w.-]+?)\//gi,
  /\brepos\/([\w.-]+\/[\w.-]+?)\/[^\n]*?(?:-X\s*|--method\s+|--request\s+)(?:POST|PATCH|PUT|DELETE)\b/gi,
  /\bgit\s+push\s+[^\n]*?github\.com[/:]([\w.-]+\/[\w.-]+?)(?:\.git)?(?=[\s"']|$)/g,
];

/**
 * The first repository other than this one that a use's steps write to by name (`REPOSITORY_WRITES`; a name with
 * an expression, or any name when this repository's name is not known, is none), or null. The job's own token
 * can write only to its repository: a token that writes elsewhere is a stored one with its owner's wider reach.
 */
function otherRepositoryWrite(uses: readonly Use[], own: ReadonlySet<string>): string | null {
  if (own.size === 0) return null;
  const steps = new Set<Step>();
  for (const use of uses) {
    const scope = use.step ?? use.job ?? use.workflow;
    if (scope !== null) for (const step of stepsOf(scope)) steps.add(step);
  }
  for (const step of steps) {
    const code = codeOf(step);
    if (code === null || !/\//.test(code)) continue;
    const text = code.replace(/\\\r?\n/g, ' ');
    for (const pattern of REPOSITORY_WRITES) {
      for (const match of text.matchAll(pattern)) {
        const name = (match[1] ?? '').replace(/\.git$/, '').toLowerCase();
        if (name !== '' && !own.has(name)) return name;
      }
    }
  }
  return null;
}

/** At most this many pieces of someone else's code are named in a description. */
const NAMED = 3;

/** A `uses:` or image text for a description: bounded (it is the scanned repository's) and without backticks. */
function shown(text: string): string {
  const clean = text.replace(/`/g, "'").trim();
  return `\`${clean.length > 80 ? `${clean.slice(0, 77)}...` : clean}\``;
}

/** An image reference not pinned by digest (`name:tag`, `name`), read as text; expressions are not resolved. */
function mutableImage(reference: string): boolean {
  return reference.trim() !== '' && !reference.includes('@');
}

/**
 * A piece of someone else's code that can change under the job without a change to this repository: where it runs
 * (`step`: a step of the job, or of a local composite action at its call; null for the job's reusable workflow,
 * container or a service) and, for a container or service, the secrets its definition hands it.
 */
interface Foreign {
  text: string;
  kind: 'workflow' | 'container' | 'service' | 'step';
  step: Step | null;
  /** The job's step that runs `step` (itself, or the call of the local composite action it belongs to). */
  caller: Step | null;
  secrets: readonly string[];
}

/**
 * Someone else's code that can change under the job without a change to this repository: a third party's action or
 * reusable workflow on a tag or branch (the run model's ownership; steps of local composite actions included at
 * their call), a third party's image by tag (the job's container, a service given the PAT, the workspace or the
 * machine, `docker://` steps), a script fetched and run (`curl … | sh`, not a vendor's official installer) and a
 * download nothing verifies. Any of them runs beside the token: the runner's memory holds every secret of the job.
 * Whether the PAT is handed to one (`handedTo`) decides the severity.
 */
function foreignCode(runs: RunModel, job: Job): Foreign[] {
  const found: Foreign[] = [];
  const seen = new Set<string>();
  const add = (item: Foreign) => {
    const key = `${item.kind}\u0000${item.text}\u0000${item.step?.index ?? -1}`;
    if (seen.has(key)) return;
    seen.add(key);
    found.push(item);
  };
  const image = (text: string | null, kind: Foreign['kind'], step: Step | null, caller: Step | null, secrets: readonly string[]) => {
    if (text !== null && !text.includes('${{') && mutableImage(text) && runs.imageOwnershipOf(text) === 'third-party') add({ text: `image ${shown(text)}`, kind, step, caller, secrets });
  };
  if (job.usesRef?.kind === 'repository' && !isFullSha(job.usesRef.ref) && runs.ownershipOf(job.usesRef) === 'third-party' && job.uses !== undefined) add({ text: `reusable workflow ${shown(String(job.uses.value))}`, kind: 'workflow', step: null, caller: null, secrets: [] });
  const container = job.container;
  // The job's container holds only what reaches the steps that run in it (the run model's container): it counts
  // when a PAT does, or when its definition gives it the machine.
  const access = runs.container(job)?.access;
  if (container !== undefined && access !== undefined && (access.mounts.some((m) => m.reach === 'host') || access.secrets.some((name) => isGithubPat(name, { kind: 'other' }) !== null))) {
    image(scalarText(container) ?? getScalar(container, 'image')?.value?.toString() ?? null, 'container', null, null, access.secrets);
  }
  // A service container runs apart from the job: only one given the PAT, the workspace or the machine reaches it (the run model's service access).
  for (const pair of job.services?.pairs ?? []) {
    const access = runs.service(job, pair.value).access;
    if (access.mounts.length > 0 || access.secrets.some((name) => isGithubPat(name, { kind: 'other' }) !== null)) image(scalarText(pair.value) ?? getScalar(pair.value, 'image')?.value?.toString() ?? null, 'service', null, null, access.secrets);
  }
  for (const { step, caller } of runs.job(job).steps) {
    const ref = step.usesRef;
    if (ref?.kind === 'repository' && !isFullSha(ref.ref) && runs.ownershipOf(ref) === 'third-party' && step.uses !== undefined) add({ text: `action ${shown(String(step.uses.value))}`, kind: 'step', step, caller, secrets: [] });
    else if (ref?.kind === 'docker') image(ref.image, 'step', step, caller, []);
    const script = scriptOf(step);
    if (script === null) continue;
    // The repository's own, its owner's and GitHub's scripts and files are not someone else's (ownership.ts), nor is
    // a vendor's official installer or a fixed version of a per-version archive (download-origin.ts).
    const fetched = scriptRemoteRuns(script).find((hit) => hitSeverity(hit, false, runs.identity).severity !== 'LOW');
    if (fetched !== undefined) add({ text: `a script fetched and run (${shown(fetched.form)}${fetched.url === null ? '' : ` from ${shown(fetched.url)}`})`, kind: 'step', step, caller, secrets: [] });
    const download = unverifiedDownloads(step).find((d) => downloadOrigin(step, script.text, d.offset, d.fetch.url, runs.identity).kind === 'mutable');
    if (download !== undefined) add({ text: `an unverified download (${shown(download.fetch.url ?? download.fetch.program)})`, kind: 'step', step, caller, secrets: [] });
  }
  return found;
}

/** Where one use of a PAT puts it: which code gets it in its `with:`, `env:` or script, or reads it from `.git/config`. */
interface Use {
  name: string;
  position: Position;
  /** The step whose `with:`, `env:` or script carries it; null at job or workflow level. */
  step: Step | null;
  /** The job whose `env:`, `with:` or `secrets:` carries it (a reusable workflow call's for the last two); null otherwise. */
  job: Job | null;
  /** The workflow whose `env:` carries it; null otherwise. */
  workflow: Workflow | null;
  /** A checkout's `token:` that stays in `.git/config`, where every later step of the job reads it. */
  persisted: boolean;
}

/**
 * Whether `use` hands the PAT to `item`: the item's step gets it in its own `with:`, `env:` or script (a local
 * composite action's steps get the `env:` and inputs of its call), or an `env:` whose scope covers the item (the
 * job's, the workflow's), or it reads it from `.git/config` a checkout left before it; a reusable workflow gets
 * it in the call's `with:` or `secrets:`; a container or service when its definition hands it the secret.
 */
function handedTo(use: Use, item: Foreign, job: Job, callers: ReadonlyMap<Step, Step>): boolean {
  if (item.kind === 'container' || item.kind === 'service') return item.secrets.some((n) => n.toUpperCase() === use.name.toUpperCase());
  if (item.kind === 'workflow') return use.job === job && use.step === null;
  const step = item.step;
  if (step === null) return false;
  if (use.workflow !== null) return true;
  if (use.step === null) return use.job === job && use.position.kind === 'env';
  if (use.step === step || use.step === item.caller) return true;
  // A checkout's token left in `.git/config`: every later step of the job reads it there (a local composite
  // action's steps in the order of the job's steps that call them, and after it within one action).
  if (!use.persisted) return false;
  const from = callers.get(use.step);
  const at = item.caller ?? step;
  if (from === undefined) return false;
  return at.index > from.index || (at === from && step.owner === use.step.owner && step.index > use.step.index);
}

/** What raises a PAT above hygiene in one job: someone else's mutable code in it, or an outsider who starts it and steers code in it. */
interface Exposure {
  job: Job;
  foreign: Foreign[];
  /** The job's step that runs each step (itself, or the call of the local composite action it belongs to). */
  callers: ReadonlyMap<Step, Step>;
  /** The reach that lets an outsider start the job (or the step), or null. */
  outsider: Reach | null;
  /** How the outsider steers code that runs in the job (their checkout run, their text run as code), or null. */
  steer: string | null;
}

/** What a job runs that decides an exposure, whatever the secret and reach: read once per job per scan. */
interface JobExposure {
  foreign: Foreign[];
  callers: ReadonlyMap<Step, Step>;
  /** `outsiderSteering`, read the first time an outsider can start the job. */
  steer?: string | null;
}

const jobExposures = new ScanCache<Job, JobExposure>();

function exposureOf(runs: RunModel, taint: TaintAnalyzer, job: Job, reach: Reach): Exposure {
  let known = jobExposures.get(job);
  if (known === undefined) {
    known = { foreign: foreignCode(runs, job), callers: new Map(runs.job(job).steps.map((c) => [c.step, c.caller] as const)) };
    jobExposures.set(job, known);
  }
  const outsider = outsiderStarts(reach) ? reach : null;
  if (outsider !== null && known.steer === undefined) known.steer = outsiderSteering(job, runs, taint);
  return { job, foreign: known.foreign, callers: known.callers, outsider, steer: outsider === null ? null : (known.steer ?? null) };
}

/** Someone else's mutable code is handed the token, or an outsider who starts the job steers code in it. */
function exposed(e: Exposure, uses: readonly Use[]): boolean {
  return handed(e, uses).length > 0 || (e.outsider !== null && e.steer !== null);
}

/** The pieces of someone else's mutable code of the job that these uses hand the token to. */
function handed(e: Exposure, uses: readonly Use[]): Foreign[] {
  return e.foreign.filter((item) => uses.some((use) => handedTo(use, item, e.job, e.callers)));
}

/** The pieces' texts, each once (a composite action may run the same action in two steps), at most `NAMED` of them. */
function named(items: readonly Foreign[]): string {
  const texts = [...new Set(items.map((i) => i.text))];
  return `${texts.slice(0, NAMED).join(', ')}${texts.length > NAMED ? ` and ${texts.length - NAMED} more` : ''}`;
}

const LOW_WHY =
  "LOW: only collaborators start the job and it runs only this repository's, its owner's and GitHub's code and actions pinned by SHA, so taking the token needs a compromise of one of those first.";

/**
 * An outsider starts the job but nothing they write runs in it: the token goes only to code of this repository,
 * its owner or GitHub, or actions pinned by SHA (or, for a reusable workflow's call, to the owner's workflow,
 * which decides what runs).
 */
function startedOnly(e: Exposure & { outsider: Reach }): string {
  const uses = e.job.uses === undefined ? null : String(e.job.uses.value).replace(/@.*$/, '');
  const where =
    uses === null
      ? "no step runs their code or expands their text into code, and the job runs only this repository's, its owner's and GitHub's code and actions pinned by SHA"
      : `the token goes only to reusable workflow \`${uses}\`, the repository's own or its owner's, which decides what runs, and nothing here runs their code or text`;
  return `LOW: ${whoText(e.outsider)}, but ${where}; starting the run gives them no way to the token without a compromise of that code first.`;
}

/**
 * The severity of a PAT held by these jobs (the worst of them), and the sentence that says why: MEDIUM when its
 * uses hand it to someone else's mutable code, or an outsider who starts the job steers code in it; LOW when the
 * only way to it is such code it is not handed (that code's own finding covers it), or none at all.
 */
function judge(runs: RunModel, exposures: readonly Exposure[], uses: readonly Use[]): { severity: Severity; why: string } {
  const worst = exposures.find((e) => exposed(e, uses));
  if (worst === undefined) {
    const nearby = exposures.find((e) => e.foreign.length > 0);
    if (nearby !== undefined) {
      return {
        severity: 'LOW',
        why: `LOW: the job also runs someone else's code that can change without a change here (${named(nearby.foreign)}), but the token is not handed to it: it is in none of that code's \`with:\` or \`env:\`, nor in an \`env:\` that covers it or a \`.git/config\` it reads, so taking it needs that code compromised and the runner's memory read, a way its own finding covers; a PAT is often needed by design (a pull request, push or label made with the job's \`GITHUB_TOKEN\` starts no workflow).`,
      };
    }
    const started = exposures.find((e): e is Exposure & { outsider: Reach } => e.outsider !== null);
    return { severity: 'LOW', why: started === undefined ? LOW_WHY : startedOnly(started) };
  }
  const reasons: string[] = [];
  if (worst.outsider !== null && worst.steer !== null) reasons.push(`${whoText(worst.outsider)}, and ${worst.steer}`);
  const given = handed(worst, uses);
  if (given.length > 0) {
    reasons.push(`the token is handed to someone else's code that can change without a change here: ${named(given)}, so its publisher (or whoever takes over their account) can take it with nothing but a pin in the way`);
    // Who starts the run matters less than who changes that code, but it is said when an outsider can start a run
    // in which that code runs (a step of it behind `if: github.event_name == 'workflow_dispatch'` runs only when a
    // maintainer starts the workflow, whoever can start its other runs).
    const reachesGiven = given.some((item) => item.caller === null || outsiderStarts(runs.stepReach(item.caller)));
    if (worst.outsider !== null && worst.steer === null && reachesGiven) reasons.push(whoText(worst.outsider));
  }
  return { severity: 'MEDIUM', why: `MEDIUM: ${reasons.join('; ')}.` };
}

export default defineWorkflowRule({
  meta: {
    id: 'personal-access-token',
    category: 'CICD-SEC-2',
    title: 'Long-lived personal access token used in a workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A secret named like a personal access token (`*_PAT`, `PAT_*`, `*PERSONAL_ACCESS_TOKEN*`, `GH_TOKEN`, `*_GH_TOKEN`, `*_GITHUB_TOKEN`) is passed to an action, a tool or a script as a GitHub token, or a stored secret of any name is given where a GitHub token goes (`GH_TOKEN` of a `gh` step, `github-token` of `actions/github-script`, `token` of `actions/checkout`, an API call\'s `Authorization` header, Octokit\'s `auth`): not the job token nor an installation token (minted per run, never stored), so a personal access token or a bot account\'s. A PAT does not expire with the run and acts with all of its owner\'s access. One finding per secret per job, at its first use. MEDIUM when it is handed to someone else\'s code that can change without a change here (a third party\'s action, workflow or image on a tag, a fetched script, an unverified download: in its `with:`, `env:`, an `env:` that covers it, or `.git/config` a checkout left), or an outsider who starts the job steers code in it; LOW otherwise, also when such code runs in the job without being handed it.',
    recommendation:
      'Use the job\'s `GITHUB_TOKEN` with the `permissions:` the job needs, or a GitHub App installation token minted per run (`actions/create-github-app-token`) scoped to the repositories and permissions required.',
  },
  create: (context) => {
    // Offsets are per file: remember them per scalar (each belongs to one file), not across the repository.
    const seen = new WeakMap<object, Set<number>>();
    /**
     * One finding per secret per holder: a job (its steps, `env:`, call), a local composite action (its steps, judged
     * at the jobs that call it), or a workflow's `env:` (every job of it). The first use is where it is reported.
     */
    interface Group {
      first: { occurrence: ExpressionOccurrence; position: Position; job: Job | null | undefined; file: SourceFile };
      lines: number[];
      uses: Use[];
      /** The holder: its job, the action's steps' owner, or the workflow whose `env:` carries it. */
      job: Job | null;
      steps: Step[];
      workflow: Workflow | null;
      /** Some use names it a personal access token; otherwise only where it is given says it is a GitHub token. */
      byName: boolean;
    }
    const groups = new Map<object, Map<string, Group>>();
    /**
     * The severity of a group: a job's (the reach of its steps that carry it, or the job's), a local composite
     * action's at the jobs that call it, a workflow `env:`'s by its worst job.
     */
    const severityOf = (group: Group): { severity: Severity; why: string } => {
      const runs = context.runs;
      const taint = context.taint;
      const { job, uses } = group;
      if (job !== null) {
        const inJob = group.steps.filter((st) => st.job === job);
        const reach = uses.some((u) => u.step === null) || inJob.length === 0 ? runs.job(job).reach : runs.stepReach(inJob[0] as Step);
        return judge(runs, [exposureOf(runs, taint, job, reach)], uses);
      }
      if (group.workflow !== null) {
        const workflow = group.workflow;
        return workflow.jobs.length === 0 ? { severity: 'LOW', why: LOW_WHY } : judge(runs, workflow.jobs.map((j) => exposureOf(runs, taint, j, runs.job(j).reach)), uses);
      }
      const callers = flatMap(group.steps, (st) => runs.jobSteps(st));
      if (callers.length === 0) return { severity: 'MEDIUM', why: 'MEDIUM: no workflow here runs this action, so who starts its jobs and what runs beside it are not known.' };
      return judge(runs, callers.map((caller) => exposureOf(runs, taint, caller.job as Job, runs.stepReach(caller))), uses);
    };
    const reportOccurrence = (occurrence: ExpressionOccurrence, position: Position, job: Job | null | undefined, step: Step | null = null, workflow: Workflow | null = null) => {
      if (occurrence.expr === null || !mayUseSecrets(occurrence.span.source)) return;
      const offsets = seen.get(occurrence.scalar) ?? new Set<number>();
      seen.set(occurrence.scalar, offsets);
      if (offsets.has(occurrence.offset)) return;
      let evidence: Evidence | null = null;
      // A reusable workflow's secret that every local caller fills with its job token is that token.
      const tokens = (step?.job?.workflow ?? job?.workflow ?? workflow)?.jobTokenSecrets;
      const found = secretUses(occurrence.expr).find((u) => u.kind === 'named' && !u.tested && tokens?.has(u.name.toLowerCase()) !== true && (evidence = isGithubPat(u.name, position)) !== null);
      if (found?.kind !== 'named' || evidence === null) return;
      offsets.add(occurrence.offset);
      const name = found.name;
      const holderJob = step !== null ? step.job : (job ?? null);
      const holder: object = holderJob ?? (step !== null ? step.owner : (workflow ?? occurrence.scalar));
      const byName = groups.get(holder) ?? new Map<string, Group>();
      groups.set(holder, byName);
      const persisted = step !== null && position.kind === 'with' && position.key.toLowerCase() === 'token' && checkoutPersists(step);
      const use: Use = { name, position, step, job: step === null ? (job ?? null) : null, workflow: step === null && (job === null || job === undefined) ? workflow : null, persisted };
      const file = step?.owner.file ?? holderJob?.workflow.file ?? workflow?.file;
      if (file === undefined) return;
      const line = file.position(occurrence.offset).line;
      // Secret names are not case-sensitive: `secrets.bot_pat` is `secrets.BOT_PAT`.
      const group = byName.get(name.toUpperCase());
      if (group === undefined) {
        byName.set(name.toUpperCase(), { first: { occurrence, position, job, file }, lines: [line], uses: [use], job: holderJob, steps: step === null ? [] : [step], workflow: holderJob === null && step === null ? workflow : null, byName: evidence === 'name' });
        return;
      }
      if (evidence === 'name') group.byName = true;
      if (!group.lines.includes(line)) group.lines.push(line);
      group.uses.push(use);
      if (step !== null && !group.steps.includes(step)) group.steps.push(step);
    };
    const report = (name: string, group: Group) => {
      const { occurrence, position, job, file } = group.first;
      const { severity, why } = severityOf(group);
      const elsewhere = otherRepositoryWrite(group.uses, context.runs.identity.names);
      const wider = elsewhere === null ? '' : ` It writes to \`${elsewhere}\`, another repository, which the job's own token cannot reach: a stored token with its owner's wider access.`;
      const others = group.lines.slice(1);
      const again = others.length === 0 ? '' : ` (and used again at line${others.length > 1 ? 's' : ''} ${others.slice(0, 10).join(', ')}${others.length > 10 ? ', ...' : ''})`;
      const finding: WorkflowReport = {
        node: occurrence.scalar,
        file,
        offset: occurrence.offset,
        severity,
        message: `\`secrets.${name}\`, ${group.byName ? 'by its name a personal access token' : "a stored secret given where a GitHub token goes, so a personal access token or a bot account's (not the job token, and an installation token expires within the hour and is not stored)"}, is ${describe(position)}${again}; unlike the job token it outlives the run and carries its owner's access.${wider}${why === '' ? '' : ` ${why}`}`,
      };
      const holder = job ?? group.job;
      context.report(holder === undefined || holder === null ? finding : { ...finding, job: holder });
    };
    /** Every PAT carried by the `${{ }}` of `node`. */
    const check = (model: Workflow | Action, node: YNode, position: Position, job: Job | null | undefined, step: Step | null) => {
      for (const occurrence of occurrencesIn(model, node)) reportOccurrence(occurrence, position, job, step, model.kind === 'workflow' && job === null ? model : null);
    };
    const checkMap = (model: Workflow | Action, map: YMap | undefined, kind: 'with' | 'env' | 'secrets', step: Step | null, job: Job | null | undefined) => {
      for (const pair of map?.pairs ?? []) {
        const key = keyText(pair.key);
        const position: Position = kind === 'with' ? { kind, key, step } : kind === 'env' ? { kind, key, scope: step ?? job ?? model } : { kind, key };
        check(model, pair.value, position, job, step);
      }
    };
    return {
      workflow(workflow) {
        if (!fileMayUseSecrets(workflow)) return;
        checkMap(workflow, workflow.env, 'env', null, null);
      },
      done() {
        for (const byName of groups.values()) for (const group of byName.values()) report(group.uses[0]?.name ?? '', group);
      },
      job(job) {
        const workflow = job.workflow;
        if (!fileMayUseSecrets(workflow)) return;
        checkMap(workflow, job.env, 'env', null, job);
        checkMap(workflow, job.with, 'with', null, job);
        if (job.secrets?.kind === 'map') checkMap(workflow, job.secrets, 'secrets', null, job);
      },
      step(step) {
        // Only `secrets.*` is reported: a file whose expressions never name the context has nothing to report.
        if (!fileMayUseSecrets(step.owner)) return;
        const file = step.owner.file;
        checkMap(step.owner, step.env, 'env', step, undefined);
        checkMap(step.owner, step.with, 'with', step, undefined);
        const run = step.run;
        if (run !== undefined && typeof run.value === 'string') {
          const script = run.value;
          for (const occurrence of expressionsOf(file, run)) {
            if (!mayUseSecrets(occurrence.span.source)) continue;
            reportOccurrence(occurrence, { kind: 'run', line: logicalLine(script, occurrence.span.start, occurrence.span.end) }, undefined, step);
          }
        }
      },
    };
  },
});
