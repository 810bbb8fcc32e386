import type { SettingsReport, SettingsRule } from '../rule.js';
import { SETTINGS_FILE, type Finding } from '../types.js';
import type { SettingsSnapshot } from './snapshot.js';

/** Runs the settings rules over a snapshot; each finding comes with its fingerprint anchor. */
export function runSettingsRules(rules: readonly SettingsRule[], snapshot: SettingsSnapshot): { finding: Finding; anchor: string }[] {
  const out: { finding: Finding; anchor: string }[] = [];
  for (const rule of rules) {
    rule.check(snapshot, {
      report: (report: SettingsReport) => {
        out.push({
          finding: {
            file: SETTINGS_FILE,
            line: 0,
            column: 0,
            severity: report.severity ?? rule.meta.severity,
            category: rule.meta.category,
            rule_id: rule.meta.id,
            title: rule.meta.title,
            description: report.message,
            recommendation: report.recommendation ?? rule.meta.recommendation,
          },
          anchor: report.key ?? rule.meta.id,
        });
      },
    });
  }
  return out;
}
