import { inRange, parseRefVersion, versionComment, type RefVersion } from '../analysis/action-version.js';
import { ACTION_ADVISORIES, ADVISORY_SNAPSHOT_DATE, type ActionAdvisory } from '../data/advisories.js';
import { actionSlug, isFullSha, type UsesRef } from '../model/uses.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import type { SourceFile } from '../yaml/source.js';
import type { YScalar } from '../yaml/model.js';

const BY_ACTION = new Map<string, ActionAdvisory[]>();
for (const advisory of ACTION_ADVISORIES) {
  const list = BY_ACTION.get(advisory.action) ?? [];
  list.push(advisory);
  BY_ACTION.set(advisory.action, list);
}

function affects(advisory: ActionAdvisory, version: RefVersion): boolean {
  if (advisory.versions?.includes(version.normalized) === true) return true;
  return advisory.ranges.some((r) => inRange(version, r.introduced, r.fixed));
}

export default defineWorkflowRule({
  meta: {
    id: 'known-vulnerable-action',
    category: 'CICD-SEC-3',
    title: 'Action version with a known advisory or compromise',
    severity: 'HIGH',
    surface: 'workflow',
    description: `A \`uses:\` reference falls in the affected range of a published advisory, or names a commit known to be malicious, according to the built-in advisory snapshot (${ADVISORY_SNAPSHOT_DATE}).`,
    recommendation:
      'Upgrade to the fixed release named in the finding and pin it by full commit SHA; if the advisory is a compromise, also rotate every secret the affected runs could read.',
  },
  create: (context) => ({
    job(job) {
      if (job.uses !== undefined && job.usesRef !== undefined) check(context, job.workflow.file, job.uses, job.usesRef);
    },
    step(step) {
      if (step.uses !== undefined && step.usesRef !== undefined) check(context, step.owner.file, step.uses, step.usesRef);
    },
  }),
});

function check(context: WorkflowRuleContext, file: SourceFile, node: YScalar, ref: UsesRef): void {
  if (ref.kind !== 'repository') return;
  const advisories = BY_ACTION.get(actionSlug(ref));
  if (advisories === undefined) return;
  const sha = isFullSha(ref.ref) ? ref.ref.toLowerCase() : null;
  // A SHA pin is judged by the version its comment claims; a tag by itself (branches are not versions).
  const version = sha === null ? parseRefVersion(ref.ref) : versionComment(file, node);
  const matched: { advisory: ActionAdvisory; malicious: boolean }[] = [];
  for (const advisory of advisories) {
    if (sha !== null && advisory.commits?.includes(sha) === true) matched.push({ advisory, malicious: true });
    else if (version !== null && (sha === null || !advisory.compromise) && affects(advisory, version)) matched.push({ advisory, malicious: false });
  }
  if (matched.length === 0) return;
  const slug = `${ref.owner}/${ref.repo}`;
  const target = `${slug}${ref.path === '' ? '' : `/${ref.path}`}`;
  const described = matched
    .map(({ advisory }) => `${advisory.id}${advisory.cve === null ? '' : ` / ${advisory.cve}`}: ${advisory.summary}`)
    .join('; ');
  const how = matched.some((m) => m.malicious)
    ? `\`${target}@${ref.ref}\` is a commit known to carry malicious code`
    : sha !== null
      ? `\`${target}\` is pinned to a commit labelled \`${version?.normalized ?? ''}\`, an affected version`
      : `\`${target}@${ref.ref}\` is an affected version`;
  const upgrade = matched.map((m) => m.advisory.upgrade).sort(byVersionText).at(-1) ?? '';
  context.report({
    node,
    message: `${how} (${described}).`,
    recommendation: `Upgrade \`${slug}\` to ${/^\d/.test(upgrade) ? `${upgrade} or later` : upgrade}, pinned by full commit SHA; rotate any secret the affected runs could read if the advisory is a compromise.`,
  });
}

function byVersionText(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
