import { holdingFacts, holdingFactsWithout, reachFacts } from '../analysis/run-model/facts.js';
import { isChatWebhookSecret, isGithubToken, isIdentifierSecret, secretOccurrences } from '../analysis/secrets.js';
import { describeStep } from '../analysis/describe.js';
import { agentEvents, agentFileWriter, agentPushesCode, agentKeyCustody, agentModelKey, agentReach, agentRestricted, agentShell, agentStart, agentTalkOnly, isLlmKey, llmStep, ownActionLlmCalls, scriptAgents, scriptAgentShell, scriptAgentTalkOnly, stepAgent, type AgentKeyCustody, type AgentStart, type LlmStep } from '../analysis/agent-input.js';
import { stepExecutions } from '../analysis/run-model/execution.js';
import { checkoutPersists } from '../analysis/run-model/workspace.js';
import { nothingHeldText, valuables } from '../analysis/run-model/holdings.js';
import { APP_TOKEN_ACTIONS, appTokenScope, appTokenWords, appTokenWritesCode, type AppTokenScope } from '../analysis/run-model/app-tokens.js';
import type { WorkflowRuleContext } from '../rule.js';
import type { RunModel } from '../analysis/run-model/index.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { get, keyText, type YNode } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';

/** Write scopes that hand over code, releases, packages, workflow runs, deployments or cloud credentials (OIDC). */
const STRONG_SCOPES = new Set(['contents', 'actions', 'packages', 'workflows', 'deployments', 'id-token']);
/** Write scopes of the job's token that push code or publish (the token an earlier checkout leaves in `.git/config`). */
const CODE_SCOPES = new Set(['contents', 'actions', 'packages', 'workflows', 'deployments']);

/** The write scopes the job's token has, from the job's `permissions:` or else the workflow's; null when undeclared. */
/**
 * The job's token write scopes as the run model holds them (`Holdings.token`: its own `permissions:`, else its
 * workflow's; in a reusable workflow of the repository that declares none, what its local callers grant): `all
 * scopes` for `write-all`, null when nothing is declared (the repository's default).
 */
function writeScopes(runs: RunModel, job: Job): string[] | null {
  const token = runs.job(job).holdings.token;
  if (token.kind === 'default') return null;
  if (token.kind === 'all') return ['all scopes'];
  return [...token.writes];
}

/** Stored secrets (not the run's GITHUB_TOKEN, nor a chat webhook, which only posts to a channel) the calling step's inputs and environments carry. */
function stepSecrets(step: Step, job: Job): string[] {
  const file = job.workflow.file;
  const nodes: (YNode | undefined)[] = [step.with, step.env, job.env, job.workflow.env];
  const names = flatMap(nodes, (node) => (node === undefined ? [] : secretOccurrences(file, node).map((s) => s.name)));
  // A name that only identifies an account or place (secrets.ts `isIdentifierSecret`) opens nothing on its own.
  return [...new Set(names.filter((name) => !isGithubToken(name) && !isChatWebhookSecret(job.workflow, name) && !isIdentifierSecret(job.workflow, name)))];
}

/** `env:` names through which tools (`gh`, `git` helpers, agents' GitHub tools) take a GitHub token. */
const TOKEN_ENV = /^(?:GH|GITHUB)_(?:TOKEN|PAT)$|^GH_ENTERPRISE_TOKEN$|^GITHUB_ENTERPRISE_TOKEN$/i;
/** `with:` inputs through which an agent action takes a GitHub token. */
const TOKEN_INPUT = /token/i;

/**
 * Stored secrets (not the run's GITHUB_TOKEN) the calling step hands over as a GitHub token (`GH_TOKEN:
 * ${{ secrets.DOCS_PAT }}`, `github_token: ${{ secrets.BOT_TOKEN }}`, an app token an earlier step minted from
 * `secrets.APP_KEY`), or an earlier checkout left in
 * `.git/config` (`token: ${{ secrets.DOCS_PAT }}`): a personal access token or a bot's, which can push to every
 * repository it reaches, this one or others.
 */
