import { defineSettingsRule } from '../rule.js';
import { AREA_INFO, readArea, SETTINGS_AREAS, type SettingsArea } from '../settings/areas.js';
import { listing } from '../settings/json.js';
import { assessBypass, assessProtection, REQUIREMENTS } from '../settings/protection.js';
import type { SettingsSnapshot } from '../settings/snapshot.js';
import { branchLabel, visibility } from '../settings/repository.js';

interface Gap {
  reason: string;
  /** The rules whose answer the area would decide. */
  notAssessed: readonly string[];
}

export default defineSettingsRule({
  meta: {
    id: 'settings-unreadable',
    category: 'BEST-PRAC-5',
    title: 'Repository setting could not be read',
    severity: 'INFO',
    surface: 'repo-settings',
    description:
      'An area of the repository settings could not be read (a missing GitHub App permission, a plan limit, or an area absent from the snapshot); the description names the area, the permission it needs and the rules it leaves unassessed.',
    recommendation: 'Grant the GitHub App the permission the description names, or add the area to the settings snapshot.',
  },
  check(snapshot, context) {
    for (const area of SETTINGS_AREAS) {
      const gap = gapOf(snapshot, area);
      if (gap === null) continue;
      const info = AREA_INFO[area];
      const label = info.label.replace('the default branch', branchLabel(snapshot));
      const rules = gap.notAssessed.map((id) => `\`${id}\``);
      context.report({
        key: `area:${area}`,
        message: `${label} could not be read (\`${area}\`: ${gap.reason}). It needs the GitHub App permission "${info.permission}"; until it is readable, ${listing(rules)} ${rules.length === 1 ? 'is' : 'are'} not assessed.`,
        recommendation: `Grant the GitHub App the repository permission "${info.permission}" and accept it on the installation, or, for a snapshot saved by hand, save \`${area}\` from \`${info.source}\` with a token that can read it.`,
      });
    }
  },
});

function gapOf(snapshot: SettingsSnapshot, area: SettingsArea): Gap | null {
  switch (area) {
    case 'security_and_analysis':
      // Covered by the repository's own finding when the whole body is missing.
      if (!readArea(snapshot, 'repository').readable) return null;
      break;
    case 'fork_pr_approval':
    case 'runners':
      // Their rules apply to public repositories only.
      if (visibility(snapshot) === 'private') return null;
      break;
    case 'rulesets': {
      // Needed only for the bypass lists of rulesets that apply to the default branch.
      const bypass = assessBypass(snapshot);
      if (bypass.rulesetsUnknown.length === 0) return null;
      return { reason: bypass.rulesetsReason, notAssessed: ['admin-bypass-allowed'] };
    }
    default:
      break;
  }
  const read = readArea(snapshot, area);
  if (read.readable) return null;
  if (area === 'branch_protection' || area === 'branch_rules') {
    const protection = assessProtection(snapshot);
    const undecided = Object.entries(REQUIREMENTS)
      .filter(([, holds]) => protection.check(holds) === 'undecided')
      .map(([id]) => id);
    return { reason: read.reason, notAssessed: [...undecided, 'admin-bypass-allowed'] };
  }
  return { reason: read.reason, notAssessed: AREA_INFO[area].rules };
}
