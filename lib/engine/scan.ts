import { classifyPath, type FileKind } from './paths.js';
import { codeOwners } from './codeowners.js';
import { TaintAnalyzer } from './expressions/taint.js';
import { findingFingerprint, hash53, nodeAnchor } from './fingerprint.js';
import { RepositoryModel } from './model/repository.js';
import { resetScanCaches } from './model/scan-cache.js';
import { withScannedRepository } from './analysis/run-model/conditions.js';
import { buildAction, buildDependabot, buildWorkflow, type Action, type Dependabot, type Job, type Step, type Workflow } from './model/workflow.js';
import { resolveRuleOptions } from './rule-options.js';
import { findingOf, type SettingsRule, type WorkflowReport, type WorkflowRule, type WorkflowRuleContext, type WorkflowVisitor } from './rule.js';
import { LIVE_RULES, ONLINE_ONLY_RULES, SETTINGS_RULES, WORKFLOW_RULES, WORKFLOW_VISITORS } from './rules/index.js';

/** Rules whose suppression comments an offline scan cannot judge unused (the online audits may report them). */
const NOT_JUDGED_OFFLINE: ReadonlySet<string> = new Set([...ONLINE_ONLY_RULES, ...LIVE_RULES]);
import scanLimitReached from './rules/scan-limit-reached.js';
import { markReviewedEnvironments } from './analysis/trust-guards.js';
import { RunModel, type DefaultToken } from './analysis/run-model/index.js';
import { ownerOfName } from './analysis/run-model/ownership.js';
import { readArea } from './settings/areas.js';
import { text as settingsText } from './settings/json.js';
import { environmentProtection } from './settings/environments.js';
import { isBranchName, defaultBranch as settingsDefaultBranch } from './settings/repository.js';
import { runSettingsRules } from './settings/run.js';
import type { SettingsSnapshot } from './settings/snapshot.js';
import { SuppressionIndex, type UnusedSuppression } from './suppress.js';
import { emptyCounts, severityRank, type Counts, type Finding, type FindingRecord, type RepositoryFile, type Ruleset } from './types.js';
import { parseYaml, type ParseProblem } from './yaml/parse.js';
import { SourceFile } from './yaml/source.js';
import { get } from './yaml/model.js';

export interface ScanOptions {
  /** `owasp` keeps the rules whose category starts with `CICD-SEC-`; default `all`. */
  ruleset?: Ruleset;
  /** Rules for which this returns false do not run (default: every rule runs). */
  isEnabled?: (ruleId: string) => boolean;
  /** Repository settings; settings rules run only when a snapshot is given. */
  settings?: SettingsSnapshot;
  /** What the scan reads, keeps and spends at most; none by default (the callers set theirs). */
  limits?: ScanLimits;
  /**
   * The scanned repository's `owner/name` when the caller knows it (the service, `--github`, a checkout's
   * `origin` remote): actions of the same owner are first-party. Unknown: every other repository's action
   * is treated as third-party.
   */
  repository?: string;
  /**
   * The scanned repository's default branch when the caller knows it (the service's repository, a checkout's
   * `origin/HEAD`); else the settings snapshot's, if any. Runs of `schedule`, `issue_comment`, `repository_dispatch`
   * and the repository's other events are on it, so a condition on another branch never holds there.
   */
  defaultBranch?: string;
  /**
   * Options per rule id, as a config file or the user's rule settings give them (lib/engine/rule-options.ts);
   * each is validated and given its defaults here, and options a rule's schema rejects throw `RuleOptionsError`
   * (callers validate them first, to say which file or request is wrong).
   */
  ruleOptions?: Readonly<Record<string, unknown>>;
  /**
   * The online audits run for this scan (their findings join afterwards, `joinExtraRecords`). Without it a
   * suppression comment naming an online-only or live rule is not reported as unused: an offline scan cannot know.
   */
  online?: boolean;
}

/**
 * Bounds of one scan. Files are taken in path order: past `maxFiles`, or once `maxTotalBytes` would be
 * exceeded, the rest are skipped; a file over `maxFileBytes` is skipped by itself. Past `deadline` (by `now`,
 * the caller's clock: the engine stays pure) no further file is parsed or visited. Past `maxFindings`, the
 * most severe are kept. Whatever was skipped is named by one INFO `scan-limit-reached` finding (when that
 * rule is enabled), and counts always agree with the findings returned.
 */
