import { expandMatrix } from '../analysis/matrix-values.js';
import { SETUP_ACTION_BY_SLUG, type SetupAction } from '../data/setup-actions.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getPair, scalarText, type YNode } from '../yaml/model.js';

/** Version specs that follow new releases across the tool's release lines. */
const FLOATING = /^(latest|\*|x|x\.x(\.x)?|v?x\.x\.x|node|current|lts\/\*|stable|oldstable|>=?\s*[\d.]+)$/i;

export function isFloating(value: string, wholeMajor?: string): boolean {
  const v = value.trim();
  if (FLOATING.test(v)) return true;
  return wholeMajor !== undefined && new RegExp(`^v?${wholeMajor}(\\.x)?$`, 'i').test(v);
}

function setupOf(step: Step): { slug: string; setup: SetupAction } | null {
  if (step.usesRef?.kind !== 'repository') return null;
  const slug = step.usesRef.slug;
  const setup = SETUP_ACTION_BY_SLUG.get(slug);
  return setup === undefined || step.usesRef.path !== '' ? null : { slug, setup };
}

/** The values a version input can take: list items for inputs that accept several, matrix values expanded. */
function values(step: Step, node: YNode): string[] | null {
  const text = scalarText(node);
  if (text === null) return null;
  const candidates = text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '');
  const result: string[] = [];
  for (const candidate of candidates) {
    const expanded = candidate.includes('${{') ? expandMatrix(step.job, candidate) : [candidate];
    if (expanded === null) return null;
    result.push(...expanded);
  }
  return result;
}

export default defineWorkflowRule({
  meta: {
    id: 'unpinned-tool-version',
    category: 'BEST-PRAC-4',
    title: 'Toolchain version left floating',
    severity: 'LOW',
    surface: 'workflow',
    description:
      'A `setup-*` action or a tool installer (`aquasecurity/setup-trivy`, `1password/load-secrets-action`; a table with a source per entry, in the rule\'s documentation) is given no version (and does not read a version file by default) or a floating one such as `latest`, `lts/*`, `stable` or `3.x`, so the toolchain changes under the build whenever a new release ships.',
    recommendation:
      'Set an explicit version line (`node-version: 22`, `python-version: "3.13"`, `go-version-file: go.mod`) or point the action at a version file committed in the repository.',
  },
  create: (context) => ({
    step(step) {
      const found = setupOf(step);
      if (found === null || step.uses === undefined) return;
      const { slug, setup } = found;
      const given = setup.inputs
        .map((name) => getPair(step.with, name))
        .filter((p) => p !== undefined && (p.value.kind !== 'scalar' || (scalarText(p.value)?.trim() ?? '') !== ''));
      if (given.length === 0) {
        if (setup.whenMissing === 'file') return;
        context.report({
          node: step.uses,
          message: `\`${slug}\` is given no ${setup.inputs.map((i) => `\`${i}\``).join(' or ')}, so the job uses whatever version the runner image or the latest release provides.`,
        });
        return;
      }
      for (const name of setup.versionInputs) {
        const pair = getPair(step.with, name);
        if (pair === undefined) continue;
        const list = values(step, pair.value);
        const floating = [...new Set((list ?? []).filter((v) => isFloating(v, setup.wholeMajor)))];
        if (floating.length === 0) continue;
        context.report({
          node: pair.value,
          message: `\`${slug}\` input \`${name}\` is ${floating.map((v) => `\`${v}\``).join(', ')}, a version that moves to each new release.`,
        });
      }
    },
  }),
});
