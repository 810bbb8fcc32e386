/**
 * What a job run holds that is worth taking: its `GITHUB_TOKEN`'s write scopes (declared at job or workflow
 * level, `write-all`, or the repository default when neither declares any), the stored secrets its steps and
 * environment reference (or all of them, with `secrets: inherit`, or any of them, with a secret picked at run
 * time: `secrets[matrix.name]`, `toJSON(secrets)`), OIDC (`id-token: write`), a self-hosted
 * machine, and a publish. A chat webhook (a Slack, Discord, Teams, Mattermost or Google Chat incoming-webhook
 * URL kept in a secret: secrets.ts `isChatWebhookSecret`) is held but not worth taking: it lets whoever takes it
 * post to one channel, not push code, publish or read data. So is a coverage upload token (Codecov's, Coveralls',
 * Qlty's, Code Climate's reporter ID: secrets.ts `isUploadTokenSecret`, `UPLOAD_TOKEN_SERVICES`) kept to itself or
 * handed only to that service's own action: it lets whoever takes it upload coverage reports for this repository,
 * and the service's own action is run by the service it is for. So is an identifier (a secret whose name says it only
 * names an account, app, tenant or place: `DOCKERHUB_USERNAME`, `AZURE_CLIENT_ID`, `CLOUDFLARE_ACCOUNT_ID`,
 * `AWS_REGION`; secrets.ts `isIdentifierSecret`): it opens nothing without the credential beside it, and a job that
 * holds that credential holds it as a secret worth taking. Code that runs anywhere in a job can take all of it: on a GitHub-hosted runner the
 * job's user has passwordless `sudo`, and the runner process holds every secret the job references.
 */
import type { Action, Job, Step, Workflow } from '../../model/workflow.js';
import type { RepositoryModel } from '../../model/repository.js';
import { localCallers } from '../callers.js';
import { readPermissions } from '../permissions.js';
import { publishesForReal, publishingSteps } from '../publishing.js';
import { selfHosted } from '../runners.js';
import { fileMayUseSecrets, isChatWebhookSecret, isIdentifierSecret, isStoredSecretName, isUploadTokenSecret, secretOccurrences, unnamedSecretUse, uploadedWhat, uploadTokenNoun, valueSecrets } from '../secrets.js';
import { ScanCache } from '../../model/scan-cache.js';
import { secretFetcher } from './handed.js';
import { actionPermissions } from '../../data/permissions.js';
import { keyText, type YNode } from '../../yaml/model.js';
import type { SourceFile } from '../../yaml/source.js';

/** Write scopes that hand over the repository, its releases or packages, or a cloud account. */
export const VALUABLE_SCOPES: ReadonlySet<string> = new Set(['contents', 'packages', 'id-token', 'actions', 'deployments']);

export interface Holdings {
  /** The token's write scopes: listed, `all` (`write-all`), or `default` (nothing declared: the repository's default). */
  token: { kind: 'scopes'; writes: readonly string[] } | { kind: 'all' } | { kind: 'default' };
  /**
   * Stored secrets the job references that are credentials (never `GITHUB_TOKEN`, nor a name no secret can have,
   * nor a chat webhook, coverage upload token or identifier), in file order.
   */
  secrets: readonly string[];
  /** Stored secrets the job references that are only chat webhooks (secrets.ts `isChatWebhookSecret`): not worth taking. */
  webhooks: readonly string[];
  /**
   * Stored secrets the job references that are only coverage upload tokens (secrets.ts `isUploadTokenSecret`: kept
   * to themselves or handed only to their service's own action): not worth taking.
   */
  uploadTokens: readonly string[];
  /**
   * Stored secrets the job references whose names say they only identify an account, app, tenant or place
   * (secrets.ts `isIdentifierSecret`: `DOCKERHUB_USERNAME`, `AZURE_TENANT_ID`): not worth taking.
   */
  identifiers: readonly string[];
  /** `secrets: inherit` to a reusable workflow: every secret. */
  inheritsSecrets: boolean;
  /**
   * A step of the job that fetches credentials from a secret manager at run time (handed.ts `secretFetcher`:
   * `aws-actions/aws-secretsmanager-get-secrets`, `hashicorp/vault-action` ...) given no stored secret itself (it signs in
   * with OIDC, or the runner's own role), in words: `step \`Get secrets\` (\`hashicorp/vault-action\`)`. The credentials
   * it fetches are held like stored secrets. Absent when there is none, or when the fetching step is given stored
   * secrets, in its own `with:` or `env:` or its job's or workflow's `env:` (those are counted in `secrets`, and what
   * they fetch with them is not counted twice).
   */
  fetches?: string;
  /**
   * The first expression of the job that picks a secret at run time (`secrets[matrix.name]`) or reads the
   * whole context (`toJSON(secrets)`), as written, or null. Such a job holds stored secrets worth taking
   * whatever else it names: GitHub cannot tell which ones it reads (secrets.ts `unnamedSecretUse`).
   */
  dynamicSecrets: string | null;
  oidc: boolean;
  /**
   * `definite` (the `self-hosted` label, or a group or label named after another cloud's machine: runners.ts
   * `otherCloudEvidence`), `possible` (another custom label or group), or null (GitHub-hosted).
   */
  selfHosted: 'definite' | 'possible' | null;
  /** How the job publishes (a real publish, not a rehearsal), or null. */
  publishes: string | null;
  /**
   * A step that writes to the repository with the job's own token (a deploy to GitHub Pages, a push of a
   * commit or a release: an action the permissions table says needs `contents: write` or `packages: write`, given
   * no other credential), in words (`peaceiris/actions-gh-pages`), or null. With the repository's default token,
   * the job only works when that token is read-write: it is worth taking whatever the settings are not known to say.
   */
  tokenWriter: string | null;
  /**
   * For a job of a reusable workflow of this repository that declares no `permissions:` (nor does its workflow):
   * its `GITHUB_TOKEN` has what the calling jobs grant (a called workflow can keep or reduce its caller's permissions,
   * never raise them), so `token` and `oidc` are the union of its local callers' (`calledToken`). `from` names a
   * caller whose `permissions:` grant it (`release.yml` job \`push\`), `callers` how many calling jobs there are;
   * `alsoDefault` the ways it runs with the repository's default token besides (its own other triggers,
   * \`workflow_dispatch\`, or a caller that declares no `permissions:` either), in words; empty when none.
   */
  calledWith?: { from: string; callers: number; alsoDefault: readonly string[] };
  /**
   * For a definite self-hosted machine: the repository already runs forks' pull request code with no approval on
   * the same runners (open-runners.ts), in words naming that job. The machine is then held but not worth taking:
   * nothing else that runs there gives an outsider a way onto it that a fork's pull request does not.
   */
  runnerOpenToForks?: string;
}

