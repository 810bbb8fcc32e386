import { inRange, parseRefVersion, versionComment, type RefVersion } from '../analysis/action-version.js';
import { describeTaint } from '../analysis/describe.js';
import { injectionClaim, scriptInjections, type InjectionHit } from '../analysis/injections.js';
import { durableHoldings, holdsMinor, identifierWords, minorWords, type MinorSecrets } from '../analysis/run-model/holdings.js';
import { ACTION_ADVISORIES, ADVISORY_SNAPSHOT_DATE, type ActionAdvisory, type AdvisoryPrecondition } from '../data/advisories.js';
import { EXTERNAL_TRIGGERS } from '../expressions/controller.js';
import { parseExpression } from '../expressions/parse.js';
import { stepScope } from '../expressions/taint.js';
import { isFullSha, type UsesRef } from '../model/uses.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { severityRank, type Severity } from '../types.js';
import type { SourceFile } from '../yaml/source.js';
import { getPair, isFalsyText, keyText, type YNode, type YScalar } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';

const BY_ACTION = new Map<string, ActionAdvisory[]>();
for (const advisory of ACTION_ADVISORIES) {
  const list = BY_ACTION.get(advisory.action) ?? [];
  list.push(advisory);
  BY_ACTION.set(advisory.action, list);
}

function affects(advisory: ActionAdvisory, version: RefVersion): boolean {
  if (advisory.versions?.includes(version.normalized) === true) return true;
  return advisory.ranges.some((r) => inRange(version, r.introduced, r.fixed));
}

/** A matched advisory; `malicious` when the pinned commit itself is a known-malicious one. */
export interface SnapshotMatch {
  /** A snapshot entry, or a live one in the same shape (whose severity may also be LOW). */
  advisory: Omit<ActionAdvisory, 'severity'> & { severity?: 'MEDIUM' | 'LOW' };
  malicious: boolean;
  /**
   * For an injection advisory (`advisory.injection`), what the run model says of this use: the severity an
   * outsider's text reaching the affected field, input or output gives, in words, with the facts; absent when
   * not judged (the live lookup), and then the advisory's own severity holds.
   */
  exposure?: Exposure;
}

/** How far an injection advisory is exploitable in one use (see `exposureOf`). */
export interface Exposure {
  severity: Severity;
  /** One sentence, without the final period. */
  text: string;
  facts: readonly string[];
}

/**
 * The snapshot's advisories that a use of `slug` (sub-path `path`) at `ref` falls under: a SHA pin by its
 * known-malicious commits, or by `version` (its comment) unless the advisory is a compromise; a tag by
 * `version` (the tag itself). Shared with the live lookup (lib/online), which adds what the snapshot lacks.
 */
export function snapshotMatches(slug: string, path: string, ref: string, version: RefVersion | null): SnapshotMatch[] {
  const advisories = BY_ACTION.get(slug.toLowerCase());
  if (advisories === undefined) return [];
  const sha = isFullSha(ref) ? ref.toLowerCase() : null;
  const subPath = path.toLowerCase().replace(/\/+$/, '');
  const matched: SnapshotMatch[] = [];
  for (const advisory of advisories) {
    if (advisory.path !== undefined && advisory.path !== subPath) continue;
    if (sha !== null && advisory.commits?.includes(sha) === true) matched.push({ advisory, malicious: true });
    else if (version !== null && (sha === null || !advisory.compromise) && affects(advisory, version)) matched.push({ advisory, malicious: false });
  }
  return matched;
}

/** One use of an action in a file: `owner/repo@ref`, wherever in the file it appears (steps, sub-paths, jobs). */
interface Use {
  file: SourceFile;
  job: Job | null;
  node: YScalar;
  ref: Extract<UsesRef, { kind: 'repository' }>;
  matched: SnapshotMatch[];
  version: RefVersion | null;
  lines: number[];
  jobs: Set<Job | null>;
  /** The steps that use it (not the jobs that call it as a reusable workflow). */
  steps: Step[];
}