export interface ScanLimits {
  maxFiles?: number;
  /** UTF-8 bytes of one file. */
  maxFileBytes?: number;
  /** UTF-8 bytes of all files together. */
  maxTotalBytes?: number;
  /** Findings returned, the limit finding included. */
  maxFindings?: number;
  /** Epoch ms (by `now`) after which no further file is parsed or visited. */
  deadline?: number;
  /** The clock `deadline` is read on; `Date.now` when absent. */
  now?: () => number;
}

export interface ScanResult {
  /** Public findings, sorted by (file, line, column, rule_id). */
  findings: Finding[];
  counts: Counts;
  /** The same findings, in the same order, with their job binding and fingerprint. */
  records: FindingRecord[];
  /** Findings a `# chainbreaker: ignore` comment removed. */
  suppressed: number;
  /** Suppression comments (or rule ids in them) that matched nothing, among the rules that ran. */
  unusedSuppressions: UnusedSuppression[];
  /** Suppression comments naming rule ids the engine does not have (`rules` lists those ids). */
  unknownSuppressions: UnusedSuppression[];
}

// In a module of its own (no imports) so that checkout readers need not load the engine; re-exported here.
export { classifyPath, type FileKind } from './paths.js';

export function ruleApplies(rule: { meta: { id: string; category: string } }, options: ScanOptions): boolean {
  if (options.ruleset === 'owasp' && !rule.meta.category.startsWith('CICD-SEC-')) return false;
  return options.isEnabled?.(rule.meta.id) ?? true;
}

interface ParsedFile {
  file: SourceFile;
  kind: FileKind;
  model: Workflow | Action | Dependabot | null;
  problem: ParseProblem | null;
}

/**
 * Scans the files of one repository. Pure and deterministic: the same files and options give the same
 * result, byte for byte. Never throws on file content.
 */
export function scanRepository(files: readonly RepositoryFile[], options: ScanOptions = {}): ScanResult {
  try {
    // A job's condition on the repository's own name folds only when the scan knows it (run-model/conditions.ts).
    return withScannedRepository(options.repository ?? null, () => scan(files, options));
  } finally {
    // The memos are per scan: a run over many repositories must not keep every script and expression it saw.
    resetScanCaches();
  }
}

