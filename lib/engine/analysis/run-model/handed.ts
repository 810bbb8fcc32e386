/**
 * The GitHub tokens a step is handed directly, in its own `with:` or environment (its `env:`, and for a job's step
 * its job's and workflow's `env:`, which every step's process gets): the job's own token (`${{ secrets.GITHUB_TOKEN }}`,
 * `${{ github.token }}`), and tokens an earlier step of the job minted (`${{ steps.app.outputs.token }}` of a token
 * minting action such as `actions/create-github-app-token` or `tibdex/github-app-token`, or of another step given
 * stored secrets, itself or through the outputs of steps it reads: a script that exchanges an app's key for an
 * installation token), each with the stored secrets it was minted from. Code handed a token can use it as it likes, whatever the step was meant to do with it.
 *
 * And the credentials an earlier step of the job fetched at run time that reach one of the step's inputs or environment
 * variables named for a credential (`token`, `password`, `api-key`, `NPM_TOKEN`): `${{ env.NAME }}` where no `env:` of the
 * workflow, job or step sets `NAME` (so an earlier step wrote it to `$GITHUB_ENV`: a secret manager's action such as
 * `aws-actions/aws-secretsmanager-get-secrets` or `hashicorp/vault-action`, or a script that writes a value derived from
 * stored secrets), or `${{ steps.<id>.outputs.<x> }}` of a secret manager's action or of a script given stored secrets.
 */
import type { Step } from '../../model/workflow.js';
import { ScanCache } from '../../model/scan-cache.js';
import { keyText, type YNode } from '../../yaml/model.js';
import { isGithubToken, isStoredSecretName, secretOccurrences } from '../secrets.js';
import { occurrencesInFile } from '../file-scalars.js';
import type { SourceFile } from '../../yaml/source.js';
import { actionPermissions } from '../../data/permissions.js';

const TOKEN_TEXT = /\bgithub\s*\.\s*token\b|\bgithub\s*\[\s*'token'\s*\]/i;

/** Each node's `carriesToken`, read once per scan: a job's and its workflow's `env:` are asked about for every step. */
const carried = new ScanCache<YNode, boolean>();

/** Whether a node (of `file`) carries the job's token (`secrets.GITHUB_TOKEN`, `github.token`). */
export function carriesToken(file: SourceFile, node: YNode | undefined): boolean {
  if (node === undefined) return false;
  let found = carried.get(node);
  if (found === undefined) {
    found = secretOccurrences(file, node).some((use) => isGithubToken(use.name)) || occurrencesInFile(file, node).some((o) => TOKEN_TEXT.test(o.span.source));
    carried.set(node, found);
  }
  return found;
}

export interface MintedToken {
  /** The output as written: `steps.app.outputs.token`. */
  output: string;
  /** The step that mints it. */
  minter: Step;
  /** The minting action, `owner/repo` (`actions/create-github-app-token`); null for another step given stored secrets (a script). */
  action: string | null;
  /** The stored secrets the minting step is given (an app's ID and private key), in file order. */
  secrets: readonly string[];
}

export interface FetchedCredential {
  /** The value as written, without `${{ }}`: `env.OSDS_ACCESS_TOKEN`, `steps.vault.outputs.password`. */
  value: string;
  /** The input (`with:`) or environment variable (`env:`) of the step it reaches: `token`. */
  input: string;
  where: 'with' | 'env';
  /** The earlier step that fetches it (writes it to `$GITHUB_ENV`, or sets the output). */
  fetcher: Step;
  /** The fetching action, `owner/repo` (`aws-actions/aws-secretsmanager-get-secrets`); null for a script. */
  action: string | null;
  /** The stored secrets the fetching step is given (a secret's ID, a role's keys), in file order. */
  secrets: readonly string[];
}

