import { defineWorkflowRule } from '../rule.js';
import { get, getPair, getScalar, keyText, type YMap, type YNode } from '../yaml/model.js';

/** The value of a key of the entry, directly or through YAML merge keys (`<<: *defaults`). */
function keyValue(node: YNode | undefined, key: string, depth = 0): YNode | undefined {
  if (node?.kind !== 'map' || depth > 8) return undefined;
  const map: YMap = node;
  for (const p of map.pairs) {
    const name = keyText(p.key);
    if (name === key) return p.value;
    if (name !== '<<') continue;
    const merged = p.value.kind === 'seq' ? p.value.items : [p.value];
    for (const m of merged) {
      const found = keyValue(m, key, depth + 1);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

/** Keys of `cooldown` that delay updates by a number of days. */
const DAY_KEYS = ['default-days', 'semver-major-days', 'semver-minor-days', 'semver-patch-days'];

/** Whether a `cooldown` value delays anything: `cooldown: {}` or days all 0 delay nothing. */
function delays(cooldown: YNode): boolean {
  if (cooldown.kind !== 'map') return cooldown.kind !== 'scalar' || cooldown.value !== null;
  return cooldown.pairs.some((p) => {
    if (!DAY_KEYS.includes(keyText(p.key))) return false;
    const days = p.value.kind === 'scalar' ? Number(p.value.value) : NaN;
    // A non-numeric value (an anchor, a template) is given the benefit of the doubt.
    return Number.isNaN(days) || days > 0;
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
      'A Dependabot `updates` entry has no `cooldown` (or an empty one, `cooldown: {}`, or one whose days are all 0), so version updates are proposed the moment a release is published, before a compromised or broken release has usually been noticed and pulled.',
    recommendation:
      'Add a `cooldown` to the entry, for example `cooldown: { default-days: 7 }` (security updates are not delayed by it).',
  },
  create: (context) => ({
    dependabot(config) {
      for (const update of config.updates) {
        const cooldown = keyValue(update.node, 'cooldown');
        if (cooldown !== undefined && delays(cooldown)) continue;
        // `open-pull-requests-limit: 0` turns version updates off: only security updates remain, which cooldown never delays.
        if (String(getScalar(update.node, 'open-pull-requests-limit')?.value ?? '').trim() === '0') continue;
        const ecosystem = getPair(update.node, 'package-ecosystem');
        const directory = get(update.node, 'directory') ?? get(update.node, 'directories');
        const where = directory?.kind === 'scalar' && directory.value !== null ? ` for \`${String(directory.value)}\`` : '';
        context.report({
          node: ecosystem?.key ?? update.node,
          job: null,
          message:
            cooldown === undefined
              ? `The \`${update.ecosystem ?? 'unnamed'}\` update entry${where} has no \`cooldown\`: new releases are proposed as soon as they are published.`
              : `The \`${update.ecosystem ?? 'unnamed'}\` update entry${where} has a \`cooldown\` that sets no waiting days (\`{}\` or all 0): new releases are proposed as soon as they are published.`,
        });
      }
    },
  }),
});