function scan(files: readonly RepositoryFile[], options: ScanOptions): ScanResult {
  const limits = options.limits ?? {};
  const clock = limits.now ?? Date.now;
  const overDeadline = () => limits.deadline !== undefined && clock() > limits.deadline;
  const skipped = new Skipped();
  const candidates: { f: RepositoryFile; kind: FileKind }[] = [];
  for (const f of files) {
    // Files the code host left out at its own bounds are named, never scanned.
    if (f.skipped !== undefined) {
      skipped.add(`host:${f.skipped}`, f.skipped, [f.path]);
      continue;
    }
    const kind = classifyPath(f.path);
    if (kind !== null) candidates.push({ f, kind });
  }
  candidates.sort((a, b) => compare(a.f.path, b.f.path));
  const parsed: ParsedFile[] = [];
  // Bytes are counted only against a byte limit: measuring every file's UTF-8 length is work no other bound needs.
  const countBytes = limits.maxFileBytes !== undefined || limits.maxTotalBytes !== undefined;
  let totalBytes = 0;
  for (let index = 0; index < candidates.length; index++) {
    const { f, kind } = candidates[index]!;
    if (limits.maxFiles !== undefined && parsed.length >= limits.maxFiles) {
      skipped.add('files', `at most ${limits.maxFiles} files are scanned`, candidates.slice(index).map((c) => c.f.path));
      break;
    }
    if (overDeadline()) {
      skipped.add('time', 'the engine ran out of time', candidates.slice(index).map((c) => c.f.path));
      break;
    }
    if (countBytes) {
      const bytes = Buffer.byteLength(f.text, 'utf8');
      if (limits.maxFileBytes !== undefined && bytes > limits.maxFileBytes) {
        skipped.add('file-bytes', `a file is scanned up to ${limits.maxFileBytes} bytes`, [f.path]);
        continue;
      }
      if (limits.maxTotalBytes !== undefined && totalBytes + bytes > limits.maxTotalBytes) {
        skipped.add('bytes', `at most ${limits.maxTotalBytes} bytes are scanned in all`, [f.path]);
        continue;
      }
      totalBytes += bytes;
    }
    parsed.push(
      f.unreadable === undefined
        ? parseFile(new SourceFile(f.path, f.text), kind)
        : { file: new SourceFile(f.path, f.text), kind, model: null, problem: { offset: 0, message: f.unreadable } },
    );
  }

  const workflows: Workflow[] = [];
  const actions: Action[] = [];
  const dependabot: Dependabot[] = [];
  for (const p of parsed) {
    if (p.model?.kind === 'workflow') workflows.push(p.model);
    else if (p.model?.kind === 'action') actions.push(p.model);
    else if (p.model?.kind === 'dependabot') dependabot.push(p.model);
  }
  const owners = codeOwners(files);
  const branch = knownDefaultBranch(options);
  let repository = new RepositoryModel(workflows, actions, dependabot, options.repository ?? null, owners, branch);
  // Action files of vendored code or test fixtures that nothing in the repository calls are not the repository's CI.
  const inert = actions.filter((a) => inertActionPath(a.directory) && repository.callersOf(a).length === 0);
  if (inert.length > 0) {
    const drop = new Set<Action>(inert);
    repository = new RepositoryModel(workflows, actions.filter((a) => !drop.has(a)), dependabot, options.repository ?? null, owners, branch);
    for (let i = parsed.length - 1; i >= 0; i--) if (drop.has(parsed[i]?.model as Action)) parsed.splice(i, 1);
  }
  // Environments with required reviewers gate the jobs that deploy to them (read before any rule runs).
  const environments = environmentProtection(options.settings);
  if (environments !== null) markReviewedEnvironments(workflows, environments.reviewed, environments.isUnreviewed);
  const collector = new Collector();
  // Without a ruleset or a filter every rule applies (the common case: no need to ask each one).
  const everyRule = options.ruleset !== 'owasp' && options.isEnabled === undefined;
  const visited = runWorkflowRules(
    everyRule ? WORKFLOW_VISITORS : WORKFLOW_VISITORS.filter((r) => ruleApplies(r, options)),
    parsed,
    repository,
    collector,
    overDeadline,
    options.repository ?? null,
    options.ruleOptions,
    defaultTokenOf(options.settings),
  );
  if (visited < parsed.length) skipped.add('time', 'the engine ran out of time', parsed.slice(visited).map((p) => p.file.path));
  if (options.settings !== undefined) {
    const rules: SettingsRule[] = SETTINGS_RULES.filter((r) => ruleApplies(r, options));
    for (const { finding, anchor } of runSettingsRules(rules, options.settings)) collector.add(finding, null, anchor);
  }
  const limitRule = ruleApplies(scanLimitReached, options) ? scanLimitReached : null;
  const offlineOnly = options.online !== true;
  const ran = (id: string) => !(offlineOnly && NOT_JUDGED_OFFLINE.has(id)) && WORKFLOW_VISITORS.some((r) => r.meta.id === id && ruleApplies(r, options));
  const known = (id: string) => WORKFLOW_RULES.some((r) => r.meta.id === id) || SETTINGS_RULES.some((r) => r.meta.id === id);
  const unused: UnusedSuppression[] = [];
  const unknown: UnusedSuppression[] = [];
  for (const p of parsed) {
    const index = collector.suppressions(p.file);
    if (index.directives.length === 0) continue;
    unused.push(...index.unused(ran));
    unknown.push(...index.unknown(known));
  }
  return collector.result(unused, unknown, { maxFindings: limits.maxFindings, skipped, limitRule });
}

/** What the limits kept out of a scan, by limit, in the order met. */
class Skipped {
  readonly byLimit = new Map<string, { reason: string; paths: string[] }>();

  add(limit: string, reason: string, paths: readonly string[]): void {
    const entry = this.byLimit.get(limit) ?? { reason, paths: [] };
    entry.paths.push(...paths);
    this.byLimit.set(limit, entry);
  }

