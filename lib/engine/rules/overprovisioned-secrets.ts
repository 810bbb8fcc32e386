import { occurrencesIn } from '../analysis/file-scalars.js';
import { outsiderCode } from '../analysis/outsider-code.js';
import { severityOf, whoText } from '../analysis/run-model/index.js';
import { fileMayUseSecrets, isGithubToken, mayUseSecrets, secretOccurrencesIn, secretUses } from '../analysis/secrets.js';
import type { Action, Job, Workflow } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowReport } from '../rule.js';
import { keyText, type YNode } from '../yaml/model.js';

/** Name parts that say a secret is a credential. */
const CREDENTIAL = /(TOKEN|KEY|SECRET|PASS|PWD|PAT$|^PAT|_PAT_|AUTH|CRED|PRIVATE|CERT|WEBHOOK|DSN|SIGN|COOKIE|SESSION|BEARER|JWT|OTP|SEED|MNEMONIC|P12|PFX|KEYSTORE|CONNECTION_STRING|API)/i;
/** Name endings of values kept in secrets for convenience, not credentials: who, where, which. */
const NOT_CREDENTIAL = /(^|_)(USR|USER|USERNAME|LOGIN|EMAIL|MAIL|NAME|TEAM|TEAM_ID|ORG|ORGANIZATION|OWNER|ACCOUNT|ACCOUNT_ID|PROJECT|PROJECT_ID|PROJECT_NUMBER|APP_ID|CLIENT_ID|TENANT_ID|SUBSCRIPTION_ID|ID|REGION|ZONE|LOCATION|BUCKET|REGISTRY|REPO|REPOSITORY|IMAGE|HOST|HOSTNAME|DOMAIN|URL|URI|ENDPOINT|PORT|PATH|DIR|CHANNEL|CHANNEL_ID|ROOM|ENV|ENVIRONMENT|STAGE|VERSION|IS_[A-Z_]+|ENABLED|FLAG)$/i;

/** A name that ends with a key's id: `_KEY_ID`, `KEYID`, camel case `KeyId`. */
const KEY_ID = /key_?id$/i;

/**
 * Whether a secret's name says it holds a credential; unknown names count as credentials. With `as`, the name it is
 * given in the `env:` (`CROSSREF_EMAIL: ${{ secrets.CROSSREF_EMAIL_FOR_TESTS }}`) speaks too: a credential word in
 * either makes it one, and a name ending of a value that is none (`EMAIL`) in either, with no such word, makes it none;
 * but a key's id (`KEY_ID`, `KeyId`) in both is none, whatever else the name says.
 */
export function isCredentialName(name: string, as?: string): boolean {
  // The id of a key (`SIGNING_KEY_ID`, `signingInMemoryKeyId`, `AWS_ACCESS_KEY_ID`) names the key; the key is the
  // credential, kept beside it under its own name.
  if (KEY_ID.test(name) && (as === undefined || KEY_ID.test(as))) return false;
  if (CREDENTIAL.test(name) || (as !== undefined && CREDENTIAL.test(as))) return true;
  return !NOT_CREDENTIAL.test(name) && (as === undefined || !NOT_CREDENTIAL.test(as));
}

