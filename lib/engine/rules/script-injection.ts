import { scriptInjections } from '../analysis/injections.js';
import { defineWorkflowRule } from '../rule.js';

export default defineWorkflowRule({
  meta: {
    id: 'script-injection',
    category: 'CICD-SEC-4',
    title: 'Attacker-controlled expression expanded into a script',
    severity: 'HIGH',
    surface: 'workflow',
    fix: { safe: true },
    description:
      'A `${{ }}` expression whose value an outsider can choose (an issue title, a branch name, a comment body, directly or through env, step and job outputs) is pasted into a `run:` script, an `actions/github-script` script or another action input that is executed as code, so crafted text runs as commands. HIGH when an event anyone can cause brings the value into a privileged run with no gate that vouches for it and the job holds a write scope, a secret, OIDC, a self-hosted machine or a publish; MEDIUM without those holdings, for text an outsider only shapes, merged commit text, or a maintainer\'s act that lets the value in without vouching for it; LOW for a value only plain `pull_request` brings in (a fork\'s read-only run), a collaborator\'s value, or one a gate vouches for.',
    recommendation:
      'Pass the value through an environment variable (`env: TITLE: ${{ github.event.issue.title }}`) and use it quoted in the script (`"$TITLE"`, `process.env.TITLE`), never as `${{ }}` inside the code.',
  },
  create: (context) => ({
    step(step) {
      for (const hit of scriptInjections(step, context.taint, context.runs)) context.report(hit);
    },
  }),
});
