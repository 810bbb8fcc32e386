/** The engine's public surface, shared by the CLI and the API. Pure: no I/O, environment or clock. */
export { scanRepository, classifyPath, type ScanOptions, type ScanResult, type FileKind } from './scan.js';
export { CATALOG, catalogEntry, isKnownRule, ruleMeta, type CatalogRule } from './catalog.js';
export { RULES, WORKFLOW_RULES, SETTINGS_RULES, ruleById } from './rules/index.js';
export type { SettingsSnapshot } from './settings/snapshot.js';
export { findCombinations, countCombinations, compareCombinations, cannotFire, COMBINATION_KINDS, combinationKind } from './combinations/index.js';
export type { Combination } from './combinations/index.js';
export { SETTINGS_AREAS, AREA_INFO, type SettingsArea, type AreaInfo } from './settings/areas.js';
export {
  SEVERITIES,
  SETTINGS_FILE,
  emptyCounts,
  type Counts,
  type Finding,
  type FindingRecord,
  type RepositoryFile,
  type Ruleset,
  type Severity,
  type Surface,
} from './types.js';