  /** One line naming every limit met and what it skipped (at most a few paths each), or null. */
  describe(droppedFindings: number, maxFindings: number | undefined): string | null {
    const parts: string[] = [];
    for (const { reason, paths } of this.byLimit.values()) {
      const shown = paths.slice(0, 5).join(', ');
      const more = paths.length > 5 ? ` and ${paths.length - 5} more` : '';
      parts.push(`${reason}: ${paths.length} file${paths.length === 1 ? '' : 's'} not scanned (${shown}${more})`);
    }
    if (droppedFindings > 0) parts.push(`at most ${maxFindings} findings are kept: ${droppedFindings} less severe finding${droppedFindings === 1 ? ' was' : 's were'} dropped`);
    return parts.length === 0 ? null : `The scan stopped at a limit, so part of the repository was not checked. ${parts.join('; ')}.`;
  }
}

/** Directory names of vendored code and test fixtures (`lib/zlib/vendor/...`, `pkg/runner/testdata/...`). */
const VENDORED_DIR = /^(?:vendor|vendored|third_party|third-party|thirdparty|node_modules|testdata|test-data|test_data|fixtures|__fixtures__)$/i;

/**
 * An action's directory (relative to the root) inside vendored code or test fixtures: a segment named for them, or a
 * `.github` below the root (another project's CI copied in: GitHub runs only the root's `.github`). Such an action
 * file is the repository's CI only when one of its workflows or actions calls it.
 */
export function inertActionPath(directory: string): boolean {
  const parts = directory.split('/');
  return parts.some((part, i) => VENDORED_DIR.test(part) || (part === '.github' && i > 0));
}

function parseFile(file: SourceFile, kind: FileKind): ParsedFile {
  const result = parseYaml(file.text);
  if (!result.ok) return { file, kind, model: null, problem: result.problem };
  const root = result.root;
  if (root.kind !== 'map') {
    const what = root.kind === 'seq' ? 'a list' : root.value === null ? 'empty' : 'a single value';
    return { file, kind, model: null, problem: { offset: root.start, message: `the document is ${what}, not a ${kind === 'dependabot' ? 'Dependabot configuration' : kind} mapping` } };
  }
  // GitHub rejects a workflow with no events ("No event triggers defined in `on`") and never runs its jobs, so nothing
  // in them is reported; the file itself is, as invalid (a commented-out `on:` is the usual cause).
  if (kind === 'workflow') {
    const on = get(root, 'on');
    if (on === undefined || (on.kind === 'scalar' && (on.value === null || on.value === ''))) {
      return { file, kind, model: null, problem: { offset: on?.start ?? root.start, message: 'it has no events in `on:`, so GitHub rejects it and never runs its jobs' } };
    }
  }
  const model = kind === 'workflow' ? buildWorkflow(file, root) : kind === 'action' ? buildAction(file, root) : buildDependabot(file, root);
  return { file, kind, model, problem: null };
}

/** What the settings snapshot says of the default `GITHUB_TOKEN` (`default_workflow_permissions`); null without one. */
function defaultTokenOf(settings: SettingsSnapshot | undefined): DefaultToken {
  if (settings === undefined) return null;
  const area = readArea(settings, 'workflow_permissions');
  if (!area.readable) return null;
  const value = settingsText(area.value, 'default_workflow_permissions');
  return value === 'write' ? 'write' : value === 'read' ? 'read' : null;
}

/** Where the walk is: a report that names no file or job is bound to these. */
interface WalkPosition {
  file: SourceFile | null;
  job: Job | null;
}

/**
 * A rule's context for one scan. A class rather than an object literal with a `report` closure: every scan
 * makes one per rule, and rules call `context.report(...)` (never detached), so the method on the prototype
 * serves them all.
 */
class RuleContext implements WorkflowRuleContext {
  readonly repository: RepositoryModel;
  readonly owner: string | null;
  readonly taint: TaintAnalyzer;
  readonly runs: RunModel;
  readonly options: Readonly<Record<string, unknown>>;
  readonly #rule: WorkflowRule;
  readonly #collector: Collector;
  readonly #at: WalkPosition;

