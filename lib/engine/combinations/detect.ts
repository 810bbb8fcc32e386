import { SETTINGS_FILE, severityRank, type Finding, type FindingRecord } from '../types.js';
import { attackerOf, COMBINATION_KINDS, OUTSIDER_ENTRIES, UPSTREAM_ENTRIES } from './catalog.js';
import { runsOverlap } from '../analysis/run-model/facts.js';
import { COMBINATION_SEVERITIES, type BreakChainAdvice, type Combination, type CombinationKind, type CombinationSeverity, type InstanceQualifier } from './types.js';

/** Whether a rule is enabled for the user and repository (global preference merged with the override). */
export type RuleEnabled = (ruleId: string) => boolean;

interface Match {
  rule_id: string;
  record: FindingRecord;
}

/**
 * Rules whose findings are how an outsider gets in. Their LOW findings (a value only a collaborator or an
 * unknown caller sets, or one a gate vouches for) are hygiene and start no attack path; below HIGH (text
 * the attacker only shapes, a merge in the way) they start one that is at most HIGH; one that only a
 * maintainer's act starts, one that is MEDIUM (see `MAINTAINER_STARTED`).
 */
const ENTRY_RULES: ReadonlySet<string> = OUTSIDER_ENTRIES;

/**
 * The run model's reach (`reach:<level>`, reach.ts) of a run that only a maintainer's act starts: a maintainer
 * approves each run (a member's comment, a label, an assignment, an action's own write-access check), or only
 * trusted authors or collaborators start it. The outsider writes text and waits for that act, which the severity
 * policy rates MEDIUM at most (docs/severity.md). `reach:unreviewed-environment` (an approval of unknown strength)
 * is not a maintainer's act for sure, but caps the path all the same (`environmentGated`); `reach:fork-pr`
 * (anyone's pull request runs it) is neither.
 */
const MAINTAINER_REACH: ReadonlySet<string> = new Set(['reach:approval', 'reach:trusted-author', 'reach:collaborator']);

/** True when the finding says who starts its run and every way it names is a maintainer's act. */
function maintainerStarted(r: FindingRecord): boolean {
  const reach = (r.facts ?? []).filter((f) => f.startsWith('reach:'));
  return reach.length > 0 && reach.every((f) => MAINTAINER_REACH.has(f));
}

/**
 * True when every way the finding names into its run waits behind a gate (a maintainer's act, or a deployment
 * environment whose required reviewers the scan could not check) and one of them is such an environment: the
 * policy rates that entry MEDIUM at most (docs/severity.md), so the path built on it is no stronger.
 */
function environmentGated(r: FindingRecord): boolean {
  const reach = (r.facts ?? []).filter((f) => f.startsWith('reach:'));
  return reach.includes('reach:unreviewed-environment') && reach.every((f) => f === 'reach:unreviewed-environment' || MAINTAINER_REACH.has(f));
}

/** Why a path is MEDIUM where its kind is more: the gate its way in waits behind, in words; null when it is not lowered for a gate. */
function gateNote(kind: CombinationKind, matches: readonly Match[], severity: CombinationSeverity): string | null {
  if (severity !== 'MEDIUM') return null;
  const outsider = matches.find((m) => ENTRY_RULES.has(m.rule_id));
  if (outsider === undefined) return null;
  const at = `${outsider.rule_id}, ${location(outsider.record.finding)}`;
  if (environmentGated(outsider.record)) {
    return `Rated MEDIUM, not ${kind.severity}: the way in (${at}) runs only after a deployment environment's approval, whose required reviewers could not be checked without a settings snapshot (its finding names the environment); with required reviewers a maintainer approves each run, without them anyone starts it.`;
  }
  if (maintainerStarted(outsider.record)) {
    return `Rated MEDIUM, not ${kind.severity}: the way in (${at}) runs only after a maintainer's act or for trusted people (its finding names the gate), so the outsider writes the content and waits for that act.`;
  }
  if (holdsNothingWorth(outsider.record) && withinEntryJob(outsider.record, matches)) {
    return `Rated MEDIUM, not ${kind.severity}: the job of the way in (${at}) holds no write scope that changes code, releases or packages, no secret, OIDC token, self-hosted machine or publish (its finding says what it holds), so the outsider's code gains only what that job can do.`;
  }
  return null;
}

