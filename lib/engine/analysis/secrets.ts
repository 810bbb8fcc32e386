import type { ExpressionOccurrence } from '../expressions/extract.js';
import { Binary, ContextAccess, FunctionCall, functionName, Grouping, IndexAccess, Literal, Logical, Unary, type Expr } from '../expressions/parse.js';
import type { Action, Step, Workflow } from '../model/workflow.js';
import { fileScalars, occurrencesIn, occurrencesInFile } from './file-scalars.js';
import type { SourceFile } from '../yaml/source.js';
import { get, keyText, type YMap, type YNode, type YScalar } from '../yaml/model.js';
import { ScanCache } from '../model/scan-cache.js';
import { flatMap } from '../model/arrays.js';

/** How an expression touches the `secrets` context. */
export type SecretUse =
  /** `secrets.NAME` or `secrets['NAME']`. `tested` when the value only feeds a comparison or a test. */
  | { kind: 'named'; name: string; node: IndexAccess; tested: boolean }
  /** `secrets[<expression>]` or `secrets.*`: the secret is picked at run time. */
  | { kind: 'dynamic'; node: IndexAccess }
  /** The whole context: `toJSON(secrets)`, `join(secrets)` ... */
  | { kind: 'whole'; node: ContextAccess };

/** Functions whose result says something about their arguments without carrying them. */
const TESTING_FUNCTIONS = new Set(['contains', 'startswith', 'endswith']);

/** Every use of the `secrets` context in an expression, outermost first. */
export function secretUses(expr: Expr): SecretUse[] {
  return contextUses(expr, isSecretsContext);
}

/** Every use of the context `isContext` accepts in an expression (`secrets`, `env`), outermost first. */
function contextUses(expr: Expr, isContext: (expr: Expr) => expr is ContextAccess): SecretUse[] {
  const uses: SecretUse[] = [];
  const visit = (node: Expr, tested: boolean): void => {
    if (node instanceof IndexAccess) {
      if (isContext(node.expr)) {
        const name = literalName(node.index);
        uses.push(name === null ? { kind: 'dynamic', node } : { kind: 'named', name, node, tested });
        if (name === null) visit(node.index, true);
        return;
      }
      visit(node.expr, tested);
      visit(node.index, true);
    } else if (node instanceof ContextAccess) {
      if (isContext(node)) uses.push({ kind: 'whole', node });
    } else if (node instanceof FunctionCall) {
      const testing = tested || TESTING_FUNCTIONS.has(functionName(node));
      for (const arg of node.args) visit(arg, testing);
    } else if (node instanceof Logical) {
      // `a && b` yields `a` only when it is falsy (empty, 0, false): only the last operand's value flows.
      const and = node.operator.lexeme === '&&';
      node.args.forEach((arg, i) => visit(arg, tested || (and && i < node.args.length - 1)));
    } else if (node instanceof Binary) {
      visit(node.left, true);
      visit(node.right, true);
    } else if (node instanceof Unary) {
      visit(node.expr, true);
    } else if (node instanceof Grouping) {
      visit(node.group, tested);
    }
  };
  visit(expr, false);
  return uses;
}

function isEnvContext(expr: Expr): expr is ContextAccess {
  return expr instanceof ContextAccess && expr.name.lexeme.toLowerCase() === 'env';
}

/**
 * The secrets a value of `step` carries (an input under `with:`, an entry of its `env:`): those its `${{ }}`
 * name (`secrets.Y`, `secrets['Y']`), and, one level deep, those of the environment variables it reads
 * (`${{ env.X }}` where the step's, job's or workflow's `env:` sets `X: ${{ secrets.Y }}`, the innermost winning;
 * names compared without case, as expressions do). In file order, each once.
 */
export function valueSecrets(step: Step, node: YNode | undefined): string[] {
  if (node === undefined) return [];
  const names: string[] = [];
  const add = (name: string) => {
    if (!names.includes(name)) names.push(name);
  };
  const env = secretEnv(step);
  for (const occurrence of occurrencesInFile(step.owner.file, node)) {
    if (occurrence.expr === null) continue;
    if (mayUseSecrets(occurrence.span.source)) for (const name of carriedSecrets(occurrence.expr)) add(name);
    if (env.size === 0 || !ENV_WORD.test(occurrence.span.source)) continue;
    for (const use of contextUses(occurrence.expr, isEnvContext)) {
      if (use.kind !== 'named' || use.tested) continue;
      const wanted = use.name.toLowerCase();
      for (const variable of env.values()) if (variable.name.toLowerCase() === wanted) variable.secrets.forEach(add);
    }
  }
  return names;
}

const ENV_WORD = /\benv\b/i;

function isSecretsContext(expr: Expr): expr is ContextAccess {
  return expr instanceof ContextAccess && expr.name.lexeme.toLowerCase() === 'secrets';
}

/** The key of `.name` or `['name']`; null for a computed index or `.*`. */
function literalName(index: Expr): string | null {
  if (!(index instanceof Literal)) return null;
  const value = index.token.value ?? index.token.lexeme;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * True for a name GitHub can store a secret under: letters, digits and `_`, not starting with a digit, and not
 * with `GITHUB_` (the job token aside). `secrets.special-secret` names none: GitHub evaluates it to an empty
 * string, so it carries no secret.
 */
export function isStoredSecretName(name: string): boolean {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) && !/^GITHUB_/i.test(name);
}