function tokenSecrets(step: Step, minted: Map<string, AppTokenScope> = new Map()): string[] {
  const file = step.owner.file;
  const names = new Set<string>();
  for (const [node, pattern] of [[step.env, TOKEN_ENV], [step.with, TOKEN_INPUT]] as const) {
    if (node?.kind !== 'map') continue;
    for (const pair of node.pairs) {
      if (!pattern.test(keyText(pair.key))) continue;
      for (const use of secretOccurrences(file, pair.value)) if (!isGithubToken(use.name)) names.add(use.name);
      // An app's installation token minted by an earlier step from a stored private key.
      const text = pair.value.kind === 'scalar' && typeof pair.value.value === 'string' ? pair.value.value : '';
      for (const m of text.matchAll(/\bsteps\.([\w-]+)\.outputs\.token\b/g)) {
        const minter = step.job?.steps.find((s) => s.id === m[1] && s.index < step.index && s.usesRef?.kind === 'repository' && APP_TOKEN_ACTIONS.has(s.usesRef.slug));
        const key = minter === undefined ? undefined : (get(minter.with, 'private-key') ?? get(minter.with, 'private_key'));
        const scope = minter === undefined ? null : appTokenScope(minter);
        if (key !== undefined) {
          for (const use of secretOccurrences(file, key)) {
            names.add(use.name);
            // What the minted token can do (run-model/app-tokens.ts), unless the key also reaches the step some other way.
            if (scope !== null && !minted.has(use.name)) minted.set(use.name, scope);
          }
        }
      }
    }
  }
  // A checkout before it with a stored token leaves that token in `.git/config` (unless `persist-credentials: false`).
  for (const earlier of step.job?.steps ?? []) {
    if (earlier.index >= step.index || !checkoutPersists(earlier)) continue;
    const token = get(earlier.with, 'token');
    if (token === undefined) continue;
    for (const use of secretOccurrences(file, token)) if (!isGithubToken(use.name)) names.add(use.name);
  }
  return [...names];
}