/**
 * Kinds whose chain really crosses workflow files, through a repository-wide store: the Actions cache a
 * pull request's run writes and a release run restores. Every other kind joins workflow findings of one file
 * (and one job), and repository settings from anywhere.
 */
const CROSS_FILE_KINDS: ReadonlySet<string> = new Set(['cache-poisoning-release']);

/**
 * False for a finding whose step can run on no occasion (its `run:` fact is the empty set: `if: false && ...`,
 * a condition no trigger of the workflow meets): no path is built on what never happens.
 */
function canRun(r: FindingRecord): boolean {
  const run = r.facts?.find((f) => f.startsWith('run:'));
  return run === undefined || /[1-9a-f]/.test(run.slice(4));
}

function entryUsable(r: FindingRecord): boolean {
  return !ENTRY_RULES.has(r.finding.rule_id) || severityRank(r.finding.severity) <= severityRank('MEDIUM');
}

/**
 * The combinations the findings of one repository form. Pure and deterministic: it reads only the
 * record fields (finding, job), so stored findings give the same result as a fresh scan.
 *
 * Findings of rules for which `isEnabled` returns false are dropped first, so a disabled rule never forms
 * or amplifies a combination. Within a group, the first alternative that has a qualifying finding is
 * taken, and of its findings the first in (file, line, column) order.
 */
export function findCombinations(records: readonly FindingRecord[], isEnabled: RuleEnabled): Combination[] {
  const usable = records.filter((r) => isEnabled(r.finding.rule_id) && entryUsable(r) && canRun(r)).sort(compareRecords);
  const byRule = new Map<string, FindingRecord[]>();
  for (const r of usable) {
    const list = byRule.get(r.finding.rule_id);
    if (list === undefined) byRule.set(r.finding.rule_id, [r]);
    else list.push(r);
  }
  const combinations: Combination[] = [];
  for (const kind of COMBINATION_KINDS) {
    // A kind with a group none of whose rules has a usable finding cannot fire: skip its files and jobs.
    if (!kind.requires.every((group) => group.some((ruleId) => byRule.has(ruleId)))) continue;
    if (kind.scope === 'repo') {
      // At most one instance per repository: settings alone, or one file's findings (bound to one job) with
      // settings; only the kinds that cross files through a shared store join workflow files.
      const matches = CROSS_FILE_KINDS.has(kind.id)
        ? match(kind, byRule, () => true)
        : (match(kind, byRule, (r) => r.finding.file === SETTINGS_FILE) ?? firstFileMatch(kind, byRule, usable));
      if (matches !== null) combinations.push(build(kind, matches, repoFile(matches), usable));
      continue;
    }
    for (const file of workflowFiles(kind, usable)) {
      const matches = matchInFile(kind, byRule, file, usable);
      if (matches !== null) combinations.push(build(kind, matches, file, usable));
    }
  }
  return combinations.sort(compareCombinations);
}

/** CRITICAL before HIGH before MEDIUM, then kind id, then file. */
export function compareCombinations(a: Combination, b: Combination): number {
  return (
    COMBINATION_SEVERITIES.indexOf(a.severity) - COMBINATION_SEVERITIES.indexOf(b.severity) ||
    compare(a.id, b.id) ||
    compare(a.file, b.file)
  );
}

export function countCombinations(combinations: readonly Combination[]): { critical_count: number; high_count: number } {
  return {
    critical_count: combinations.filter((c) => c.severity === 'CRITICAL').length,
    high_count: combinations.filter((c) => c.severity === 'HIGH').length,
  };
}