/** True for the job token, which GitHub mints per run: it is not a long-lived stored secret. */
export function isGithubToken(name: string): boolean {
  return name.toUpperCase() === 'GITHUB_TOKEN';
}

/** Names of the secrets whose value an expression carries (not only tests), in order. */
export function carriedSecrets(expr: Expr | null): string[] {
  if (expr === null) return [];
  // `secrets.NAME`, the usual form, carries its secret: answered without walking and collecting the uses.
  if (expr instanceof IndexAccess && isSecretsContext(expr.expr)) {
    const name = literalName(expr.index);
    if (name !== null) return [name];
  }
  return flatMap(secretUses(expr), (u) => (u.kind === 'named' && !u.tested ? [u.name] : []));
}

/** A secret whose value a `${{ }}` of a scalar carries. */
export interface SecretOccurrence {
  occurrence: ExpressionOccurrence;
  name: string;
}

/**
 * True when an expression's text can name the `secrets` context (its name, in any case, is in the text:
 * identifiers have no escapes). Lets callers skip `secretUses` for almost every expression.
 */
export function mayUseSecrets(source: string): boolean {
  return SECRETS_WORD.test(source);
}

const SECRETS_WORD = /secrets/i;

function secretsOf(occurrences: readonly ExpressionOccurrence[]): SecretOccurrence[] {
  const result: SecretOccurrence[] = [];
  for (let i = 0; i < occurrences.length; i++) {
    const occurrence = occurrences[i]!;
    if (occurrence.expr === null || !mayUseSecrets(occurrence.span.source)) continue;
    for (const name of carriedSecrets(occurrence.expr)) result.push({ occurrence, name });
  }
  return result.sort((a, b) => a.occurrence.offset - b.occurrence.offset);
}

/**
 * The first `${{ }}` below `node` that reads a secret chosen at run time (`secrets[matrix.name]`,
 * `secrets[format('{0}_TOKEN', inputs.env)]`) or the whole context (`toJSON(secrets)`), as written, or null.
 * GitHub cannot tell which secrets such a job uses, so the runner is handed every one it may pick.
 */
export function unnamedSecretUse(file: SourceFile, node: YNode): string | null {
  for (const occurrence of occurrencesInFile(file, node)) {
    if (occurrence.expr === null || !mayUseSecrets(occurrence.span.source)) continue;
    if (secretUses(occurrence.expr).some((u) => u.kind !== 'named')) return occurrence.span.source;
  }
  return null;
}

/** Each node's `secretOccurrences`, read once per scan: a job's and its workflow's `env:` are asked about for every step and holder. */
const occurrencesByNode = new ScanCache<YNode, readonly SecretOccurrence[]>();

/** Secrets carried by the `${{ }}` of every string below `node` (a node of `file`), in file order. Shared: read-only. */
export function secretOccurrences(file: SourceFile, node: YNode): readonly SecretOccurrence[] {
  let found = occurrencesByNode.get(node);
  if (found === undefined) {
    found = secretsOf(occurrencesInFile(file, node));
    occurrencesByNode.set(node, found);
  }
  return found;
}

/** `secretOccurrences` for a node of `model`, from the file's shared extraction. */
export function secretOccurrencesIn(model: Workflow | Action, node: YNode): SecretOccurrence[] {
  if (!fileMayUseSecrets(model)) return [];
  return secretsOf(occurrencesIn(model, node));
}

/** An environment variable visible to a step whose value carries a secret. */
export interface SecretEnvVar {
  /** The variable's name as written. */
  name: string;
  /** The secrets its value carries. */
  readonly secrets: readonly string[];
  key: YScalar;
  value: YNode;
  level: 'step' | 'job' | 'workflow';
}

/**
 * The environment variables of a step (its own `env:`, its job's and its workflow's, the innermost
 * winning) whose value carries a secret, by name. Composite-action steps only see their own `env:`
 * (the `secrets` context is not available in actions). Memoised per step (several rules ask for the same
 * step's); the answer is shared, so it is read-only.
 */
export function secretEnv(step: Step): ReadonlyMap<string, SecretEnvVar> {
  if (!fileMayUseSecrets(step.owner)) return NO_SECRET_ENV;
  const steps = step.job?.steps ?? (step.owner.kind === 'action' ? step.owner.steps : undefined);
  if (steps === undefined) return computeSecretEnv(step);
  let answers = secretEnvs.get(steps);
  if (answers === undefined) secretEnvs.set(steps, (answers = []));
  return (answers[step.index] ??= computeSecretEnv(step));
}

/**
 * Keyed by the step list of a job or composite action, answers by the step's `index` (its position as
 * written): one entry per list rather than per step (each `WeakMap.set` costs about as much as answering a step).
 */
const secretEnvs = new ScanCache<readonly Step[], (ReadonlyMap<string, SecretEnvVar> | undefined)[]>();
const NO_SECRET_ENV: ReadonlyMap<string, SecretEnvVar> = new Map();

/**
 * False when no `${{ }}` of the file can name the `secrets` context (`mayUseSecrets` of every expression):
 * then nothing in it carries or exposes a secret, and rules skip the file's expressions at once. Unknown
 * (true) for a file whose extraction has no flat list (see file-scalars.ts).
 */
export function fileMayUseSecrets(model: Workflow | Action): boolean {
  let known = fileMentions.get(model);
  if (known === undefined) {
    const index = fileScalars(model);
    known = !index.tree || index.occurrences.some((o) => mayUseSecrets(o.span.source));
    fileMentions.set(model, known);
  }
  return known;
}

