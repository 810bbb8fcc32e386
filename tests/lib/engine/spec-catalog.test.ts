import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../lib/engine/rules/index.js';
import { skipReason } from '../../support/skips.js';

const specPath = fileURLToPath(new URL('../../../../shared/spec/rules.md', import.meta.url));
const available = existsSync(specPath);

/** Rows of the spec's two rule tables: `| \`id\` | category | severity | title | ... |`. */
function specRows(): { id: string; category: string; severity: string; title: string; surface: string }[] {
  const spec = readFileSync(specPath, 'utf8');
  const [workflow = '', settings = ''] = spec.split('## Repository-settings surface');
  const rows = (section: string, surface: string) =>
    [...section.matchAll(/^\| `([a-z0-9-]+)` \| (\S+) \| (\w+) \| (.+?) \| .+ \|$/gm)].map((m) => ({
      id: m[1] ?? '',
      category: m[2] ?? '',
      severity: m[3] ?? '',
      title: (m[4] ?? '').replaceAll('\\|', '|').replaceAll('`', ''),
      surface,
    }));
  return [...rows(workflow, 'workflow'), ...rows(settings, 'repo-settings')];
}

/** Rules added after the spec's catalog (issue 13: the scan limits; issue 17: checks the peer scanners have), in registry order. */
const EXTENSIONS: readonly string[] = [
  'scan-limit-reached',
  'forbidden-uses',
  'self-repository',
  'archived-action',
  'superfluous-action',
  'undocumented-permissions',
  'secrets-outside-env',
  'anonymous-definition',
  'misfeature',
  'unpinnable-action',
  'agent-untrusted-input',
  'provenance-not-isolated',
  'attestation-missing-oidc',
  'provenance-not-verified',
  'impostor-commit',
  'ref-confusion',
  'stale-action-ref',
  'ref-version-mismatch',
  'online-audit-incomplete',
];

/**
 * Titles changed on purpose since the spec was written, each with the title it had there: the spec's title for
 * overprovisioned-secrets names one of the three things it reports (the whole `secrets` context), and users read
 * it above findings about a single secret in the workflow-level `env:`.
 */
const RETITLED: Record<string, { spec: string; shipped: string }> = {
  'overprovisioned-secrets': { spec: 'Whole secrets context exposed', shipped: 'Secrets exposed beyond the steps that use them' },
};

describe.skipIf(!available)(`the rule registry against ../shared/spec/rules.md${skipReason(available ? null : 'needs ../shared/spec/rules.md beside the project')}`, () => {
  it('ships the catalog of the spec (ids, categories, default severities, titles and surfaces) and the listed extensions', () => {
    const spec = specRows();
    expect(spec).toHaveLength(64);
    const specIds = new Set(spec.map((r) => r.id));
    const shipped = RULES.map((r) => ({ id: r.meta.id, category: r.meta.category, severity: r.meta.severity, title: RETITLED[r.meta.id]?.spec ?? r.meta.title, surface: r.meta.surface }));
    for (const [id, { shipped: title }] of Object.entries(RETITLED)) expect(RULES.find((r) => r.meta.id === id)?.meta.title).toBe(title);
    expect(shipped.filter((r) => specIds.has(r.id))).toEqual(spec);
    expect(shipped.filter((r) => !specIds.has(r.id)).map((r) => r.id)).toEqual(EXTENSIONS);
    expect(new Set(shipped.map((r) => r.id)).size).toBe(64 + EXTENSIONS.length);
  });
});