export default defineWorkflowRule({
  meta: {
    id: 'overprovisioned-secrets',
    category: 'CICD-SEC-5',
    title: 'Secrets exposed beyond the steps that use them',
    severity: 'MEDIUM',
    surface: 'workflow',
    description:
      'An expression hands over the whole `secrets` context (`toJSON(secrets)`, also in the `with:` or `secrets:` of a reusable workflow call), picks a secret by a computed name (`secrets[...]`), or a credential secret (not a user name, region or channel kept in secrets) is mapped into the workflow-level `env:`, where every step of every job receives it.',
    recommendation:
      'Reference each secret by its literal name (`secrets.NAME`) in the `env:` or `with:` of the step that needs it, never the whole context.',
  },
  create: (context) => {
    /**
     * The severity policy (docs/severity.md): handing out more secrets than needed is hygiene (LOW) until
     * something an outsider controls runs where they are (MEDIUM, naming it), or the whole context goes to
     * another repository's reusable workflow, whose code decides what happens to it.
     */
    const rated = (jobs: readonly Job[], message: string, external = false): { severity: 'MEDIUM' | 'LOW'; message: string } => {
      const code = outsiderCode(context, jobs);
      // Behind a maintainer's approval of the commit that runs (a label removed in every run, on the event's
      // head SHA), the policy's approval row: LOW, naming the gate; the approval's race keeps it MEDIUM.
      if (code !== null && severityOf({ reach: code.reach, executes: true, holds: ['secrets'], raceAfterApproval: code.race }) === 'LOW' && !external) {
        return { severity: 'LOW', message: `${message} An outsider's code or text runs there: ${code.text}, but ${whoText(code.reach)}. LOW: the approved commit is what runs.` };
      }
      if (code !== null) return { severity: 'MEDIUM', message: `${message} An outsider's code or text runs there: ${code.text}${code.reach.level === 'approval' ? `; ${whoText(code.reach)}` : ''}.` };
      if (external) return { severity: 'MEDIUM', message };
      return { severity: 'LOW', message: `${message} LOW: nothing an outsider controls runs where the secrets are.` };
    };
    /** `toJSON(secrets)` and `secrets[<expression>]` anywhere below `node`. */
    const reportWholeContext = (model: Workflow | Action, node: YNode, job: WorkflowReport['job'], calls?: string) => {
      if (!fileMayUseSecrets(model)) return;
      for (const occurrence of occurrencesIn(model, node)) {
        if (occurrence.expr === null || !mayUseSecrets(occurrence.span.source)) continue;
        const use = secretUses(occurrence.expr).find((u) => u.kind !== 'named');
        if (use === undefined) continue;
        const message =
          use.kind === 'whole'
            ? calls !== undefined
              ? `\`\${{ ${occurrence.span.source} }}\` hands every secret of the repository to the reusable workflow \`${calls}\`, not just the ones it needs.`
              : `\`\${{ ${occurrence.span.source} }}\` exposes every secret of the repository, not just the ones this step needs.`
            : `\`\${{ ${occurrence.span.source} }}\` picks a secret by a computed name, so any secret can be reached; GitHub cannot tell which secrets the workflow uses.`;
        const jobs = job !== null && job !== undefined ? [job] : model.kind === 'workflow' ? model.jobs : [];
        const external = use.kind === 'whole' && calls !== undefined && !calls.startsWith('./');
        context.report({ node: occurrence.scalar, offset: occurrence.offset, job, ...rated(jobs, message, external) });
      }
    };
    return {
      workflow(workflow) {
        for (const pair of workflow.root.pairs) {
          if (keyText(pair.key) !== 'jobs') reportWholeContext(workflow, pair.value, null);
        }
        // With a single job, the workflow-level `env:` is that job's `env:`, the usual place for secrets. A job that
        // calls a reusable workflow does not pass the caller's `env:` on (GitHub: "env ... not propagated to the called
        // workflow"), so only jobs with steps receive it; none or one of them: nothing is handed out beyond need.
        const stepped = workflow.jobs.filter((j) => j.uses === undefined);
        if (stepped.length <= 1) return;
        for (const pair of workflow.env?.pairs ?? []) {
          // The job token is governed by `permissions:`; stored secrets are what this rule is about.
          // Values kept in secrets that are no credential (a user name, a region, a channel) harm nobody there.
          const secret = secretOccurrencesIn(workflow, pair.value).find((s) => !isGithubToken(s.name) && isCredentialName(s.name, keyText(pair.key)));
          if (secret === undefined) continue;
          context.report({
            node: pair.key,
            job: null,
            ...rated(stepped, `Secret \`${secret.name}\` is mapped into the workflow-level \`env:\` as \`${keyText(pair.key)}\`, so every step of every job (third-party actions included) receives it.`),
          });
        }
      },
      job(job) {
        // A reusable workflow call passes what its `with:` and `secrets:` say to the called workflow's code.
        const calls = typeof job.uses?.value === 'string' ? job.uses.value : undefined;
        reportWholeContext(job.workflow, job.node, job, calls);
      },
      action(action) {
        reportWholeContext(action, action.root, null);
      },
    };
  },
});