export default defineWorkflowRule({
  meta: {
    id: 'agent-untrusted-input',
    category: 'CICD-SEC-4',
    title: 'AI coding agent reads text anyone can write',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'An AI coding-agent action (Claude Code, Gemini CLI, Codex, opencode, Bonk), or an agent\'s command-line tool a script runs headless (`claude -p`, `codex exec`, `gemini -p`, `opencode run`, `copilot -p`), runs on an issue, comment, review, discussion or `pull_request_target` event, directly, through a reusable workflow or inside a local composite action, while its job holds a write token or stored secrets: the thread it reads (title, body, earlier comments) is text anyone can write, so hidden instructions reach an agent holding those credentials, whether an outsider starts it or a maintainer does (a member\'s comment, a label, an assignment). MEDIUM; HIGH when anyone can start it (no maintainer\'s act, no environment in the way) and the agent has a free shell and the token can write code, releases, packages or deployments, or mint cloud credentials (`id-token`), or it is handed a stored GitHub token (a personal access token or a bot\'s, which pushes to every repository it reaches), or its allowlist lets it edit files and `git push` them with a token that can write code (`contents`; in a reusable workflow that declares no `permissions:`, what its callers grant); LOW when a maintainer starts it and the job holds nothing worth taking beyond the model key the agent works with (a read-only token or only scopes that post its answer, no other secret, OIDC, self-hosted machine or publish: an injected prompt can only shape what it posts); LOW when its tools are restricted to an allowlist (not one that lets Gemini CLI run `echo`, `printf`, `cat` or `tee`, whose redirect writes `$GITHUB_ENV` for the job\'s later steps; for Claude Code, a permission list that only reads and labels, comments on or edits issues and pull requests, with no other secret than its model key and no code-writing token left in `.git/config`), or when its token is read-only and its only secret is a model key the action keeps in a proxy out of the agent\'s reach (`openai/codex-action` under its default `safety-strategy`). Also a language-model step without a shell (`actions/ai-inference` with the event\'s text in its prompt, or the repository\'s own script or action given a model provider\'s API key, which reads the event payload) in a job anyone can start: MEDIUM when its token can do more than label or comment or it holds other secrets, LOW otherwise. Not reported when only trusted authors\' threads reach it.',
    recommendation:
      'Give the agent\'s job read-only permissions and only the secrets it needs, restrict its tools to an allowlist, and let a separate job with write access act on its reviewed output; run it only for trusted actors (check `author_association` or the actor\'s permission in the job\'s `if:`), and remember that a maintainer starting it does not vouch for the thread it reads.',
  },
  create: (context) => {
    /** Job steps reported for a language-model step inside the repository's own action they call: once each. */
    const calls = new Set<Step>();
    return {
      step(step) {
        const llm = llmStep(step, context.taint, stepExecutions);
        if (llm !== undefined) reportLlm(context, step, llm);
        // A step of the repository's own composite action that runs a tool with a provider key the caller hands
        // it: reported at the call, unless the call is itself an LLM step (a local action given the key).
        for (const { caller, llm: inner } of ownActionLlmCalls(step, context.repository)) {
          if (calls.has(caller) || llmStep(caller, context.taint, stepExecutions) !== undefined) continue;
          calls.add(caller);
          reportLlm(context, caller, inner);
        }
        for (const use of agentUses(step)) {
          // An agent inside a local composite action runs at each job step that calls it, with that job's trigger,
          // permissions and secrets: the finding is at the call.
          const callers = step.job !== null ? [step] : context.runs.jobSteps(step);
          const events = agentEvents(step, context.taint);
          for (const caller of callers) {
            const job = caller.job as Job;
            const { reach, outsider, check: actorCheck, checked } = use.start(context.runs, caller, events);
            if (reach.level === 'collaborator' || reach.level === 'trusted-author') continue;
            const writes = writeScopes(context.runs, job);
            const minted = new Map<string, AppTokenScope>();
            const tokens = tokenSecrets(caller, minted);
            // A GitHub App token minted with permissions that write no code (`permission-issues: write` alone) is no
            // token that pushes: it is held (a secret the agent reaches), but does not arm it.
            const pushing = tokens.filter((name) => {
              const scope = minted.get(name);
              return scope === undefined || appTokenWritesCode(scope);
            });
            // A model key the action keeps in its own proxy is not the agent's to take (agent-input.ts `agentKeyCustody`).
            const custody = use.custody(caller);
            const secrets = [...new Set([...stepSecrets(caller, job), ...tokens])].filter((name) => !(custody?.proxied.includes(name.toUpperCase()) ?? false));
            const readOnly = (writes === null || writes.length === 0) && secrets.length === 0;
            if (readOnly && custody === null) continue;
            // An allowed command that writes any file (agent-input.ts `agentFileWriter`) sets `$GITHUB_ENV` for the
            // job's later steps: as good as a shell for what the job holds.
            const writer = use.writer;
            // Its tools edit files and push them, with a token that can write code: an injected instruction commits
            // the outsider's changes to a branch of the repository (agent-input.ts `agentPushesCode`).
            const pushesCode = use.pushes && writes?.some((scope) => scope === 'all scopes' || scope === 'contents') === true;
            const restricted = use.restricted && writer === null && !pushesCode;
            const shell = use.shell || writer !== null;
            // A permission list of reads and thread edits only (agent-input.ts `agentTalkOnly`): LOW unless the
            // agent holds another secret, or the job's code-writing token lies in `.git/config` for it to read and post.
            const talk = use.talk;
            const others = talk === null ? [] : secrets.filter((name) => !use.modelKey(caller, name));
            const codeToken = writes === null || writes.some((scope) => scope === 'all scopes' || CODE_SCOPES.has(scope));
            const persisted = talk !== null && codeToken && context.runs.job(job).workspace.some((e) => e.kind === 'checkout' && e.persistsCredentials && e.step.index < caller.index);
            const confined = talk !== null && others.length === 0 && !persisted;
            // A stored GitHub token handed to an agent with a shell pushes wherever it reaches, whatever the job's own token can.
            const armed = (shell && (writes?.some((scope) => scope === 'all scopes' || STRONG_SCOPES.has(scope)) === true || pushing.length > 0)) || pushesCode;
            // HIGH needs all three facts with no gate (docs/severity.md): anyone starts it (or a sticky label). Behind a
            // maintainer's act (a member's comment, a label, a caller's or dispatcher's check) or an environment whose
            // reviewers are unknown, the outsider writes the thread and waits for that act: MEDIUM, naming the gate.
            const strong = armed && outsider;
            const holds = [
              ...(writes !== null && writes.length > 0 ? [`a token with write access (${writes.join(', ')})`] : []),
              ...(secrets.length > 0 ? [`secrets (${secrets.slice(0, 5).join(', ')}${secrets.length > 5 ? ', ...' : ''})`] : []),
            ].join(' and ');
            const pushes = tokenWords(shell ? tokens : [], minted);
            const event = eventsText(context.runs, caller, events, reach, outsider, use);
            const through = caller === step ? '' : ` (inside local action \`${String(caller.uses?.value ?? '')}\`, called by ${describeStep(caller)})`;
            const tools = restricted
              ? ' (its tools are restricted to an allowlist, which limits what an injected prompt can make it do)'
              : pushesCode && !shell
                ? " (its tools are restricted to an allowlist, but the allowlist lets it edit files and run `git push` with the job's token, which can write code: an injected instruction commits the outsider's changes to a branch of this repository, the default branch too where no rule protects it)"
              : writer !== null
                ? ` (its tools are restricted to an allowlist, but the allowlist lets it run \`${writer}\`, and ${use.name} runs an allowed command with \`bash -c\`, so a redirect after it writes any file the job can: \`$GITHUB_ENV\` and \`$GITHUB_PATH\` (\`BASH_ENV\`, \`LD_PRELOAD\` or a directory put first on \`PATH\` run code of the injected prompt's choosing in the job's later steps) or the code of actions the job downloaded, which their post steps then run; and \`${writer.split(/\s+/)[0] ?? writer}\` expands any variable the step's environment holds into what it writes)`
                : talk !== null
                ? ` (its tools are limited to reading and ${listText(talk)}${others.length > 0 ? `, but it also holds ${others.slice(0, 3).map((n) => `\`${n}\``).join(', ')}, more than its model key` : persisted ? ', but an earlier checkout left the job\'s token, which can write code, in `.git/config`, where its read tools reach it and a comment can post it' : ''})`
                : '';
            // A maintainer starts it and the job holds nothing worth taking beyond the model key the agent works with (the
            // run model's holdings: no write scope that changes code, releases or packages, no other credential, no OIDC,
            // no self-hosted machine, no publish): an injected prompt can only shape what it posts. LOW.
            const run = context.runs.job(job);
            const maintainer = !outsider && (checked || reach.level !== 'unreviewed-environment');
            const beyondKey = run.holdings.secrets.filter((name) => !use.modelKey(caller, name) && !isLlmKey(name));
            const idle = maintainer && !strong && !run.holdings.inheritsSecrets && run.holdings.dynamicSecrets === null && valuables({ ...run.holdings, secrets: beyondKey }, context.runs.defaultToken).length === 0;
            let who: string;
            if (outsider) {
              const widened =
                actorCheck === 'widened'
                  ? ` (\`${use.unlessInput ?? ''}\` lets actors without write access start it)`
                  : actorCheck === 'checks'
                    ? ` (the action checks the actor's write access, but not on ${event})`
                    : '';
              const label = reach.level === 'sticky-label' ? ` once a maintainer has labelled the pull request (${reach.gates.join(' / ')}), a label that stays when new commits are pushed` : '';
              who = `runs on ${event} events that anyone can cause${widened}${label}`;
            } else if (!maintainer) {
              // An environment whose protection rules the files do not show: a maintainer's act only if it requires reviewers.
              who = `runs on ${event} events that anyone can cause, unless ${reach.gates.join(' / ')} requires a reviewer's approval of each run (its protection rules are not in the repository's files), and it reads the thread it is started on, whose title, body and earlier comments an outsider can write`;
            } else {
              const gates = checked ? [`the action's own check that the actor has write access`] : reach.gates;
              who = `is started by a maintainer on ${event} (${gates.join(' / ') || 'a maintainer\'s act'}), but it reads the thread it is started on, whose title, body and earlier comments an outsider can write`;
            }
            const oidc = writes?.includes('id-token') === true ? ' (`id-token: write` serves the action\'s own OIDC exchange for its credentials, which the agent, with no shell, cannot make on its own)' : '';
            const message = confined
              ? `${use.name}${use.how}${through} ${who}, while its job holds ${holds}${oidc}; but its tools are limited to reading and ${listText(talk)} (no shell, no file edits, no push), so instructions hidden in an issue, comment or pull request can only steer the labels, comments and issue or pull request edits it makes with them.`
              : readOnly
              ? `${use.name}${use.how}${through} ${who}, while ${writes === null ? 'its job declares no `permissions:` (its token has the repository\'s default scopes, which `default-token-write` checks)' : 'its job\'s token is read-only'} and ${keptText(custody)}: instructions hidden in an issue, comment or pull request can only steer the agent's output (what it writes, and its use of the key through the proxy during the run)${tools}.`
              : `${use.name}${use.how}${through} ${who}, while its job holds ${holds}${pushes}${custody === null ? '' : ` (${keptText(custody)})`}: instructions hidden in an issue, comment or pull request reach an agent holding them${tools}.`;
            const keys = run.holdings.secrets.filter((name) => !beyondKey.includes(name));
            const gated = armed && !outsider && !(restricted || readOnly || confined || idle)
              ? ` MEDIUM, not HIGH: the agent has ${!shell ? 'tools that edit files and push them with a token that can write code' : `a free shell and ${pushing.length > 0 ? 'a stored GitHub token' : 'a token that can write code or mint cloud credentials'}`}, but ${maintainer ? "a maintainer's act" : 'that environment\'s approval, if it requires one,'} stands between the outsider's text and the run.`
              : '';
            const idleWhy =
              idle && !(restricted || readOnly || confined)
                ? ` LOW: a maintainer starts it, and ${nothingHeldText({ ...run.holdings, secrets: beyondKey })}${keys.length > 0 ? ` beyond the model key${keys.length > 1 ? 's' : ''} ${keys.slice(0, 3).map((k) => `\`${k}\``).join(', ')} the agent is given to work` : ''}, so an injected prompt can only shape what it posts.`
                : '';
            context.report({
              node: caller === step ? use.node : (caller.uses ?? use.node),
              ...(caller === step && use.offset !== undefined ? { offset: use.offset } : {}),
              file: caller.owner.file,
              job,
              ...(strong ? { severity: 'HIGH' as const } : restricted || readOnly || confined || idle ? { severity: 'LOW' as const } : {}),
              message: `${message}${idleWhy}${gated}`,
              key: `${job.id}:${use.key}`,
              // Behind the action's own write-access check, `reach` is already a maintainer's act (`reach:approval`, one that
              // does not vouch for the thread), whatever the trigger lets in (agent-input.ts `agentStart`). A key the job
              // references only where the action keeps it in its proxy is not among what the agent holds.
              facts: [...reachFacts(reach), ...holdingFactsWithout(context.runs, run, custody?.onlyThere ?? [])],
            });
          }
        }
      },
    };
  },
});

