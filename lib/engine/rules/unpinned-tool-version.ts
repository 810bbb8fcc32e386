import { expandMatrix } from '../analysis/matrix-values.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { getPair, scalarText, type YNode } from '../yaml/model.js';

interface SetupAction {
  /** Inputs that choose the version (a version or a version file). */
  inputs: string[];
  /** Inputs whose value is the version itself (checked for `latest` and friends). */
  versionInputs: string[];
  /**
   * What the action does with no version input: `floating` (latest release or the runner's preinstalled
   * tool, so a finding) or `file` (reads a version file such as `.ruby-version`, which the scan cannot see, so none).
   */
  whenMissing: 'floating' | 'file';
  /** Language whose whole major line is one floating target (`3.x` for Python, `1.x` for Go). */
  wholeMajor?: string;
}

const SETUP_ACTIONS: Record<string, SetupAction> = {
  'actions/setup-node': { inputs: ['node-version', 'node-version-file'], versionInputs: ['node-version'], whenMissing: 'floating' },
  'actions/setup-go': { inputs: ['go-version', 'go-version-file'], versionInputs: ['go-version'], whenMissing: 'floating', wholeMajor: '1' },
  'actions/setup-java': { inputs: ['java-version', 'java-version-file'], versionInputs: ['java-version'], whenMissing: 'floating' },
  // setup-python reads `.python-version`, setup-dotnet `global.json`, when no version is given.
  'actions/setup-python': { inputs: ['python-version', 'python-version-file'], versionInputs: ['python-version'], whenMissing: 'file', wholeMajor: '3' },
  'actions/setup-dotnet': { inputs: ['dotnet-version', 'global-json-file'], versionInputs: ['dotnet-version'], whenMissing: 'file' },
  'ruby/setup-ruby': { inputs: ['ruby-version'], versionInputs: ['ruby-version'], whenMissing: 'file' },
  'pnpm/action-setup': { inputs: ['version'], versionInputs: ['version'], whenMissing: 'file' },
  'oven-sh/setup-bun': { inputs: ['bun-version', 'bun-version-file'], versionInputs: ['bun-version'], whenMissing: 'file' },
  'denoland/setup-deno': { inputs: ['deno-version', 'deno-version-file'], versionInputs: ['deno-version'], whenMissing: 'file' },
  'astral-sh/setup-uv': { inputs: ['version', 'version-file'], versionInputs: ['version'], whenMissing: 'file' },
  'shivammathur/setup-php': { inputs: ['php-version', 'php-version-file'], versionInputs: ['php-version'], whenMissing: 'file' },
  'hashicorp/setup-terraform': { inputs: ['terraform_version'], versionInputs: ['terraform_version'], whenMissing: 'floating' },
  'azure/setup-helm': { inputs: ['version'], versionInputs: ['version'], whenMissing: 'floating' },
  'azure/setup-kubectl': { inputs: ['version'], versionInputs: ['version'], whenMissing: 'floating' },
  'haskell-actions/setup': { inputs: ['ghc-version'], versionInputs: ['ghc-version'], whenMissing: 'floating' },
  'erlef/setup-beam': { inputs: ['otp-version', 'elixir-version', 'version-file'], versionInputs: ['otp-version', 'elixir-version'], whenMissing: 'file' },
};

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
  const setup = SETUP_ACTIONS[slug];
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
      'A `setup-*` action is given no version (and does not read a version file by default) or a floating one such as `latest`, `lts/*`, `stable` or `3.x`, so the toolchain changes under the build whenever a new release ships.',
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