const cache = new ScanCache<Job, Holdings>();

/** `Holdings.selfHosted` of a job, without the rest of its holdings (runners.ts `selfHosted`, kept per job). */
export function runnerKind(job: Job): Holdings['selfHosted'] {
  const runner = selfHosted(job);
  return runner === null ? null : runner.certain ? 'definite' : 'possible';
}

export function jobHoldings(job: Job): Holdings {
  let found = cache.get(job);
  if (found === undefined) {
    found = readHoldings(job);
    cache.set(job, found);
  }
  return found;
}

/**
 * The parts of a job's node that can run: every key's value but `steps`, and of `steps` only the steps the run
 * model kept (a step whose condition never holds in its job, `if: github.event_name == 'push'` in a job that never
 * runs on `push`, is dropped: the secrets it names are never in the job's runs).
 */
export function liveJobNodes(job: Job): YNode[] {
  const nodes: YNode[] = [];
  for (const pair of job.node.pairs) {
    if (keyText(pair.key) !== 'steps') nodes.push(pair.value);
    else for (const step of job.steps) nodes.push(step.node);
  }
  return nodes;
}

function readHoldings(job: Job): Holdings {
  const declared = job.permissions ?? job.workflow.permissions;
  const token: Holdings['token'] = declared === undefined ? { kind: 'default' } : tokenOf(declared);
  const oidc = tokenMintsOidc(token);
  const file = job.workflow.file;
  const names = new Set<string>();
  let dynamicSecrets: string | null = null;
  // A file none of whose expressions reads `secrets` (secrets.ts `fileMayUseSecrets`, from the file's extraction, which
  // most scans build anyway) names none here: its nodes are not walked. Otherwise the walks below read slices of that
  // extraction instead of walking each node's scalars.
  const nodes = fileMayUseSecrets(job.workflow) ? [...liveJobNodes(job), job.workflow.env] : [];
  for (const node of nodes) {
    if (node === undefined) continue;
    for (const use of secretOccurrences(file, node)) if (isStoredSecretName(use.name)) names.add(use.name);
    dynamicSecrets ??= unnamedSecretUse(file, node);
  }
  const inherits = job.secrets?.kind === 'scalar' && String(job.secrets.value ?? '').trim() === 'inherit';
  const { credentials: secrets, webhooks, uploadTokens, identifiers } = splitSecrets(job.workflow, withoutJobToken([...names], job.workflow));
  const runner = runnerKind(job);
  const publisher = publishingSteps(job).find(publishesForReal);
  const writer = job.steps.find((step) => writesWithJobToken(file, step));
  // A secret manager given no stored secret (in its own `with:`/`env:` or the job's or workflow's `env:`) signs in
  // otherwise (OIDC, the runner's role): what it fetches is held besides the stored secrets, not instead of them.
  const fetcher = job.steps.find((step) => secretFetcher(step) !== null && stepStoredSecrets(step).length === 0);
  return {
    token,
    secrets,
    webhooks,
    uploadTokens,
    identifiers,
    inheritsSecrets: inherits,
    dynamicSecrets,
    oidc,
    selfHosted: runner,
    publishes: publisher === undefined ? null : publisher.evidence,
    tokenWriter: writer === undefined ? null : `\`${writer.usesRef?.kind === 'repository' ? writer.usesRef.slug : String(writer.uses?.value ?? '')}\``,
    ...(fetcher === undefined ? {} : { fetches: `${fetcher.name !== null ? `step \`${fetcher.name.replace(/\s+/g, ' ').slice(0, 60)}\`` : `step ${fetcher.index + 1}`} (\`${secretFetcher(fetcher) ?? ''}\`)` }),
  };
}

