import { callerJobFacts, holdingFacts, runFact } from '../analysis/run-model/facts.js';
import { VALUABLE_SCOPES, callSecrets, holdsMinor, holdsNothing, holdsSecrets, minorLead, minorNames, NO_MINOR_SECRETS, nothingItselfWords, nothingWorthText, stepMinor, stepSecrets } from '../analysis/run-model/holdings.js';
import { UPLOAD_TOKEN_SERVICES, uploadedWhat, uploadTokenNoun } from '../analysis/secrets.js';
import { handedTokens, type FetchedCredential, type MintedToken } from '../analysis/run-model/handed.js';
import { appTokenScope, appTokenWords } from '../analysis/run-model/app-tokens.js';
import { publishesForReal, publishingSteps } from '../analysis/publishing.js';
import { ownerFact, type JobRun } from '../analysis/run-model/index.js';
import { namedCodeOwner, siblingOwner } from '../analysis/run-model/ownership.js';
import type { UsesRef } from '../model/uses.js';
import { isFullSha } from '../model/uses.js';
import { immutableReleaseTag } from '../data/immutable-releases.js';
import type { Job, Step } from '../model/workflow.js';
import type { YScalar } from '../yaml/model.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { UnpinnedActionOptions } from '../rule-options.js';

export default defineWorkflowRule({
  options: UnpinnedActionOptions,
  meta: {
    id: 'unpinned-action',
    category: 'CICD-SEC-3',
    title: 'Action not pinned to a full commit SHA',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A step `uses:` an action, or a job calls a reusable workflow, by a tag, branch or short SHA instead of a full 40-character commit SHA, so whoever can move that ref decides what code runs with the job\'s token and secrets.',
    recommendation:
      'Pin the reference to the full commit SHA of the release you reviewed and keep the tag as a comment (`uses: owner/repo@<40-hex-sha> # v1.2.3`); let Dependabot or Renovate update the pin.',
  },
  create: (context) => {
    const trusted = new Set((context.options as UnpinnedActionOptions)['trusted-owners'].map((o) => o.toLowerCase()));
    return {
      job(job) {
        if (job.uses !== undefined && job.usesRef !== undefined) check(context, job.uses, job.usesRef, trusted, job, null);
      },
      step(step) {
        if (step.uses !== undefined && step.usesRef !== undefined) check(context, step.uses, step.usesRef, trusted, step.job, step);
      },
    };
  },
});

/**
 * The SLSA generator's builders verify the ref they were called at and only accept release tags
 * (its documentation asks for `@vX.Y.Z`; OpenSSF Scorecard exempts it for the same reason).
 */
function isSlsaReleaseTag(ref: Extract<UsesRef, { kind: 'repository' }>): boolean {
  return `${ref.owner}/${ref.repo}`.toLowerCase() === 'slsa-framework/slsa-github-generator' && /^v\d+\.\d+\.\d+$/.test(ref.ref);
}

function names(list: readonly string[]): string {
  const shown = list.slice(0, 3).map((n) => `\`${n}\``).join(', ');
  return list.length > 3 ? `${shown} and ${list.length - 3} more` : shown;
}

/**
 * What the job hands the mutable code: the secrets that reach it directly (the step's `with:` and `env:`, the
 * job's and workflow's `env:`; a reusable workflow's `with:` and `secrets:`), the job's write token or a token an
 * earlier step minted when those reach the action itself (run-model/handed.ts), or only the runner's memory.
 */