/** Ids of the kinds, in catalog order, that cannot fire because every alternative of some group is disabled. */
export function cannotFire(isEnabled: RuleEnabled): string[] {
  return COMBINATION_KINDS.filter((kind) => kind.requires.some((group) => !group.some(isEnabled))).map((kind) => kind.id);
}

/** Each kind's rules (its groups' and its amplifiers'), computed once. */
const RULES_OF: ReadonlyMap<CombinationKind, ReadonlySet<string>> = new Map(
  COMBINATION_KINDS.map((kind) => [kind, new Set([...kind.requires.flat(), ...kind.amplifiers])]),
);

function rulesOf(kind: CombinationKind): ReadonlySet<string> {
  return RULES_OF.get(kind) ?? new Set([...kind.requires.flat(), ...kind.amplifiers]);
}

/** Files (not the settings) that hold a finding of one of the kind's rules, in path order. */
function workflowFiles(kind: CombinationKind, usable: readonly FindingRecord[]): string[] {
  const rules = rulesOf(kind);
  const files = new Set<string>();
  for (const r of usable) if (r.finding.file !== SETTINGS_FILE && rules.has(r.finding.rule_id)) files.add(r.finding.file);
  return [...files];
}

/**
 * A file-scoped instance binds to one job: every component is either bound to that job, or to no job
 * (workflow-level facts such as workflow `permissions` or triggers, and settings findings). The jobs of
 * the file are tried in the order of their first finding of the kind's rules; the first job under which
 * every group is filled wins. A file whose findings are all workflow-level is matched as a whole.
 */
function matchInFile(kind: CombinationKind, byRule: Map<string, FindingRecord[]>, file: string, usable: readonly FindingRecord[]): Match[] | null {
  const rules = rulesOf(kind);
  const jobs = new Set<string>();
  for (const r of usable) {
    const job = r.job ?? null;
    if (r.finding.file === file && job !== null && rules.has(r.finding.rule_id)) jobs.add(job);
  }
  const inFile = (r: FindingRecord) => r.finding.file === file || r.finding.file === SETTINGS_FILE;
  const bindings: (string | null)[] = jobs.size > 0 ? [...jobs] : [null];
  for (const job of bindings) {
    // `?? null`: a stored row without a job binding is a workflow-level fact.
    const matches = match(kind, byRule, (r) => inFile(r) && ((r.job ?? null) === null || r.job === job));
    // Settings findings may join a file's chain but never make one on their own.
    if (matches !== null && matches.some((m) => m.record.finding.file === file)) return matches;
  }
  return null;
}

function firstFileMatch(kind: CombinationKind, byRule: Map<string, FindingRecord[]>, usable: readonly FindingRecord[]): Match[] | null {
  for (const file of workflowFiles(kind, usable)) {
    const matches = matchInFile(kind, byRule, file, usable);
    if (matches !== null) return matches;
  }
  return null;
}