  constructor(
    rule: WorkflowRule,
    shared: { repository: RepositoryModel; owner: string | null; taint: TaintAnalyzer; runs: RunModel; collector: Collector; at: WalkPosition },
    options: Readonly<Record<string, unknown>>,
  ) {
    this.repository = shared.repository;
    this.owner = shared.owner;
    this.taint = shared.taint;
    this.runs = shared.runs;
    this.options = options;
    this.#rule = rule;
    this.#collector = shared.collector;
    this.#at = shared.at;
  }

  report(report: WorkflowReport): void {
    const file = report.file ?? this.#at.file;
    if (file === null) return;
    const job = report.job !== undefined ? report.job : this.#at.job;
    this.#collector.addWorkflow(this.#rule, file, report, job?.id ?? null);
  }
}

/**
 * The visitors that implement one hook, as parallel lists of the hook function and its visitor: the walk calls
 * each function with its visitor as `this` without reading the hook off visitors of many shapes again.
 */
class Hooks<F extends (...args: never[]) => void> {
  readonly fns: F[] = [];
  readonly visitors: WorkflowVisitor[] = [];

  add(visitor: WorkflowVisitor, fn: F | undefined): void {
    if (fn === undefined) return;
    this.fns.push(fn);
    this.visitors.push(visitor);
  }
}

type Hook<K extends keyof WorkflowVisitor> = NonNullable<WorkflowVisitor[K]>;

/** Runs the rules over the files until `stop` says so (checked before each file); returns how many files were visited. */
function runWorkflowRules(
  rules: readonly WorkflowRule[],
  parsed: ParsedFile[],
  repository: RepositoryModel,
  collector: Collector,
  stop: () => boolean,
  fullName: string | null,
  ruleOptions: Readonly<Record<string, unknown>> | undefined,
  defaultToken: DefaultToken,
): number {
  const at: WalkPosition = { file: null, job: null };
  const shared = { repository, owner: ownerOfName(fullName), taint: new TaintAnalyzer(repository), runs: new RunModel(repository, { defaultToken, repository: fullName }), collector, at };
  const onInvalid = new Hooks<Hook<'invalidFile'>>();
  const onWorkflow = new Hooks<Hook<'workflow'>>();
  const onJob = new Hooks<Hook<'job'>>();
  const onStep = new Hooks<Hook<'step'>>();
  const onAction = new Hooks<Hook<'action'>>();
  const onDependabot = new Hooks<Hook<'dependabot'>>();
  const onDone = new Hooks<Hook<'done'>>();
  const options = ruleOptions === undefined ? defaultOptions(rules) : rules.map((rule) => resolveRuleOptions(rule.meta.id, ruleOptions[rule.meta.id]));
  // Every scan creates every rule's visitor afresh: rules keep per-scan state in their create() closure.
  for (let r = 0; r < rules.length; r++) {
    const rule = rules[r]!;
    const visitor = rule.create(new RuleContext(rule, shared, options[r]!));
    // Every rule's visitor is an object literal (a test checks): its keys, one to three hooks, come from its
    // shape's enum cache. Reading each of the seven hooks by name instead was a megamorphic property load apiece
    // (the visitors have ~160 shapes), about 1,100 per scan and 5% of a one-step workflow's scan in instructions.
    // (`Object.getPrototypeOf` to tell a literal is a runtime call per visitor, so it is not asked.) A visitor
    // whose keys name no hook (no hooks, or methods it inherits) is read by name as before.
    let hooks = 0;
    for (const key in visitor) {
      const fn = visitor[key as keyof WorkflowVisitor];
      switch (key) {
        case 'invalidFile': onInvalid.add(visitor, fn as Hook<'invalidFile'> | undefined); break;
        case 'workflow': onWorkflow.add(visitor, fn as Hook<'workflow'> | undefined); break;
        case 'job': onJob.add(visitor, fn as Hook<'job'> | undefined); break;
        case 'step': onStep.add(visitor, fn as Hook<'step'> | undefined); break;
        case 'action': onAction.add(visitor, fn as Hook<'action'> | undefined); break;
        case 'dependabot': onDependabot.add(visitor, fn as Hook<'dependabot'> | undefined); break;
        case 'done': onDone.add(visitor, fn as Hook<'done'> | undefined); break;
        default: continue;
      }
      hooks++;
    }
    if (hooks > 0) continue;
    onInvalid.add(visitor, visitor.invalidFile);
    onWorkflow.add(visitor, visitor.workflow);
    onJob.add(visitor, visitor.job);
    onStep.add(visitor, visitor.step);
    onAction.add(visitor, visitor.action);
    onDependabot.add(visitor, visitor.dependabot);
    onDone.add(visitor, visitor.done);
  }

  let visited = 0;
  for (const p of parsed) {
    if (stop()) break;
    visited += 1;
    at.file = p.file;
    at.job = null;
    if (p.problem !== null) {
      for (let i = 0; i < onInvalid.fns.length; i++) onInvalid.fns[i]!.call(onInvalid.visitors[i], p.file, p.problem);
      continue;
    }
    const model = p.model;
    if (model?.kind === 'workflow') {
      for (let i = 0; i < onWorkflow.fns.length; i++) onWorkflow.fns[i]!.call(onWorkflow.visitors[i], model);
      for (const job of model.jobs) {
        at.job = job;
        for (let i = 0; i < onJob.fns.length; i++) onJob.fns[i]!.call(onJob.visitors[i], job);
        visitSteps(job.steps, onStep);
      }
      at.job = null;
    } else if (model?.kind === 'action') {
      for (let i = 0; i < onAction.fns.length; i++) onAction.fns[i]!.call(onAction.visitors[i], model);
      visitSteps(model.steps, onStep);
    } else if (model?.kind === 'dependabot') {
      for (let i = 0; i < onDependabot.fns.length; i++) onDependabot.fns[i]!.call(onDependabot.visitors[i], model);
    }
  }
  at.file = null;
  at.job = null;
  for (let i = 0; i < onDone.fns.length; i++) onDone.fns[i]!.call(onDone.visitors[i]);
  return visited;
}

