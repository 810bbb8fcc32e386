import { IMAGE_INPUTS } from '../data/image-inputs.js';
import { expandMatrix } from '../analysis/matrix-values.js';
import { holdingFacts, holdingFactsOf, runFact } from '../analysis/run-model/facts.js';
import { heldWords, holdingStrength, holdsMinor, holdsNothing, minorWords, nothingWorthText, openRunnerNote, stepSecrets, tokenHandsOverNothing, type HoldingStrength } from '../analysis/run-model/holdings.js';
import { ownerFact, type ContainerRun, type Ownership, type ServiceRun } from '../analysis/run-model/index.js';
import type { Action, Job, Step } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { severityRank, type Severity } from '../types.js';
import { getScalar, scalarText, type YNode } from '../yaml/model.js';

type Pin = { kind: 'digest' } | { kind: 'malformed' } | { kind: 'tag'; tag: string } | { kind: 'latest' } | { kind: 'untagged' };

/** A digest as Docker accepts it: `algorithm:hex`, `sha256` with exactly 64 hex digits. */
const DIGEST = /@(?:sha256:[0-9a-f]{64}|sha512:[0-9a-f]{128}|(?!sha256:|sha512:)[a-z0-9]+(?:[.+_-][a-z0-9]+)*:[0-9a-f]{32,})$/i;

/**
 * How an image reference is pinned: `[registry[:port]/]name[:tag][@digest]`. A digest Docker would refuse
 * (`@sha256:abc123`) is `malformed`: the image cannot be pulled at all, so nothing mutable runs.
 */
export function imagePin(reference: string): Pin {
  const image = reference.trim();
  if (image.includes('@')) return DIGEST.test(image) ? { kind: 'digest' } : { kind: 'malformed' };
  const name = image.slice(image.lastIndexOf('/') + 1);
  const colon = name.indexOf(':');
  if (colon === -1) return { kind: 'untagged' };
  const tag = name.slice(colon + 1);
  return tag === '' || tag.toLowerCase() === 'latest' ? { kind: 'latest' } : { kind: 'tag', tag };
}

interface Unpinned {
  image: string;
  floating: boolean;
}

/** The unpinned images among the values `text` can take; null when it cannot be resolved. */
function unpinned(job: Job | null, text: string): Unpinned[] | null {
  const values = text.includes('${{') ? expandMatrix(job, text) : [text];
  if (values === null) return resolvePartially(text);
  const result: Unpinned[] = [];
  for (const value of values) {
    // An empty container value (`container: ''` in one matrix leg) means "no container".
    if (value.trim() === '') continue;
    const pin = imagePin(value);
    if (pin.kind === 'digest' || pin.kind === 'malformed') continue;
    result.push({ image: value.trim(), floating: pin.kind !== 'tag' });
  }
  return result;
}

/**
 * An image with an expression other than a matrix value: judged only when the expression sits in the
 * registry or repository part and a literal tag or digest follows (`${{ env.REGISTRY }}/app:latest`).
 */
