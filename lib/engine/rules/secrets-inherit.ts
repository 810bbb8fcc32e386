import { reachFacts } from '../analysis/run-model/facts.js';
import { ownerFact, whoText, type Ownership } from '../analysis/run-model/index.js';
import { outsiderReach } from '../analysis/run-model/reach.js';
import { defineWorkflowRule } from '../rule.js';
import type { Severity } from '../types.js';

/** Who owns the called workflow, in words. */
const OWNER_TEXT: Record<Ownership, string> = {
  local: 'a workflow of this repository (any ref of it changes only through a commit here)',
  'first-party': "a workflow of the repository's own owner, maintained by the same people as this repository",
  platform: "a workflow GitHub itself publishes",
  'third-party': 'code of another owner, whose maintainers (or whoever takes over their account or a movable tag) decide what runs with the secrets',
};

export default defineWorkflowRule({
  meta: {
    id: 'secrets-inherit',
    category: 'CICD-SEC-5',
    title: 'All secrets passed to a reusable workflow',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'A job calls a reusable workflow with `secrets: inherit`, handing it every secret of the repository, organization and environment instead of the few it needs. HIGH when the called workflow belongs to another owner and anyone with a GitHub account can start the caller (its trigger and activity `types:`, and the job\'s conditions, as the run model reads them); MEDIUM for another owner\'s workflow on other triggers, and for the repository owner\'s own workflows (first-party) on outsider triggers; LOW for first-party workflows that only collaborators start; INFO for a workflow of this same repository (local, any ref), whose code is reviewed here: passing only the secrets it uses is least privilege, so a later change of the called workflow cannot reach the others.',
    recommendation:
      'Replace `secrets: inherit` with an explicit `secrets:` mapping of only the secrets the called workflow declares under `on.workflow_call.secrets`.',
  },
  create: (context) => ({
    job(job) {
      const secrets = job.secrets;
      if (job.uses === undefined || secrets?.kind !== 'scalar' || typeof secrets.value !== 'string') return;
      if (secrets.value.trim() !== 'inherit') return;
      const target = typeof job.uses.value === 'string' ? job.uses.value : 'a reusable workflow';
      const ownership: Ownership = job.usesRef === undefined ? 'third-party' : context.runs.ownershipOf(job.usesRef);
      // Who can start the calling job: its triggers' activity types (`issues: labeled` is a maintainer's act),
      // the job's conditions and environment (run model). `repository_dispatch` needs a write token already.
      const reach = context.runs.job(job).reach;
      const outsider = outsiderReach(reach);
      const gated = reach.level === 'approval' || reach.level === 'unreviewed-environment';
      let severity: Severity;
      let why: string;
      switch (ownership) {
        case 'third-party':
          severity = outsider ? 'HIGH' : 'MEDIUM';
          why = outsider
            ? `HIGH: ${whoText(reach)}, and the called workflow is ${OWNER_TEXT[ownership]}`
            : `MEDIUM: the called workflow is ${OWNER_TEXT[ownership]}; ${gated ? whoText(reach) : 'no outsider starts the caller'}`;
          break;
        case 'first-party':
        case 'platform':
          severity = outsider ? 'MEDIUM' : 'LOW';
          why = outsider
            ? `MEDIUM, not HIGH: ${whoText(reach)}, but the called workflow is ${OWNER_TEXT[ownership]}: only a weakness in it hands the secrets over`
            : `LOW: the called workflow is ${OWNER_TEXT[ownership]}, and ${gated ? whoText(reach) : 'no outsider starts the caller'}`;
          break;
        default:
          // This repository's own code, reviewed where this workflow is: no other party gains anything. Passing
          // only the secrets it uses is tidiness (least privilege), not an exposure.
          severity = 'INFO';
          why = `INFO: the called workflow is ${OWNER_TEXT[ownership]}, so \`inherit\` hands nothing to another party${outsider ? `; ${whoText(reach)}, and a weakness in the called workflow is reported there` : ''}. Passing only the secrets it uses keeps a later change of the called workflow from reaching the others`;
      }
      context.report({
        node: secrets,
        severity,
        message: `Job \`${job.id}\` passes every secret to \`${target}\` with \`secrets: inherit\`. ${why}.`,
        facts: [...reachFacts(reach), ownerFact(ownership), 'holds:secrets'],
      });
    },
  }),
});
