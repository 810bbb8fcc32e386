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

/**
 * The shortest wait worth the name: malicious or broken releases are usually reported and pulled within a day
 * or two of publication, so a cooldown below this many days rarely outlasts them. GitHub's own example waits
 * 5 days (docs: Dependabot options reference, `cooldown`).
 */
export const MIN_COOLDOWN_DAYS = 3;

/**
 * The `default-days` (else every semver key) of a cooldown, when all are numbers below MIN_COOLDOWN_DAYS and one
 * of them waits at all: `{ node, days }` of the longest; null otherwise (long enough, or not a number).
 */
function shortWait(cooldown: YNode): { node: YNode; days: number } | null {
  if (cooldown.kind !== 'map') return null;
  const pairs = cooldown.pairs.filter((p) => DAY_KEYS.includes(keyText(p.key)));
  const defaults = pairs.filter((p) => keyText(p.key) === 'default-days');
  const decisive = defaults.length > 0 ? defaults : pairs;
  let longest: { node: YNode; days: number } | null = null;
  for (const p of decisive) {
    const days = p.value.kind === 'scalar' ? Number(p.value.value) : NaN;
    if (Number.isNaN(days) || days >= MIN_COOLDOWN_DAYS) return null;
    if (longest === null || days > longest.days) longest = { node: p.value, days };
  }
  return longest !== null && longest.days > 0 ? longest : null;
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
      'A Dependabot `updates` entry has no `cooldown` (or an empty one, `cooldown: {}`, or one whose days are all 0), so version updates are proposed the moment a release is published, before a compromised or broken release has usually been noticed and pulled; or its cooldown waits fewer than 3 days, which rarely outlasts such a release.',
    recommendation:
      'Add a `cooldown` to the entry, for example `cooldown: { default-days: 7 }` (security updates are not delayed by it).',
  },
  create: (context) => ({
    dependabot(config) {
      for (const update of config.updates) {
        const cooldown = keyValue(update.node, 'cooldown');
        const short = cooldown === undefined ? null : shortWait(cooldown);
        if (cooldown !== undefined && delays(cooldown) && short === null) continue;
        // `open-pull-requests-limit: 0` turns version updates off: only security updates remain, which cooldown never delays.
        if (String(getScalar(update.node, 'open-pull-requests-limit')?.value ?? '').trim() === '0') continue;
        // An entry that ignores every dependency (`dependency-name: "*"` with no `versions` or `update-types`, which
        // would narrow it) proposes no version update either; security updates are not ignored by it nor delayed.
        if (ignoresEverything(update.node)) continue;
        const ecosystem = getPair(update.node, 'package-ecosystem');
        const directory = get(update.node, 'directory') ?? get(update.node, 'directories');
        const where = directory?.kind === 'scalar' && directory.value !== null ? ` for \`${String(directory.value)}\`` : '';
        if (short !== null) {
          context.report({
            node: short.node,
            job: null,
            message: `The \`${update.ecosystem ?? 'unnamed'}\` update entry${where} waits only ${short.days} day${short.days === 1 ? '' : 's'} before proposing a new release: a compromised or broken release is usually noticed and pulled within a few days, so a cooldown shorter than ${MIN_COOLDOWN_DAYS} days rarely outlasts it.`,
            recommendation: `Raise the cooldown to at least ${MIN_COOLDOWN_DAYS} days (for example \`default-days: 7\`); security updates are not delayed by it.`,
            key: `short:${update.ecosystem ?? ''}:${where}`,
          });
          continue;
        }
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

/**
 * True when an update entry's `ignore:` holds a `dependency-name: "*"` condition with no `versions` and no
 * `update-types`: every version update is ignored (https://docs.github.com/en/code-security/dependabot/working-with-dependabot/dependabot-options-reference#ignore--).
 */
function ignoresEverything(update: YNode): boolean {
  const ignore = get(update, 'ignore');
  if (ignore?.kind !== 'seq') return false;
  return ignore.items.some((item) => {
    if (item.kind !== 'map') return false;
    const name = getScalar(item, 'dependency-name')?.value;
    return typeof name === 'string' && name.trim() === '*' && get(item, 'versions') === undefined && get(item, 'update-types') === undefined;
  });
}