export interface HandedTokens {
  /** The job's own `GITHUB_TOKEN` reaches the step's `with:` or environment. */
  job: boolean;
  /** Tokens minted by earlier steps of the job that reach the step's `with:` or `env:`, in the order first named. */
  minted: readonly MintedToken[];
  /** Credentials fetched at run time by earlier steps that reach an input or variable of the step named for one, in file order. */
  fetched: readonly FetchedCredential[];
}

/**
 * Actions that fetch credentials from a secret manager at run time and hand them to the steps after them: `env`, as
 * environment variables written to `$GITHUB_ENV` (each later step's `${{ env.NAME }}` reads them); `outputs`, as
 * step outputs. From each action's README: aws-secretsmanager-get-secrets exports every secret (and with
 * `parse-json-secrets` each JSON key) as a variable; vault-action exports variables unless `exportEnv: false`, and
 * sets outputs; 1Password's load-secrets-action exports with `export-env`, else sets outputs; Bitwarden's and
 * Infisical's export variables; Azure Key Vault's and Google Secret Manager's set outputs.
 */
const SECRET_FETCHERS: Readonly<Record<string, { env: boolean; outputs: boolean }>> = {
  'aws-actions/aws-secretsmanager-get-secrets': { env: true, outputs: false },
  'hashicorp/vault-action': { env: true, outputs: true },
  '1password/load-secrets-action': { env: true, outputs: true },
  'bitwarden/sm-action': { env: true, outputs: true },
  'infisical/secrets-action': { env: true, outputs: false },
  'azure/get-keyvault-secrets': { env: false, outputs: true },
  'google-github-actions/get-secretmanager-secrets': { env: false, outputs: true },
};

/** The secret manager action a step runs (`owner/repo`, lower case), or null. */
export function secretFetcher(step: Step): string | null {
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return null;
  const slug = ref.slug.toLowerCase();
  return SECRET_FETCHERS[slug] !== undefined ? slug : null;
}

/** An input through which an action takes a GitHub token: `token`, `github-token`, `repo-token`, `GITHUB_TOKEN`, `githubToken`. */
const TOKEN_INPUT = /^(?:(?:github|repo|gh)[-_]?)?token$/i;

const takenCache = new ScanCache<Step, JobTokenTaking>();

/**
 * How a step takes its job's token to act with: `handed` (its `with:` or environment names it: `HandedTokens.job`),
 * `default` (an action whose GitHub token input is not set and defaults to \`\${{ github.token }}\`: \`actions/github-script\`,
 * and the actions the permissions table lists as writing with the token, such as \`actions/labeler\`), or null (it is not
 * handed the token: a script, an action given no token, or one given another token in its token input).
 */
export type JobTokenTaking = 'handed' | 'default' | null;

export function jobTokenTaking(step: Step): JobTokenTaking {
  let found = takenCache.get(step);
  if (found === undefined) {
    found = readTaking(step);
    takenCache.set(step, found);
  }
  return found;
}

function readTaking(step: Step): JobTokenTaking {
  if (handedTokens(step).job) return 'handed';
  const ref = step.usesRef;
  if (ref?.kind !== 'repository') return null;
  if (step.with?.kind === 'map' && step.with.pairs.some((p) => TOKEN_INPUT.test(keyText(p.key)))) return null;
  const slug = ref.slug.toLowerCase();
  if (slug === 'actions/github-script') return 'default';
  const known = actionPermissions(ref.path === '' ? slug : `${slug}/${ref.path}`);
  return known !== undefined && Object.entries(known.scopes).some(([scope, access]) => access === 'write' && scope !== 'id-token') ? 'default' : null;
}

/** An input or environment variable named for a credential: `token`, `github-token`, `password`, `api-key`, `NPM_TOKEN`, `private_key`. */
const CREDENTIAL_NAME = /token|passw|secret|api[-_]?key|apikey|(private|access|ssh|deploy|signing|gpg)[-_]?key|credential|(^|[-_])(pat|auth)$/i;
/** `env.NAME` or `env['NAME']` in an expression. */
const ENV_READ = /(?<![\w.])env\s*(?:\.\s*([A-Za-z_][\w-]*)|\[\s*'([^']+)'\s*\])/g;
/** `steps.<id>.outputs.<x>` in an expression. */
const STEP_OUTPUT = /\bsteps\.([\w-]+)\.outputs\.([\w-]+)/g;
/** Scripts longer than this are not read for `$GITHUB_ENV` writes (a bound on hostile input). */
const MAX_SCRIPT = 100_000;