export default defineWorkflowRule({
  meta: {
    id: 'known-vulnerable-action',
    category: 'CICD-SEC-3',
    title: 'Action version with a known advisory or compromise',
    severity: 'HIGH',
    surface: 'workflow',
    description: `A \`uses:\` reference falls in the affected range of a published advisory, or names a commit known to be malicious, according to the built-in advisory snapshot (${ADVISORY_SNAPSHOT_DATE}). Reported once per action and ref in a file, with each advisory and its fixed version. An injection advisory takes its severity from the run model, as a script injection of the text would: HIGH or MEDIUM only where an outsider's text reaches the affected event field, input or output on a run they can start, LOW elsewhere. MEDIUM when every advisory matched needs more than a crafted input to harm the job (a world-writable binary on a shared runner, a CSV formula, an unmasked multi-line secret), LOW when the advisory needs a switch the workflow does not turn on (debug mode for debug artifacts, a self-hosted runner for a binary another tenant replaces, an artifact an outsider crafts for an extraction flaw: another run's, or one uploaded in a run they start), naming what is missing or is a compromise whose tags were put back on genuine commits in a job whose runs held what outlives them (a stored secret other than \`GITHUB_TOKEN\`, a self-hosted machine); LOW for such a compromise in a job that held only its \`GITHUB_TOKEN\`, which expired when each run of the window ended.`,
    recommendation:
      'Upgrade to the fixed release named in the finding and pin it by full commit SHA; if the advisory is a compromise, also rotate every secret the affected runs could read.',
  },
  create: (context) => {
    const uses = new Map<string, Use>();
    const check = (file: SourceFile, job: Job | null, node: YScalar, ref: UsesRef, step: Step | null): void => {
      // Most actions have no advisory: then nothing can match, and the version (a regular expression over the
      // ref or the pin's comment) is not read.
      if (ref.kind !== 'repository' || !BY_ACTION.has(ref.slug.toLowerCase())) return;
      const sha = isFullSha(ref.ref) ? ref.ref.toLowerCase() : null;
      // A SHA pin is judged by the version its comment claims; a tag by itself (branches are not versions).
      const version = sha === null ? parseRefVersion(ref.ref) : versionComment(file, node);
      const matched = snapshotMatches(ref.slug, ref.path, ref.ref, version);
      if (matched.length === 0) return;
      // One finding per use of `owner/repo@ref` in the file: `codeql-action/init`, `/autobuild` and `/analyze@v2` are one use.
      const key = `${file.path}\u0000${ref.slug}@${ref.ref}`;
      const line = file.position(node.start).line;
      const existing = uses.get(key);
      if (existing !== undefined) {
        existing.lines.push(line);
        existing.jobs.add(job);
        if (step !== null) existing.steps.push(step);
        for (const m of matched) if (!existing.matched.some((e) => e.advisory.id === m.advisory.id)) existing.matched.push(m);
        return;
      }
      uses.set(key, { file, job, node, ref, matched, version, lines: [line], jobs: new Set([job]), steps: step === null ? [] : [step] });
    };
    return {
      job(job) {
        if (job.uses !== undefined && job.usesRef !== undefined) check(job.workflow.file, job, job.uses, job.usesRef, null);
      },
      step(step) {
        if (step.uses !== undefined && step.usesRef !== undefined) check(step.owner.file, step.job, step.uses, step.usesRef, step);
      },
      done() {
        for (const use of uses.values()) report(context, use);
      },
    };
  },
});