/** At most this many events are named for what reaches an agent. */
const MAX_EVENTS_NAMED = 5;

/**
 * The events on which the agent at `caller` is reached as `reach` says (an outsider starts it, or a maintainer's act
 * does), each named once: `\`issue_comment\`, \`pull_request_review\``; the reach's own event when no other is
 * found. An event on which only collaborators start it is left out.
 */
function eventsText(runs: RunModel, caller: Step, events: ReadonlySet<string>, reach: AgentStart['reach'], outsider: boolean, use: AgentUse): string {
  const named: string[] = reach.event === null ? [] : [reach.event];
  for (const event of runs.eventsOf(caller)) {
    if (named.length >= MAX_EVENTS_NAMED) break;
    if (named.includes(event) || !events.has(event)) continue;
    const theirs = use.start(runs, caller, new Set([event]));
    // On a pull request's review events only its same-repository runs hold secrets (trusted authors' pull requests),
    // but a maintainer's review still starts the agent there, on a thread others comment on too.
    if (theirs.reach.level === 'collaborator') continue;
    if (theirs.outsider === outsider) named.push(event);
  }
  if (named.length === 0) return '`the trigger`';
  const shown = named.map((e) => `\`${e}\``);
  return shown.length === 1 ? (shown[0] as string) : `${shown.slice(0, -1).join(', ')} or ${shown[shown.length - 1] ?? ''}`;
}