function exposure(run: JobRun, job: Job, step: Step | null): { text: string; facts: string[] } {
  const direct = step === null ? callSecrets(job) : stepSecrets(step);
  const inherits = step === null && run.holdings.inheritsSecrets;
  // A chat webhook handed to the action (a Slack or Discord notifier's `webhook:`), or a coverage upload token handed
  // to its service's own action (`codecov/codecov-action`'s `token:`): named, but not a credential worth taking.
  const minor = step === null ? NO_MINOR_SECRETS : stepMinor(step);
  // The job's other ones, named after what is worth taking (the ones that reach the action are named below).
  const rest = {
    webhooks: run.holdings.webhooks.filter((n) => !minor.webhooks.includes(n)),
    uploadTokens: run.holdings.uploadTokens.filter((n) => !minor.uploadTokens.includes(n)),
    // Identifiers are named here whether or not they reach the action (below names only webhooks and upload tokens).
    identifiers: run.holdings.identifiers,
  };
  const holds = run.valuables.length > 0 ? `the job holds ${[...run.valuables, ...(holdsMinor(rest) ? [minorNames(rest)] : [])].join(', ')}` : run.nothingHeld;
  if (inherits) return { text: `${holds}, and every secret reaches the called workflow itself (\`secrets: inherit\`)`, facts: ['secrets:step'] };
  const handed = step === null ? { job: false, minted: [], fetched: [] } : handedTokens(step);
  // Credentials an earlier step fetched at run time (a secret manager's action, a script given stored secrets) that
  // reach an input or variable of the action named for one (run-model/handed.ts): handed to it as much as a secret.
  const fetched = handed.fetched.map(fetchedWords).join('; ');
  // The tokens handed to the action itself: the job's own when it writes with it (its write scopes named), and any
  // token an earlier step minted (from which secrets).
  const tokens = [...(handed.job ? jobTokenWords(run) : []), ...handed.minted.map(mintedWords)];
  const tokenText = tokens.length === 0 ? '' : `${tokens.join(' and ')} ${tokens.length === 1 ? 'reaches' : 'reach'} the action itself (its \`with:\` or its environment)`;
  if (direct.length > 0) {
    const where = step === null ? 'the called workflow itself (its `with:` or `secrets:`)' : 'the action itself (its `with:` or its environment)';
    const also = `${tokenText === '' ? '' : `; ${tokenText}`}${fetched === '' ? '' : `; ${fetched}`}`;
    return { text: `${holds}; ${direct.length === 1 ? 'secret' : 'secrets'} ${names(direct)} ${direct.length === 1 ? 'reaches' : 'reach'} ${where}${also}`, facts: ['secrets:step'] };
  }
  // A default token the job writes with: say whether it reaches this action (a step's own `with:` or environment).
  const defaultWriter = step !== null && run.holdings.token.kind === 'default' && run.holdings.tokenWriter !== null;
  const token = defaultWriter
    ? handed.job
      ? `; the job's token reaches the action itself (its \`with:\` or its environment)${handed.minted.length > 0 ? `; ${handed.minted.map(mintedWords).join(' and ')} ${handed.minted.length === 1 ? 'reaches' : 'reach'} it too` : ''}`
      : `; the action can take that token without being handed it (an input that defaults to \`github.token\`, or the runner's memory)${handed.minted.length > 0 ? `; ${handed.minted.map(mintedWords).join(' and ')} ${handed.minted.length === 1 ? 'reaches' : 'reach'} the action itself (its \`with:\` or its environment)` : ''}`
    : tokenText === ''
      ? ''
      : `; ${tokenText}`;
  const handedOn = `${token}${fetched === '' ? '' : `; ${fetched}`}`;
  if (holdsSecrets(run.holdings)) {
    const none = handedOn === '' ? 'none of its secrets is passed to this' : 'none of its secrets themselves is passed to this';
    return {
      text: `${holds}${handedOn}; ${none} ${step === null ? 'workflow' : 'action'}, but they are in the runner's memory, which code of any step can read`,
      facts: [handed.fetched.length > 0 ? 'secrets:step' : 'secrets:job'],
    };
  }
  const hooks = minor.webhooks;
  const posts = run.valuables.length > 0 ? ` (${hooks.length === 1 ? 'it lets' : 'they let'} someone post to a channel, no more)` : '';
  const hooked = hooks.length === 0 ? '' : `; ${hooks.length === 1 ? 'chat webhook' : 'chat webhooks'} ${names(hooks)} ${hooks.length === 1 ? 'reaches' : 'reach'} the action itself${posts}`;
  const uploads = minor.uploadTokens;
  const owner = step?.usesRef?.kind === 'repository' ? step.usesRef.owner.toLowerCase() : '';
  const service = UPLOAD_TOKEN_SERVICES.find((s) => s.owners.includes(owner));
  const own = service === undefined ? '' : `, whose owner runs ${service.service}, the service ${uploads.length === 1 ? 'it is' : 'they are'} for`;
  const uploaded =
    uploads.length === 0
      ? ''
      : `; ${uploadTokenNoun(uploads).replace(/^an? /, '')} ${names(uploads)} ${uploads.length === 1 ? 'reaches' : 'reach'} the action itself${own} (${uploads.length === 1 ? 'it lets' : 'they let'} someone upload ${uploadedWhat(uploads)} for this repository, no more)`;
  return { text: `${holds}${handedOn}${hooked}${uploaded}`, facts: handed.fetched.length > 0 ? ['secrets:step'] : [] };
}