function match(kind: CombinationKind, byRule: Map<string, FindingRecord[]>, accepts: (r: FindingRecord) => boolean): Match[] | null {
  const matches: Match[] = [];
  const chosen = new Map<number, Match>();
  // The entry: the component of the first group, once chosen (the groups that name no other are filled first).
  const entry = () => chosen.get(0)?.record;
  const pick = (ruleId: string, group: number | null): Match | null => {
    const qualifier = kind.qualifiers.find((q) => q.rule_id === ruleId);
    const candidates = (byRule.get(ruleId) ?? []).filter(
      (r) =>
        accepts(r) &&
        // A LOW finding starts no path: the first group's component is the way in.
        !(group === 0 && r.finding.severity === 'LOW' && (qualifier === undefined || qualifier.min_severity !== 'LOW')) &&
        (qualifier === undefined || (qualifies(r, qualifier) && namedBy(r, qualifier, matches) && entryHolds(entry(), qualifier))) &&
        // Findings of one job join only when they can happen in the same job run (a common occasion and leg).
        matches.every((m) => m.record.job === null || r.job === null || m.record.job !== r.job || m.record.finding.file !== r.finding.file || runsOverlap(m.record.facts, r.facts)),
    );
    const preferred = qualifier?.prefer_facts;
    const record = (preferred === undefined ? undefined : candidates.find((r) => hasFacts(r, [preferred.join('|')]))) ?? candidates[0];
    return record === undefined ? null : { rule_id: ruleId, record };
  };
  // Groups whose findings another component must name are filled after the groups that name them; the
  // components keep the order of `requires`.
  const linked = (group: readonly string[]) => group.some((id) => kind.qualifiers.some((q) => q.rule_id === id && q.named_by !== undefined));
  const order = [...kind.requires.keys()].sort((a, b) => Number(linked(kind.requires[a] ?? [])) - Number(linked(kind.requires[b] ?? [])));
  for (const index of order) {
    let found: Match | null = null;
    for (const ruleId of kind.requires[index] ?? []) {
      found = pick(ruleId, index);
      if (found !== null) break;
    }
    if (found === null) return null;
    matches.push(found);
    chosen.set(index, found);
  }
  matches.length = 0;
  for (const index of kind.requires.keys()) matches.push(chosen.get(index) as Match);
  for (const ruleId of kind.amplifiers) {
    const found = pick(ruleId, null);
    if (found !== null) matches.push(found);
  }
  return matches;
}

/** The finding is the case the qualifier names: severity and facts (not the links to other components). */
function qualifies(r: FindingRecord, qualifier: InstanceQualifier): boolean {
  return (
    severityRank(r.finding.severity) <= severityRank(qualifier.min_severity) &&
    !(qualifier.except_severities ?? []).includes(r.finding.severity) &&
    hasFacts(r, qualifier.facts)
  );
}

/** True when the qualifier asks nothing of the entry, or the chosen entry carries the facts it asks for. */
function entryHolds(entry: FindingRecord | undefined, qualifier: InstanceQualifier): boolean {
  if (qualifier.entry_facts === undefined || qualifier.entry_facts.length === 0 || entry === undefined) return true;
  return hasFacts(entry, qualifier.entry_facts);
}

/** True when the qualifier names no linking component, or a matched component of that rule names this finding's file and job. */
function namedBy(r: FindingRecord, qualifier: InstanceQualifier, matches: readonly Match[]): boolean {
  const link = qualifier.named_by;
  if (link === undefined) return true;
  const fact = `${link.fact}:${r.finding.file}#${r.job ?? ''}`;
  return matches.some((m) => m.rule_id === link.rule_id && (m.record.facts ?? []).includes(fact));
}

/** True when the record carries every fact (each entry: one fact, or alternatives separated by `|`). */
function hasFacts(r: FindingRecord, facts: readonly string[] | undefined): boolean {
  if (facts === undefined || facts.length === 0) return true;
  const own = r.facts ?? [];
  return facts.every((entry) => entry.split('|').some((f) => own.includes(f)));
}

function repoFile(matches: readonly Match[]): string {
  return matches.find((m) => m.record.finding.file !== SETTINGS_FILE)?.record.finding.file ?? SETTINGS_FILE;
}