const fileMentions = new ScanCache<Workflow | Action, boolean>();

/** An entry of an `env:` mapping with the secrets its value carries (none for most). */
interface EnvEntry {
  name: string;
  secrets: readonly string[];
  key: YScalar;
  value: YNode;
}

/**
 * The entries of an `env:` mapping, read once per mapping: a job's and its workflow's are asked again for
 * every step below them.
 */
function envEntries(owner: Workflow | Action, env: YMap): readonly EnvEntry[] {
  let entries = envEntryCache.get(env);
  if (entries === undefined) {
    entries = env.pairs.map((pair) => ({ name: keyText(pair.key), secrets: secretOccurrencesIn(owner, pair.value).map((s) => s.name), key: pair.key, value: pair.value }));
    envEntryCache.set(env, entries);
  }
  return entries;
}

const envEntryCache = new ScanCache<YMap, readonly EnvEntry[]>();

function computeSecretEnv(step: Step): Map<string, SecretEnvVar> {
  const owner = step.owner;
  const levels: [YMap | undefined, SecretEnvVar['level']][] = [[step.env, 'step']];
  if (step.job !== null) levels.push([step.job.env, 'job'], [step.job.workflow.env, 'workflow']);
  const result = new Map<string, SecretEnvVar>();
  const shadowed = new Set<string>();
  for (const [env, level] of levels) {
    if (env === undefined) continue;
    for (const { name, secrets, key, value } of envEntries(owner, env)) {
      if (shadowed.has(name)) continue;
      shadowed.add(name);
      if (secrets.length > 0) result.set(name, { name, secrets, key, value, level });
    }
  }
  return result;
}

/**
 * Chat platforms whose incoming webhooks do one thing: post a message to one channel (Slack, Discord, Microsoft
 * Teams, Mattermost, Google Chat). Whoever takes such a webhook URL can post there, not push code, publish or read
 * data: https://api.slack.com/messaging/webhooks, https://support.discord.com/hc/en-us/articles/228383668,
 * https://learn.microsoft.com/microsoftteams/platform/webhooks-and-connectors/how-to/add-incoming-webhook,
 * https://developers.mattermost.com/integrate/webhooks/incoming/, https://developers.google.com/workspace/chat/quickstart/webhooks.
 */
const CHAT_PLATFORM = /SLACK|DISCORD|TEAMS|MATTERMOST|GOOGLE_?CHAT|GCHAT|HANGOUTS/;
/** Name parts that say a value is a credential, not a webhook URL (a Slack bot token `xoxb-`, a signing secret, an API key). */
const CREDENTIAL_PART = /TOKEN|(^|_)BOT(_|$)|KEY|SECRET|PASS|SIGNING|OAUTH|XOX|API|AUTH|CRED/;
/** `with:` inputs through which a chat platform's notification action takes its incoming-webhook URL. */
const WEBHOOK_INPUT = /^(incoming_)?webhook(_?(url|uri))?$/;
/** A chat platform's notification action (`slackapi/slack-github-action`, `sarisia/actions-status-discord`, `skitionek/notify-microsoft-teams`). */
const CHAT_ACTION = /slack|discord|teams|mattermost|google-?chat|gchat|hangouts/i;

function nameParts(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]+/g, '_');
}

/**
 * True for a name that says its value is a chat platform's incoming-webhook URL (`SLACK_WEBHOOK`,
 * `SLACK_WEBHOOK_URL`, `DISCORD_WEBHOOK`, `TEAMS_WEBHOOK_URL`, `MATTERMOST_WEBHOOK_URL`, `GOOGLE_CHAT_WEBHOOK`,
 * `slack-webhook`): a platform, a hook, and no word of a credential (`SLACK_BOT_TOKEN` is a token, not a webhook).
 */
export function isChatWebhookName(name: string): boolean {
  const parts = nameParts(name);
  return CHAT_PLATFORM.test(parts) && parts.includes('HOOK') && !CREDENTIAL_PART.test(parts.replace(/WEBHOOK/g, ''));
}

/**
 * True when a stored secret of a workflow is a chat webhook (it lets whoever takes it post to one channel):
 * its own name says so (`isChatWebhookName`), or the workflow hands it, as the whole of a value, to a name that
 * says so (`SLACK_WEBHOOK: ${{ secrets.SLACK }}` in an `env:`, `slack-webhook:` in a `with:`) or to the
 * `webhook`/`webhook-url` input of a chat platform's notification action, and never to a name that says
 * credential (`token:`, `API_KEY:`). Names compare without case, as GitHub's secrets do.
 */
export function isChatWebhookSecret(model: Workflow | Action, name: string): boolean {
  if (isChatWebhookName(name)) return true;
  if (CREDENTIAL_PART.test(nameParts(name))) return false;
  return chatWebhooks(model).has(name.toUpperCase());
}

const webhookCache = new ScanCache<Workflow | Action, ReadonlySet<string>>();