/**
 * The credential secrets of a job (`Holdings.secrets`) that only steps which can never run in the same job run as
 * `step` name (`sameRun`: another matrix leg, a contradictory condition): a step on the `windows-latest` leg does not
 * hold the cloud credentials a step of the `ubuntu-latest` leg is given in its own `env:`. Names in the job's other
 * keys (its `env:`, `container:`, `services:`) and the workflow's `env:` reach every step. Empty when none.
 */
export function secretsApartFrom(job: Job, step: Step, sameRun: (a: Step, b: Step) => boolean): string[] {
  const held = jobHoldings(job).secrets;
  if (held.length === 0 || !fileMayUseSecrets(job.workflow)) return [];
  const file = job.workflow.file;
  const reached = new Set<string>();
  const add = (node: YNode | undefined) => {
    if (node === undefined) return;
    for (const use of secretOccurrences(file, node)) reached.add(use.name);
  };
  for (const pair of job.node.pairs) if (keyText(pair.key) !== 'steps') add(pair.value);
  add(job.workflow.env);
  for (const other of job.steps) if (other === step || sameRun(step, other)) add(other.node);
  return held.filter((name) => !reached.has(name));
}

/** At most this many levels of reusable workflows calling each other are followed for the token they hand down. */
const MAX_CALL_DEPTH = 4;
/** At most this many calling jobs are read for one workflow's token, over all levels (a fan of callers at each level is hostile input). */
const MAX_CALLERS_READ = 200;
/** What a workflow's local callers hand its jobs (`handedDown` from the top), once per workflow and scan. */
const handedCache = new ScanCache<Workflow, HandedDown[] | null>();

/** What one calling job hands down: its token (`default` when it declares none and is not itself called here), and where it comes from. */
interface HandedDown {
  token: Holdings['token'];
  /** The calling job that declares it, in words (`release.yml` job \`push\`); null for a default token. */
  from: string | null;
  /** Ways the repository's default token reaches it instead, in words. */
  defaults: string[];
}

/**
 * The token a job of a reusable workflow of this repository runs with when neither it nor its workflow declares
 * `permissions:`: GitHub hands a called workflow's jobs the calling job's `GITHUB_TOKEN` permissions (the called
 * workflow can only keep or reduce them), so it is the union of what the workflow's local callers grant (their own
 * `permissions:`, or their workflow's; a caller that is itself a called workflow declaring none hands down its own
 * callers', through at most MAX_CALL_DEPTH levels), and the repository's default token on the workflow's other
 * triggers (`workflow_dispatch`) or through a caller that declares none. Null when the job declares its own, the
 * workflow is not called here (no caller found: the repository's default, as before), or it cannot be read.
 */
export function calledToken(job: Job, repository: RepositoryModel): Pick<Holdings, 'token' | 'oidc' | 'calledWith'> | null {
  if ((job.permissions ?? job.workflow.permissions) !== undefined) return null;
  let handed = handedCache.get(job.workflow);
  if (handed === undefined) {
    handed = handedDown(job.workflow, repository, 0, new Set(), { left: MAX_CALLERS_READ });
    handedCache.set(job.workflow, handed);
  }
  if (handed === null) return null;
  const froms = handed.filter((h) => h.from !== null);
  // Only callers that declare nothing either: the repository's default, as the job's own text already says.
  if (froms.length === 0) return null;
  const defaults = [...new Set(handed.flatMap((h) => h.defaults))];
  let token: Holdings['token'];
  if (handed.some((h) => h.token.kind === 'all')) token = { kind: 'all' };
  else {
    const writes: string[] = [];
    for (const h of handed) if (h.token.kind === 'scopes') for (const w of h.token.writes) if (!writes.includes(w)) writes.push(w);
    token = { kind: 'scopes', writes };
  }
  const oidc = tokenMintsOidc(token);
  const granting = froms.find((h) => h.token.kind === 'all' || (h.token.kind === 'scopes' && h.token.writes.some((w) => VALUABLE_SCOPES.has(w)))) ?? froms[0];
  return { token, oidc, calledWith: { from: granting?.from ?? '', callers: froms.length, alsoDefault: defaults } };
}