function build(kind: CombinationKind, matches: readonly Match[], file: string, usable: readonly FindingRecord[]): Combination {
  const matched = new Set(matches.map((m) => m.rule_id));
  const found = new Map(matches.map((m) => [m.rule_id, m.record]));
  // Each stage tells the kind's step, then what was found where (trigger, value, step, line).
  const stages = kind.stages
    .filter((s) => matched.has(s.rule_id))
    .map((s, order) => {
      const record = found.get(s.rule_id);
      const note = s.notes?.find((n) => (record?.facts ?? []).includes(n.fact));
      return { order, title: s.title, description: `${s.description}${note === undefined ? '' : ` ${note.text}`} Here: ${foundAt(record?.finding)}`, rule_id: s.rule_id };
    });
  const attacker = attackerOf(kind);
  const impact = impactOf(kind, matches, usable);
  const severity = pathSeverity(kind, matches);
  const gate = gateNote(kind, matches, severity);
  stages.push({ order: stages.length, title: kind.impact_title, description: `${impact} Attacker: ${attacker}.${gate === null ? '' : ` ${gate}`}`, rule_id: '' });
  const advice = kind.break_chain.find((b) => matched.has(b.rule_id) && adviceApplies(kind, b, matches, usable)) ?? kind.break_chain.find((b) => matched.has(b.rule_id)) ?? kind.break_chain[0];
  const target = advice === undefined ? undefined : found.get(advice.rule_id)?.finding;
  return {
    id: kind.id,
    title: kind.title,
    severity,
    scope: kind.scope,
    file,
    impact,
    break_chain: advice === undefined ? '' : `${target === undefined ? advice.advice : `At ${location(target)} (${target.title.replace(/\.$/, '')}): ${advice.advice}`}${listedInputs(kind, advice, matches, usable)}`,
    break_chain_rule: advice?.rule_id ?? '',
    stages,
    components: matches.map((m) => ({ rule_id: m.rule_id, finding: publicFinding(m.record.finding) })),
  };
}

/**
 * The kind's impact, or the first of its variants whose condition the components show: a clause (a runner that
 * keeps state, failures that do not stop the run) is claimed only where a component carries the fact behind it.
 */
function impactOf(kind: CombinationKind, matches: readonly Match[], usable: readonly FindingRecord[]): string {
  for (const variant of kind.impact_variants ?? []) {
    const { rule_id, facts, in_job } = variant.when;
    const component = matches.some((m) => m.rule_id === rule_id && hasFacts(m.record, facts));
    const bound = matches.find((m) => m.record.job !== null && m.record.finding.file !== SETTINGS_FILE)?.record;
    const job =
      in_job === true &&
      bound !== undefined &&
      usable.some((r) => r.finding.rule_id === rule_id && r.finding.file === bound.finding.file && r.job === bound.job && hasFacts(r, facts));
    if (component || job) return variant.impact;
  }
  return kind.impact;
}

/**
 * The severity of a path found: its kind's, lowered when the way in is weaker than the kind presumes
 * (docs/severity.md, "Attack paths"), so a chain never claims more reach than its entry finding has.
 * - An outsider's way in (script injection, an untrusted checkout, a poisoned artifact, an agent's prompt...):
 *   a CRITICAL kind stays CRITICAL only on a HIGH entry (anyone can start it, their content runs, the job holds
 *   something); on a weaker one (text the attacker only shapes, a merge or a label in the way) the chain is HIGH.
 *   An entry whose run only a maintainer's act starts (its reach facts: an approval, trusted authors,
 *   collaborators; an agent started by a member's comment or behind its action's own write-access check) makes
 *   the chain MEDIUM, whatever the kind and whatever the entry's own severity: the outsider only writes text
 *   that waits for that act, which the policy never rates above MEDIUM. So does an entry behind a deployment
 *   environment whose required reviewers the scan could not check (`reach:unreviewed-environment`, alone or with
 *   a maintainer's act): the policy rates it MEDIUM at most, and the path names that gate.
 * - Someone else's code as the way in (the kind's first group: an action or image on a tag, a download nothing
 *   verifies, a remote script): the attacker is one upstream party, whom the policy never rates HIGH by itself,
 *   so the path takes the entry's severity, MEDIUM, unless the entry is HIGH (a known compromise).
 */
/** Entry rules whose findings carry their job's holding facts (run-model/facts.ts `holdingFacts`). */
const HOLDING_ENTRIES: ReadonlySet<string> = new Set(['artifact-poisoning', 'github-env-injection', 'untrusted-checkout', 'agent-untrusted-input']);
const WORTH_TAKING = ['holds:token', 'holds:secrets', 'holds:oidc', 'holds:self-hosted', 'holds:publish', 'feeds:publish'];