/** A minting action: its output named `*token*` is a GitHub token (`actions/create-github-app-token`). */
const TOKEN_MINTER = /token/i;
const OUTPUT = /\bsteps\.([\w-]+)\.outputs\.([\w-]*token[\w-]*)\b/gi;

const cache = new ScanCache<Step, HandedTokens>();

export function handedTokens(step: Step): HandedTokens {
  let found = cache.get(step);
  if (found === undefined) {
    found = readHanded(step);
    cache.set(step, found);
  }
  return found;
}

function readHanded(step: Step): HandedTokens {
  const file = step.owner.file;
  const job = step.job;
  const jobToken = [step.with, step.env, job?.env, job?.workflow.env].some((n) => carriesToken(file, n));
  const minted: MintedToken[] = [];
  // The `steps` context is not available in a job's or workflow's `env:`: only the step's own inputs and env.
  for (const node of [step.with, step.env]) {
    if (node?.kind !== 'map') continue;
    for (const pair of node.pairs) {
      const text = pair.value.kind === 'scalar' ? pair.value.value : null;
      if (typeof text !== 'string') continue;
      // `exec` from `lastIndex` 0 (the pattern matches no empty text): `matchAll` would copy it for every value.
      OUTPUT.lastIndex = 0;
      for (let m = OUTPUT.exec(text); m !== null; m = OUTPUT.exec(text)) {
        const [, id, name] = m;
        const minter = job?.steps.find((s) => s.id === id && s.index < step.index);
        if (minter === undefined || minted.some((t) => t.minter === minter)) continue;
        const ref = minter.usesRef;
        const action = ref?.kind === 'repository' && TOKEN_MINTER.test(ref.slug) ? ref.slug : null;
        // Any other step whose `*token*` output is handed on mints it when it is given stored secrets (a script that
        // exchanges an app's key for an installation token), itself or through the outputs of earlier steps it reads.
        const secrets = storedSecrets(file, action !== null ? [minter.with, minter.env] : [minter.node]);
        if (action === null) {
          const text = file.text.slice(minter.node.start, minter.node.end);
          for (const read of text.matchAll(/\bsteps\.([\w-]+)\.outputs\b/g)) {
            const earlier = job?.steps.find((s) => s.id === read[1] && s.index < minter.index);
            if (earlier !== undefined) storedSecrets(file, [earlier.node], secrets);
          }
          if (secrets.size === 0) continue;
        }
        minted.push({ output: `steps.${id}.outputs.${name}`, minter, action, secrets: [...secrets] });
      }
    }
  }
  return { job: jobToken, minted, fetched: readFetched(step, minted) };
}

