import type { Finding, Severity } from '../types.js';

/** Severity of a kind of combination in the catalog: what its chain is worth when its way in is as strong as the kind presumes. */
export const KIND_SEVERITIES = ['CRITICAL', 'HIGH'] as const;
export type KindSeverity = (typeof KIND_SEVERITIES)[number];

/**
 * Severity of one combination (an attack path found): its kind's, or lower when the way in is weaker than the
 * kind presumes (`pathSeverity` in detect.ts). Ordered most severe first.
 */
export const COMBINATION_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM'] as const;
export type CombinationSeverity = (typeof COMBINATION_SEVERITIES)[number];

/**
 * `file`: the workflow ingredients come from one file and, where two are bound to jobs, the same job;
 * `repo`: from any file of the repository and its settings, at most one instance per repository.
 */
export type CombinationScope = 'file' | 'repo';

/**
 * Only findings of `rule_id` at least as severe as `min_severity` take part: the catalog gives each case
 * of a rule its own severity, so the stored severity tells the cases apart.
 */
export interface InstanceQualifier {
  rule_id: string;
  min_severity: Severity;
  /**
   * Severities that stand for another case of the rule and never qualify, whatever `min_severity` says
   * (`self-hosted-runner` MEDIUM: a label that may be a GitHub-hosted larger runner, not a machine that persists).
   */
  except_severities?: readonly Severity[];
  /** The case in words, e.g. "third-party action". */
  instance: string;
  /**
   * Facts of the run model the finding must carry (FindingRecord.facts), each entry one fact or alternatives
   * separated by `|` (`reach:anyone|reach:sticky-label`): `exec` for a checkout whose code a later step runs.
   */
  facts?: readonly string[];
  /**
   * The finding must be one that a component of `rule_id` names: that component carries the fact
   * `<fact>:<file>#<job>` of this finding's file and job (a release's cache-poisoning finding names the jobs
   * that write the cache it restores, `writer:<file>#<job>`). Links two ends the run model proves belong together.
   */
  named_by?: { rule_id: string; fact: string };
  /**
   * Facts the chain's entry (the component of the kind's first group) must carry for this finding to join it:
   * what this finding offers must be what the entry's job run holds (`holds:secrets` for a `secrets-inherit`
   * joining a pull request checkout, `token:default` for the settings' read-write default token).
   */
  entry_facts?: readonly string[];
  /**
   * Of the qualifying findings, one carrying one of these facts is taken first (`publisher`: the action that
   * itself publishes, before the first mutable action of the job).
   */
  prefer_facts?: readonly string[];
}

/** One step of the attack as the kind tells it, shown when its rule is a component. */
export interface StageTemplate {
  rule_id: string;
  title: string;
  description: string;
  /** Sentences added to the description when the stage's finding carries the fact (first match only). */
  notes?: readonly { fact: string; text: string }[];
}

export interface BreakChainAdvice {
  rule_id: string;
  advice: string;
  /**
   * The entry applies only when this holds (else the next matching entry is taken): the component of
   * `rule_id` carries `facts` (a runner that already runs an outsider's code: `exec`), or the job of the chain
   * holds more than one qualifying finding of the `several` rules (pinning one mutable input leaves the others).
   */
  when?: { facts?: readonly string[]; several?: readonly string[] };
  /**
   * The advice is followed by the job's qualifying findings of the `several` rules, by line (`Here: the unverified
   * downloads at lines 14 and 30, the action on a tag or branch at line 12.`), or their count when there are many.
   */
  list?: boolean;
}

/**
 * One impact of a kind, taken when `when` holds: a component of `rule_id` carries every fact of `facts` (each one
 * fact or alternatives separated by `|`), or, with `in_job`, a finding of `rule_id` is
 * bound to the job of the chain's first component.
 */
export interface ImpactVariant {
  when: { rule_id: string; facts?: readonly string[]; in_job?: boolean };
  impact: string;
}

/** A kind of combination, exactly as the static catalog exports it (JSON-ready). */
export interface CombinationKind {
  id: string;
  title: string;
  severity: KindSeverity;
  scope: CombinationScope;
  /** AND of OR-groups of rule ids; within a group, earlier alternatives are preferred. */
  requires: readonly (readonly string[])[];
  /** Rules whose findings are appended as components when present; never required. */
  amplifiers: readonly string[];
  qualifiers: readonly InstanceQualifier[];
  /**
   * The fix that breaks the chain. One entry for most kinds; where the chain breaks at whichever of
   * several alternatives matched (`compromised-action`), one per alternative, and an instance takes the
   * first entry whose rule is one of its components (else the first entry).
   */
  break_chain: readonly BreakChainAdvice[];
  /** What the attacker ends with, one sentence: the description of the final stage. */
  impact: string;
  /**
   * Impacts that replace `impact` when the components show (or fail to show) the facts a clause of it claims:
   * the first variant whose condition holds is taken. A clause no component backs is never claimed.
   */
  impact_variants?: readonly ImpactVariant[];
  /** Short title of the final stage. */
  impact_title: string;
  /** The story in attack order; one template per rule of `requires` and `amplifiers`. */
  stages: readonly StageTemplate[];
  /**
   * Who starts the chain, in words ("an outside GitHub user", "a compromised upstream"); when absent it is
   * derived from the required rules (see `attackerOf`).
   */
  attacker?: string;
}

export interface CombinationStage {
  order: number;
  title: string;
  description: string;
  /** The rule of the component this stage stands for; the empty string for the final impact stage. */
  rule_id: string;
}

export interface CombinationComponent {
  rule_id: string;
  finding: Finding;
}

/** A combination as the API (`GET /api/repositories/{id}/combos`) and the CLI's JSON output show it. */
export interface Combination {
  id: string;
  title: string;
  severity: CombinationSeverity;
  scope: CombinationScope;
  /**
   * The workflow file the combination concerns. For `repo` scope: the file of the first component that
   * is not a settings finding, or `<repository settings>` when every component is one.
   */
  file: string;
  impact: string;
  break_chain: string;
  break_chain_rule: string;
  stages: CombinationStage[];
  components: CombinationComponent[];
}