/** The secrets (upper case) a workflow hands only to chat webhook names and inputs (`isChatWebhookSecret`). */
function chatWebhooks(model: Workflow | Action): ReadonlySet<string> {
  let found = webhookCache.get(model);
  if (found !== undefined) return found;
  const given = new Set<string>();
  const against = new Set<string>();
  const read = (map: YNode | undefined, webhookInput: boolean): void => {
    if (map?.kind !== 'map') return;
    for (const pair of map.pairs) {
      if (pair.value.kind !== 'scalar') continue;
      const names = secretOccurrencesIn(model, pair.value).map((s) => s.name.toUpperCase());
      if (names.length === 0) continue;
      const key = keyText(pair.key);
      if (isChatWebhookName(key) || (webhookInput && WEBHOOK_INPUT.test(nameParts(key).toLowerCase()))) names.forEach((n) => given.add(n));
      else if (saysCredential(key, CREDENTIAL_PART)) names.forEach((n) => against.add(n));
    }
  };
  if (fileMayUseSecrets(model)) {
    const steps: Step[] = [];
    if (model.kind === 'workflow') {
      read(model.env, false);
      for (const job of model.jobs) {
        read(job.env, false);
        read(job.with, false);
        read(job.secrets, false);
        read(get(job.container, 'env'), false);
        for (const service of job.services?.pairs ?? []) read(get(service.value, 'env'), false);
        steps.push(...job.steps);
      }
    } else steps.push(...model.steps);
    for (const step of steps) {
      const ref = step.usesRef;
      read(step.env, false);
      read(step.with, ref?.kind === 'repository' && CHAT_ACTION.test(`${ref.owner}/${ref.repo}`));
    }
  }
  // A secret also handed to a name that says credential (a `token:`, a script's `API_KEY`) is more than a webhook.
  found = new Set([...given].filter((n) => !against.has(n)));
  webhookCache.set(model, found);
  return found;
}

/**
 * Name endings that say a stored value only names something (an account, an app, a tenant, a place), not a credential
 * that opens it, from how providers name the halves of a login:
 * - a user name beside its password or token: Docker Hub and registry logins (`docker/login-action`'s `username`
 *   beside `password`, https://github.com/docker/login-action#docker-hub), Jenkins' `credentials()` binding of a
 *   username-and-password credential to `<VAR>_USR` and `<VAR>_PSW`
 *   (https://www.jenkins.io/doc/book/pipeline/jenkinsfile/#handling-credentials), `*_USER`, `*_USERNAME`, `*_LOGIN`,
 *   `*_EMAIL`, and a committer's `*_NAME`;
 * - the ids of an OIDC or app login, whose credential is the federated token or the key beside them: Azure's
 *   `client-id`, `tenant-id`, `subscription-id` ("not secrets" by themselves: `azure/login` with OpenID Connect,
 *   https://learn.microsoft.com/azure/developer/github/connect-from-azure-openid-connect), a GitHub App's
 *   `app-id`/`client-id` beside its private key, an installation id, Cloudflare's, Vercel's or Netlify's account,
 *   organisation, project and site ids beside their API token;
 * - where something is: `*_REGION`, `*_ZONE`, a bucket or container name, a host, port or path (`DATABRICKS_HOST`,
 *   `DATABRICKS_HTTP_PATH`: a SQL warehouse's path, `/sql/1.0/warehouses/<id>`), a cluster's, workspace's or
 *   warehouse's id, a database's name;
 * - an access key ID, the identifier half of an AWS access key, whose secret access key is the credential
 *   (https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html), a name S3-compatible stores
 *   (Cloudflare R2, DigitalOcean Spaces, MinIO) use for the same pair: `*_ACCESS_KEY_ID` (`ACCESS_KEY_ID_END`), whose
 *   `KEY` is no word of a credential there;
 * - a version (`CACHE_VERSION`, kept as a secret to vary a cache key): a setting, which opens nothing either.
 * Not here: `*_URL`, `*_ENDPOINT`, `*_DSN` (a URL can carry a password or be the secret itself: a database URL's
 * user-info, a webhook's path, a Sentry DSN's key), `*_SERVICE_ACCOUNT` (often a service account's JSON key), a
 * Vault `ROLE_ID`, a `SESSION_ID`, and any name with a word of a credential (`IDENTIFIER_CREDENTIAL_PART`).
 */
const IDENTIFIER_END =
  /(^|_)(USR|USER|USERNAME|USER_NAME|LOGIN|EMAIL|USER_ID|IDENTITY|ACCOUNT|ACCOUNT_ID|ACCOUNT_NAME|CLIENT_ID|TENANT_ID|SUBSCRIPTION_ID|APP_ID|APPLICATION_ID|INSTALLATION_ID|ORG|ORG_ID|ORGANIZATION|ORGANIZATION_ID|PROJECT|PROJECT_ID|PROJECT_NAME|NAME|SITE_ID|ZONE_ID|TEAM_ID|EXTENSION_ID|REGION|ZONE|BUCKET|BUCKET_NAME|CONTAINER_NAME|ACCESS_KEY_ID|HOST|HOSTNAME|PORT|PATH|CLUSTER_ID|WORKSPACE_ID|WAREHOUSE_ID|DATABASE|DATABASE_NAME|DB_NAME|ARN|VERSION)$/;
/** The ending of an access key's ID (`AWS_ACCESS_KEY_ID`, `aws-access-key-id`): the rest of the name decides whether it says credential. */
const ACCESS_KEY_ID_END = /(^|_)ACCESS_KEY_ID$/;
/**
 * Words that make a name a credential whatever it ends with (`*_KEY`, `*_TOKEN`, `*_PASSWORD`, Jenkins' `*_PSW`,
 * `*_SECRET`, `*_PAT`, a Vault `SECRET_ID`, any key id's `KEY` but an access key ID's): `CREDENTIAL_PART`'s words but `BOT` (a bot's app id
 * or user name names the bot), and these.
 */