/** What the local callers of `workflow` hand its jobs, with its own other triggers' default token; null when nobody here calls it. */
function handedDown(workflow: Workflow, repository: RepositoryModel, depth: number, seen: Set<Workflow>, budget: { left: number }): HandedDown[] | null {
  const callers = localCallers(workflow).filter((c) => c.workflow !== workflow);
  if (callers.length === 0 || depth >= MAX_CALL_DEPTH || seen.has(workflow)) return null;
  seen.add(workflow);
  const found: HandedDown[] = [];
  const own = workflow.triggers.map((t) => t.name).filter((n) => n !== 'workflow_call');
  if (own.length > 0) found.push({ token: { kind: 'default' }, from: null, defaults: [`when started by ${own.slice(0, 3).map((n) => `\`${n}\``).join(', ')}`] });
  for (const caller of callers) {
    if (budget.left <= 0) {
      // Past the bound: what the rest hand down is not read, and may be the default.
      found.push({ token: { kind: 'default' }, from: null, defaults: ['through callers past the number read'] });
      break;
    }
    budget.left--;
    const declared = caller.permissions ?? caller.workflow.permissions;
    const where = `${caller.workflow.file.path.replace(/^.*\//, '')} job \`${caller.id}\``;
    if (declared !== undefined) {
      const token = tokenOf(declared);
      found.push(token.kind === 'default' ? { token, from: null, defaults: [`through ${where}, whose \`permissions:\` are not literal`] } : { token, from: where, defaults: [] });
      continue;
    }
    const above = handedDown(caller.workflow, repository, depth + 1, seen, budget);
    if (above === null) found.push({ token: { kind: 'default' }, from: null, defaults: [`through ${where}, which declares no \`permissions:\``] });
    else found.push(...above);
  }
  seen.delete(workflow);
  return found;
}

/** True when the token can mint an OIDC token: `write-all`, or `id-token: write` among its scopes. */
function tokenMintsOidc(token: Holdings['token']): boolean {
  return token.kind === 'all' || (token.kind === 'scopes' && token.writes.includes('id-token'));
}

/** A declared `permissions:` value as a token: `write-all`, or its write scopes (none for `read-all`); an expression counts as the default. */
function tokenOf(declared: YNode): Holdings['token'] {
  const permissions = readPermissions(declared);
  if (permissions.kind === 'write-all') return { kind: 'all' };
  if (permissions.kind === 'read-all') return { kind: 'scopes', writes: [] };
  if (permissions.kind === 'scopes') return { kind: 'scopes', writes: permissions.writes.map((w) => w.scope) };
  return { kind: 'default' };
}

/**
 * The stored secrets a holder holds that are not worth taking: chat webhooks, coverage upload tokens and identifiers
 * (a `Holdings` is one).
 */
export interface MinorSecrets {
  webhooks: readonly string[];
  uploadTokens: readonly string[];
  identifiers: readonly string[];
  /**
   * For a step of a job (RunModel `minorAt`): the job's self-hosted runner is one forks already reach
   * (`openRunnerNote`), so its machine is not counted either.
   */
  openRunner?: true;
}

export const NO_MINOR_SECRETS: MinorSecrets = { webhooks: [], uploadTokens: [], identifiers: [] };

/** True when a holder holds a chat webhook, a coverage upload token or an identifier. */
export function holdsMinor(minor: MinorSecrets): boolean {
  return minor.webhooks.length > 0 || minor.uploadTokens.length > 0 || minor.identifiers.length > 0;
}

/**
 * Secret names split as a job's holdings split them (`job`: what its job holds): credentials, chat webhooks,
 * coverage upload tokens and identifiers (names compare without case, as GitHub's secrets do). For a container or
 * service that gets some of its job's secrets.
 */
export function splitAsHeld(job: Holdings, names: readonly string[]): { secrets: string[]; webhooks: string[]; uploadTokens: string[]; identifiers: string[] } {
  const has = (list: readonly string[], name: string): boolean => list.some((w) => w.toUpperCase() === name.toUpperCase());
  const webhook = (n: string): boolean => has(job.webhooks, n);
  const upload = (n: string): boolean => !webhook(n) && has(job.uploadTokens, n);
  const identifier = (n: string): boolean => !webhook(n) && !upload(n) && has(job.identifiers, n);
  return {
    secrets: names.filter((n) => !webhook(n) && !upload(n) && !identifier(n)),
    webhooks: names.filter(webhook),
    uploadTokens: names.filter(upload),
    identifiers: names.filter(identifier),
  };
}

/**
 * Stored secret names split into credentials, chat webhooks (secrets.ts `isChatWebhookSecret`), coverage upload
 * tokens (secrets.ts `isUploadTokenSecret`) and identifiers (secrets.ts `isIdentifierSecret`).
 */
export function splitSecrets(
  model: Workflow | Action,
  names: readonly string[],
): { credentials: string[]; webhooks: string[]; uploadTokens: string[]; identifiers: string[] } {
  const split = { credentials: [] as string[], webhooks: [] as string[], uploadTokens: [] as string[], identifiers: [] as string[] };
  for (const name of names) {
    if (isChatWebhookSecret(model, name)) split.webhooks.push(name);
    else if (isUploadTokenSecret(model, name)) split.uploadTokens.push(name);
    else if (isIdentifierSecret(model, name)) split.identifiers.push(name);
    else split.credentials.push(name);
  }
  return split;
}

function listed(names: readonly string[], max: string): string {
  return `${names.slice(0, 3).map((n) => `\`${n}\``).join(', ')}${names.length > 3 ? max.replace('N', String(names.length - 3)) : ''}`;
}

/**
 * What a holder holds that is not worth taking, named: `a chat webhook (\`SLACK_WEBHOOK\`) and a coverage upload
 * token (\`CODECOV_TOKEN\`)`; empty for none.
 */
export function minorNames(minor: MinorSecrets, short = false): string {
  const more = short ? ', ...' : ' and N more';
  const parts: string[] = [];
  const { webhooks, uploadTokens, identifiers } = minor;
  if (webhooks.length > 0) parts.push(`${webhooks.length === 1 ? 'a chat webhook' : 'chat webhooks'} (${listed(webhooks, more)})`);
  if (uploadTokens.length > 0) parts.push(`${uploadTokenNoun(uploadTokens)} (${listed(uploadTokens, more)})`);
  if (identifiers.length > 0) parts.push(`${identifiers.length === 1 ? 'an identifier' : 'identifiers'} (${listed(identifiers, more)})`);
  return parts.length === 3 ? `${parts[0]}, ${parts[1]} and ${parts[2]}` : parts.join(' and ');
}

/** The kinds of minor secret any of `holders` holds, unnamed: `a chat webhook and a coverage upload token`; empty for none. */
export function minorKinds(holders: readonly MinorSecrets[]): string {
  const kinds: string[] = [];
  if (holders.some((h) => h.webhooks.length > 0)) kinds.push('a chat webhook');
  const uploads = holders.flatMap((h) => h.uploadTokens);
  if (uploads.length > 0) kinds.push(uploadTokenNoun(uploads, true));
  if (holders.some((h) => h.identifiers.length > 0)) kinds.push('an identifier');
  return kinds.length === 3 ? `${kinds[0]}, ${kinds[1]} and ${kinds[2]}` : kinds.join(' and ');
}

/**
 * A holder's chat webhooks and coverage upload tokens in words, for findings that say what a job holds: `a chat
 * webhook (\`SLACK_WEBHOOK\`), which lets someone post to a channel, not push code, publish or read data`; `a coverage
 * upload token (\`CODECOV_TOKEN\`), which lets someone upload coverage reports for this repository, not ...`; both
 * named when it holds both; empty for none.
 */
export function minorWords(minor: MinorSecrets): string {
  if (!holdsMinor(minor)) return '';
  const { webhooks, uploadTokens, identifiers } = minor;
  const parts: string[] = [];
  if (webhooks.length + uploadTokens.length > 0) {
    const one = webhooks.length + uploadTokens.length === 1;
    const does = [webhooks.length > 0 ? 'post to a channel' : '', uploadTokens.length > 0 ? `upload ${uploadedWhat(uploadTokens)} for this repository` : ''].filter((d) => d !== '').join(' and ');
    parts.push(`${minorNames({ webhooks, uploadTokens, identifiers: [] })}, which ${one ? 'lets' : 'let'} someone ${does}, not push code, publish or read data`);
  }
  if (identifiers.length > 0) parts.push(identifierWords(identifiers));
  return parts.join(', and ');
}

/**
 * `an identifier (\`DOCKERHUB_USERNAME\`), which only names an account, app or place and opens nothing without the
 * credential beside it`; empty for none.
 */
export function identifierWords(identifiers: readonly string[]): string {
  if (identifiers.length === 0) return '';
  const one = identifiers.length === 1;
  return `${minorNames({ webhooks: [], uploadTokens: [], identifiers })}, which only ${one ? 'names' : 'name'} an account, app or place and ${one ? 'opens' : 'open'} nothing without the credential beside ${one ? 'it' : 'them'}`;
}

/**
 * For a sentence "<who> holds <lead>no write scope ..., no <other>secret, ...": the chat webhooks and coverage upload
 * tokens the jobs hold (`only a chat webhook (...); `, and `other ` before "secret"), or nothing to add when they hold
 * none. `named`: the sentence before already said what they let someone do, so only the names are repeated.
 */
export function minorLead(minor: MinorSecrets, named = false): { lead: string; other: string } {
  if (!holdsMinor(minor)) return { lead: '', other: '' };
  return { lead: `only ${named ? minorNames(minor, true) : minorWords(minor)}; `, other: 'other ' };
}

/**
 * `no write scope that changes code, releases or packages, no secret, OIDC token, self-hosted machine or publish`,
 * for the supply-chain rules' LOW: led by the chat webhooks and coverage upload tokens the jobs hold (`minorLead`)
 * when they hold any.
 */
export function nothingWorthText(minor: MinorSecrets, named = false): string {
  const { lead, other } = minorLead(minor, named);
  if (minor.openRunner === true) {
    return `${lead}no write scope that changes code, releases or packages, no ${other}secret, OIDC token or publish, and its self-hosted runner is one that forks already reach`;
  }
  return `${lead}no write scope that changes code, releases or packages, no ${other}secret, OIDC token, self-hosted machine or publish`;
}

/**
 * True when a step is a well-known action that writes to the repository or its packages (the permissions table:
 * `contents: write` or `packages: write` for any inputs) and is handed no stored secret, so it writes with the
 * job's token (given as an input, or through its input that defaults to \`github.token\`), not a deploy key or
 * personal token (an input that reads a secret through an environment variable, `${{ env.DEPLOY_TOKEN }}`, is handed
 * that secret).
 */
function writesWithJobToken(file: SourceFile, step: Step): boolean {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return false;
  const known = actionPermissions(ref.path === '' ? ref.slug : `${ref.slug}/${ref.path}`);
  if (known === undefined || (known.scopes.contents !== 'write' && known.scopes.packages !== 'write')) return false;
  return namedSecrets(file, [step.with, step.env]).length === 0 && !valueSecrets(step, step.with).some(isStoredSecretName);
}

/** The self-hosted machine among a job's `valuables`, in those words. */
export const SELF_HOSTED_VALUABLE = 'a self-hosted runner';

/** Whether a default token may write: what the settings snapshot says, or null when it is not known. */
export type DefaultToken = 'read' | 'write' | null;

/**
 * What a job holds that is worth taking, in words (`\`contents: write\``, `secret \`NPM_TOKEN\``, `OIDC`,
 * `a self-hosted runner`, `a publish (npm publish)`); empty when nothing is. `forkPullRequest`: a fork's
 * `pull_request` run, which gets a read-only token and no secrets (only the machine counts).
 */
export function valuables(holdings: Holdings, defaultToken: DefaultToken, forkPullRequest = false): string[] {
  const found: string[] = [];
  if (holdings.selfHosted === 'definite' && (forkPullRequest || holdings.runnerOpenToForks === undefined)) found.push(SELF_HOSTED_VALUABLE);
  if (forkPullRequest) return found;
  const token = holdings.token;
  const called = holdings.calledWith;
  // A called workflow's job: where its token's scopes come from, said once, after the first thing they give.
  let via = called === undefined ? '' : ` (from its callers' \`permissions:\`, e.g. ${called.from})`;
  const from = (): string => {
    const text = via;
    via = '';
    return text;
  };
  if (token.kind === 'all') found.push(`a \`write-all\` token${from()}`);
  else if (token.kind === 'scopes') {
    const scopes = token.writes.filter((s) => VALUABLE_SCOPES.has(s) && s !== 'id-token');
    if (scopes.length > 0) found.push(`${scopes.map((s) => `\`${s}: write\``).join(', ')}${from()}`);
  }
  if (mayHoldDefault(holdings) && defaultToken !== 'read') {
    const when = token.kind === 'default' || called === undefined ? '' : ` ${called.alsoDefault[0] ?? ''}`;
    found.push(
      defaultToken === 'write'
        ? `the repository's read-write default token${when}`
        : holdings.tokenWriter !== null
          ? `the repository's default token${when}, which ${holdings.tokenWriter} writes to the repository with (so it is read-write here)`
          : `the repository's default token (read-write on many repositories)${when}`,
    );
  }
  if (holdings.oidc && token.kind !== 'all') found.push(`OIDC (\`id-token: write\`)${from()}`);
  if (holdings.inheritsSecrets) found.push('every secret (`secrets: inherit`)');
  else if (holdings.dynamicSecrets !== null) found.push(dynamicWords(holdings.dynamicSecrets));
  else if (holdings.secrets.length > 0) {
    const shown = holdings.secrets.slice(0, 3).map((s) => `\`${s}\``).join(', ');
    found.push(`${holdings.secrets.length === 1 ? 'secret' : 'secrets'} ${shown}${holdings.secrets.length > 3 ? ` and ${holdings.secrets.length - 3} more` : ''}`);
  }
  if (holdings.fetches !== undefined && !holdings.inheritsSecrets && holdings.dynamicSecrets === null) found.push(`credentials fetched at run time by ${holdings.fetches}`);
  if (holdings.publishes !== null) found.push(`a publish (${holdings.publishes})`);
  return found;
}

