import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RULES } from '../../../lib/engine/rules/index.js';

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

/** Rules the issues added beyond the spec's catalog (issue 13: the scan limits). */
const BEYOND_SPEC = new Set(['scan-limit-reached']);

describe.skipIf(!available)('the rule registry against ../shared/spec/rules.md', () => {
  it('ships exactly the catalog of the spec, plus the rules issues added: ids, categories, default severities, titles and surfaces', () => {
    const spec = specRows();
    expect(spec).toHaveLength(64);
    expect(RULES.filter((r) => BEYOND_SPEC.has(r.meta.id))).toHaveLength(BEYOND_SPEC.size);
    const shipped = RULES.filter((r) => !BEYOND_SPEC.has(r.meta.id)).map((r) => ({ id: r.meta.id, category: r.meta.category, severity: r.meta.severity, title: r.meta.title, surface: r.meta.surface }));
    expect(shipped).toEqual(spec);
    expect(new Set(shipped.map((r) => r.id)).size).toBe(64);
  });
});

if (!available) it.skip('needs ../shared/spec/rules.md next to the project (absent here)', () => undefined);