/** The last rule list scanned without rule options, and each rule's default options (most scans: every rule, no options). */
let defaultsFor: { rules: readonly WorkflowRule[]; options: readonly Readonly<Record<string, unknown>>[] } | null = null;

/** Each rule's default options, in order: resolved once per rule list rather than looked up by id in every scan. */
function defaultOptions(rules: readonly WorkflowRule[]): readonly Readonly<Record<string, unknown>>[] {
  if (defaultsFor?.rules === rules) return defaultsFor.options;
  const options = rules.map((rule) => resolveRuleOptions(rule.meta.id, undefined));
  defaultsFor = { rules, options };
  return options;
}

function visitSteps(steps: readonly Step[], onStep: Hooks<Hook<'step'>>): void {
  const { fns, visitors } = onStep;
  for (const step of steps) for (let i = 0; i < fns.length; i++) fns[i]!.call(visitors[i], step);
}

interface Pending {
  finding: Finding;
  job: string | null;
  /** What the run model says of the finding, for the attack paths (FindingRecord.facts). */
  facts: readonly string[] | undefined;
  /** What identifies the finding apart from its line, for the fingerprint. */
  anchor: string;
}

class Collector {
  readonly #pending: Pending[] = [];
  readonly #suppressions = new Map<SourceFile, SuppressionIndex>();
  #suppressed = 0;

  /** The file's suppression comments, parsed on first use. */
  suppressions(file: SourceFile): SuppressionIndex {
    let index = this.#suppressions.get(file);
    if (index === undefined) {
      index = new SuppressionIndex(file);
      this.#suppressions.set(file, index);
    }
    return index;
  }

  addWorkflow(rule: WorkflowRule, file: SourceFile, report: WorkflowReport, job: string | null): void {
    const offset = report.offset ?? report.node.start;
    const { line, column } = file.position(offset);
    if (this.suppressions(file).match(line, rule.meta.id)) {
      this.#suppressed++;
      return;
    }
    const anchor = report.key ?? nodeAnchor(file.text, offset, report.node.end);
    this.add(findingOf(rule.meta, { file: file.path, line, column }, report), job, anchor, report.facts);
  }

  add(finding: Finding, job: string | null, anchor: string, facts?: readonly string[]): void {
    this.#pending.push({ finding, job, anchor, facts });
  }

