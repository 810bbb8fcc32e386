import { stepLabel } from '../analysis/step-label.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { get, getMap, isMap, keyText, type YMap, type YNode, type YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import type { SourceFile } from '../yaml/source.js';

interface TokenPattern {
  what: string;
  pattern: RegExp;
  /** Literal texts one of which every match contains: a file without any is not searched with `pattern`. */
  anchors: readonly string[];
  /** Rejects documentation placeholders that have the right shape. */
  plausible?: (match: string) => boolean;
}

/** Five characters in alphabet order (`01234`, `abcde`): typed by a person, not drawn at random. */
function hasRun(text: string): boolean {
  let run = 1;
  for (let i = 1; i < text.length; i++) {
    run = text.charCodeAt(i) === text.charCodeAt(i - 1) + 1 ? run + 1 : 1;
    if (run >= 5) return true;
  }
  return false;
}

/** Enough distinct characters, letters and digits: what a random token has and `ghp_xxxx…` does not. */
function random(body: string, distinct = 12): boolean {
  return new Set(body).size >= distinct && /[0-9]/.test(body) && /[A-Za-z]/.test(body) && !/EXAMPLE/i.test(body) && !hasRun(body);
}

// Every quantifier is bounded or followed by a character the repeated class cannot match, so the scan
// stays linear on any input.
const TOKEN_PATTERNS: TokenPattern[] = [
  { what: 'a GitHub token', anchors: ['ghp_', 'gho_', 'ghu_', 'ghs_', 'ghr_'], pattern: /\bgh[pousr]_[A-Za-z0-9]{36}\b/g, plausible: (m) => random(m.slice(4)) },
  { what: 'a GitHub fine-grained personal access token', anchors: ['github_pat_'], pattern: /\bgithub_pat_[A-Za-z0-9]{22}_[A-Za-z0-9]{59}\b/g, plausible: (m) => random(m.slice(11)) },
  { what: 'an AWS access key id', anchors: ['AKIA', 'ASIA'], pattern: /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g, plausible: (m) => random(m.slice(4), 8) },
  { what: 'a Slack token', anchors: ['xoxa-', 'xoxb-', 'xoxp-', 'xoxr-'], pattern: /\bxox[abpr]-[0-9]{8,16}-[0-9A-Za-z-]{10,80}/g, plausible: (m) => random(m.slice(5), 10) },
  { what: 'a Slack rotating token', anchors: ['xoxe'], pattern: /\bxoxe(?:\.xox[bp])?-1-[0-9A-Za-z]{60,200}/g, plausible: (m) => random(m.slice(m.indexOf('-1-') + 3)) },
  { what: 'a Slack app-level token', anchors: ['xapp-1-'], pattern: /\bxapp-1-[A-Z0-9]{9,12}-[0-9]{10,16}-[0-9a-f]{64}\b/g, plausible: (m) => random(m.slice(7), 10) },
  // https://api.slack.com/messaging/webhooks: anyone holding the URL posts into the channel as the app.
  {
    what: 'a Slack incoming-webhook URL',
    anchors: ['hooks.slack.com/'],
    pattern: /\bhooks\.slack\.com\/(?:services\/T[0-9A-Z]{8,12}\/B[0-9A-Z]{8,12}\/[0-9A-Za-z]{24}|(?:workflows|triggers)\/T[0-9A-Z]{8,12}\/[0-9A-Za-z]{8,12}\/[0-9]{8,20}\/[0-9A-Za-z]{24,32})\b/g,
    plausible: (m) => random(m.slice(m.lastIndexOf('/') + 1), 10),
  },
  // https://cloud.google.com/docs/authentication/api-keys: `AIza` and 35 characters.
  { what: 'a Google Cloud API key', anchors: ['AIza'], pattern: /\bAIza[0-9A-Za-z_-]{35}(?![0-9A-Za-z_-])/g, plausible: (m) => random(m.slice(4)) },
  { what: 'a Google OAuth client secret', anchors: ['GOCSPX-'], pattern: /\bGOCSPX-[0-9A-Za-z_-]{28}(?![0-9A-Za-z_-])/g, plausible: (m) => random(m.slice(7), 10) },
  { what: 'a GitLab personal access token', anchors: ['glpat-'], pattern: /\bglpat-[0-9A-Za-z_-]{20}\b/g, plausible: (m) => random(m.slice(6), 10) },
  { what: 'an npm access token', anchors: ['npm_'], pattern: /\bnpm_[A-Za-z0-9]{36}\b/g, plausible: (m) => random(m.slice(4)) },
  { what: 'a PyPI API token', anchors: ['pypi-AgEIcHlwaS5vcmc'], pattern: /\bpypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,400}/g },
  { what: 'a Stripe live secret key', anchors: ['k_live_'], pattern: /\b[rs]k_live_[0-9A-Za-z]{24,99}\b/g, plausible: (m) => random(m.slice(8)) },
];

