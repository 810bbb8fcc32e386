import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SETTINGS_RULES } from '../../../../lib/engine/rules/index.js';
import { AREA_INFO, readArea, SETTINGS_AREAS } from '../../../../lib/engine/settings/areas.js';
import type { SettingsSnapshot } from '../../../../lib/engine/settings/snapshot.js';
import { allSettingsFindings } from '../../../support/settings.js';

describe('readArea', () => {
  it('returns the stored body of a readable area', () => {
    expect(readArea({ hooks: [{ id: 1 }, 'junk'] }, 'hooks')).toEqual({ readable: true, value: [{ id: 1 }] });
    expect(readArea({ vulnerability_alerts: false }, 'vulnerability_alerts')).toEqual({ readable: true, value: false });
    expect(readArea({ branch_protection: null }, 'branch_protection')).toEqual({ readable: true, value: null });
  });

  it('reads an absent key, a null and a value of the wrong type as unreadable, with a reason', () => {
    expect(readArea({}, 'hooks')).toEqual({ readable: false, reason: 'the snapshot has no `hooks`' });
    expect(readArea({ repository: null }, 'repository')).toEqual({ readable: false, reason: "the snapshot's `repository` is null, not an object" });
    expect(readArea({ hooks: {} } as unknown as SettingsSnapshot, 'hooks')).toEqual({ readable: false, reason: "the snapshot's `hooks` is an object, not an array" });
    expect(readArea({ codeowners: 'yes' } as unknown as SettingsSnapshot, 'codeowners').readable).toBe(false);
  });

  it('prefers an `unreadable` entry over a value, and defaults an empty reason', () => {
    expect(readArea({ codeowners: true, unreadable: { codeowners: 'rate limited' } }, 'codeowners')).toEqual({ readable: false, reason: 'rate limited' });
    expect(readArea({ codeowners: true, unreadable: { codeowners: '' } }, 'codeowners')).toEqual({ readable: false, reason: 'marked unreadable' });
  });

  it("turns GitHub's error bodies into reasons, except 404 \"Branch not protected\"", () => {
    const error = (message: string) => ({ message, documentation_url: 'https://docs.github.com/rest', status: '404' });
    expect(readArea({ branch_protection: error('Branch not protected') }, 'branch_protection')).toEqual({ readable: true, value: null });
    expect(readArea({ branch_protection: error('Not Found') }, 'branch_protection')).toEqual({ readable: false, reason: 'GitHub answered "Not Found"' });
    expect(readArea({ hooks: error('Not Found') } as unknown as SettingsSnapshot, 'hooks').readable).toBe(false);
  });

  it('reads security_and_analysis from the repository, unreadable when GitHub left it out', () => {
    expect(readArea({ repository: { security_and_analysis: { secret_scanning: { status: 'enabled' } } } }, 'security_and_analysis')).toEqual({
      readable: true,
      value: { secret_scanning: { status: 'enabled' } },
    });
    expect(readArea({ repository: { security_and_analysis: null } }, 'security_and_analysis').readable).toBe(false);
    expect(readArea({ repository: { security_and_analysis: {} }, unreadable: { repository: 'x' } }, 'security_and_analysis')).toEqual({ readable: false, reason: 'x' });
  });

  it('survives a snapshot that is not an object', () => {
    for (const snapshot of [null, [], 'x', 3]) expect(readArea(snapshot as unknown as SettingsSnapshot, 'hooks').readable).toBe(false);
  });
});

describe('AREA_INFO', () => {
  it('maps every settings rule but settings-unreadable to the areas it reads', () => {
    const mapped = new Set(SETTINGS_AREAS.flatMap((area) => AREA_INFO[area].rules));
    const ids = SETTINGS_RULES.map((r) => r.meta.id).filter((id) => id !== 'settings-unreadable');
    expect([...mapped].sort()).toEqual([...ids].sort());
  });
});

describe('lib/engine/settings/README.md', () => {
  const readme = readFileSync(fileURLToPath(new URL('../../../../lib/engine/settings/README.md', import.meta.url)), 'utf8');

  it('documents every area with its permission', () => {
    for (const area of SETTINGS_AREAS) {
      expect(readme).toContain(`\`${area}\``);
      expect(readme).toContain(AREA_INFO[area].permission);
    }
  });

  it('holds a full example snapshot that reads as documented', () => {
    const example = /^```json\n([\s\S]*?)^```/m.exec(readme)?.[1];
    expect(example).toBeDefined();
    const snapshot = JSON.parse(example ?? '') as SettingsSnapshot;
    for (const area of SETTINGS_AREAS) expect(area in snapshot || area === 'security_and_analysis' || area in (snapshot.unreadable ?? {}), area).toBe(true);
    // As the README says: one finding, for the area the example marks unreadable.
    const findings = allSettingsFindings(snapshot);
    expect(findings.map((f) => f.rule_id)).toEqual(['settings-unreadable']);
    expect(findings.map((f) => /\(`(\w+)`:/.exec(f.description)?.[1])).toEqual(Object.keys(snapshot.unreadable ?? {}));
  });
});