/**
 * ` (\`BOT_PAT\` is handed over as a GitHub token, which pushes to every repository it reaches, this one or others)` for
 * the first token handed to the agent; for a GitHub App's key, what the token minted from it can do (run-model/app-tokens.ts:
 * `APP_KEY` mints the GitHub App token handed over, for this repository only, with `issues: write`); empty for none.
 */
function tokenWords(tokens: readonly string[], minted: ReadonlyMap<string, AppTokenScope>): string {
  const first = tokens[0];
  if (first === undefined) return '';
  const scope = minted.get(first);
  if (scope === undefined) return ` (\`${first}\` is handed over as a GitHub token, which pushes to every repository it reaches, this one or others)`;
  return ` (\`${first}\` mints the GitHub App token handed over (\`${scope.action}\`), ${appTokenWords(scope)})`;
}

/** `the model key \`OPENAI_API_KEY\` it is handed stays in <keeper>, out of the agent's reach (<strategy>)`. */
function keptText(custody: AgentKeyCustody | null): string {
  if (custody === null) return '';
  const keys = custody.proxied.slice(0, 3).map((k) => `\`${k}\``).join(', ');
  return `the model key ${keys} it is handed stays in ${custody.keeper}, out of the agent's reach (${custody.strategy})`;
}

/** `\`Bash(gh issue edit:*)\`, \`Read\``: the entries of a permission list the agent may use, at most six named. */
function listText(entries: readonly string[]): string {
  const shown = entries.slice(0, 6).map((e) => `\`${e.replace(/`/g, "'")}\``).join(', ');
  return `the tools of its permission list (${shown}${entries.length > 6 ? ', ...' : ''})`;
}

