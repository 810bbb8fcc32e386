import { findingOf, type SettingsReport, type SettingsRule } from '../rule.js';
import { SETTINGS_FILE, type Finding } from '../types.js';
import type { SettingsSnapshot } from './snapshot.js';

/** Runs the settings rules over a snapshot; each finding comes with its fingerprint anchor. */
export function runSettingsRules(rules: readonly SettingsRule[], snapshot: SettingsSnapshot): { finding: Finding; anchor: string }[] {
  const out: { finding: Finding; anchor: string }[] = [];
  for (const rule of rules) {
    rule.check(snapshot, {
      report: (report: SettingsReport) => {
        out.push({
          finding: findingOf(rule.meta, { file: SETTINGS_FILE, line: 0, column: 0 }, report),
          anchor: report.key ?? rule.meta.id,
        });
      },
    });
  }
  return out;
}
