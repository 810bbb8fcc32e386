import type { UsesRef } from '../model/uses.js';
import { isFullSha } from '../model/uses.js';
import type { YScalar } from '../yaml/model.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { UnpinnedActionOptions } from '../rule-options.js';

/** Owners whose actions GitHub itself publishes: a moved tag there is a far smaller risk. */
const GITHUB_OWNERS = new Set(['actions', 'github']);

export default defineWorkflowRule({
  options: UnpinnedActionOptions,
  meta: {
    id: 'unpinned-action',
    category: 'CICD-SEC-3',
    title: 'Action not pinned to a full commit SHA',
    severity: 'MEDIUM',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A step `uses:` an action, or a job calls a reusable workflow, by a tag, branch or short SHA instead of a full 40-character commit SHA, so whoever can move that ref decides what code runs with the job\'s token and secrets.',
    recommendation:
      'Pin the reference to the full commit SHA of the release you reviewed and keep the tag as a comment (`uses: owner/repo@<40-hex-sha> # v1.2.3`); let Dependabot or Renovate update the pin.',
  },
  create: (context) => {
    const trusted = new Set((context.options as UnpinnedActionOptions)['trusted-owners'].map((o) => o.toLowerCase()));
    return {
      job(job) {
        if (job.uses !== undefined && job.usesRef !== undefined) check(context, job.uses, job.usesRef, trusted);
      },
      step(step) {
        if (step.uses !== undefined && step.usesRef !== undefined) check(context, step.uses, step.usesRef, trusted);
      },
    };
  },
});

/**
 * The SLSA generator's builders verify the ref they were called at and only accept release tags
 * (its documentation asks for `@vX.Y.Z`; OpenSSF Scorecard exempts it for the same reason).
 */
function isSlsaReleaseTag(ref: Extract<UsesRef, { kind: 'repository' }>): boolean {
  return `${ref.owner}/${ref.repo}`.toLowerCase() === 'slsa-framework/slsa-github-generator' && /^v\d+\.\d+\.\d+$/.test(ref.ref);
}

/**
 * `owner/repo/<path>@ref` where `<path>` is a local action or workflow of the scanned repository: the
 * repository referencing its own code (a test of its own action, its own reusable workflow), which
 * changes only through commits to this same repository.
 */
function isSelfReference(context: WorkflowRuleContext, ref: Extract<UsesRef, { kind: 'repository' }>): boolean {
  if (ref.path === '') return false;
  const path = ref.path.replace(/\/+$/, '');
  return context.repository.actions.some((a) => a.directory === path) || context.repository.workflows.some((w) => w.file.path === path);
}

function check(context: WorkflowRuleContext, node: YScalar, ref: UsesRef, trustedOwners: ReadonlySet<string>): void {
  // Local actions live in the repository itself; `docker://` images belong to unpinned-image.
  if (ref.kind !== 'repository' || isFullSha(ref.ref)) return;
  if (isSlsaReleaseTag(ref) || isSelfReference(context, ref)) return;
  // The team's `trusted-owners` option: their actions may be used by tag.
  if (trustedOwners.has(ref.owner.toLowerCase())) return;
  const target = `${ref.owner}/${ref.repo}${ref.path === '' ? '' : `/${ref.path}`}`;
  const what = ref.isWorkflow ? `Reusable workflow \`${target}\`` : `Action \`${target}\``;
  const how = /^[0-9a-f]{7,39}$/i.test(ref.ref)
    ? `\`${ref.ref}\`, a shortened SHA that GitHub only resolves as a tag or branch of that name`
    : `the mutable ref \`${ref.ref}\``;
  const githubOwned = GITHUB_OWNERS.has(ref.owner.toLowerCase());
  // The repository's own organisation publishes it: the people who could move the tag already maintain this repository.
  const firstParty = !githubOwned && context.owner != null && ref.owner.toLowerCase() === context.owner;
  const who = githubOwned
    ? 'GitHub'
    : firstParty
      ? `\`${ref.owner}\`, this repository's own owner (a first-party action; LOW: whoever can move that ref already maintains this code, unless the account is taken over),`
      : `the owner of \`${ref.owner}/${ref.repo}\` (or anyone who takes over that repository), a third party,`;
  context.report({
    node,
    severity: githubOwned || firstParty ? 'LOW' : 'MEDIUM',
    message: `${what} is referenced by ${how}; ${who} can change the code this job runs without any change here.`,
  });
}