/** An agent a step runs: its action, or an agent tool its script runs headless. */
interface AgentUse {
  name: string;
  /** ` (\`codex exec --full-auto\` in its script)` for a script's tool; empty for an action. */
  how: string;
  key: string;
  node: YNode;
  /** For a script's tool: the command's offset in the file. */
  offset?: number;
  unlessInput?: string;
  restricted: boolean;
  shell: boolean;
  /** An allowed command through which it writes any file (agent-input.ts `agentFileWriter`); null otherwise. */
  writer: string | null;
  /** Its allowed tools edit files and `git push` them (agent-input.ts `agentPushesCode`). */
  pushes: boolean;
  /** Its permission list when it only reads and talks on threads (agent-input.ts `agentTalkOnly`); null otherwise. */
  talk: string[] | null;
  /** True when a secret reaches it only as its model credential. */
  modelKey: (caller: Step, name: string) => boolean;
  /** The model key the action keeps from the agent at `caller` (agent-input.ts `agentKeyCustody`); null for a script's tool. */
  custody: (caller: Step) => AgentKeyCustody | null;
  /** Who starts it at `caller` (agent-input.ts `agentStart`; a script's tool checks nobody). */
  start: (runs: RunModel, caller: Step, events: ReadonlySet<string>) => AgentStart;
}

function agentUses(step: Step): AgentUse[] {
  const agent = stepAgent(step);
  if (agent !== undefined && step.uses !== undefined) {
    return [
      {
        name: agent.name,
        how: '',
        key: agent.slug,
        node: step.uses,
        ...(agent.checksActor !== undefined ? { unlessInput: agent.checksActor.unlessInput } : {}),
        restricted: agentRestricted(agent, step),
        shell: agentShell(agent, step),
        writer: agentFileWriter(agent, step),
        pushes: agentPushesCode(agent, step),
        talk: agentTalkOnly(agent, step),
        modelKey: (_caller, name) => agentModelKey(agent, step, name),
        custody: (caller) => agentKeyCustody(agent, step, caller),
        start: (runs, caller, events) => agentStart(runs, agent, step, caller, events),
      },
    ];
  }
  const run = step.run;
  if (run === undefined) return [];
  const seen = new Set<string>();
  const uses: AgentUse[] = [];
  for (const found of scriptAgents(step)) {
    if (seen.has(found.cli.key)) continue;
    seen.add(found.cli.key);
    const sub = found.args.find((a) => !a.startsWith('-'));
    const words = [found.cli.programs[0] ?? found.cli.key, ...(sub === 'exec' || sub === 'e' || sub === 'run' ? [sub] : []), ...found.args.filter((a) => a.startsWith('-') && a.length <= 40).slice(0, 4)];
    uses.push({
      name: found.cli.name,
      how: ` (\`${words.join(' ').replace(/`/g, "'")}\` in its script)`,
      key: found.cli.key,
      node: run,
      offset: valueOffsetToSource(step.owner.file, run, found.offset),
      restricted: found.cli.restricted?.(found.args) === true,
      shell: scriptAgentShell(found),
      writer: null,
      pushes: false,
      talk: scriptAgentTalkOnly(found),
      modelKey: (_caller, name) => isLlmKey(name),
      custody: () => null,
      start: (runs, caller, events) => {
        const reach = agentReach(runs, caller, events);
        return { reach, outsider: reach.level === 'anyone' || reach.level === 'sticky-label', check: 'none', checked: false };
      },
    });
  }
  return uses;
}