/**
 * True when every component of the path is about the entry's own job (or its whole workflow file): the chain ends
 * in what that job holds. A chain that reaches another job (a cache a release restores) ends in that job's holdings.
 */
function withinEntryJob(entry: FindingRecord, matches: readonly { record: FindingRecord }[]): boolean {
  return matches.every((m) => m.record.finding.file === entry.finding.file && (m.record.job === null || m.record.job === entry.job));
}

function holdsNothingWorth(record: FindingRecord): boolean {
  if (!HOLDING_ENTRIES.has(record.finding.rule_id) || record.finding.severity !== 'MEDIUM') return false;
  const facts = record.facts ?? [];
  return !facts.some((f) => WORTH_TAKING.includes(f));
}

export function pathSeverity(kind: CombinationKind, matches: readonly { rule_id: string; record: FindingRecord }[]): CombinationSeverity {
  const outsider = matches.find((m) => ENTRY_RULES.has(m.rule_id));
  if (outsider !== undefined) {
    if (maintainerStarted(outsider.record) || environmentGated(outsider.record)) return 'MEDIUM';
    // An entry that says what its job holds and holds nothing worth taking (no write scope that changes code,
    // releases or packages, no secret, OIDC, self-hosted machine or publish): the policy's MEDIUM at most.
    if (holdsNothingWorth(outsider.record) && withinEntryJob(outsider.record, matches)) return 'MEDIUM';
    return kind.severity === 'CRITICAL' && outsider.record.finding.severity !== 'HIGH' ? 'HIGH' : kind.severity;
  }
  const way = matches[0];
  if (way !== undefined && UPSTREAM_ENTRIES.has(way.rule_id) && way.record.finding.severity !== 'HIGH') return 'MEDIUM';
  return kind.severity;
}

/**
 * Whether a conditional fix is the one that breaks this chain: its component carries the facts (a runner that
 * already runs an outsider's code), or the chain's job holds several qualifying findings of the `several` rules, so
 * fixing the one in the chain leaves the others.
 */
function adviceApplies(kind: CombinationKind, advice: BreakChainAdvice, matches: readonly Match[], usable: readonly FindingRecord[]): boolean {
  const when = advice.when;
  if (when === undefined) return true;
  const own = matches.find((m) => m.rule_id === advice.rule_id)?.record;
  if (when.facts !== undefined && own !== undefined && hasFacts(own, when.facts)) return true;
  return severalInputs(kind, advice, matches, usable).length > 1;
}

/**
 * The qualifying findings of the advice's `several` rules in the job of the chain (the first component bound to a
 * job): the mutable inputs that job takes, in (file, line) order. Empty when the advice names no `several`.
 */
function severalInputs(kind: CombinationKind, advice: BreakChainAdvice, matches: readonly Match[], usable: readonly FindingRecord[]): FindingRecord[] {
  const several = advice.when?.several;
  if (several === undefined) return [];
  const bound = matches.find((m) => m.record.job !== null && m.record.finding.file !== SETTINGS_FILE)?.record;
  if (bound === undefined) return [];
  const rules = new Set(several);
  // A local composite action's findings count for the jobs that run it (`job:<file>#<job>` facts).
  const caller = `job:${bound.finding.file}#${bound.job ?? ''}`;
  return usable.filter((r) => {
    if (!rules.has(r.finding.rule_id)) return false;
    const ownJob = r.finding.file === bound.finding.file && r.job === bound.job;
    if (!ownJob && r.facts?.includes(caller) !== true) return false;
    // A composite action's finding is judged at its callers (its facts name no job's holdings): above LOW counts.
    if (!ownJob) return r.finding.severity !== 'LOW' && r.finding.severity !== 'INFO';
    const qualifier = kind.qualifiers.find((q) => q.rule_id === r.finding.rule_id);
    // A rule the kind does not qualify counts above LOW (a vendor installer, a GitHub-owned action are no one else's input).
    return qualifier === undefined ? r.finding.severity !== 'LOW' && r.finding.severity !== 'INFO' : qualifies(r, qualifier);
  });
}