const IDENTIFIER_CREDENTIAL_PART =
  /TOKEN|KEY|SECRET|PASS|SIGNING|OAUTH|XOX|API|AUTH|CRED|PSW|PWD|(^|_)PAT(_|$)|PRIVATE|CERT|SESSION|COOKIE|SERVICE_ACCOUNT|HOOK|DSN|URL|ENDPOINT/;

/**
 * True for a name that says its value only identifies an account, app, tenant or place (`DOCKERHUB_USERNAME`,
 * `AZURE_CLIENT_ID`, `CLOUDFLARE_ACCOUNT_ID`, `AWS_REGION`, Jenkins' `REGISTRY_USR`): an identifier ending
 * (`IDENTIFIER_END`) and no word of a credential (`APP_PRIVATE_KEY`, `REGISTRY_PSW`, `AWS_SECRET_ACCESS_KEY` are
 * credentials), an access key ID's `KEY` aside (`AWS_ACCESS_KEY_ID` is an identifier, `AWS_SECRET_ACCESS_KEY_ID` is not).
 */
export function isIdentifierName(name: string): boolean {
  const parts = nameParts(name).replace(/^_+|_+$/g, '');
  return IDENTIFIER_END.test(parts) && !IDENTIFIER_CREDENTIAL_PART.test(parts.replace(ACCESS_KEY_ID_END, '').replace(SIGNING_IDENTITY_END, '').replace(KEY_VAULT, '_'));
}

/** A key store named as a service (`AZURE_KEY_VAULT_CLIENT_ID`, `KEYVAULT_NAME`): the name of a place, not a word of a credential. */
const KEY_VAULT = /(^|_)KEY_?VAULT(?=_|$)/g;

/**
 * The ending of a code-signing identity's name (`APPLE_SIGNING_IDENTITY`, `MACOS_CERT_IDENTITY`): the common name of a
 * certificate (`Developer ID Application: Acme (TEAMID)`), printed in every binary it signs; the certificate and
 * its password are the credentials.
 */
const SIGNING_IDENTITY_END = /(^|_)(?:CERT|CERTIFICATE|SIGNING|CODESIGN|CODE_SIGN|CODESIGNING)_IDENTITY$/;

/**
 * True for a name (an `env:` key, a `with:` input) that says whoever is handed a value takes a credential: a word of
 * a credential (`words`: `IDENTIFIER_CREDENTIAL_PART` or `CREDENTIAL_PART`) in a name that is no identifier's
 * (`aws-access-key-id:` takes an access key's ID).
 */
function saysCredential(name: string, words: RegExp): boolean {
  return words.test(nameParts(name)) && !isIdentifierName(name);
}

/**
 * True when a stored secret of a workflow (or action) only identifies something (`isIdentifierName`): whoever takes
 * it learns a user name or an id, which opens nothing without the credential beside it. Not when the workflow hands it
 * to a name that says credential (`password: ${{ secrets.DOCKER_LOGIN }}`, `API_KEY:`): that value is a credential
 * whatever its name. Names compare without case, as GitHub's secrets do.
 */
export function isIdentifierSecret(model: Workflow | Action, name: string): boolean {
  const upper = name.toUpperCase();
  const handings = secretHandings(model);
  // A secret the workflow hands to an access key ID (`aws-access-key-id:`, `AWS_ACCESS_KEY_ID:`), and never to a
  // credential's name, is that ID whatever it is called (`AWS_ACCESS_KEY`).
  return (isIdentifierName(name) || handings.accessKeyIds.has(upper)) && !handings.credentials.has(upper);
}

interface SecretHandings {
  /** Secrets (upper case) handed to a name that says credential (`saysCredential`: `password`, `TOKEN`, not `aws-access-key-id`). */
  credentials: ReadonlySet<string>;
  /** Secrets (upper case) handed to an access key ID's name (`aws-access-key-id`, `AWS_ACCESS_KEY_ID`). */
  accessKeyIds: ReadonlySet<string>;
}

const secretHandingCache = new ScanCache<Workflow | Action, SecretHandings>();

/** What names a workflow hands its secrets to, in any `env:`, `with:`, `secrets:` or `credentials:`. */
function secretHandings(model: Workflow | Action): SecretHandings {
  let found = secretHandingCache.get(model);
  if (found !== undefined) return found;
  const against = new Set<string>();
  const ids = new Set<string>();
  const read = (map: YNode | undefined): void => {
    if (map?.kind !== 'map') return;
    for (const pair of map.pairs) {
      const key = keyText(pair.key);
      const credential = saysCredential(key, IDENTIFIER_CREDENTIAL_PART);
      const id = !credential && ACCESS_KEY_ID_END.test(nameParts(key));
      if (!credential && !id) continue;
      for (const use of secretOccurrencesIn(model, pair.value)) (credential ? against : ids).add(use.name.toUpperCase());
    }
  };
  if (fileMayUseSecrets(model)) {
    const steps: Step[] = [];
    if (model.kind === 'workflow') {
      read(model.env);
      for (const job of model.jobs) {
        read(job.env);
        read(job.with);
        read(job.secrets);
        read(get(job.container, 'env'));
        read(get(job.container, 'credentials'));
        for (const service of job.services?.pairs ?? []) {
          read(get(service.value, 'env'));
          read(get(service.value, 'credentials'));
        }
        steps.push(...job.steps);
      }
    } else steps.push(...model.steps);
    for (const step of steps) {
      read(step.env);
      read(step.with);
    }
  }
  found = { credentials: against, accessKeyIds: ids };
  secretHandingCache.set(model, found);
  return found;
}