/** Write scopes with which a steered answer can only label, comment or review: what a triage bot needs. */
const TALK_SCOPES = new Set(['issues', 'pull-requests', 'discussions']);

/**
 * A language-model step without a shell (agent-input.ts `llmStep`) in a job anyone can start: prompt injection
 * steers its answer, and so the labels and comments the step posts, and anything else its token allows. MEDIUM
 * when the job's token can do more than label or comment, or it holds a stored token or other secrets; LOW when
 * the run's token can only label or comment (or its permissions are not declared); nothing with a read-only token
 * and no other secret.
 */
function reportLlm(context: WorkflowRuleContext, step: Step, llm: LlmStep): void {
  const job = step.job as Job;
  // A local action that wraps an agent is reported as that agent, at this call.
  if (context.repository.ownAction(step)?.steps.some((s) => stepAgent(s) !== undefined || scriptAgents(s).length > 0) === true) return;
  const reach = agentReach(context.runs, step, llm.events);
  if (reach.level !== 'anyone' && reach.level !== 'sticky-label') return;
  const writes = writeScopes(context.runs, job);
  const tokens = tokenSecrets(step);
  const others = [...new Set([...stepSecrets(step, job), ...tokens])].filter((name) => !isLlmKey(name));
  // `id-token` mints a token only for code that asks for one: the step's own code (authenticating to its model
  // provider), not the model, whose answer cannot make a request.
  const wide = writes !== null && writes.some((scope) => scope === 'all scopes' || (!TALK_SCOPES.has(scope) && scope !== 'id-token'));
  if (writes !== null && writes.length === 0 && others.length === 0) return;
  const holds = [
    writes === null ? 'the repository\'s default token (its `permissions:` are not declared)' : writes.length > 0 ? `a token with write access (${writes.join(', ')})` : '',
    others.length > 0 ? `secrets (${others.slice(0, 5).join(', ')}${others.length > 5 ? ', ...' : ''})` : '',
  ].filter((s) => s !== '').join(' and ');
  const key = llm.keys.length > 0 ? `, given \`${llm.keys.slice(0, 3).join('`, `')}\`` : '';
  const event = `\`${reach.event ?? 'the trigger'}\``;
  const label = reach.level === 'sticky-label' ? ` once a maintainer has labelled the pull request (${reach.gates.join(' / ')})` : '';
  const reaches =
    llm.via === 'inputs'
      ? 'the outsider\'s text is passed to it in its inputs'
      : 'the outsider\'s text reaches it through the event payload, which the repository\'s own code can read from `GITHUB_EVENT_PATH`';
  const severity = wide || others.length > 0 ? 'MEDIUM' : 'LOW';
  const can = severity === 'MEDIUM' ? 'labels, comments and whatever else the job holds allows' : 'only the labels and comments the token allows';
  context.report({
    node: step.uses ?? step.run ?? step.node,
    file: step.owner.file,
    job,
    severity,
    message: `${describeStep(step)} calls a language model (${llm.what}${key}) and runs on ${event} events that anyone can cause${label}; ${reaches}. It has no shell, but instructions hidden in an issue, comment or pull request steer its answer, and so what the step does with it while its job holds ${holds}: ${can}.`,
    key: `${job.id}:llm:${step.index}`,
    facts: [...reachFacts(reach), ...holdingFacts(context.runs.job(job))],
  });
}
