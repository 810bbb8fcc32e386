import { inRange, parseRefVersion, versionComment, type RefVersion } from '../analysis/action-version.js';
import { ACTION_ADVISORIES, ADVISORY_SNAPSHOT_DATE, type ActionAdvisory } from '../data/advisories.js';
import { actionSlug, isFullSha, type UsesRef } from '../model/uses.js';
import type { Job } from '../model/workflow.js';
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

/** One use of an action in a file: `owner/repo@ref`, wherever in the file it appears (steps, sub-paths, jobs). */
interface Use {
  file: SourceFile;
  job: Job | null;
  node: YScalar;
  ref: Extract<UsesRef, { kind: 'repository' }>;
  matched: { advisory: ActionAdvisory; malicious: boolean }[];
  version: RefVersion | null;
  lines: number[];
  jobs: Set<Job | null>;
}

export default defineWorkflowRule({
  meta: {
    id: 'known-vulnerable-action',
    category: 'CICD-SEC-3',
    title: 'Action version with a known advisory or compromise',
    severity: 'HIGH',
    surface: 'workflow',
    description: `A \`uses:\` reference falls in the affected range of a published advisory, or names a commit known to be malicious, according to the built-in advisory snapshot (${ADVISORY_SNAPSHOT_DATE}). Reported once per action and ref in a file, with each advisory and its fixed version; MEDIUM when every advisory matched needs more than a crafted input to harm the job (a world-writable binary on a shared runner, a CSV formula, an unmasked multi-line secret).`,
    recommendation:
      'Upgrade to the fixed release named in the finding and pin it by full commit SHA; if the advisory is a compromise, also rotate every secret the affected runs could read.',
  },
  create: (context) => {
    const uses = new Map<string, Use>();
    const check = (file: SourceFile, job: Job | null, node: YScalar, ref: UsesRef): void => {
      if (ref.kind !== 'repository') return;
      const advisories = BY_ACTION.get(actionSlug(ref));
      if (advisories === undefined) return;
      const sha = isFullSha(ref.ref) ? ref.ref.toLowerCase() : null;
      // A SHA pin is judged by the version its comment claims; a tag by itself (branches are not versions).
      const version = sha === null ? parseRefVersion(ref.ref) : versionComment(file, node);
      const path = ref.path.toLowerCase().replace(/\/+$/, '');
      const matched: Use['matched'] = [];
      for (const advisory of advisories) {
        if (advisory.path !== undefined && advisory.path !== path) continue;
        if (sha !== null && advisory.commits?.includes(sha) === true) matched.push({ advisory, malicious: true });
        else if (version !== null && (sha === null || !advisory.compromise) && affects(advisory, version)) matched.push({ advisory, malicious: false });
      }
      if (matched.length === 0) return;
      // One finding per use of `owner/repo@ref` in the file: `codeql-action/init`, `/autobuild` and `/analyze@v2` are one use.
      const key = `${file.path}\u0000${actionSlug(ref)}@${ref.ref}`;
      const line = file.position(node.start).line;
      const existing = uses.get(key);
      if (existing !== undefined) {
        existing.lines.push(line);
        existing.jobs.add(job);
        for (const m of matched) if (!existing.matched.some((e) => e.advisory.id === m.advisory.id)) existing.matched.push(m);
        return;
      }
      uses.set(key, { file, job, node, ref, matched, version, lines: [line], jobs: new Set([job]) });
    };
    return {
      job(job) {
        if (job.uses !== undefined && job.usesRef !== undefined) check(job.workflow.file, job, job.uses, job.usesRef);
      },
      step(step) {
        if (step.uses !== undefined && step.usesRef !== undefined) check(step.owner.file, step.job, step.uses, step.usesRef);
      },
      done() {
        for (const use of uses.values()) report(context, use);
      },
    };
  },
});

function report(context: WorkflowRuleContext, use: Use): void {
  const { ref, matched, version } = use;
  const slug = `${ref.owner}/${ref.repo}`;
  const target = `${slug}${ref.path === '' ? '' : `/${ref.path}`}`;
  const described = matched
    .map(({ advisory }) => `${advisory.id}${advisory.cve === null ? '' : ` / ${advisory.cve}`}: ${advisory.summary}, fixed in ${advisory.upgrade}`)
    .join('; ');
  const sha = isFullSha(ref.ref);
  const how = matched.some((m) => m.malicious)
    ? `\`${target}@${ref.ref}\` is a commit known to carry malicious code`
    : sha
      ? `\`${target}\` is pinned to a commit labelled \`${version?.normalized ?? ''}\`, an affected version`
      : `\`${target}@${ref.ref}\` is an affected version`;
  const others = use.lines.slice(1);
  const also = others.length === 0 ? '' : ` The same action and ref are also used at line${others.length > 1 ? 's' : ''} ${others.join(', ')} of this file.`;
  const medium = matched.every((m) => !m.malicious && m.advisory.severity === 'MEDIUM');
  const why = medium ? ' MEDIUM: exploiting it needs more than a crafted input to the job (see the advisory).' : '';
  const upgrade = matched.map((m) => m.advisory.upgrade).sort(byVersionText).at(-1) ?? '';
  context.report({
    node: use.node,
    file: use.file,
    job: use.jobs.size === 1 ? use.job : null,
    ...(medium ? { severity: 'MEDIUM' as const } : {}),
    key: `${slug}@${ref.ref}`,
    message: `${how} (${described}).${also}${why}`,
    recommendation: `Upgrade \`${slug}\` to ${/^\d/.test(upgrade) ? `${upgrade} or later` : upgrade}, pinned by full commit SHA; rotate any secret the affected runs could read if the advisory is a compromise.`,
  });
}

function byVersionText(a: string, b: string): number {
  return a.localeCompare(b, 'en', { numeric: true });
}
