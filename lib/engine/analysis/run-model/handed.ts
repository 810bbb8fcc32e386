/**
 * The GitHub tokens a step is handed directly, in its own `with:` or environment (its `env:`, and for a job's step
 * its job's and workflow's `env:`, which every step's process gets): the job's own token (`${{ secrets.GITHUB_TOKEN }}`,
 * `${{ github.token }}`), and tokens an earlier step of the job minted (`${{ steps.app.outputs.token }}` of a token
 * minting action such as `actions/create-github-app-token` or `tibdex/github-app-token`), each with the stored
 * secrets it was minted from. Code handed a token can use it as it likes, whatever the step was meant to do with it.
 */
import type { Step } from '../../model/workflow.js';
import { ScanCache } from '../../model/scan-cache.js';
import type { YNode } from '../../yaml/model.js';
import { isStoredSecretName, secretOccurrences } from '../secrets.js';
import { carriesToken } from './containers.js';

export interface MintedToken {
  /** The output as written: `steps.app.outputs.token`. */
  output: string;
  /** The step that mints it. */
  minter: Step;
  /** The minting action, `owner/repo` (`actions/create-github-app-token`). */
  action: string;
  /** The stored secrets the minting step is given (an app's ID and private key), in file order. */
  secrets: readonly string[];
}

export interface HandedTokens {
  /** The job's own `GITHUB_TOKEN` reaches the step's `with:` or environment. */
  job: boolean;
  /** Tokens minted by earlier steps of the job that reach the step's `with:` or `env:`, in the order first named. */
  minted: readonly MintedToken[];
}

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
    for (const text of strings(node)) {
      for (const m of text.matchAll(OUTPUT)) {
        const [, id, name] = m;
        const minter = job?.steps.find((s) => s.id === id && s.index < step.index);
        const ref = minter?.usesRef;
        if (minter === undefined || ref?.kind !== 'repository' || !TOKEN_MINTER.test(ref.slug) || minted.some((t) => t.minter === minter)) continue;
        const secrets = new Set<string>();
        for (const given of [minter.with, minter.env]) {
          if (given === undefined) continue;
          for (const use of secretOccurrences(file, given)) if (isStoredSecretName(use.name)) secrets.add(use.name);
        }
        minted.push({ output: `steps.${id}.outputs.${name}`, minter, action: ref.slug, secrets: [...secrets] });
      }
    }
  }
  return { job: jobToken, minted };
}

/** The string values of a map's entries (`with:`, `env:`). */
function strings(node: YNode | undefined): string[] {
  if (node?.kind !== 'map') return [];
  return node.pairs.flatMap((p) => (p.value.kind === 'scalar' && typeof p.value.value === 'string' ? [p.value.value] : []));
}