/**
 * True when the job's token is, on some of its runs, the repository's default token: it declares no `permissions:`
 * (`token` is `default`), or it is a called workflow's job whose workflow also runs on other triggers, or that a caller
 * which declares none calls (`calledWith.alsoDefault`).
 */
export function mayHoldDefault(holdings: Pick<Holdings, 'token' | 'calledWith'>): boolean {
  return holdings.token.kind === 'default' || (holdings.calledWith?.alsoDefault.length ?? 0) > 0;
}

/** True when a job holds stored secrets worth taking: named ones, every one (`secrets: inherit`), or ones picked at run time. */
export function holdsSecrets(holdings: Holdings): boolean {
  return holdings.secrets.length > 0 || holdings.inheritsSecrets || holdings.dynamicSecrets !== null || holdings.fetches !== undefined;
}

/** `secrets picked at run time (\`${{ secrets[matrix.name] }}\`, any of them)`, for `valuables` and `durableHoldings`. */
function dynamicWords(expression: string): string {
  const shown = expression.length > 60 ? `${expression.slice(0, 57)}...` : expression;
  return `secrets picked at run time (\`\${{ ${shown} }}\`: any stored secret can be read)`;
}

/**
 * Everything a holder holds, most worth taking first, in words: what `valuables` names (a self-hosted machine,
 * the token's write scopes, OIDC, secrets, a publish), then the chat webhooks and coverage upload tokens, which are
 * not worth taking (`minorWords`); empty when it holds neither. For sentences that name what a job (or a container)
 * holds, so that a chat webhook or upload token is never named before, or instead of, something worth taking.
 */