/** `FetchedCredential`s of a step (`HandedTokens.fetched`): its own `with:` and `env:` only (a job's `env:` is read before any step runs). */
function readFetched(step: Step, minted: readonly MintedToken[]): FetchedCredential[] {
  const job = step.job;
  if (job === null) return [];
  const found: FetchedCredential[] = [];
  // The names the `env:`s set, listed only for a step that reads a variable into a credential's input.
  let literal: Set<string> | null = null;
  // The steps before it, listed only for a step that reads a variable or an output into a credential's input.
  let before: readonly Step[] | null = null;
  const earlier = (): readonly Step[] => (before ??= job.steps.filter((s) => s.index < step.index));
  for (const [where, node] of [['with', step.with], ['env', step.env]] as const) {
    if (node?.kind !== 'map') continue;
    for (const pair of node.pairs) {
      const input = keyText(pair.key);
      if (!CREDENTIAL_NAME.test(input) || pair.value.kind !== 'scalar' || typeof pair.value.value !== 'string') continue;
      const text = pair.value.value;
      if (!text.includes('${{')) continue;
      for (const m of text.matchAll(ENV_READ)) {
        const name = m[1] ?? m[2] ?? '';
        if ((literal ??= literalEnvNames(step)).has(name.toUpperCase())) continue;
        const source = envFetcher(earlier(), name);
        if (source !== null) found.push({ value: `env.${name}`, input, where, ...source });
      }
      for (const m of text.matchAll(STEP_OUTPUT)) {
        const [whole, id] = m;
        const fetcher = earlier().find((s) => s.id === id);
        if (fetcher === undefined || minted.some((t) => t.minter === fetcher)) continue;
        const action = secretFetcher(fetcher);
        if (action !== null && SECRET_FETCHERS[action]?.outputs === true) {
          found.push({ value: whole, input, where, fetcher, action, secrets: givenSecrets(fetcher) });
        } else if (fetcher.run !== undefined) {
          // A script given stored secrets whose output is handed on as a credential derives it from them.
          const secrets = givenSecrets(fetcher);
          if (secrets.length > 0) found.push({ value: whole, input, where, fetcher, action: null, secrets });
        }
      }
    }
  }
  return found;
}

/** The names (upper case) an `env:` of the step's workflow, job or the step itself sets: no earlier step wrote those. */
function literalEnvNames(step: Step): Set<string> {
  const names = new Set<string>();
  for (const node of [step.job?.workflow.env, step.job?.env, step.env]) if (node !== undefined) for (const pair of node.pairs) names.add(keyText(pair.key).toUpperCase());
  return names;
}

/**
 * The earlier step that put `NAME` in the environment through `$GITHUB_ENV`, when what it wrote is a credential: the
 * last script that writes `NAME=` or `NAME<<` to `$GITHUB_ENV`, when it is given stored secrets or reads a secret
 * manager's outputs (a script that writes something else under that name hands on no credential); else the last
 * secret manager's action that exports variables. Null when neither.
 */
function envFetcher(earlier: readonly Step[], name: string): Omit<FetchedCredential, 'value' | 'input' | 'where'> | null {
  const write = new RegExp(`(^|[^\\w])${name.replace(/[^\w-]/g, '')}\\s*(=|<<)`);
  for (let i = earlier.length - 1; i >= 0; i--) {
    const step = earlier[i]!;
    const script = typeof step.run?.value === 'string' ? step.run.value : null;
    if (script === null || script.length > MAX_SCRIPT || !/GITHUB_ENV/.test(script) || !write.test(script)) continue;
    const secrets = givenSecrets(step);
    const readsFetcher = [...script.matchAll(/\bsteps\.([\w-]+)\.outputs\b/g)].some((m) => {
      const source = earlier.find((s) => s.id === m[1]);
      return source !== undefined && secretFetcher(source) !== null;
    });
    return secrets.length > 0 || readsFetcher ? { fetcher: step, action: null, secrets } : null;
  }
  for (let i = earlier.length - 1; i >= 0; i--) {
    const step = earlier[i]!;
    const action = secretFetcher(step);
    if (action !== null && SECRET_FETCHERS[action]?.env === true) return { fetcher: step, action, secrets: givenSecrets(step) };
  }
  return null;
}

/** The stored secrets a step is given (its `with:`, `env:`, script), in file order. */
function givenSecrets(step: Step): string[] {
  return [...storedSecrets(step.owner.file, [step.node])];
}

/** The stored secrets `nodes` name, added to `into` (in file order, each once). */
function storedSecrets(file: SourceFile, nodes: readonly (YNode | undefined)[], into: Set<string> = new Set()): Set<string> {
  for (const node of nodes) if (node !== undefined) for (const use of secretOccurrences(file, node)) if (isStoredSecretName(use.name)) into.add(use.name);
  return into;
}
