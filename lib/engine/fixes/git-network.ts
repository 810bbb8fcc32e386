import type { Step } from '../model/workflow.js';

/** git commands that talk to the remote with the checkout's persisted credentials. */
const GIT_REMOTE = /\bgit\s+(?:-[Cc]\s+\S+\s+)*(?:push|pull|fetch|ls-remote|remote\s+update|submodule\s+update)\b/;

/** Actions that commit and push with the credentials `actions/checkout` left behind. */
const PUSHING_ACTIONS: ReadonlySet<string> = new Set([
  'stefanzweifel/git-auto-commit-action',
  'endbug/add-and-commit',
  'ad-m/github-push-action',
  'planetscale/ghcommit-action',
  'changesets/action',
  'gr2m/create-or-update-pull-request-action',
]);

/**
 * Why later steps may need the credentials `actions/checkout` persisted (a `git push`, `git fetch`, an
 * action that pushes), or null when none does: then `persist-credentials: false` changes nothing they do.
 */
export function laterGitRemoteUse(steps: readonly Step[], after: number): string | null {
  for (const step of steps) {
    if (step.index <= after) continue;
    const script = step.run?.value;
    if (typeof script === 'string') {
      const match = GIT_REMOTE.exec(script);
      if (match !== null) return `a later step runs \`${match[0].replace(/\s+/g, ' ')}\``;
    }
    if (step.usesRef?.kind === 'repository' && PUSHING_ACTIONS.has(step.usesRef.slug)) return `a later step uses ${step.usesRef.slug}`;
    if (step.usesRef?.kind === 'local') return 'a later step runs a local action, which may push';
  }
  return null;
}