/**
 * The job's own token in words, when its write scopes hand over code, releases or packages (holdings.ts
 * `VALUABLE_SCOPES`): `the job's token (\`contents: write\`, \`issues: write\`)`, for a `write-all` token `the job's
 * \`write-all\` token`. Nothing for a token that writes only issues, pull requests, statuses ... (the description
 * already says the job holds no scope worth taking) or for the repository's default token (named as held, and,
 * when a step writes with it, said to reach the action by the default-token sentence).
 */
function jobTokenWords(run: JobRun): string[] {
  const token = run.holdings.token;
  if (token.kind === 'all') return ["the job's `write-all` token"];
  if (token.kind === 'default' || !token.writes.some((s) => VALUABLE_SCOPES.has(s) && s !== 'id-token')) return [];
  return [`the job's token (${token.writes.map((s) => `\`${s}: write\``).join(', ')})`];
}

/** A minted token in words: `the token that step \`app\` mints (\`actions/create-github-app-token\`, from secrets \`APP_ID\`, \`APP_KEY\`)`. */
function mintedWords(token: MintedToken): string {
  const from = token.secrets.length === 0 ? '' : `, from ${token.secrets.length === 1 ? 'secret' : 'secrets'} ${names(token.secrets)}`;
  const how = token.action !== null ? `\`${token.action}\`` : token.minter.run !== undefined ? 'its script' : `\`${String(token.minter.uses?.value ?? '')}\``;
  // A GitHub App token: what its inputs let it do (run-model/app-tokens.ts).
  const scope = appTokenScope(token.minter);
  return `the token that step \`${token.minter.id ?? ''}\` mints (${how}${from}${scope === null ? '' : `; ${appTokenWords(scope)}`})`;
}

/**
 * A credential fetched at run time in words: `a credential fetched at run time (\`env.DEPLOY_TOKEN\`, from step \`Get
 * secrets\`, \`aws-actions/aws-secretsmanager-get-secrets\`) reaches the action's \`token\` input`.
 */
function fetchedWords(credential: FetchedCredential): string {
  const fetcher = credential.fetcher;
  const label = fetcher.name ?? fetcher.id;
  const step = label !== null ? `step \`${label.replace(/\s+/g, ' ').slice(0, 60)}\`` : `step ${fetcher.index + 1}`;
  const from = credential.secrets.length === 0 ? '' : ` from ${credential.secrets.length === 1 ? 'secret' : 'secrets'} ${names(credential.secrets)}`;
  const how = credential.action !== null ? `${step}, \`${credential.action}\`` : `${step}, its script${from}`;
  const where = credential.where === 'with' ? `the action's \`${credential.input}\` input` : `the action's environment (\`${credential.input}\`)`;
  return `a credential fetched at run time (\`${credential.value}\`, from ${how}) reaches ${where}`;
}