function resolvePartially(text: string): Unpinned[] | null {
  const lastExpression = text.lastIndexOf('}}');
  const tail = text.slice(lastExpression + 2);
  if (lastExpression === -1 || !tail.includes('/') || /\$\{\{/.test(tail)) return null;
  const pin = imagePin(tail);
  if (pin.kind === 'digest' || pin.kind === 'malformed') return [];
  return [{ image: text.trim(), floating: pin.kind !== 'tag' }];
}

/** Where an image runs: what it reaches decides how much a re-pushed tag matters. */
type Site = 'container' | 'service' | 'step' | 'action' | 'input';

export default defineWorkflowRule({
  meta: {
    id: 'unpinned-image',
    category: 'CICD-SEC-3',
    title: 'Container image not pinned by digest',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A job container, service container, `docker://` step image or docker action `runs.image` is referenced by a tag instead of an `@sha256:` digest, so a re-pushed tag silently changes the code that runs. Severity follows what the image holds: a job container what reaches the steps that run in it (their secrets, the token when a step names it or an action runs in it, OIDC, a self-hosted machine, a publish), a `docker://` step what the job holds (the runner gives it the Docker socket). MEDIUM for a third-party image holding a secret, a token with a write scope, OIDC, a self-hosted runner or a publish, or building what a publishing job ships (the attacker is the image\'s publisher or whoever takes over their registry account, as for a third-party action on a branch); LOW otherwise, and for the repository\'s own or GitHub\'s images. A service container runs beside the job and is judged by what its own definition gives it (a stored secret or the token in its `env:`, a mount of the workspace or the Docker socket, `--privileged`): LOW when it gets none of these.',
    recommendation:
      'Reference the image by digest and keep the tag for readers (`image: node:22-bookworm@sha256:<digest>`); let Dependabot (`package-ecosystem: docker`) or Renovate update the digest.',
  },
  create: (context) => ({
    job(job) {
      const container = job.container;
      if (container?.kind === 'scalar') check(context, { job, step: null, action: null }, container, 'job container', 'container');
      else check(context, { job, step: null, action: null }, getScalar(container, 'image'), 'job container', 'container');
      for (const pair of job.services?.pairs ?? []) {
        const service = pair.value;
        const image = service.kind === 'scalar' ? service : getScalar(service, 'image');
        const place = { job, step: null, action: null, service: context.runs.service(job, service) };
        check(context, place, image, `service \`${scalarText(pair.key) ?? ''}\``, 'service');
      }
    },
    action(action) {
      // A docker action's `runs.image: docker://...` (an `image: Dockerfile` is built from the repository).
      const image = getScalar(action.runs, 'image');
      const text = image === undefined ? null : scalarText(image);
      if (action.using !== 'docker' || text === null || !text.trim().startsWith('docker://')) return;
      check(context, { job: null, step: null, action }, image, 'docker action', 'action', text.trim().slice('docker://'.length));
    },
    step(step) {
      // An action that runs the image one of its inputs names (kind's node image, `docker run` of an image).
      const known = step.usesRef?.kind === 'repository' ? IMAGE_INPUTS[step.usesRef.slug] : undefined;
      if (known !== undefined && step.usesRef?.kind === 'repository') {
        for (const input of known.inputs) check(context, { job: step.job, step, action: null, runs: known.runs }, getScalar(step.with, input), `\`${input}\` of ${step.usesRef.slug}`, 'input');
      }
      if (step.usesRef?.kind !== 'docker' || step.uses === undefined) return;
      check(context, { job: step.job, step, action: null }, step.uses, '`docker://` step', 'step', step.usesRef.image);
    },
  }),
});

/** Docker Official Images (`ubuntu`, `node:22`, `docker.io/library/postgres`), published by Docker's own program. */
export function isOfficialImage(reference: string): boolean {
  const name = reference.trim().replace(/^docker:\/\//, '').replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\/library\//, '');
  return !name.includes('/') && !name.includes('${{');
}

interface Place {
  job: Job | null;
  step: Step | null;
  /** A docker action (its `runs.image`). */
  action: Action | null;
  /** For an action's image input: how the action runs the image (data/image-inputs.ts). */
  runs?: string;
  /** A service container of `job`: what its definition gives it (the run model's `service`). */
  service?: ServiceRun;
}

/**
 * What the jobs that run an image hold (holdings.ts): the job's own, or for a composite or docker action of the
 * repository the strongest of its callers' jobs; null when no job of the repository runs it.
 */
function strengthOf(context: WorkflowRuleContext, place: Place): HoldingStrength | null {
  if (place.service !== undefined) return holdingStrength(place.service.holdings, context.runs.defaultToken);
  if (place.job !== null) return holdingStrength(context.runs.job(place.job).holdings, context.runs.defaultToken);
  const action = place.action ?? (place.step?.owner.kind === 'action' ? place.step.owner : null);
  if (action === null) return null;
  let best: HoldingStrength | null = null;
  for (const caller of context.repository.callersOf(action)) {
    if (caller.job === null) continue;
    const found = holdingStrength(context.runs.job(caller.job).holdings, context.runs.defaultToken);
    if (best === null || STRENGTH_ORDER.indexOf(found) < STRENGTH_ORDER.indexOf(best)) best = found;
  }
  return best;
}

/** The chat webhooks and coverage upload tokens what runs an image holds, in words (holdings.ts `minorWords`; a service's own), or ''. */
function minorOf(context: WorkflowRuleContext, place: Place): string {
  if (place.service !== undefined) return minorWords(place.service.holdings);
  if (place.job !== null) return minorWords(context.runs.job(place.job).holdings);
  return '';
}

/**
 * What a service or a job that runs an image holds, most worth taking first and chat webhooks and upload tokens last (holdings.ts
 * `heldWords`); null for a docker action, whose jobs are its callers'.
 */
function heldOf(context: WorkflowRuleContext, place: Place): string[] | null {
  if (place.service !== undefined) return heldWords(place.service.holdings, context.runs.defaultToken);
  if (place.job !== null) return heldWords(context.runs.job(place.job).holdings, context.runs.defaultToken);
  return null;
}

const STRENGTH_ORDER: readonly HoldingStrength[] = ['valuable', 'default-token', 'none'];

/**
 * The severity of one third-party image. The attacker is whoever can push to the image's repository (its
 * publisher, or whoever takes over their registry account), not an outside GitHub user: MEDIUM at most, as a
 * third-party action on a branch (`@main`), which follows every push the same way, is; what they gain is what
 * the job holds.
 */
function imageSeverity(image: Unpinned, strength: HoldingStrength | null): Severity {
  if (strength === 'none') return 'LOW';
  return !image.floating && strength === 'default-token' ? 'LOW' : 'MEDIUM';
}

function list(images: readonly string[]): string {
  const unique = [...new Set(images)];
  return unique.slice(0, 3).map((i) => `\`${i}\``).join(', ') + (unique.length > 3 ? ` and ${unique.length - 3} more` : '');
}

function check(context: WorkflowRuleContext, place: Place, node: YNode | undefined, where: string, site: Site, text?: string): void {
  if (node?.kind !== 'scalar' || (text === undefined && typeof node.value !== 'string')) return;
  const value = text ?? scalarText(node);
  if (value === null || value.trim() === '') return;
  const found = unpinned(place.job, value);
  if (found === null || found.length === 0) return;
  const owned = (image: Unpinned): Ownership => context.runs.imageOwnershipOf(image.image);
  const others = found.filter((f) => owned(f) === 'third-party');
  const run = place.job === null ? null : context.runs.job(place.job);
  const container = site === 'container' && place.job !== null ? context.runs.container(place.job) : null;
  const facts: string[] = [ownerFact(others.length > 0 ? 'third-party' : found.some((f) => owned(f) === 'platform') ? 'platform' : 'first-party')];
  if (place.service !== undefined) facts.push(...holdingFactsOf(place.service.holdings, place.service.valuables));
  else if (container !== null) facts.push(...holdingFactsOf(container.holdings, container.valuables));
  else if (run !== null) facts.push(...holdingFacts(run));
  if (place.step !== null) facts.push(...runFact(context.runs, place.step));
  if (others.length === 0) {
    // The repository's own images (or GitHub's): pinning them is about reproducible builds, not an outside attacker.
    const platform = found.every((f) => owned(f) === 'platform');
    const namespaces = [...new Set(found.filter((f) => owned(f) !== 'platform').map((f) => context.runs.imageOwnerNamespaceOf(f.image)))];
    const [namespace] = namespaces;
    const owners = namespaces.length === 1 && namespace !== null && namespace !== undefined;
    // Not under the owner's name, but under a namespace the repository's own workflows push to (a former
    // organisation name, a second registry account): pushing there takes its credentials.
    const pushed = [...new Set(found.filter((f) => owned(f) !== 'platform').map((f) => context.runs.imagePushedNamespaceOf(f.image)))];
    const [target] = pushed;
    const publishes = !owners && pushed.length === 1 && target !== null && target !== undefined;
    context.report({
      node,
      severity: 'LOW',
      message: `The ${where} image ${list(found.map((f) => f.image))} is not pinned by \`@sha256:\` digest. LOW: ${
        platform
          ? "it is GitHub's own image, published by the party that runs the runner itself."
          : owners
            ? `it is the owner's own image, published under the repository owner's namespace \`${namespace}\`, so only the owner's maintainers can change it.`
            : publishes
              ? `it is the owner's own image: the repository publishes to \`${target}\` (its own workflows push images there, with that namespace's credentials), so only its maintainers can change it.`
              : "it is the repository's own image (its workflows build or push it, or it is published under its owner's namespace), so only its maintainers can change it."
      }`,
      facts,
    });
    return;
  }
  const floating = others.some((f) => f.floating);
  const why = floating ? 'has no tag or uses `latest`, so it follows whatever its publisher pushes next' : 'is pinned by a tag, which its publisher can re-push';
  const judged =
    container !== null && place.job !== null
      ? judgeContainer(context, place.job, container)
      : (site === 'step' || site === 'input') && place.step !== null
        ? judgeStep(context, place.step, place.runs)
        : judgeByHoldings(context, place, site, others);
  const official = judged.severity !== 'LOW' && floating && isOfficialImage(others.find((f) => f.floating)?.image ?? '');
  context.report({
    node,
    severity: judged.severity,
    message: `The ${where} image ${list(found.map((f) => f.image))} ${why}; it is not pinned by \`@sha256:\` digest. Whoever controls its repository on the registry (its publisher, or whoever takes over their account) changes the code that runs; ${judged.reaches}.${judged.reason}${
      official ? " It is a Docker Official Image, published by Docker's reviewed program rather than an arbitrary account." : ''
    }`,
    facts,
  });
}

interface Judged {
  severity: Severity;
  /** What the image's code runs and reaches, in words. */
  reaches: string;
  /** Why this severity, with a leading space; empty when `reaches` says it. */
  reason: string;
}

const UPSTREAM = ' the one who can change it is its publisher or whoever takes over their registry account, not an outside GitHub user, and nothing but a digest stands in the way.';

/**
 * A job container runs the job's steps (all but `docker://` steps and docker actions) and holds what reaches
 * them (the run model's `container`): MEDIUM when that is worth taking (a secret, a token with a write scope,
 * OIDC, a self-hosted machine, a publish) or the job hands its build to a publishing job; LOW otherwise.
 */
function judgeContainer(context: WorkflowRuleContext, job: Job, container: ContainerRun): Judged {
  const runs = "it runs the job's steps (all but `docker://` steps)";
  const { access, holdings, valuables } = container;
  const route = access.token === null ? '' : ` (the job's token: ${access.token})`;
  if (!holdsNothing(holdings, context.runs.defaultToken)) {
    const tokenHeld = !tokenHandsOverNothing(holdings, context.runs.defaultToken);
    return { severity: 'MEDIUM', reaches: `${runs}, so it holds ${valuables.join(', ')}${tokenHeld ? route : ''}`, reason: ` MEDIUM:${UPSTREAM}` };
  }
  const feed = context.runs.releaseFeed(job);
  if (feed !== null) return { severity: 'MEDIUM', reaches: `${runs}; nothing worth taking reaches it, but ${feed}`, reason: ` MEDIUM: what it builds ships.${UPSTREAM}` };
  const token =
    access.token === null
      ? "and none gets the job's token"
      : holdings.token.kind === 'default'
        ? `and the job's token reaches it (${access.token}), but the job declares no \`permissions:\`, so that token is read-write only if the repository's settings make it so`
        : `and the job's token reaches it (${access.token}) with no write scope that changes code, releases or packages`;
  return {
    severity: 'LOW',
    reaches: runs,
    reason: ` LOW: nothing worth taking reaches it: ${holdsMinor(holdings) ? `the steps that run in it get only ${minorWords(holdings)}, no other stored secret` : 'no step that runs in it gets a stored secret'}, ${token}; the job has no OIDC, ${openRunnerNote(holdings) === '' ? 'self-hosted machine or publish' : `or publish (its self-hosted runner is no holding an outsider lacks: ${holdings.runnerOpenToForks ?? ''})`} and hands no build to a publishing job, so a re-pushed image can only change what the run does and produces.`,
  };
}

/**
 * A `docker://` step runs that step only, in a container of its own into which the runner mounts the Docker
 * socket and the workspace: it reaches the machine and with it what the job holds, as a third party's action in
 * the job does. MEDIUM unless the job supplies nothing (the supply-chain rules' LOW, run-model `suppliesNothing`).
 */
function judgeStep(context: WorkflowRuleContext, step: Step, how?: string): Judged {
  const direct = step.job === null ? [] : stepSecrets(step);
  const given = direct.length === 0 ? '' : `; ${direct.length === 1 ? 'secret' : 'secrets'} ${direct.slice(0, 3).map((n) => `\`${n}\``).join(', ')} ${direct.length === 1 ? 'reaches' : 'reach'} the step itself (its \`with:\` or environment)`;
  const runs = how ?? "it runs this step only, but the runner mounts the Docker socket and the workspace into a `docker://` step's container, which gives it the machine";
  if (!context.runs.suppliesNothing(step)) return { severity: 'MEDIUM', reaches: `${runs}: ${context.runs.supplyText(step)}${given}`, reason: ` MEDIUM:${UPSTREAM}` };
  const action = step.job === null;
  return {
    severity: 'LOW',
    reaches: `${runs} and what the job holds${given}`,
    reason: ` LOW: ${context.runs.uncalledNote(step) ?? `${action ? 'the jobs that run this action hold' : 'the job holds'} ${nothingWorthText(context.runs.minorAt(step))} and hand${action ? '' : 's'} no build to a publishing job, so a re-pushed image changes only what this run does`}.`,
  };
}

/** A service container (by its own definition) or a docker action (by the jobs that use it): by what they hold. */
function judgeByHoldings(context: WorkflowRuleContext, place: Place, site: Site, others: readonly Unpinned[]): Judged {
  const strength = strengthOf(context, place);
  // Judged per image (a matrix can list the repository's own `:latest` next to a tagged third-party image):
  // the repository's own images never make it floating.
  let severity: Severity = 'LOW';
  for (const image of others) {
    const found = imageSeverity(image, strength);
    if (severityRank(found) < severityRank(severity)) severity = found;
  }
  const floating = others.some((f) => f.floating);
  const holds = heldOf(context, place);
  const holder = place.service !== undefined ? 'this service container' : 'the job';
  const reaches =
    place.service !== undefined
      ? serviceReach(place.service)
      : strength === null
        ? 'it runs the steps of whichever job uses this action, with what that job holds'
        : 'it runs the steps of the jobs of this repository that use this action';
  const reason =
    place.service !== undefined && place.service.access.mounts.length === 0 && strength === 'none'
      ? ` LOW: ${SERVICE_GETS} ${serviceGiven(place.service)}.`
      : strength === 'none'
        ? ` LOW: ${place.job === null ? 'they hold' : 'the job holds'} nothing worth taking (a read-only token, ${minorOf(context, place) === '' ? 'no secret' : `no secret but ${minorOf(context, place)}`}, no publish), so a re-pushed image can only change what the run does and produces.`
        : strength === 'default-token'
          ? holds !== null && holds.length > 0
            ? ` ${severity}: ${holder} holds ${holds.join(', ')}; the job declares no \`permissions:\`, so its default token is read-write only if the repository's settings make it so, and ${holder} gets no ${minorOf(context, place) === '' ? '' : 'other '}secret.`
            : ` ${severity}: the job declares no \`permissions:\` and references no secret; its default token is read-write only if the repository's settings make it so.`
          : site === 'service'
            ? ` ${severity}: ${SERVICE_GETS} holds ${holds !== null && holds.length > 0 ? holds.join(', ') : 'what its job holds'}.`
            : strength === null
              ? ` ${severity}: no job of this repository that runs it is known.`
              : floating
                ? ` ${severity}: it follows every push, as a third-party action on a branch does, and the one who can change it is its publisher or whoever takes over their registry account, not an outside GitHub user.`
                : '';
  return { severity, reaches, reason };
}

const SERVICE_GETS = 'a service container gets only what its definition gives it, and this one';

/** What a service's definition gives it, in words, for a service that holds nothing worth taking. */
function serviceGiven(service: ServiceRun): string {
  const hooks = minorWords(service.holdings);
  const gets = service.access.token
    ? `gets no stored secret (only the job's token, with no write scope worth taking${hooks === '' ? '' : `, and ${hooks}`})`
    : hooks === ''
      ? 'gets no secret'
      : `gets no secret but ${hooks}`;
  return `${gets}, no mount of the workspace or the Docker socket, and does not run privileged`;
}

/** Where a service container's code runs, and what its definition hands it. */
function serviceReach(service: ServiceRun): string {
  const beside = 'a service container runs beside the job, reached over the network by its steps';
  const { mounts, secrets, token } = service.access;
  const given: string[] = mounts.slice(0, 3).map((m) => m.text);
  if (secrets.length > 0) given.push(`${secrets.length === 1 ? 'secret' : 'secrets'} ${secrets.slice(0, 3).map((n) => `\`${n}\``).join(', ')} in its \`env:\``);
  if (token) given.push("the job's token in its `env:`");
  if (given.length === 0) return beside;
  const host = mounts.some((m) => m.reach === 'host');
  const workspace = mounts.some((m) => m.reach === 'workspace');
  const so = host
    ? ", so it controls the runner's machine and, through it, the job"
    : workspace
      ? ', so it reads the checkout and changes the code later steps run'
      : '';
  return `${beside}, and its definition gives it ${given.join(', ')}${so}`;
}