export function heldWords(holdings: Holdings, defaultToken: DefaultToken): string[] {
  const found = valuables(holdings, defaultToken);
  const minor = minorWords(holdings);
  return minor === '' ? found : [...found, minor];
}

/**
 * What of a job's holdings outlives its run, in words: its stored secrets (`secret \`NPM_TOKEN\``, or every
 * secret with `secrets: inherit`) and a definite self-hosted machine. Not the `GITHUB_TOKEN` (whatever its
 * scopes, it expires when the job ends) nor an OIDC token (minted for the run, short-lived), nor a publish. For
 * claims about what a past run leaked that is still usable today (a compromise whose tags were restored).
 */
export function durableHoldings(holdings: Holdings): string[] {
  const found: string[] = [];
  if (holdings.inheritsSecrets) found.push('every secret of the repository (`secrets: inherit`)');
  else if (holdings.dynamicSecrets !== null) found.push(`the stored ${dynamicWords(holdings.dynamicSecrets)}`);
  else if (holdings.secrets.length > 0) {
    const shown = holdings.secrets.slice(0, 3).map((s) => `\`${s}\``).join(', ');
    found.push(`the ${holdings.secrets.length === 1 ? 'stored secret' : 'stored secrets'} ${shown}${holdings.secrets.length > 3 ? ` and ${holdings.secrets.length - 3} more` : ''}`);
  }
  if (holdings.fetches !== undefined && !holdings.inheritsSecrets && holdings.dynamicSecrets === null) found.push(`the credentials fetched at run time by ${holdings.fetches}`);
  if (holdings.selfHosted === 'definite') found.push('the self-hosted machine it runs on, which keeps whatever that code left behind');
  return found;
}