function report(context: WorkflowRuleContext, use: Use): void {
  const { ref } = use;
  const matched = use.matched.map((m) => {
    if (m.malicious) return m;
    if (m.advisory.injection !== undefined) return { ...m, exposure: exposureOf(context, m.advisory, use) };
    const needs = m.advisory.needs;
    return needs === undefined ? m : { ...m, exposure: preconditionOf(context, needs, m.advisory.severity ?? 'HIGH', use) };
  });
  const wording = vulnerableWording({ slug: `${ref.owner}/${ref.repo}`, path: ref.path, ref: ref.ref, version: use.version?.normalized ?? null, matched, otherLines: use.lines.slice(1), durable: durableOf(context, use), minor: minorOf(context, use) });
  context.report({
    node: use.node,
    file: use.file,
    job: use.jobs.size === 1 ? use.job : null,
    ...(wording.severity === 'HIGH' ? {} : { severity: wording.severity }),
    key: `${ref.slug}@${ref.ref}`,
    message: wording.message,
    recommendation: wording.recommendation,
    ...(wording.facts.length > 0 ? { facts: wording.facts } : {}),
  });
}

/** The jobs that run a use: its own, and for a local composite action's steps, the jobs whose steps call it. */
function jobsOf(context: WorkflowRuleContext, use: Use): Set<Job> {
  const jobs = new Set<Job>();
  for (const j of use.jobs) if (j !== null) jobs.add(j);
  for (const step of use.steps) for (const caller of context.runs.jobSteps(step)) if (caller.job !== null) jobs.add(caller.job);
  return jobs;
}

/**
 * What the runs of a use held that outlives a run (run model, `durableHoldings`): the stored secrets and
 * self-hosted machines of the jobs that use it (a local composite action's: of the jobs that call it), which a
 * compromise's past window could have leaked or tampered with. Undefined when no job is known (an action no
 * workflow of the repository calls): then nothing says its runs held nothing.
 */
function durableOf(context: WorkflowRuleContext, use: Use): string[] | undefined {
  const jobs = jobsOf(context, use);
  const held = [...jobs].map((j) => context.runs.job(j).holdings);
  const first = held[0];
  if (first === undefined) return undefined;
  // The jobs' holdings as one: every secret any of them reads, a self-hosted machine any of them runs on.
  return durableHoldings({
    ...first,
    secrets: [...new Set(flatMap(held, (h) => h.secrets))],
    inheritsSecrets: held.some((h) => h.inheritsSecrets),
    dynamicSecrets: held.find((h) => h.dynamicSecrets !== null)?.dynamicSecrets ?? null,
    selfHosted: held.some((h) => h.selfHosted === 'definite') ? 'definite' : null,
  });
}

/** The chat webhooks and coverage upload tokens the jobs of a use read (holdings' `webhooks`, `uploadTokens`), each once. */
function minorOf(context: WorkflowRuleContext, use: Use): MinorSecrets {
  const jobs = jobsOf(context, use);
  const held = [...jobs].map((j) => context.runs.job(j).holdings);
  return {
    webhooks: [...new Set(flatMap(held, (h) => h.webhooks))],
    uploadTokens: [...new Set(flatMap(held, (h) => h.uploadTokens))],
    identifiers: [...new Set(flatMap(held, (h) => h.identifiers))],
  };
}

/** A literal that turns a switch off (`debug: false`, `RUNNER_DEBUG: 0`, empty). */
function switchedOff(node: YNode | undefined): boolean {
  if (node?.kind !== 'scalar') return node === undefined;
  return isFalsyText(String(node.value ?? ''));
}

/**
 * Events whose runs an outsider can start with content of theirs, so an artifact uploaded in them can be theirs: the
 * external triggers but `fork` and `watch`, whose runs carry nothing the outsider wrote.
 */
const OUTSIDER_EVENTS: ReadonlySet<string> = new Set([...EXTERNAL_TRIGGERS].filter((event) => event !== 'fork' && event !== 'watch'));

/**
 * Whether a use meets the switch its advisory needs (`ActionAdvisory.needs`): an input of a step of the same
 * action in the use's jobs, an environment variable of the workflow, a job or such a step, or a self-hosted
 * machine among the jobs (run model's holdings). Met (the advisory's severity) when any is on or may be (an
 * expression); LOW, naming what is missing, when none is; met when no job is known (an uncalled action).
 */