function check(context: WorkflowRuleContext, node: YScalar, ref: UsesRef, trustedOwners: ReadonlySet<string>, job: Job | null, step: Step | null): void {
  // `docker://` images belong to unpinned-image.
  if (ref.kind !== 'repository' || isFullSha(ref.ref)) return;
  if (isSlsaReleaseTag(ref)) return;
  // The exact tag of an immutable release cannot be moved (data/immutable-releases.ts).
  if (immutableReleaseTag(ref.slug, ref.ref)) return;
  // Local actions and the repository's own workflows (any ref of it) change only through commits here.
  const ownership = context.runs.ownershipOf(ref);
  if (ownership === 'local') return;
  // The team's `trusted-owners` option: their actions may be used by tag.
  if (trustedOwners.has(ref.owner.toLowerCase())) return;
  const target = `${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}`;
  const what = ref.isWorkflow ? `Reusable workflow \`${target}\`` : `Action \`${target}\``;
  const how = /^[0-9a-f]{7,39}$/i.test(ref.ref)
    ? `\`${ref.ref}\`, a shortened SHA that GitHub only resolves as a tag or branch of that name`
    : `the mutable ref \`${ref.ref}\``;
  const who =
    ownership === 'platform'
      ? 'GitHub'
      : ownership === 'first-party'
        ? `\`${ref.owner}\`, this repository's own owner (a first-party action; LOW: whoever can move that ref already maintains this code, unless the account is taken over),`
        : context.runs.identity.owners.size === 0
          ? // Nothing names this repository (a copy without its \`origin\` remote, an archive): the owner may be its own.
            `the owner of \`${ref.owner}/${ref.repo}\` (or anyone who takes over that repository), a third party unless \`${ref.owner}\` owns this repository too (nothing in the scan names this repository),`
          : `the owner of \`${ref.owner}/${ref.repo}\` (or anyone who takes over that repository), a third party,`;
  // An organisation whose name is this repository's owner's extended by a word (`aws-actions` for `aws`,
  // `mongodb-labs` for `mongodb`): by its name the same vendor's, whose staff maintain this repository too.
  const sibling = ownership === 'third-party' ? siblingOwner(ref.owner, context.runs.identity.owners) : null;
  if (sibling !== null) {
    context.report({
      node,
      severity: 'LOW',
      message: `${what} is referenced by ${how}; its owner \`${ref.owner}\` is, by its name, an organisation of this repository's owner \`${sibling}\` (the same vendor's), whose people can change the code this job runs without any change here. LOW: if \`${ref.owner}\` is not \`${sibling}\`'s, it is a third party and this is MEDIUM wherever the job holds something worth taking; pinning the full commit SHA keeps the ref from moving either way.`,
      facts: [ownerFact('first-party'), ...(step !== null ? runFact(context.runs, step) : [])],
    });
    return;
  }
  // A user the repository's CODEOWNERS names: GitHub honours code owners only with write access, so whoever moves
  // that ref can already change this repository's code.
  if (ownership === 'third-party' && namedCodeOwner(ref.owner, context.repository)) {
    context.report({
      node,
      severity: 'LOW',
      message: `${what} is referenced by ${how}; its owner \`${ref.owner}\` is named in this repository's CODEOWNERS, and GitHub honours a code owner only with write access here, so whoever can move that ref can already change this repository's code. LOW: pinning the full commit SHA still keeps anyone else who can push to that repository out of this job.`,
      facts: [ownerFact('first-party'), ...(step !== null ? runFact(context.runs, step) : [])],
    });
    return;
  }
  const run = job === null ? null : context.runs.job(job);
  const exposed = run === null || job === null ? null : exposure(run, job, step);
  const facts = [ownerFact(ownership)];
  if (run !== null) facts.push(...holdingFacts(run), ...(exposed?.facts ?? []));
  if (step !== null) facts.push(...runFact(context.runs, step), ...callerJobFacts(context.runs, step));
  // The action that itself ships the release: an attack path about a release names it before any other.
  if (step !== null && job !== null && publishingSteps(job).some((p) => p.step === step && publishesForReal(p))) facts.push('publisher');
  // A third party's action in a job that holds nothing worth taking and hands no build to a publishing job (the
  // supply-chain rules' policy, docs/severity.md): a moved ref changes only what that run does: LOW. A reusable
  // workflow's call likewise, when the calling job gives it nothing worth taking and no job after it publishes.
  const low = ownership === 'third-party' && (step !== null ? context.runs.suppliesNothing(step) : job !== null && context.runs.callSuppliesNothing(job));
  const feeds = ownership === 'third-party' && step !== null && !low && run !== null && holdsNothing(run.holdings, context.runs.defaultToken);
  const defaultNote = run?.holdings.token.kind === 'default' ? ' (its default token is read-write only if the repository\'s settings make it so)' : '';
  const why = feeds
    ? ` MEDIUM: the job holds ${nothingItselfWords(run.holdings, context.runs.defaultToken)}, but ${(step.job === null ? null : context.runs.releaseFeed(step.job, step)) ?? 'what it builds or caches reaches a job that publishes'}.`
    : low && step === null
    ? ` LOW: the calling job holds ${minorLead(run?.holdings ?? NO_MINOR_SECRETS, true).lead}no write scope that changes code, releases or packages, no ${minorLead(run?.holdings ?? NO_MINOR_SECRETS).other}secret or OIDC token${defaultNote}, so the called workflow gets none of them (nor, being another owner's, this repository's self-hosted runners), and no job after it publishes, so a moved ref changes only what this run does.`
    : low && step !== null && context.runs.uncalledNote(step) !== null
    ? ` LOW: ${context.runs.uncalledNote(step)}.`
    : low
    ? ` LOW: ${step?.job === null ? 'the jobs that run this action hold' : 'the job holds'} ${nothingWorthText(step === null ? NO_MINOR_SECRETS : context.runs.minorAt(step), exposed !== null)}${defaultNote} and hand${step?.job === null ? '' : 's'} no build to a publishing job, so a moved ref changes only what this run does.`
    : ownership === 'third-party' && step !== null && step.job === null
    ? // A step of a local composite action: what its callers hold is what a moved ref reaches.
      ` MEDIUM: ${context.runs.supplyText(step)}.`
    : '';
  context.report({
    node,
    severity: ownership === 'third-party' && !low ? 'MEDIUM' : 'LOW',
    message: `${what} is referenced by ${how}; ${who} can change the code this job runs without any change here${exposed === null ? '' : `; ${exposed.text}`}.${why}`,
    facts,
  });
}
