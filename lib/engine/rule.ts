import type { TaintAnalyzer } from './expressions/taint.js';
import type { RunModel } from './analysis/run-model/index.js';
import type { RepositoryModel } from './model/repository.js';
import type { Action, Dependabot, Job, Step, Workflow } from './model/workflow.js';
import type { SettingsSnapshot } from './settings/snapshot.js';
import type { Finding, Severity, Surface } from './types.js';
import type { ParseProblem } from './yaml/parse.js';
import type { SourceFile } from './yaml/source.js';
import type { YNode } from './yaml/model.js';
import type { RuleOptionsSchema } from './rule-options.js';

/** What a rule is, once: the catalog, CLI listing, SARIF rules and docs are derived from it. */
export interface RuleMeta<S extends Surface = Surface> {
  id: string;
  category: string;
  title: string;
  /** Default severity; a finding may refine it where the catalog says so. */
  severity: Severity;
  surface: S;
  /** What the rule detects, one or two sentences (the catalog's `description`). */
  description: string;
  /** What to do about a finding, unless the finding says something more specific. */
  recommendation: string;
  /** The rule has a fix (`fixes/by-rule/<id>.ts`, registered in `fixes/index.ts`); `safe`: kept by plain `--fix`. */
  fix?: { safe: boolean };
  /**
   * A hygiene rule (INFO, no attack behind it). It runs like every rule (turned off by `--disable`, the config
   * or a rule preference) and never takes part in an attack path.
   */
  pedantic?: boolean;
}

/** A workflow-surface finding as a rule reports it: a node (or an offset inside one), never a line. */
export interface WorkflowReport {
  node: YNode;
  /** A precise offset inside `node` (for instance a `${{` inside a `run:` script); defaults to the node's start. */
  offset?: number;
  /** The finding's description: what is wrong here, concretely. */
  message: string;
  severity?: Severity;
  recommendation?: string;
  /** The job the finding is bound to; defaults to the job being visited (null outside jobs). */
  job?: Job | null;
  /** The file of `node`; defaults to the file being visited. */
  file?: SourceFile;
  /** A stable, line-independent identity for the fingerprint; defaults to the reported text. */
  key?: string;
  /** Facts of the run model the attack paths check (FindingRecord.facts); see analysis/run-model/facts.ts. */
  facts?: readonly string[];
}

export interface WorkflowRuleContext {
  readonly repository: RepositoryModel;
  /** The scanned repository's owner, lower-cased, when the caller named the repository (`ScanOptions.repository`). */
  readonly owner?: string | null;
  readonly taint: TaintAnalyzer;
  /** The model of each job run: reach, workspace, executions, holdings (analysis/run-model). */
  readonly runs: RunModel;
  /**
   * The rule's options (`WorkflowRule.options`) as the caller set them, with the schema's defaults filled in;
   * `{}` for a rule without options.
   */
  readonly options: Readonly<Record<string, unknown>>;
  report(report: WorkflowReport): void;
}

/**
 * Hooks a workflow rule may implement; the engine walks every file once and calls them in order:
 * workflow -> job -> step for workflows, action -> step for composite actions, then `done`.
 */
export interface WorkflowVisitor {
  /** A file that could not be parsed or is not a mapping. */
  invalidFile?(file: SourceFile, problem: ParseProblem): void;
  workflow?(workflow: Workflow): void;
  job?(job: Job): void;
  /** Steps of workflow jobs (`step.job` set) and of composite actions (`step.job` null). */
  step?(step: Step): void;
  action?(action: Action): void;
  dependabot?(config: Dependabot): void;
  /** After every file: for rules that need the whole repository. */
  done?(): void;
}

export interface WorkflowRule {
  meta: RuleMeta<'workflow'>;
  /**
   * The options the rule takes: the same schema as `RULE_OPTIONS[meta.id]` (lib/engine/rule-options.ts), where
   * the config file and the API validate options without loading the rules.
   */
  options?: RuleOptionsSchema;
  create(context: WorkflowRuleContext): WorkflowVisitor;
}

export interface SettingsReport {
  message: string;
  severity?: Severity;
  recommendation?: string;
  /** Stable identity for the fingerprint (e.g. a webhook id); defaults to the rule id. */
  key?: string;
}

export interface SettingsRuleContext {
  report(report: SettingsReport): void;
}

export interface SettingsRule {
  meta: RuleMeta<'repo-settings'>;
  check(snapshot: SettingsSnapshot, context: SettingsRuleContext): void;
  /**
   * Workflows that undo the setting the rule checks (a workflow that approves fork pull requests' runs itself):
   * visited like a workflow rule's, in every scan, with or without a settings snapshot; their findings carry this
   * rule's id, at a line of the workflow.
   */
  workflows?(context: WorkflowRuleContext): WorkflowVisitor;
}

export type Rule = WorkflowRule | SettingsRule;

export function defineWorkflowRule(rule: WorkflowRule): WorkflowRule {
  return rule;
}

export function defineSettingsRule(rule: SettingsRule): SettingsRule {
  return rule;
}

/** A finding in the public shape from a rule's metadata, a position and what the rule reported. */
export function findingOf(
  meta: RuleMeta,
  at: { file: string; line: number; column: number },
  report: { message: string; severity?: Severity | undefined; recommendation?: string | undefined },
): Finding {
  return {
    file: at.file,
    line: at.line,
    column: at.column,
    severity: report.severity ?? meta.severity,
    category: meta.category,
    rule_id: meta.id,
    title: meta.title,
    description: report.message,
    recommendation: report.recommendation ?? meta.recommendation,
  };
}