function preconditionOf(context: WorkflowRuleContext, needs: AdvisoryPrecondition, severity: Severity, use: Use): Exposure {
  const jobs = jobsOf(context, use);
  const on: string[] = [];
  const slug = use.ref.slug.toLowerCase();
  const steps = [...use.steps, ...flatMap([...jobs], (j) => j.steps.filter((s) => s.usesRef?.kind === 'repository' && s.usesRef.slug.toLowerCase() === slug))];
  const lineOf = (file: SourceFile, node: YNode) => file.position(node.start).line;
  if (needs.avoidedBy !== undefined && steps.length > 0) {
    const avoids = (step: Step) => needs.avoidedBy!.some(({ input, when }) => {
      const value = getPair(step.with, input)?.value;
      return value !== undefined && (when === 'set' ? !switchedOff(value) : value.kind === 'scalar' && switchedOff(value));
    });
    const open = [...new Set(steps)].find((s) => !avoids(s));
    if (open !== undefined) return { severity, text: `it needs ${needs.what}, and the step at line ${lineOf(open.owner.file, open.node)} sets none of ${needs.avoidedBy.map(({ input, when }) => `\`${input}${when === 'false' ? ': false' : ''}\``).join(', ')}`, facts: [] };
    return { severity: 'LOW', text: `it needs ${needs.what}, and every step of it here sets ${needs.avoidedBy.map(({ input, when }) => `\`${input}${when === 'false' ? ': false' : ''}\``).join(' or ')}, so the flaw is not exposed as used: upgrade anyway`, facts: [] };
  }
  for (const step of new Set(steps)) {
    for (const pair of step.with?.kind === 'map' ? step.with.pairs : []) {
      const name = keyText(pair.key);
      if (needs.inputs?.some((i) => i.toLowerCase() === name.toLowerCase()) === true && !switchedOff(pair.value)) on.push(`\`${name}\` at line ${lineOf(step.owner.file, pair.key)}`);
    }
  }
  const envs: [SourceFile, YNode | undefined][] = [
    ...[...new Set([...jobs].map((j) => j.workflow))].map((w) => [w.file, w.env] as [SourceFile, YNode | undefined]),
    ...[...jobs].map((j) => [j.workflow.file, j.env] as [SourceFile, YNode | undefined]),
    ...[...new Set(steps)].map((s) => [s.owner.file, s.env] as [SourceFile, YNode | undefined]),
  ];
  for (const [file, env] of envs) {
    for (const pair of env?.kind === 'map' ? env.pairs : []) {
      const name = keyText(pair.key);
      if (needs.env?.some((e) => e.toLowerCase() === name.toLowerCase()) === true && !switchedOff(pair.value)) on.push(`\`${name}\` at line ${lineOf(file, pair.key)}`);
    }
  }
  if (needs.outsiderArtifact === true) {
    const other = [...new Set(steps)].find((s) => getPair(s.with, 'run-id') !== undefined);
    if (other !== undefined) on.push(`another run's artifact, \`run-id\` at line ${lineOf(other.owner.file, other.node)}`);
    const outsider = [...new Set([...jobs].map((j) => j.workflow))].flatMap((w) => w.triggers.map((t) => t.name)).find((t) => OUTSIDER_EVENTS.has(t));
    if (outsider !== undefined) on.push(`a run of \`${outsider}\`, which an outsider can start, uploads what it downloads`);
  }
  if (needs.sharedRunner === true) {
    const first = [...jobs].find((j) => context.runs.job(j).runner !== null);
    if (first !== undefined) on.push(`job \`${first.id}\` runs on ${context.runs.job(first).runner === 'definite' ? 'a self-hosted machine' : 'a runner its labels do not show to be GitHub-hosted'}`);
  }
  if (on.length > 0 || jobs.size === 0) {
    const text = on.length > 0 ? `it needs ${needs.what}, and the workflow turns it on (${[...new Set(on)].slice(0, 3).join(', ')})` : `it needs ${needs.what}; no workflow here runs it, so whether that is on is not known`;
    // HIGH needs something worth taking in the job (severity policy (c)): without it, what the flaw lets run takes
    // only what the job holds, which is not worth taking (a comment or label scope).
    const runs = [...jobs].map((j) => context.runs.job(j));
    if (severity === 'HIGH' && runs.length > 0 && runs.every((r) => r.valuables.length === 0)) return { severity: 'MEDIUM', text: `${text}; MEDIUM: ${runs[0]!.nothingHeld}`, facts: [] };
    return { severity, text, facts: [] };
  }
  const ways = [
    ...(needs.inputs ?? []).map((i) => `\`${i}\` on the action`),
    ...(needs.env !== undefined && needs.env.length > 0 ? [`${needs.env.map((e) => `\`${e}\``).join(' / ')} in an \`env:\``] : []),
    ...(needs.sharedRunner === true ? ['a self-hosted runner'] : []),
    ...(needs.outsiderArtifact === true ? ["another run's artifact (`run-id`)", 'a workflow an outsider starts (a pull request, comment, issue or `workflow_run` event)'] : []),
  ];
  return {
    severity: 'LOW',
    text: `it needs ${needs.what} (${ways.join(', or ')}), which this workflow does not turn on${needs.otherwise === undefined ? '' : ` (${needs.otherwise})`}, so the flaw is not exposed as used: upgrade anyway`,
    facts: [],
  };
}