/**
 * True when a job's `GITHUB_TOKEN` can write nothing: its `permissions:` (job level, or the workflow's it inherits)
 * grant no write scope (`read-all`, only `read` scopes, `{}`), or it declares none and the settings snapshot says
 * the repository's default token is read-only. Whoever takes that token gets read access at most.
 */
export function readOnlyToken(holdings: Holdings, defaultToken: DefaultToken): boolean {
  const token = holdings.token;
  return (token.kind === 'scopes' && token.writes.length === 0 && !mayHoldDefault(holdings)) || (mayHoldDefault(holdings) && token.kind !== 'all' && (token.kind === 'default' || token.writes.length === 0) && defaultToken === 'read');
}

/**
 * True when a job's `GITHUB_TOKEN` hands over nothing worth taking: read-only (`readOnlyToken`), or its write
 * scopes are only ones that change no code, release or package (`pull-requests`, `issues`, `checks`...; `id-token`
 * is the job's right to ask for an OIDC token, which the `GITHUB_TOKEN` itself cannot mint). For claims about the
 * token alone (one persisted in `.git/config`), not about the job's other holdings.
 */
export function tokenHandsOverNothing(holdings: Holdings, defaultToken: DefaultToken): boolean {
  const token = holdings.token;
  const minorOnly = token.kind === 'scopes' && token.writes.every((s) => !VALUABLE_SCOPES.has(s) || s === 'id-token');
  return readOnlyToken(holdings, defaultToken) || (minorOnly && (!mayHoldDefault(holdings) || defaultToken === 'read'));
}

/**
 * The words for a job whose `valuables` are empty: nothing worth taking, and, when its token has write scopes
 * that hand over no code, release or package (`issues`, `pull-requests`, `checks`...), those named, so the
 * sentence never says "no write scope" of a job that has one.
 */
export function nothingHeldText(holdings: Holdings): string {
  return `${nothingHeldWords(holdings)}${openRunnerNote(holdings)}`;
}