/**
 * A coverage or test-report service whose upload token does one thing: lets its holder upload reports for this
 * repository (an organisation's upload token: for its repositories) to that service. Whoever takes one can make the
 * service show wrong coverage for a commit, not push code, publish or read data; and when that token is handed to
 * the service's own action, the action's owner, who could take it, runs the service it is for.
 */
export interface UploadTokenService {
  service: string;
  /** What its token uploads, in words (`coverage reports`, `benchmark results`). */
  uploads: string;
  /** Secret names (upper case, `_` between words) that say their value is this service's upload token. */
  names: readonly string[];
  /** Owners (lower case) of the service's own actions: the service itself. */
  owners: readonly string[];
  /** `owner/repo[/path]` of its own actions whose `inputs` take only its upload token (a secret handed to one is one). */
  actions: readonly string[];
  inputs: readonly string[];
  /** The service's documentation of what the token permits. */
  source: string;
}

/**
 * The services whose upload tokens are held but not worth taking (`isUploadTokenSecret`). Not here: SonarCloud and
 * SonarQube tokens (they read a project's analysis, and a user token acts as its user); Codacy's project API token
 * (https://docs.codacy.com/codacy-api/api-tokens/: it grants owner permissions to the repository on Codacy and
 * authenticates its API, issues included); `QLTY_TOKEN` as a name (also the name people give a Qlty CLI access token,
 * which acts as a user on Qlty Cloud: only the coverage action's `token` input says it is a coverage token); the
 * `github-token` input of `coverallsapp/github-action` (it takes the job's GitHub token too, so only a name says it
 * holds the Coveralls repo token).
 */
export const UPLOAD_TOKEN_SERVICES: readonly UploadTokenService[] = [
  {
    service: 'Codecov',
    uploads: 'coverage reports',
    names: ['CODECOV_TOKEN', 'CODECOV_UPLOAD_TOKEN'],
    owners: ['codecov'],
    actions: ['codecov/codecov-action', 'codecov/test-results-action'],
    inputs: ['token'],
    // Tokens "make sure the uploads we process for a project really come from that project"; a global upload token
    // works for every repository of its owner, and is for uploads only.
    source: 'https://docs.codecov.com/docs/codecov-tokens',
  },
  {
    service: 'Coveralls',
    uploads: 'coverage reports',
    names: ['COVERALLS_REPO_TOKEN'],
    owners: ['coverallsapp'],
    actions: [],
    inputs: [],
    // The repo token sends coverage reports to the /jobs endpoint; managing a repository takes a personal API token.
    source: 'https://docs.coveralls.io/api-repos-endpoint',
  },
  {
    service: 'Qlty',
    uploads: 'coverage reports',
    names: ['QLTY_COVERAGE_TOKEN'],
    owners: ['qltysh'],
    actions: ['qltysh/qlty-action/coverage'],
    inputs: ['token'],
    // "Coverage tokens are used to authenticate when uploading code coverage reports to Qlty" (project or workspace).
    source: 'https://docs.qlty.sh/coverage/tokens',
  },
  {
    service: 'Code Climate',
    uploads: 'coverage reports',
    names: ['CC_TEST_REPORTER_ID', 'CODECLIMATE_TEST_REPORTER_ID', 'CODE_CLIMATE_TEST_REPORTER_ID'],
    owners: ['codeclimate'],
    actions: [],
    inputs: [],
    // "only used to identify your repo when submitting test coverage payloads. It can't be used to access any of your data."
    source: 'https://docs.codeclimate.com/docs/finding-your-test-coverage-token#should-i-keep-my-test-reporter-id-secret',
  },
  {
    service: 'CodSpeed',
    uploads: 'benchmark results',
    names: ['CODSPEED_TOKEN'],
    owners: ['codspeedhq'],
    actions: ['codspeedhq/action'],
    inputs: ['token'],
    // Its action's README: `token` is "The CodSpeed upload token", which a public repository may omit (CodSpeed then
    // authenticates the run through GitHub): it sends the run's benchmark results to the repository's CodSpeed project.
    source: 'https://github.com/CodSpeedHQ/action#usage',
  },
];

/**
 * What a list of upload tokens lets someone upload, by their names (`coverage reports`, `benchmark results`, both);
 * a name no service's (a secret handed to a coverage action's `token:`) counts as a coverage token.
 */
export function uploadedWhat(names: readonly string[]): string {
  const what = [...new Set(names.map((n) => uploadTokenServiceOfName(n)?.uploads ?? 'coverage reports'))].sort((a, b) => (a === 'coverage reports' ? -1 : b === 'coverage reports' ? 1 : a.localeCompare(b)));
  return what.join(' and ');
}

/**
 * `a coverage upload token`, `benchmark upload tokens`, `upload tokens` (of both kinds), by their names; `one`: the
 * singular whatever their number (`a coverage upload token` for a job that holds some).
 */
export function uploadTokenNoun(names: readonly string[], one = names.length === 1): string {
  const what = uploadedWhat(names);
  const kind = what === 'coverage reports' ? 'coverage ' : what === 'benchmark results' ? 'benchmark ' : '';
  return one ? `${kind === '' ? 'an' : 'a'} ${kind}upload token` : `${kind}upload tokens`;
}