/** The script injections of a step, read once per scan whatever the number of uses that ask (a WeakMap: steps die with their scan). */
const injectionsOf = new WeakMap<Step, readonly InjectionHit[]>();

/** At most this many sinks are read per use for an output advisory (hostile files can have thousands of steps). */
const MAX_SINK_STEPS = 200;

/**
 * How far an injection advisory is exploitable where the action is used: an outsider's text must reach the
 * affected place (a field the action expands, an input it runs, an output a later step runs) on a run an
 * outsider can start; the severity is then what a script injection of that text there would have (who can put
 * it there, what stands in the way, what the job holds: run-model/severity.ts), and LOW (upgrade anyway) when
 * nothing an outsider writes reaches it.
 */
function exposureOf(context: WorkflowRuleContext, advisory: SnapshotMatch['advisory'], use: Use): Exposure {
  const injection = advisory.injection ?? {};
  let best: Exposure | null = null;
  const consider = (found: Exposure) => {
    if (best === null || severityRank(found.severity) < severityRank(best.severity)) best = found;
  };
  for (const step of use.steps) {
    const scope = stepScope(step);
    for (const path of injection.reads ?? []) {
      const expr = parseExpression(path);
      const taint = expr === null ? null : context.taint.ofExpression(expr, scope);
      const claim = taint === null ? null : injectionClaim(step, taint, context.runs);
      if (taint !== null && claim !== null) consider({ severity: claim.severity, text: `the action expands ${describeTaint(taint)} into its own code${claim.text}`, facts: claim.facts });
    }
    const inputs = injection.inputs;
    if (inputs !== undefined && step.with?.kind === 'map') {
      for (const pair of step.with.pairs) {
        const name = keyText(pair.key);
        if (inputs !== '*' && !inputs.some((i) => i.toLowerCase() === name.toLowerCase())) continue;
        const taint = context.taint.ofNode(pair.value, scope);
        const claim = taint === null ? null : injectionClaim(step, taint, context.runs);
        if (taint !== null && claim !== null) consider({ severity: claim.severity, text: `its input \`${name}\`, which it runs as code, gets ${describeTaint(taint)}${claim.text}`, facts: claim.facts });
      }
    }
    if (injection.outputs === true && typeof step.id === 'string') {
      const id = step.id.toLowerCase();
      const own = `steps.${id}.outputs.`;
      const job = step.job;
      const later = job === null ? (step.owner.kind === 'action' ? step.owner.steps : []) : flatMap(job.workflow.jobs, (j) => j.steps);
      for (const sink of later.slice(0, MAX_SINK_STEPS)) {
        const through = (via: string): boolean => (sink.job === job && via.toLowerCase().startsWith(own)) || (job !== null && sink.job !== job && via.toLowerCase().startsWith(`needs.${job.id.toLowerCase()}.outputs.`));
        let hits = injectionsOf.get(sink);
        if (hits === undefined) {
          hits = scriptInjections(sink, context.taint, context.runs);
          injectionsOf.set(sink, hits);
        }
        for (const hit of hits) {
          if (hit.taint === undefined || !hit.taint.via.some(through)) continue;
          const line = sink.owner.file.position(hit.offset).line;
          consider({ severity: hit.severity ?? 'HIGH', text: `its output reaches code at line ${line}: ${hit.message.replace(/\.$/, '')}`, facts: hit.facts ?? [] });
        }
      }
    }
  }
  const found = best as Exposure | null;
  if (found !== null && found.severity !== 'LOW') return found;
  const where = [
    ...(injection.reads !== undefined ? [`the event field${injection.reads.length > 1 ? 's' : ''} it expands (${injection.reads.map((r) => `\`${r}\``).join(', ')})`] : []),
    ...(injection.inputs !== undefined ? [injection.inputs === '*' ? 'its inputs' : `its input${injection.inputs.length > 1 ? 's' : ''} ${injection.inputs.map((i) => `\`${i}\``).join(', ')}`] : []),
    ...(injection.outputs === true ? ['its outputs'] : []),
  ].join(' or ');
  return found ?? { severity: 'LOW', text: `no text an outsider writes reaches ${where} here on a run an outsider can start, so the bug is not exploitable as used: upgrade anyway`, facts: [] };
}

/** A use's advisories as a finding says them (the live lookup words its findings the same way). */
export function vulnerableWording(use: {
  slug: string;
  path: string;
  ref: string;
  version: string | null;
  matched: readonly SnapshotMatch[];
  otherLines: readonly number[];
  /**
   * What the jobs' runs held that outlives a run (`durableHoldings`: stored secrets, a self-hosted machine), in
   * words; empty when they held nothing of the kind; undefined when not known (the live lookup, no run model).
   */
  durable?: readonly string[];
  /**
   * The chat webhooks and coverage upload tokens those jobs read (holdings' `webhooks`, `uploadTokens`): still
   * usable after a leak, but only to post to a channel or upload coverage reports.
   */
  minor?: MinorSecrets;
}): {
  message: string;
  recommendation: string;
  severity: Severity;
  /** `advisory:compromise` (malicious code ran or runs) or `advisory:bug`, with the run model's facts of an exposed injection. */
  facts: string[];
} {
  const { slug, matched, version } = use;
  const target = `${slug}${use.path === '' ? '' : `/${use.path}`}`;
  const described = matched
    .map(({ advisory }) => `${advisory.id}${advisory.cve === null ? '' : ` / ${advisory.cve}`}: ${advisory.summary}, fixed in ${advisory.upgrade}`)
    .join('; ');
  const sha = isFullSha(use.ref);
  const how = matched.some((m) => m.malicious)
    ? `\`${target}@${use.ref}\` is a commit known to carry malicious code`
    : sha
      ? `\`${target}\` is pinned to a commit labelled \`${version ?? ''}\`, an affected version`
      : `\`${target}@${use.ref}\` is an affected version`;
  const others = use.otherLines;
  const also = others.length === 0 ? '' : ` The same action and ref are also used at line${others.length > 1 ? 's' : ''} ${others.join(', ')} of this file.`;
  // A restored compromise harmed only the window's runs: what they leaked is usable today only if it outlives a run.
  const held = use.durable === undefined || use.durable.length > 0;
  const severity: Severity = matched.some((m) => matchSeverity(m, held) === 'HIGH') ? 'HIGH' : matched.some((m) => matchSeverity(m, held) === 'MEDIUM') ? 'MEDIUM' : 'LOW';
  const decisive = matched.find((m) => matchSeverity(m, held) === severity);
  const exposed = matched.filter((m) => m.exposure !== undefined);
  const here = exposed.map((m) => ` ${m.advisory.id} here: ${m.exposure?.text ?? ''}.`).join('');
  const restored = matched.find((m) => !m.malicious && m.advisory.compromise && m.advisory.restored !== undefined)?.advisory.restored;
  const why =
    severity === 'HIGH' || decisive?.exposure !== undefined
      ? ''
      : restored !== undefined && matched.every((m) => m.advisory.compromise || m.exposure !== undefined)
        ? ` ${severity}: ${restored}, so a run today gets the original code; ${windowText(use.durable, use.minor ?? { webhooks: [], uploadTokens: [], identifiers: [] })}.`
        : ` ${severity}: exploiting it needs more than a crafted input to the job (see the advisory).`;
  const upgrade = matched.map((m) => m.advisory.upgrade).sort(byVersionText).at(-1) ?? '';
  const compromise = matched.some((m) => m.malicious || m.advisory.compromise);
  const facts = [compromise && matched.some((m) => m.malicious || (m.advisory.compromise && matchSeverity(m, held) === severity)) ? 'advisory:compromise' : 'advisory:bug'];
  if (decisive?.exposure !== undefined && severity !== 'LOW') facts.push(...decisive.exposure.facts);
  return {
    message: `${how} (${described}).${also}${here}${why}`,
    recommendation: `Upgrade \`${slug}\` to ${/^\d/.test(upgrade) ? `${upgrade} or later` : upgrade}, pinned by full commit SHA${compromise ? '; rotate any secret the affected runs could read (the advisory is a compromise)' : ''}.`,
    severity,
    facts: [...new Set(facts)],
  };
}