function nothingHeldWords(holdings: Holdings): string {
  const minor = minorWrites(holdings);
  const words = minorWords(holdings);
  if (minor.length === 0) return words === '' ? 'the job holds no write scope, secret or OIDC token' : `the job holds only ${words}: no write scope, other secret or OIDC token`;
  const scopes = `${minor.map((s) => `\`${s}: write\``).join(', ')} (no scope that changes code, releases or packages)`;
  return words === '' ? `the job holds only ${scopes}, no secret or OIDC token` : `the job holds only ${scopes} and ${words}, no other secret or OIDC token`;
}

/**
 * `; it runs on a self-hosted runner, but ...` for a job whose self-hosted machine is already open to forks
 * (`runnerOpenToForks`): why the machine is not counted; empty otherwise.
 */
export function openRunnerNote(holdings: Pick<Holdings, 'selfHosted' | 'runnerOpenToForks'>): string {
  return holdings.selfHosted === 'definite' && holdings.runnerOpenToForks !== undefined ? `; it runs on a self-hosted runner, but ${holdings.runnerOpenToForks}, so the machine is no holding an outsider lacks` : '';
}

/** The token's write scopes that hand over no code, release or package (`issues`, `pull-requests`, `checks`...). */
export function minorWrites(holdings: Holdings): string[] {
  const token = holdings.token;
  return token.kind === 'scopes' ? token.writes.filter((s) => !VALUABLE_SCOPES.has(s)) : [];
}

/**
 * How much a job holds, for claims whose attacker is a compromised upstream (an action's, image's or script
 * host's maintainer) and whose severity follows what the job holds: `valuable` (a write scope that hands over
 * the repository, releases or packages, `write-all`, a stored secret, OIDC, a self-hosted machine, a publish,
 * or a default token the settings snapshot shows is read-write), `default-token` (only a default token whose
 * scopes are not known: read-write on many repositories), `none` (a read-only token and nothing else).
 */
export type HoldingStrength = 'valuable' | 'default-token' | 'none';

export function holdingStrength(holdings: Holdings, defaultToken: DefaultToken): HoldingStrength {
  const token = holdings.token;
  const maybeDefault = mayHoldDefault(holdings);
  const definite =
    token.kind === 'all' ||
    (token.kind === 'scopes' && token.writes.some((s) => VALUABLE_SCOPES.has(s))) ||
    (maybeDefault && (defaultToken === 'write' || (defaultToken === null && holdings.tokenWriter !== null))) ||
    holdings.oidc ||
    holdsSecrets(holdings) ||
    (holdings.selfHosted === 'definite' && holdings.runnerOpenToForks === undefined) ||
    holdings.publishes !== null;
  if (definite) return 'valuable';
  return maybeDefault && defaultToken !== 'read' ? 'default-token' : 'none';
}

/**
 * `nothing worth taking itself`, for a job that holds nothing a compromised upstream could take (`holdsNothing`) but
 * supplies a release, in words that agree with what `valuables` says it holds: a job with no `permissions:` holds the
 * repository's default token, whose scopes are not known (`default-token`), so the words name it beside the nothing
 * (`nothing worth taking itself besides the repository's default token (read-write only if the repository's settings
 * make it so)`), never saying it holds nothing after saying it holds that token.
 */
export function nothingItselfWords(holdings: Holdings, defaultToken: DefaultToken): string {
  return holdingStrength(holdings, defaultToken) === 'default-token'
    ? "nothing worth taking itself besides the repository's default token (read-write only if the repository's settings make it so)"
    : 'nothing worth taking itself';
}

/**
 * A job that holds nothing a compromised upstream could take (a read-only token, or the default token of a job
 * that declares no `permissions:` and references no secret): the supply-chain rules' LOW (docs/severity.md).
 */
export function holdsNothing(holdings: Holdings, defaultToken: DefaultToken): boolean {
  const strength = holdingStrength(holdings, defaultToken);
  return strength === 'none' || strength === 'default-token';
}

/**
 * The stored secrets that are credentials (never `GITHUB_TOKEN`, nor a chat webhook, coverage upload token or identifier) that reach a step's own
 * process: its `with:` and `env:`, and the `env:` of its job and workflow, which every step of the job gets. The job's other secrets reach only the
 * runner's memory, where code of any step can still read them.
 */
export function stepSecrets(step: Step): readonly string[] {
  return stepSplit(step).credentials;
}

/** The chat webhooks, coverage upload tokens and identifiers (`splitSecrets`) that reach a step's own process, as `stepSecrets` reads them. */
export function stepMinor(step: Step): MinorSecrets {
  const { webhooks, uploadTokens, identifiers } = stepSplit(step);
  return { webhooks, uploadTokens, identifiers };
}

/** `splitSecrets` of what reaches a step's own process, once per step: the rules ask `stepSecrets` and `stepMinor` of the same steps. */
const stepSplits = new ScanCache<Step, Readonly<ReturnType<typeof splitSecrets>>>();

function stepSplit(step: Step): Readonly<ReturnType<typeof splitSecrets>> {
  let found = stepSplits.get(step);
  if (found === undefined) {
    found = splitSecrets(step.owner, stepStoredSecrets(step));
    stepSplits.set(step, found);
  }
  return found;
}

function stepStoredSecrets(step: Step): string[] {
  const names = namedSecrets(step.owner.file, [step.with, step.env, step.job?.env, step.job?.workflow.env]);
  // An input that reads an environment variable holding a secret (`token: ${{ env.X }}`) is handed that secret.
  for (const name of valueSecrets(step, step.with)) if (isStoredSecretName(name) && !names.includes(name)) names.push(name);
  return withoutJobToken(names, step.job?.workflow);
}

/** `names` less the secrets of a reusable workflow that its callers fill with their job token (Workflow `jobTokenSecrets`). */
function withoutJobToken(names: string[], workflow: Workflow | undefined): string[] {
  const tokens = workflow?.jobTokenSecrets;
  return tokens === undefined ? names : names.filter((n) => !tokens.has(n.toLowerCase()));
}

/**
 * The stored secrets that are credentials (not chat webhooks, coverage upload tokens or identifiers) a reusable workflow call hands to the called workflow
 * (`with:`, `secrets:`; every one with `secrets: inherit`).
 */
export function callSecrets(job: Job): string[] {
  return splitSecrets(job.workflow, namedSecrets(job.workflow.file, [job.with, job.secrets, job.env, job.workflow.env])).credentials;
}

function namedSecrets(file: SourceFile, nodes: readonly (YNode | undefined)[]): string[] {
  const names = new Set<string>();
  for (const node of nodes) {
    if (node === undefined) continue;
    for (const use of secretOccurrences(file, node)) if (isStoredSecretName(use.name)) names.add(use.name);
  }
  return [...names];
}