/** The service whose upload token a name says it is (`CODECOV_TOKEN`, `COVERALLS_REPO_TOKEN`), or undefined. */
export function uploadTokenServiceOfName(name: string): UploadTokenService | undefined {
  const parts = nameParts(name).replace(/^_+|_+$/g, '');
  return UPLOAD_TOKEN_SERVICES.find((s) => s.names.includes(parts));
}

/** Owners whose actions run on the platform that stores the secrets (GitHub's own): handing them a secret gives no one new. */
const PLATFORM_ACTION_OWNERS: ReadonlySet<string> = new Set(['actions', 'github']);

/**
 * True when a stored secret of a workflow (or action) is a coverage upload token (`UPLOAD_TOKEN_SERVICES`): its
 * name says so (`CODECOV_TOKEN`), or the workflow hands it, as the whole of a value, to a name that says so or to the
 * token input of that service's own action (`codecov/codecov-action`'s `token:`); and it never reaches anyone else
 * the workflow names under another name: not another party's action (a `with:`, a step's `env:`, or a job's or
 * workflow's `env:`, which every action of the job gets; GitHub's own actions and this repository's are no other party),
 * not another owner's reusable workflow, not a container, unless the name or input it is handed under says the service
 * (`CODECOV_TOKEN:` in a job's `env:`: whoever reads it there holds the same upload token), not a name that says another
 * credential (`GH_TOKEN:`), and it is not written to `$GITHUB_ENV`. Such a token is held but not worth taking. Names compare without case, as GitHub's secrets do.
 */
export function isUploadTokenSecret(model: Workflow | Action, name: string): boolean {
  const upper = name.toUpperCase();
  // Neither its name nor a name or input it is handed to says it is one (most secrets): how the workflow hands it
  // around (`uploadHandings`, a walk of every `env:` and `with:` and every step's script) does not matter.
  if (uploadTokenServiceOfName(name) === undefined && !uploadGiven(model).has(upper)) return false;
  const handed = uploadHandings(model);
  if (handed.against.has(upper)) return false;
  const service = uploadTokenServiceOfName(name) ?? handed.given.get(upper);
  if (service === undefined) return false;
  return !(handed.receivers.get(upper) ?? []).some((owner) => !service.owners.includes(owner) && !PLATFORM_ACTION_OWNERS.has(owner));
}

/**
 * A word of each upload token name (`UPLOAD_TOKEN_SERVICES`' `names`, its longest part): a name whose parts are one of
 * those names holds that word, upper-cased, whatever else it holds (`nameParts` only turns other characters into `_`).
 */
const UPLOAD_NAME_WORDS: readonly string[] = [...new Set(UPLOAD_TOKEN_SERVICES.flatMap((s) => s.names.map((n) => n.split('_').reduce((a, b) => (b.length > a.length ? b : a)))))];
/** The actions of `UPLOAD_TOKEN_SERVICES` whose inputs take their service's upload token. */
const UPLOAD_ACTIONS: ReadonlySet<string> = new Set(UPLOAD_TOKEN_SERVICES.flatMap((s) => s.actions));

const givenCache = new ScanCache<Workflow | Action, ReadonlySet<string>>();

/**
 * The secrets (upper case) a workflow hands to a name or input that says it is an upload token: the keys of
 * `uploadHandings`' `given`, read from the same `env:`, `with:` and `secrets:`, but only the entries whose name, or
 * action and input, can say so.
 */
function uploadGiven(model: Workflow | Action): ReadonlySet<string> {
  const found = givenCache.get(model);
  if (found !== undefined) return found;
  const given = new Set<string>();
  /** `action`: the action whose `with:` this is (`receiverOf`), or null. */
  const read = (map: YNode | undefined, action: string | null): void => {
    if (map?.kind !== 'map') return;
    for (const pair of map.pairs) {
      const key = keyText(pair.key);
      if (!(action !== null && UPLOAD_ACTIONS.has(action))) {
        const upper = key.toUpperCase();
        if (!UPLOAD_NAME_WORDS.some((word) => upper.includes(word))) continue;
      }
      const service = uploadTokenServiceOfName(key) ?? (action === null ? undefined : UPLOAD_TOKEN_SERVICES.find((s) => s.actions.includes(action) && s.inputs.includes(key.toLowerCase())));
      if (service === undefined) continue;
      for (const use of secretOccurrencesIn(model, pair.value)) given.add(use.name.toUpperCase());
    }
  };
  if (fileMayUseSecrets(model)) {
    const jobs = model.kind === 'workflow' ? model.jobs : [];
    if (model.kind === 'workflow') read(model.env, null);
    for (const job of jobs) {
      read(job.env, null);
      read(job.with, null);
      read(job.secrets, null);
      read(get(job.container, 'env'), null);
      for (const service of job.services?.pairs ?? []) read(get(service.value, 'env'), null);
    }
    for (const step of model.kind === 'workflow' ? jobs.flatMap((j) => j.steps) : model.steps) {
      read(step.env, null);
      read(step.with, receiverOf(step).action);
    }
  }
  givenCache.set(model, given);
  return given;
}

/** How a workflow hands its secrets (upper case) around, for `isUploadTokenSecret`. */
interface UploadHandings {
  /** Secret -> the service a name or token input it is handed to says it is for. */
  given: ReadonlyMap<string, UploadTokenService>;
  /** Secret -> the owners (lower case) of the actions, reusable workflows and images it is handed to. */
  receivers: ReadonlyMap<string, readonly string[]>;
  /** Secrets handed to a name that says another credential, or written to `$GITHUB_ENV`. */
  against: ReadonlySet<string>;
}