  result(
    unusedSuppressions: UnusedSuppression[],
    unknownSuppressions: UnusedSuppression[],
    bounds: { maxFindings?: number | undefined; skipped?: Skipped; limitRule?: WorkflowRule | null } = {},
  ): ScanResult {
    const sorted = this.#pending.sort((a, b) => compareFindings(a.finding, b.finding));
    let records: FindingRecord[] = [];
    // One finding per (file, line, column, rule): in this order such findings are neighbours, the most severe
    // first. Settings findings all sit at line 0: there, only an identical finding is a duplicate.
    const seenSettings = new Set<string>();
    let previous: Finding | null = null;
    // Occurrences of each identity (rule, job, anchor) in the file at hand: findings come file by file.
    let seenAnchors = new Map<string, number>();
    for (const { finding: f, job, anchor, facts } of sorted) {
      if (f.line === 0) {
        const position = `${f.file}\0${f.column}\0${f.rule_id}\0${f.description}`;
        if (seenSettings.has(position)) continue;
        seenSettings.add(position);
      } else if (previous !== null && previous.line === f.line && previous.column === f.column && previous.rule_id === f.rule_id && previous.file === f.file) {
        continue;
      }
      if (previous !== null && previous.file !== f.file) seenAnchors = new Map();
      previous = f;
      const identity = `${f.rule_id}\0${job ?? ''}\0${anchor}`;
      const occurrence = seenAnchors.get(identity) ?? 0;
      seenAnchors.set(identity, occurrence + 1);
      const record: FindingRecord = { finding: f, job, fingerprint: findingFingerprint(f.rule_id, f.file, job, anchor, occurrence) };
      if (facts !== undefined && facts.length > 0) record.facts = facts.length === 1 ? [facts[0]!] : [...new Set(facts)].sort();
      records.push(record);
    }
    records = boundRecords(records, bounds);
    const counts = emptyCounts();
    for (const r of records) counts[r.finding.severity]++;
    return { findings: records.map((r) => r.finding), counts, records, suppressed: this.#suppressed, unusedSuppressions, unknownSuppressions };
  }
}

/** The records within `maxFindings` (the most severe kept, in their order), plus the limit finding when something was skipped. */
function boundRecords(records: FindingRecord[], bounds: { maxFindings?: number | undefined; skipped?: Skipped; limitRule?: WorkflowRule | null }): FindingRecord[] {
  const { maxFindings, skipped, limitRule } = bounds;
  let kept = records;
  let dropped = 0;
  const room = maxFindings === undefined ? Infinity : Math.max(0, maxFindings - (limitRule ? 1 : 0));
  if (records.length > room) {
    const bySeverity = records.map((r, i) => ({ r, i })).sort((a, b) => severityRank(a.r.finding.severity) - severityRank(b.r.finding.severity) || a.i - b.i);
    const keep = new Set(bySeverity.slice(0, room).map((x) => x.i));
    kept = records.filter((_, i) => keep.has(i));
    dropped = records.length - kept.length;
  }
  const message = skipped?.describe(dropped, maxFindings) ?? null;
  if (message === null || limitRule === null || limitRule === undefined) return kept;
  const finding = findingOf(limitRule.meta, { file: LIMIT_FILE, line: 0, column: 0 }, { message });
  const limits = [...(skipped?.byLimit.keys() ?? []), ...(dropped > 0 ? ['findings'] : [])].join(',');
  return [...kept, { finding, job: null, fingerprint: hash53(`${limitRule.meta.id}\0${limits}`) }].sort((a, b) => compareFindings(a.finding, b.finding));
}

/** Where the limit finding points: the directory of the files it is about. */
const LIMIT_FILE = '.github/workflows';

/** Code-unit order: stable across locales and runtimes. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** (file, line, column, rule_id), then the most severe first so de-duplication keeps it. */
export function compareFindings(a: Finding, b: Finding): number {
  return (
    compare(a.file, b.file) ||
    a.line - b.line ||
    a.column - b.column ||
    compare(a.rule_id, b.rule_id) ||
    severityRank(a.severity) - severityRank(b.severity) ||
    compare(a.description, b.description)
  );
}

/** The scanned repository's default branch: the caller's, else the settings snapshot's; null when neither says. */
function knownDefaultBranch(options: ScanOptions): string | null {
  const given = options.defaultBranch ?? (options.settings === undefined ? null : settingsDefaultBranch(options.settings));
  return given !== null && isBranchName(given) ? given : null;
}