/** What each rule an advice lists stands for, in the words of a list (`the actions on tags at lines 12, 40`). */
const INPUT_NOUNS: Readonly<Record<string, readonly [string, string]>> = {
  'unpinned-action': ['the action on a tag or branch', 'the actions on tags or branches'],
  'unpinned-image': ['the image on a tag', 'the images on tags'],
  'download-without-checksum': ['the unverified download', 'the unverified downloads'],
  'pipe-to-shell': ['the remote script', 'the remote scripts'],
};

/** At most this many inputs are listed by line; more are counted. */
const LISTED_INPUTS = 8;

/** ` Here: the unverified downloads at lines 14 and 30, the action on a tag or branch at line 12.` for an advice that lists them. */
function listedInputs(kind: CombinationKind, advice: BreakChainAdvice, matches: readonly Match[], usable: readonly FindingRecord[]): string {
  if (advice.list !== true) return '';
  const inputs = severalInputs(kind, advice, matches, usable);
  if (inputs.length < 2) return '';
  if (inputs.length > LISTED_INPUTS) return ` Here the job takes ${inputs.length} of them.`;
  const parts: string[] = [];
  const own = inputs[0]?.finding.file;
  const bound = matches.find((m) => m.record.job !== null && m.record.finding.file !== SETTINGS_FILE)?.record.finding.file ?? own;
  for (const rule of advice.when?.several ?? []) {
    const ofRule = inputs.filter((r) => r.finding.rule_id === rule);
    if (ofRule.length === 0) continue;
    const [one, many] = INPUT_NOUNS[rule] ?? [`the \`${rule}\` finding`, `the \`${rule}\` findings`];
    // The chain's own file by line; a local composite action the job runs by its file and line.
    const files = [...new Set(ofRule.map((r) => r.finding.file))].sort((a, b) => (a === bound ? -1 : b === bound ? 1 : a.localeCompare(b)));
    const wheres = files.map((file) => {
      const lines = [...new Set(ofRule.filter((r) => r.finding.file === file).map((r) => r.finding.line))].sort((a, b) => a - b);
      const at = lines.length === 1 ? `line ${lines[0]}` : `lines ${lines.slice(0, -1).join(', ')} and ${lines[lines.length - 1]}`;
      return file === bound ? at : `${at} of \`${file}\`, which the job runs`;
    });
    parts.push(`${ofRule.length === 1 ? one : many} at ${wheres.join('; ')}`);
  }
  return ` Here: ${parts.join(', ')}.`;
}

/** `.github/workflows/x.yml:31`, or `the repository settings`. */
function location(f: Finding): string {
  return f.file === SETTINGS_FILE ? 'the repository settings' : `${f.file}:${f.line}`;
}

/** `<description> (.github/workflows/x.yml:31)`: the finding behind a stage. */
function foundAt(f: Finding | undefined): string {
  if (f === undefined) return '';
  const text = f.description.replace(/\.\s*$/, '');
  return `${text} (${location(f)}).`;
}

/** The nine public fields, in order, whatever else a stored finding carries. */
function publicFinding(f: Finding): Finding {
  return {
    file: f.file,
    line: f.line,
    column: f.column,
    severity: f.severity,
    category: f.category,
    rule_id: f.rule_id,
    title: f.title,
    description: f.description,
    recommendation: f.recommendation,
  };
}

function compareRecords(a: FindingRecord, b: FindingRecord): number {
  return (
    compare(a.finding.file, b.finding.file) ||
    a.finding.line - b.finding.line ||
    a.finding.column - b.finding.column ||
    compare(a.finding.rule_id, b.finding.rule_id) ||
    severityRank(a.finding.severity) - severityRank(b.finding.severity) ||
    compare(a.fingerprint, b.fingerprint)
  );
}

/** Code-unit order: stable across locales and runtimes. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
