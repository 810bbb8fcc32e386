/** Toxic combinations (attack paths): the static catalog of kinds and the detection over findings. Pure. */
export { COMBINATION_KINDS, combinationKind } from './catalog.js';
export { cannotFire, compareCombinations, countCombinations, findCombinations, type RuleEnabled } from './detect.js';
export { kindsMarkdown } from './doc.js';
export {
  COMBINATION_SEVERITIES,
  type BreakChainAdvice,
  type Combination,
  type CombinationComponent,
  type CombinationKind,
  type CombinationScope,
  type CombinationSeverity,
  type CombinationStage,
  type InstanceQualifier,
  type StageTemplate,
} from './types.js';