/** What the runs during a restored compromise's window could have leaked that is still usable today. */
function windowText(durable: readonly string[] | undefined, minor: MinorSecrets): string {
  if (durable === undefined) return 'runs during the compromise could have leaked every secret the job reads';
  const rotated = minor.webhooks.length + minor.uploadTokens.length;
  if (durable.length === 0 && rotated === 0 && holdsMinor(minor)) {
    return `the job reads no stored credential, only ${identifierWords(minor.identifiers)}, and the \`GITHUB_TOKEN\` its runs held during the compromise expired when each run ended, so nothing they could have leaked is usable today`;
  }
  if (durable.length === 0 && holdsMinor(minor)) {
    const others = identifierWords(minor.identifiers);
    return `the job reads no stored secret but ${minorWords({ ...minor, identifiers: [] })} (rotate ${rotated === 1 ? 'it' : 'them'})${others === '' ? '' : `, and ${others}`}, and the \`GITHUB_TOKEN\` its runs held during the compromise expired when each run ended, so nothing else they could have leaked is usable today`;
  }
  if (durable.length === 0) {
    return "the job reads no stored secret, and the `GITHUB_TOKEN` its runs held during the compromise expired when each run ended, so nothing they could have leaked is usable today";
  }
  return `runs during the compromise could have taken what outlives a run: ${durable.join(' and ')}`;
}

/**
 * How much one matched advisory says: a known-malicious commit is HIGH; a tag of a compromise whose tags were
 * restored runs genuine code again (only the window's runs were harmed), MEDIUM where those runs held something
 * that outlives them (a stored secret, a self-hosted machine), LOW where they held only what expired with the run
 * (`held` false: the `GITHUB_TOKEN`, whatever its scopes); otherwise the advisory's own.
 */
function matchSeverity(m: SnapshotMatch, held: boolean): Severity {
  if (m.malicious) return 'HIGH';
  if (m.exposure !== undefined) return m.exposure.severity;
  if (m.advisory.compromise && m.advisory.restored !== undefined) return held ? 'MEDIUM' : 'LOW';
  return m.advisory.severity ?? 'HIGH';
}

function byVersionText(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