const PRIVATE_KEY_HEADER = /-----BEGIN [A-Z ]{0,40}PRIVATE KEY(?: BLOCK)?-----/g;

/**
 * Every pattern's anchors and the PEM header in one alternation: a single pass over the text clears a file
 * that has none of them (nearly every file), where looking for each anchor in turn reads the text twenty times.
 * Anchors have four characters or more: a three-letter one (`xox`) made the search a third slower on every file.
 */
const ANCHORS: readonly string[] = [...TOKEN_PATTERNS.flatMap((p) => p.anchors), '-----BEGIN '];
const ANY_ANCHOR = new RegExp(ANCHORS.map((anchor) => anchor.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|'), 'g');
// No anchor is a prefix of another, so at most one starts at any position: `anchorsIn` finds each one present.
for (const a of ANCHORS) for (const b of ANCHORS) if (a !== b && b.startsWith(a)) throw new Error(`anchor ${a} is a prefix of ${b}`);

/**
 * A part of every anchor, for a first test that clears a file holding none: `ANY_ANCHOR` tries its alternatives at
 * nearly every character (their first letters, `g`, `n`, `h`, `-`, are everywhere in YAML), about 31 instructions a
 * character; these two, led by rarer characters (`A`, `x`, `G`, `B`) or fewer alternatives, read a file in about a
 * third of that, and `ANY_ANCHOR` then runs only on the few files they match (2 of 200 corpus workflows).
 */
const RARE_PART = /A(?:KIA|SIA|Iza|gEI)|x(?:ox|app)|GOCSPX|BEGIN /;
const COMMON_PART = /gh[pousr]_|_pat_|_live_|npm_|glpat|\.slack\.com\//;
for (const a of ANCHORS) if (!RARE_PART.test(a) && !COMMON_PART.test(a)) throw new Error(`anchor ${a} holds no part the first test looks for`);

/**
 * The anchors `text` holds (what `text.includes(anchor)` says of each), in one pass: an anchor found, the search
 * goes on from its next character, so anchors that overlap are each found. Empty for nearly every file.
 */
function anchorsIn(text: string): Set<string> {
  const found = new Set<string>();
  if (!RARE_PART.test(text) && !COMMON_PART.test(text)) return found;
  ANY_ANCHOR.lastIndex = 0;
  for (let m = ANY_ANCHOR.exec(text); m !== null; m = ANY_ANCHOR.exec(text)) {
    found.add(m[0]);
    ANY_ANCHOR.lastIndex = m.index + 1;
  }
  return found;
}

/**
 * True when key material follows a PEM/PGP header, after blanks, quotes, `\n` escapes, YAML indentation
 * and `Name: value` armor headers. A header alone is how scripts rebuild a key from a secret.
 */
function hasKeyBody(text: string, afterHeader: number): boolean {
  const window = text.slice(afterHeader, afterHeader + 600);
  const body = window.replace(/^(?:\s|\\n|["'|>-])*(?:[A-Za-z][\w-]{0,40}: [^\n]{0,200}(?:\s|\\n)+)*/, '');
  return /^[A-Za-z0-9+/]{40}/.test(body);
}

/** Names of variables and inputs that hold a credential: the last word decides (`DB_PASSWORD`, not `PASSWORD_FILE`). */
const SECRET_NAME = /(?:^|[_.-])(?:password|passwd|pwd|passphrase|token|secret|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|client[_-]?secret|auth[_-]?key)$/i;
/** Values that are obviously not a real credential. */
const PLACEHOLDER =
  /test|dummy|fake|example|sample|placeholder|changeme|change[_-]me|insecure|redacted|temp|tmp|local|dev|xxx|\*\*\*|\.\.\.|1234|abcd|qwerty|your[_-]|my[_-]/i;
const PLACEHOLDER_WORDS = new Set(['password', 'passw0rd', 'secret', 'token', 'postgres', 'mysql', 'root', 'admin', 'guest', 'user', 'default', 'none', 'null']);

/** Shannon entropy of a text, in bits per character. */
export function entropy(text: string): number {
  const counts = new Map<string, number>();
  for (const ch of text) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / text.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

/**
 * Words joined by `_`, `-` or `.` (`random_secret`, `my-plaintext-api-key`, `ci-build-not-a-real-key`: after the first,
 * a word may be one letter), or written in CamelCase, each word a
 * capital and at least two small letters (`AzureArtifacts`, NuGet's documented `--api-key` placeholder for Azure
 * Artifacts feeds; `SuperSecretPassword`): a name for a value, not a value.
 */
const JOINED_WORDS = /^[A-Za-z]{2,}(?:[._-][A-Za-z]+)+$|^(?:[A-Z][a-z]{2,}){2,5}$/;

/**
 * Credentials whose provider fixes their shape: a value under such a name is one only if it has the shape.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/id_credentials_access-keys.html: a secret access key is 40
 * characters of base64 (`wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`).
 */
const PROVIDER_SHAPES: readonly { name: RegExp; shape: RegExp }[] = [{ name: /aws[_-]?secret[_-]?(?:access[_-]?)?key$/i, shape: /^[A-Za-z0-9/+]{40}$/ }];

/**
 * References to a secret kept in a secret manager, which its action or CLI resolves when the job runs: 1Password's
 * `op://<vault>/<item>/[<section>/]<field>` (https://developer.1password.com/docs/cli/secret-reference-syntax/, read
 * by `1password/load-secrets-action` and `op run`).
 */
const SECRET_REFERENCE = /^op:\/\/[^/\s]+\/[^/\s]+\/[^\s]+$/;

/**
 * A literal that looks like a real credential: long enough, no spaces, not a placeholder or a reference,
 * and either in its provider's shape or random enough (at least 3 bits of entropy per character and 36 in
 * all, about what eleven random letters and digits carry). Words joined by `_` or `-` are placeholders.
 */
export function looksLikeCredential(value: string, name = ''): boolean {
  const text = value.trim();
  if (text.length < 8 || /\s/.test(text) || text.includes('${{') || text.includes('$')) return false;
  if (/^<.*>$/.test(text) || /^[A-Z][A-Z0-9_]*$/.test(text)) return false;
  // A secret manager's reference, resolved at run time by its action or CLI: not the secret itself.
  if (SECRET_REFERENCE.test(text)) return false;
  if (PLACEHOLDER.test(text) || PLACEHOLDER_WORDS.has(text.toLowerCase()) || JOINED_WORDS.test(text)) return false;
  const provider = PROVIDER_SHAPES.find((p) => p.name.test(name));
  if (provider !== undefined) return provider.shape.test(text) && random(text);
  // Two character classes at least: real passwords and keys mix them, words and flags do not.
  const classes = [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((c) => c.test(text)).length;
  const perCharacter = entropy(text);
  return classes >= 2 && perCharacter >= 3 && perCharacter * text.length >= 36;
}

/**
 * Keys their vendors document as safe to publish, or as only able to push data to the vendor: never to read it
 * back or act on the account. Reported LOW (not skipped): the shape cannot tell such a key from the account's full key.
 */
interface PublicByDesign {
  vendor: string;
  /** The entry's name, or the action whose input it is, says which vendor it is for. */
  name: RegExp;
  actions: ReadonlySet<string>;
  value: RegExp;
  why: string;
}

const PUBLIC_BY_DESIGN: readonly PublicByDesign[] = [
  // https://docs.fossa.com/docs/api-reference#push-only-api-token: "safe to use in public environments".
  {
    vendor: 'FOSSA',
    name: /fossa/i,
    actions: new Set(['fossas/fossa-action', 'fossa-contrib/fossa-action']),
    value: /^[0-9a-f]{32}$/i,
    why: 'FOSSA documents push-only API keys as safe to embed in public CI configuration (they upload analyses, they cannot read the account\'s data); a full API key has the same shape, so check which one this is and rotate it if it is a full key',
  },
  // https://docs.codecov.com/docs/codecov-tokens: an upload token (of a repository, or the organisation's global one)
  // authorises uploading coverage reports, nothing else; Codecov's older guidance told public repositories they
  // could commit it. Its holder forges at most coverage and the status it sets.
  {
    vendor: 'Codecov',
    name: /codecov/i,
    actions: new Set(['codecov/codecov-action', 'codecov/test-results-action']),
    value: /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i,
    why: 'a Codecov upload token only authorises uploading coverage reports (its holder forges at most coverage and the status it sets), and Codecov once told public repositories they could commit it; a global upload token uploads to every repository of the organisation, so keep it in a secret or use `use_oidc: true`, and rotate it in Codecov\'s settings',
  },
  // https://docs.coveralls.io/api-introduction: a repo token identifies the repository a coverage report is posted
  // to; it authorises posting reports, nothing else. Projects commit it so that forks' runs (which get no secrets)
  // can upload; its holder forges at most coverage and the status it sets.
  {
    vendor: 'Coveralls',
    name: /coveralls/i,
    actions: new Set(['coverallsapp/github-action']),
    value: /^[A-Za-z0-9]{32,40}$/,
    why: 'a Coveralls repo token only authorises posting coverage reports for the repository (its holder forges at most coverage and the status it sets), and projects commit it so that forks\' runs can upload; keep it in a secret where forks need not upload, and regenerate it in Coveralls\' settings',
  },
  // https://docs.docker.com/security/access-tokens/: a personal access token's scope can be "Public Repo Read-only"
  // (it pulls public images, with the account's higher pull rate limit). Projects publish such a token on purpose,
  // and name it so (`DOCKERHUB_PUBLIC_ACCESS_TOKEN`); only the name says which scope this one has.
  {
    vendor: 'Docker Hub',
    name: /public|read[_-]?only|pull[_-]?only/i,
    actions: new Set(),
    value: /^dckr_pat_[A-Za-z0-9_-]{20,80}$/,
    why: 'its name says it is a public Docker Hub token, and Docker Hub access tokens can be limited to "Public Repo Read-only" (pulling public images with the account\'s rate limit), which projects publish on purpose; a "Read & Write" token has the same shape, so check its scope in Docker Hub and rotate it if it can push',
  },
  // https://www.algolia.com/doc/guides/security/api-keys/#search-only-api-key: meant for front-end code.
  {
    vendor: 'Algolia',
    name: /algolia.*search|docsearch|search[_-]?only/i,
    actions: new Set(),
    value: /^[0-9a-f]{32}$/i,
    why: 'Algolia search-only API keys are meant to be public (front-end code ships them); an admin key has the same shape, so check which one this is and rotate it if it is an admin key',
  },
];

/**
 * `NAME=value` in a script (also after `export`, `readonly`, `local`, `declare -x`) and `--password value`
 * style options, with a literal value: quoted without expansions, or a bare word without `$`. Every
 * quantifier is bounded, so a hostile line costs linear time.
 */
const SCRIPT_ASSIGNMENT = /(?:^|[\s;&|(])(?:(?:export|readonly|local|declare\s+-x)\s+)?([A-Za-z_][A-Za-z0-9_]{0,80})=(?:"([^"$`\\\n]{1,200})"|'([^'\n]{1,200})'|([^\s;&|$`"'()<>]{1,200}))/dg;
const SCRIPT_OPTION = /(?:^|\s)--(password|passwd|token|api-key|apikey|secret|client-secret|access-key|secret-key|auth-token)(?:=|[ \t]+)(?:"([^"$`\\\n]{1,200})"|'([^'\n]{1,200})'|([^\s;&|$`"'()<>]{1,200}))/dgi;
/** What a script must hold before the patterns above are run on it: a credential word (most scripts have none). */
const SCRIPT_HINT = /pass|pwd|token|secret|key|auth/i;
/**
 * A build secret's spec (`docker build --secret id=api_key,env=API_KEY`, `src=./token.txt`, `type=env`): it names
 * where BuildKit (and Podman, Buildah) take the secret from, the environment or a file, not the secret itself
 * (https://docs.docker.com/build/building/secrets/).
 */
const BUILD_SECRET_SPEC = /^(?:(?:id|type|src|source|env|target|required|mode|uid|gid)=[^,]*)(?:,(?:id|type|src|source|env|target|required|mode|uid|gid)=[^,]*)*$/i;

/** Names of a password (not a token or key): what it opens is usually set up by the same workflow. */
const PASSWORD_NAME = /(?:^|[_.-])(?:password|passwd|pwd|passphrase)$/i;

/**
 * Commands and actions that create, inside the job, the resource a literal password or key is then given to:
 * a container (`docker run`, `docker compose up`/`run`, podman, nerdctl, a compose action), a local database
 * server, a test cluster or a test VM the job boots (QEMU, `virt-install`, a cloud-init seed made with
 * `cloud-localds`, LXD/Incus, Lima, an action that runs the job's commands in a VM). Such a credential protects something
 * that lives only as long as the job (or that the job itself provisions from scratch).
 */
const THROWAWAY_COMMAND =
  /\bdocker(?:\s+container)?\s+(?:run|create)\b|\bdocker(?:-compose|\s+compose)\b[^\n]{0,200}\b(?:up|run)\b|\bpodman(?:-compose)?\s+(?:run|create|up|play\s+kube|kube\s+play)\b|\bnerdctl\s+(?:run|compose\s+up)\b|\bqemu-system-[\w-]{1,20}\b|\bvirt-install\b|\bcloud-localds\b|\b(?:lxc|incus)\s+launch\b|\blimactl\s+(?:start|create)\b|\b(?:kind\s+create\s+cluster|minikube\s+start|k3d\s+cluster\s+create|vagrant\s+up|multipass\s+launch)\b|\baz\s+vm\s+create\b|\bNew-AzVM\b|\bgcloud\s+compute\s+instances\s+create\b|\baws\s+ec2\s+run-instances\b|\b(?:initdb|pg_ctl|pg_ctlcluster|createuser|mysqld|mongod|redis-server)\b|\b(?:service|systemctl)\s+(?:start\s+)?(?:postgresql|mysql|mariadb|mongod|redis)[\w@.-]{0,20}(?:\s+start)?\b|\b(?:CREATE|ALTER)\s+(?:USER|ROLE)\b/i;
const THROWAWAY_ACTION =
  /(?:^|\/)(?:setup-(?:postgres(?:ql)?|mysql|mariadb|mongodb|redis|minio|k3d|k3s|lxd|incus|qemu-vm)|(?:postgresql|mysql|mariadb|mongodb|redis)-action|mongodb-github-action|setup-kind|kind-action|k3d-action|setup-minikube|compose-action|docker-compose-action|[a-z0-9]{2,20}-vm|run-vm)(?:@|$)|^cross-platform-actions\/action(?:@|$)/i;

/** The first step or setting of `steps` (and `services`) that creates a throwaway resource, described. */
function throwawayResource(steps: readonly Step[], services: YMap | undefined): string | null {
  if (services !== undefined && services.pairs.length > 0) return `the job's service container \`${keyText(services.pairs[0]!.key)}\``;
  for (const step of steps) {
    const run = typeof step.run?.value === 'string' ? step.run.value.slice(0, 20_000) : '';
    const match = run === '' ? null : THROWAWAY_COMMAND.exec(run);
    if (match !== null) return `\`${match[0].replace(/\s+/g, ' ')}\` in step \`${stepLabel(step)}\``;
    const uses = typeof step.uses?.value === 'string' ? step.uses.value : '';
    if (uses !== '' && THROWAWAY_ACTION.test(uses)) return `\`${uses.split('@')[0]}\` in step \`${stepLabel(step)}\``;
  }
  return null;
}

/** No throwaway resource. */
const NO_THROWAWAY = (): string | null => null;

/** Shell words that only print, test or end a script: a step of nothing but these reads no variable it does not name. */
const INERT_COMMANDS = /^(?:echo|printf|exit|true|false|:|\[|test|if|then|else|fi)$/;

/**
 * Whether a job may read a workflow-level `env:` value: a call of a reusable workflow gets none (the workflow's
 * `env:` does not reach the called workflow); a job that names the variable does; so does any job with a step that
 * runs more than printing, testing and exiting (a script, a build or an action may read its environment). A job
 * that only reports its needs' results (`run: echo "Tests passed"`) does not.
 */
function couldRead(job: Job, name: string): boolean {
  if (job.uses !== undefined) return false;
  const mention = new RegExp(`\\b${name.replace(/[^\w]/g, '')}\\b`);
  if (job.workflow.file.text.slice(job.node.start, job.node.end).match(mention) !== null) return true;
  return !job.steps.every((step) => {
    const script = step.run?.value;
    if (step.uses !== undefined || typeof script !== 'string') return false;
    return script.split(/[\n;&|]+/).every((part) => {
      const word = part.trim().split(/\s+/)[0] ?? '';
      return word === '' || word.startsWith('#') || INERT_COMMANDS.test(word);
    });
  });
}

/** `f`'s answer, computed on the first call and kept. */
function lazily<T>(f: () => T): () => T {
  let done = false;
  let value: T | undefined;
  return () => {
    if (!done) {
      value = f();
      done = true;
    }
    return value as T;
  };
}

/**
 * The severity of a credential recognised by its name, not by a provider's format. One the provider's shape
 * confirms stays HIGH. A credential for something the job itself creates (a service container, a database it
 * starts, a test VM) protects a resource that lives only as long as the run: LOW. A password otherwise: MEDIUM,
 * since nothing in the file says it opens something that outlives the run (a token or key name does).
 */
function nameSeverity(name: string, throwawayOf: (name: string) => string | null): { severity?: 'LOW' | 'MEDIUM'; why: string } {
  if (PROVIDER_SHAPES.some((p) => p.name.test(name))) return { why: '' };
  const throwaway = throwawayOf(name);
  if (throwaway !== null)
    return { severity: 'LOW', why: ` LOW: the job creates what it protects (${throwaway}), a throwaway resource that lives only as long as the run; still, use a secret or a generated value` };
  if (PASSWORD_NAME.test(name))
    return { severity: 'MEDIUM', why: ' MEDIUM: it is a password, and nothing in the file shows that what it opens outlives the run (a test account or a resource set up elsewhere may be all it protects)' };
  return { why: '' };
}

function publicByDesign(name: string, value: string, step: Step | undefined): PublicByDesign | undefined {
  const slug = step?.usesRef?.kind === 'repository' ? step.usesRef.slug : null;
  return PUBLIC_BY_DESIGN.find((p) => (p.name.test(name) || (slug !== null && p.actions.has(slug))) && p.value.test(value.trim()));
}

function literalText(node: YNode | undefined): string | null {
  if (node?.kind !== 'scalar' || typeof node.value !== 'string') return null;
  return node.value;
}

export default defineWorkflowRule({
  meta: {
    id: 'hardcoded-credentials',
    category: 'CICD-SEC-6',
    title: 'Credential written literally in a workflow',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A registry password in `container:`/`services:` `credentials`, a token or private key with a recognisable format (GitHub classic and fine-grained, AWS, Google Cloud API keys and OAuth client secrets, Slack tokens and incoming-webhook URLs, GitLab, npm, PyPI, Stripe, PEM/PGP, which covers the `private_key` of a Google service-account key file), or a secret-named `env:`/`with:` entry, an entry of a reusable workflow call `secrets:`, or a credential variable or option in a `run:` script with a realistic literal value (in its provider shape, or random enough; words joined by `_` or `-` are placeholders) is written in the file, readable by anyone who can read the repository.',
    recommendation:
      'Revoke the credential now (it is in the git history), store the new one as an encrypted secret, and reference it as `${{ secrets.NAME }}`.',
  },
  create: (context) => {
    /** Reports token patterns and key material anywhere in the text (values, keys and comments). */
    const scanText = (file: SourceFile, jobAt: (offset: number) => Job | null): Set<number> => {
      const reported = new Set<number>();
      const text = file.text;
      const present = anchorsIn(text);
      if (present.size === 0) return reported;
      const report = (offset: number, length: number, what: string) => {
        reported.add(offset);
        context.report({
          node: { kind: 'scalar', start: offset, end: offset + length, value: null, style: 'plain' },
          job: jobAt(offset),
          message: `The file contains ${what} in clear text.`,
          key: `${what}:${text.slice(offset, offset + length)}`,
        });
      };
      for (const { what, pattern, anchors, plausible } of TOKEN_PATTERNS) {
        if (!anchors.some((anchor) => present.has(anchor))) continue;
        for (const match of text.matchAll(pattern)) {
          if (plausible === undefined || plausible(match[0])) report(match.index, match[0].length, what);
        }
      }
      if (present.has('-----BEGIN ')) {
        for (const match of text.matchAll(PRIVATE_KEY_HEADER)) {
          if (hasKeyBody(text, match.index + match[0].length)) report(match.index, match[0].length, 'a private key');
        }
      }
      return reported;
    };

    /** `credentials.password` of a container or service. */
    const checkContainer = (container: YNode | undefined, what: string, job: Job) => {
      const password = get(getMap(container, 'credentials'), 'password');
      const text = literalText(password);
      if (password === undefined || text === null || text.trim() === '' || text.includes('${{')) return;
      // A registry account outlives the run; a placeholder, the user name again or the container's own
      // database password (`POSTGRES_PASSWORD` in its `env:`) is a throwaway value put in the wrong place.
      const value = text.trim();
      const user = literalText(get(getMap(container, 'credentials'), 'username'))?.trim();
      const ownEnv = (getMap(container, 'env')?.pairs ?? []).some((pair) => literalText(pair.value)?.trim() === value);
      const placeholder = PLACEHOLDER.test(value) || PLACEHOLDER_WORDS.has(value.toLowerCase()) || value === user || ownEnv;
      context.report({
        node: password,
        job,
        ...(placeholder ? { severity: 'LOW' as const } : {}),
        message: placeholder
          ? `The registry password of ${what} is written literally in the workflow. LOW: the value is ${ownEnv ? 'the container\'s own `env:` password' : 'a placeholder or the user name'}, the setting of a throwaway container rather than a registry account's password; move it to \`env:\` or a secret.`
          : `The registry password of ${what} is written literally in the workflow.`,
      });
    };

    /**
     * Secret-named entries of an `env:` or `with:` mapping with a realistic literal value; every entry of a
     * reusable workflow call's `secrets:` (`anyName`), where the name says nothing but the place says secret.
     */
    const checkMapping = (
      map: YMap | undefined,
      where: () => string,
      job: Job | null,
      skip: Set<number>,
      throwaway: (name: string) => string | null,
      step?: Step,
      anyName = false,
    ) => {
      for (const pair of map?.pairs ?? []) {
        const name = keyText(pair.key);
        const text = literalText(pair.value);
        if (text === null || (!anyName && !SECRET_NAME.test(name)) || !looksLikeCredential(text, name)) continue;
        const value = pair.value as YScalar;
        if (skip.has(value.start) || [...skip].some((o) => o >= value.start && o < value.end)) continue;
        const known = publicByDesign(name, text, step);
        const rated = nameSeverity(name, throwaway);
        const severity = known !== undefined ? ('LOW' as const) : rated.severity;
        context.report({
          node: value,
          job,
          ...(severity !== undefined ? { severity } : {}),
          message:
            known !== undefined
              ? `\`${name}\` in ${where()} is a literal ${known.vendor} key. LOW: ${known.why}.`
              : `\`${name}\` in ${where()} is set to a literal value that looks like a real credential.${rated.why}${rated.why === '' ? '' : '.'}`,
        });
      }
    };

    /** Secret-named variables and credential options given a literal value in a step's script. */
    const checkScript = (file: SourceFile, step: Step, job: Job | null, skip: Set<number>, throwaway: () => string | null) => {
      const run = step.run;
      const script = typeof run?.value === 'string' ? run.value : null;
      if (run === undefined || script === null || !SCRIPT_HINT.test(script)) return;
      for (const [pattern, what] of [
        [SCRIPT_ASSIGNMENT, 'variable'],
        [SCRIPT_OPTION, 'option'],
      ] as const) {
        // `exec` from `lastIndex` 0 (neither pattern matches empty text): `matchAll` would copy the pattern every script.
        pattern.lastIndex = 0;
        for (let match = pattern.exec(script); match !== null; match = pattern.exec(script)) {
          const name = what === 'option' ? (match[1] ?? '') : (match[1] ?? '');
          const group = [2, 3, 4].find((g) => match[g] !== undefined);
          if (group === undefined || (what === 'variable' && !SECRET_NAME.test(name))) continue;
          const value = match[group] ?? '';
          if (what === 'option' && name.toLowerCase() === 'secret' && BUILD_SECRET_SPEC.test(value)) continue;
          const at = match.indices?.[group]?.[0] ?? match.index;
          const offset = valueOffsetToSource(file, run, at);
          if (!looksLikeCredential(value, name) || [...skip].some((o) => o >= offset && o < offset + value.length)) continue;
          const rated = nameSeverity(name, throwaway);
          const why = rated.why === '' ? '' : `${rated.why}.`;
          context.report({
            node: run,
            offset,
            job,
            ...(rated.severity !== undefined ? { severity: rated.severity } : {}),
            message:
              what === 'option'
                ? `The script of step \`${stepLabel(step)}\` passes a literal value that looks like a real credential to \`--${name}\`.${why}`
                : `The script of step \`${stepLabel(step)}\` sets \`${name}\` to a literal value that looks like a real credential.${why}`,
            key: `script:${name}:${value}`,
          });
        }
      }
    };

    return {
      workflow(workflow) {
        const jobAt = (offset: number) => workflow.jobs.find((j) => offset >= j.key.start && offset < j.node.end) ?? null;
        const reported = scanText(workflow.file, jobAt);
        // Read only for a value that looks like a credential (few files have one).
        const throwaways = new Map(workflow.jobs.map((job) => [job, lazily(() => throwawayResource(job.steps, job.services))] as const));
        // A workflow-wide value is throwaway when every job that could read it creates what it protects.
        const workflowThrowaway = (name: string): string | null => {
          const readers = workflow.jobs.filter((job) => couldRead(job, name));
          const everyJob = readers.map((job) => (throwaways.get(job) ?? NO_THROWAWAY)());
          if (everyJob.length === 0 || !everyJob.every((t) => t !== null)) return null;
          return readers.length === 1 ? `${everyJob[0]!}, in job \`${readers[0]!.id}\`` : `${everyJob[0]!}, in job \`${readers[0]!.id}\`, and each of the ${readers.length - 1} other jobs that read it creates its own`;
        };
        checkMapping(workflow.env, () => 'the workflow `env:`', null, reported, workflowThrowaway);
        for (const job of workflow.jobs) {
          const throwaway = throwaways.get(job) ?? NO_THROWAWAY;
          checkContainer(job.container, `the container of job \`${job.id}\``, job);
          for (const service of job.services?.pairs ?? []) {
            checkContainer(service.value, `service \`${keyText(service.key)}\` of job \`${job.id}\``, job);
          }
          // Jobs with service containers set up throwaway databases and brokers: their literal
          // passwords configure those containers and protect nothing.
          if (job.services !== undefined) continue;
          checkMapping(job.env, () => `the \`env:\` of job \`${job.id}\``, job, reported, throwaway);
          checkMapping(getMap(job.container, 'env'), () => `the container \`env:\` of job \`${job.id}\``, job, reported, throwaway);
          if (job.uses !== undefined) {
            checkMapping(job.with, () => `the \`with:\` of the reusable workflow call of job \`${job.id}\``, job, reported, NO_THROWAWAY);
            if (isMap(job.secrets))
              checkMapping(job.secrets, () => `the \`secrets:\` of the reusable workflow call of job \`${job.id}\``, job, reported, NO_THROWAWAY, undefined, true);
          }
          for (const step of job.steps) {
            checkMapping(step.env, () => `the \`env:\` of step \`${stepLabel(step)}\``, job, reported, throwaway, step);
            checkMapping(step.with, () => `the \`with:\` of step \`${stepLabel(step)}\``, job, reported, throwaway, step);
            checkScript(workflow.file, step, job, reported, throwaway);
          }
        }
      },
      action(action) {
        const reported = scanText(action.file, () => null);
        const throwaway = lazily(() => throwawayResource(action.steps, undefined));
        for (const step of action.steps) {
          checkMapping(step.env, () => `the \`env:\` of step \`${stepLabel(step)}\``, null, reported, throwaway, step);
          checkMapping(step.with, () => `the \`with:\` of step \`${stepLabel(step)}\``, null, reported, throwaway, step);
          checkScript(action.file, step, null, reported, throwaway);
        }
      },
      dependabot(config) {
        scanText(config.file, () => null);
      },
    };
  },
});
