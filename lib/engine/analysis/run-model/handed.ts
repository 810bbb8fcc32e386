/**
 * The GitHub tokens a step is handed directly, in its own `with:` or environment (its `env:`, and for a job's step
 * its job's and workflow's `env:`, which every step's process gets): the job's own token (`${{ secrets.GITHUB_TOKEN }}`,
 * `${{ github.token }}`), and tokens an earlier step of the job minted (`${{ steps.app.outputs.token }}` of a token
 * minting action such as `actions/create-github-app-token` or `tibdex/github-app-token`, or of another step given
 * stored secrets, itself or through the outputs of steps it reads: a script that exchanges an app's key for an
 * installation token), each with the stored secrets it was minted from. Code handed a token can use it as it likes, whatever the step was meant to do with it.
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
  /** The minting action, `owner/repo` (`actions/create-github-app-token`); null for another step given stored secrets (a script). */
  action: string | null;
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
        if (minter === undefined || minted.some((t) => t.minter === minter)) continue;
        const ref = minter.usesRef;
        const action = ref?.kind === 'repository' && TOKEN_MINTER.test(ref.slug) ? ref.slug : null;
        // Any other step whose `*token*` output is handed on mints it when it is given stored secrets (a script that
        // exchanges an app's key for an installation token), itself or through the outputs of earlier steps it reads.
        const secrets = new Set<string>();
        const given = (nodes: readonly (YNode | undefined)[]): void => {
          for (const node of nodes) if (node !== undefined) for (const use of secretOccurrences(file, node)) if (isStoredSecretName(use.name)) secrets.add(use.name);
        };
        given(action !== null ? [minter.with, minter.env] : [minter.node]);
        if (action === null) {
          const text = file.text.slice(minter.node.start, minter.node.end);
          for (const read of text.matchAll(/\bsteps\.([\w-]+)\.outputs\b/g)) {
            const earlier = job?.steps.find((s) => s.id === read[1] && s.index < minter.index);
            if (earlier !== undefined) given([earlier.node]);
          }
          if (secrets.size === 0) continue;
        }
        minted.push({ output: `steps.${id}.outputs.${name}`, minter, action, secrets: [...secrets] });
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