const uploadCache = new ScanCache<Workflow | Action, UploadHandings>();

/** Who a value in a step's `with:` or `env:` is handed to: its action (owner and `owner/repo[/path]`), or the runner's shell (owner null). */
interface Receiver {
  owner: string | null;
  action: string | null;
  /** A local action of the repository (`uses: ./...`): its inputs are the repository's own names. */
  local?: boolean;
}

function receiverOf(step: Step): Receiver {
  const ref = step.usesRef;
  if (ref === undefined) return { owner: null, action: null };
  if (ref.kind === 'local') return { owner: null, action: null, local: true };
  if (ref.kind === 'invalid') return { owner: '(unknown)', action: null };
  if (ref.kind === 'docker') return { owner: '(docker image)', action: null };
  return { owner: ref.owner.toLowerCase(), action: `${ref.slug}${ref.path === '' ? '' : `/${ref.path.toLowerCase()}`}` };
}

function uploadHandings(model: Workflow | Action): UploadHandings {
  let found = uploadCache.get(model);
  if (found !== undefined) return found;
  const given = new Map<string, UploadTokenService>();
  const receivers = new Map<string, string[]>();
  const against = new Set<string>();
  /** `to`: the owners the map's values reach; `step`: the step whose `with:` this is (its inputs), or null. */
  const read = (map: YNode | undefined, to: readonly string[], step: Receiver | null): void => {
    if (map?.kind !== 'map') return;
    for (const pair of map.pairs) {
      const names = secretOccurrencesIn(model, pair.value).map((s) => s.name.toUpperCase());
      if (names.length === 0) continue;
      const key = keyText(pair.key);
      const action = step?.action ?? null;
      const service =
        uploadTokenServiceOfName(key) ?? (action === null ? undefined : UPLOAD_TOKEN_SERVICES.find((s) => s.actions.includes(action) && s.inputs.includes(key.toLowerCase())));
      for (const n of names) {
        if (service !== undefined) given.set(n, service);
        // A name that says another credential (`GH_TOKEN:`), unless it is an input of the own action of the service the
        // secret's name says, or the `token:` input of a local action of the repository (its own wrapper, which the
        // repository's own code hands on) given a secret its name says is an upload token.
        else if (saysCredential(key, CREDENTIAL_PART) && !(step?.owner != null && uploadTokenServiceOfName(n)?.owners.includes(step.owner) === true) && !(step?.local === true && uploadTokenServiceOfName(n) !== undefined)) against.add(n);
        // Handed under a name or input that says the service (`CODECOV_TOKEN:` in a job's `env:`, which every action of
        // the job gets), whoever else reads it holds only that service's upload token; handed to another party under
        // any other name, the secret may serve another purpose there.
        if (to.length > 0 && service === undefined) receivers.set(n, [...(receivers.get(n) ?? []), ...to]);
      }
    }
  };
  if (fileMayUseSecrets(model)) {
    const jobs = model.kind === 'workflow' ? model.jobs : [];
    const ownersOf = (steps: readonly Step[]): string[] => [...new Set(steps.map((s) => receiverOf(s).owner).filter((o): o is string => o !== null))];
    if (model.kind === 'workflow') read(model.env, ownersOf(jobs.flatMap((j) => j.steps)), null);
    for (const job of jobs) {
      // A job's `env:` reaches every step of it, so every action of it.
      read(job.env, ownersOf(job.steps), null);
      const call = job.usesRef;
      const called = call?.kind === 'repository' ? [call.owner.toLowerCase()] : [];
      read(job.with, called, null);
      read(job.secrets, called, null);
      read(get(job.container, 'env'), ['(container image)'], null);
      for (const service of job.services?.pairs ?? []) read(get(service.value, 'env'), ['(container image)'], null);
    }
    for (const step of model.kind === 'workflow' ? jobs.flatMap((j) => j.steps) : model.steps) {
      const receiver = receiverOf(step);
      const to = receiver.owner === null ? [] : [receiver.owner];
      read(step.env, to, null);
      read(step.with, to, receiver);
      for (const n of exportedSecrets(step)) against.add(n);
    }
  }
  found = { given, receivers, against };
  uploadCache.set(model, found);
  return found;
}

/** The secrets (upper case) a step's script writes to `$GITHUB_ENV`, inline (`${{ secrets.X }}`) or through its environment (`$X`). */
function exportedSecrets(step: Step): string[] {
  const script = step.run;
  if (script === undefined || !/GITHUB_ENV/i.test(String(script.value ?? ''))) return [];
  const env = secretEnv(step);
  const found: string[] = [];
  const lines = String(script.value ?? '').split('\n');
  for (const line of lines.slice(0, 2000)) {
    if (!/GITHUB_ENV/i.test(line)) continue;
    for (const m of line.matchAll(/secrets\s*(?:\.\s*([A-Za-z_][A-Za-z0-9_-]*)|\[\s*'([^']+)'\s*\])/g)) found.push((m[1] ?? m[2] ?? '').toUpperCase());
    for (const v of env.values()) if (new RegExp(`\\$\\{?${v.name.replace(/[^A-Za-z0-9_]/g, '')}\\b`).test(line)) found.push(...v.secrets.map((s) => s.toUpperCase()));
  }
  return found;
}
