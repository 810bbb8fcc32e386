import { defineWorkflowRule } from '../rule.js';
import { get, getPair, getScalar, keyText, type YMap, type YNode } from '../yaml/model.js';

/** A key of the entry, directly or through YAML merge keys (`<<: *defaults`). */
function hasKey(node: YNode | undefined, key: string, depth = 0): boolean {
  if (node?.kind !== 'map' || depth > 8) return false;
  const map: YMap = node;
  return map.pairs.some((p) => {
    const name = keyText(p.key);
    if (name === key) return true;
    if (name !== '<<') return false;
    const merged = p.value.kind === 'seq' ? p.value.items : [p.value];
    return merged.some((m) => hasKey(m, key, depth + 1));
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'dependabot-missing-cooldown',
    category: 'BEST-PRAC-4',
    title: 'Dependency updates adopted with no cooldown',
    severity: 'LOW',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A Dependabot `updates` entry has no `cooldown`, so version updates are proposed the moment a release is published, before a compromised or broken release has usually been noticed and pulled.',
    recommendation:
      'Add a `cooldown` to the entry, for example `cooldown: { default-days: 7 }` (security updates are not delayed by it).',
  },
  create: (context) => ({
    dependabot(config) {
      for (const update of config.updates) {
        if (hasKey(update.node, 'cooldown')) continue;
        // `open-pull-requests-limit: 0` turns version updates off: only security updates remain, which cooldown never delays.
        if (String(getScalar(update.node, 'open-pull-requests-limit')?.value ?? '').trim() === '0') continue;
        const ecosystem = getPair(update.node, 'package-ecosystem');
        const directory = get(update.node, 'directory') ?? get(update.node, 'directories');
        const where = directory?.kind === 'scalar' && directory.value !== null ? ` for \`${String(directory.value)}\`` : '';
        context.report({
          node: ecosystem?.key ?? update.node,
          job: null,
          message: `The \`${update.ecosystem ?? 'unnamed'}\` update entry${where} has no \`cooldown\`: new releases are proposed as soon as they are published.`,
        });
      }
    },
  }),
});
