import { constantString } from '../analysis/constant-expressions.js';
import { describeStep } from '../analysis/describe.js';
import { stepLabel } from '../analysis/step-label.js';
import { findExpressions } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { holdsNothing } from '../analysis/run-model/holdings.js';
import { commandName, logicalLines, pipelines, scriptPipelines, words } from '../shell.js';
import { get, type YNode } from '../yaml/model.js';

/** Actions that scan or gate on security findings, by `owner/repo` (lower case). */
const SECURITY_ACTIONS = new Set([
  'github/codeql-action',
  'actions/dependency-review-action',
  'ossf/scorecard-action',
  'aquasecurity/trivy-action',
  'aquasecurity/tfsec-action',
  'aquasecurity/tfsec-sarif-action',
  'anchore/scan-action',
  'snyk/actions',
  'returntocorp/semgrep-action',
  'semgrep/semgrep-action',
  'gitleaks/gitleaks-action',
  'trufflesecurity/trufflehog',
  'zizmorcore/zizmor-action',
  'woodruffw/zizmor-action',
  'bridgecrewio/checkov-action',
  'docker/scout-action',
  'securego/gosec',
  'golang/govulncheck-action',
  'pypa/gh-action-pip-audit',
  'google/osv-scanner-action',
  'checkmarx/kics-github-action',
  'checkmarx/ast-github-action',
  'sonarsource/sonarcloud-github-action',
  'sonarsource/sonarqube-scan-action',
  'rustsec/audit-check',
  'actions-rs/audit-check',
  'crazy-max/ghaction-container-scan',
  'erzz/dockle-action',
]);

/** `codeql-action/upload-sarif` only uploads: a failed upload loses results but hides no failed check. */
const NOT_SCANNING_PATHS = new Set(['upload-sarif']);

/** Programs that are security scanners whatever their arguments. */
const SCANNERS = new Set([
  'trivy', 'grype', 'snyk', 'semgrep', 'gitleaks', 'trufflehog', 'zizmor', 'poutine', 'pip-audit', 'bandit', 'safety',
  'gosec', 'govulncheck', 'checkov', 'tfsec', 'kics', 'osv-scanner', 'codeql', 'brakeman', 'bundle-audit', 'bundler-audit',
  'audit-ci', 'better-npm-audit', 'dependency-check', 'dependency-check.sh', 'retire', 'dockle', 'scorecard',
]);

const RUNNERS = new Set(['npx', 'bunx', 'uvx', 'pipx']);

/** Package-manager and signing subcommands that audit dependencies or verify artifacts. */
function auditCommand(name: string, args: readonly string[]): string | null {
  const [first, second] = args;
  switch (name) {
    case 'npm':
    case 'pnpm':
    case 'bun':
    case 'bundle':
    case 'composer':
      return first === 'audit' ? `${name} audit` : null;
    case 'yarn':
      if (first === 'audit') return 'yarn audit';
      return first === 'npm' && second === 'audit' ? 'yarn npm audit' : null;
    case 'cargo':
      return first === 'audit' || first === 'deny' || first === 'vet' ? `cargo ${first}` : null;
    case 'cosign':
      return first?.startsWith('verify') === true ? `cosign ${first}` : null;
    case 'gpg':
    case 'gpgv':
      return name === 'gpgv' || args.includes('--verify') ? 'a signature verification (`gpg --verify`)' : null;
    case 'sha256sum':
    case 'sha512sum':
    case 'sha1sum':
    case 'md5sum':
    case 'b2sum':
    case 'shasum':
      return args.includes('-c') || args.includes('--check') ? `a checksum verification (\`${name} -c\`)` : null;
    case 'slsa-verifier':
    case 'minisign':
    case 'signify':
      return `a signature verification (\`${name}\`)`;
    case 'gh':
      return first === 'attestation' && second === 'verify' ? 'gh attestation verify' : null;
    default:
      return null;
  }
}

/** Step names that announce a security check: "Audit prod NPM dependencies", "Vulnerability scan", "Run SAST". */
const SECURITY_STEP_NAME =
  /\b(security (scan|check|audit)|vulnerabilit(y|ies)|cve scan|sast|secret scan|(dependency|dependencies|npm|pip|cargo|yarn|pnpm|package) audit|audit\b[\w -]{0,30}\b(dependencies|deps|packages))/i;

/** What security tool a step runs, or null. */
export function securityTool(step: Step): string | null {
  if (step.usesRef?.kind === 'repository') {
    const slug = step.usesRef.slug;
    const subpath = step.usesRef.path.toLowerCase();
    if (SECURITY_ACTIONS.has(slug) && !NOT_SCANNING_PATHS.has(subpath)) return subpath === '' ? slug : `${slug}/${subpath}`;
  }
  // A script of its own (`node utils/check_audit.js`) is recognised by what the step says it does.
  const name = (step.name ?? '').slice(0, 200);
  if (SECURITY_STEP_NAME.test(name)) return 'a security check';
  if (step.run === undefined || typeof step.run.value !== 'string') return null;
  for (const pipeline of scriptPipelines(step.run.value)) {
    for (const command of pipeline.commands) {
      const program = commandName(command.text)?.toLowerCase();
      if (program === undefined) continue;
      const list = words(command.text);
      let args = list.slice(list.findIndex((w) => w.replace(/^.*\//, '').toLowerCase() === program) + 1).filter((w) => !w.startsWith('-'));
      let name = program;
      // Package runners: `npx audit-ci`, `uvx pip-audit`, `pipx run bandit`.
      if (RUNNERS.has(program)) {
        if (program === 'pipx' && args[0] === 'run') args = args.slice(1);
        name = (args[0] ?? '').replace(/@[^/]*$/, '').toLowerCase();
        args = args.slice(1);
      }
      if (SCANNERS.has(name)) return name;
      const audit = auditCommand(name, name === 'gpg' || name.endsWith('sum') ? list : args);
      if (audit !== null) return audit;
    }
  }
  return null;
}

/** Verification commands (`auditCommand`'s checksum and signature checks): they gate a download rather than report. */
const VERIFICATION = /^(a checksum verification|a signature verification|cosign verify|gh attestation verify)/;

/**
 * When every checksum or signature verification of a step's script sits in an `&&` chain with what follows
 * (`sha256sum -c x.sha256 && ./install.sh`), the first command it gates, as written; null otherwise (no
 * verification, or one whose failure lets the script go on). `continue-on-error` then hides only the failure: a
 * failed check still stops the command chained after it.
 */
export function verificationGates(step: Step): string | null {
  if (step.run === undefined || typeof step.run.value !== 'string' || step.run.value.length > 200_000) return null;
  const lines = logicalLines(step.run.value);
  let gated: string | null = null;
  for (const [lineIndex, line] of lines.entries()) {
    const list = pipelines(line);
    for (const [index, pipeline] of list.entries()) {
      if (!pipeline.commands.some(isVerification)) continue;
      // `bash -e` does not stop at a failed command inside an `&&` list: what follows the list still runs. So the
      // chain must run to the end of the script, joined by `&&` only (no `||`, `;` or later line after it).
      if (lineIndex !== lines.length - 1 || index === list.length - 1) return null;
      let cursor = 0;
      for (const member of list.slice(index, -1)) {
        const last = member.commands[member.commands.length - 1];
        const at = last === undefined ? -1 : line.text.indexOf(last.text, cursor);
        if (last === undefined || at === -1) return null;
        cursor = at + last.text.length;
        const rest = line.text.slice(cursor).trimStart();
        if (!rest.startsWith('&&')) return null;
      }
      gated ??= list[index + 1]?.commands[0]?.text.trim() ?? null;
    }
  }
  return gated;
}

/** A checksum or signature verification command (`sha256sum -c`, `gpg --verify`, `cosign verify`, ...). */
function isVerification(command: { text: string }): boolean {
  const program = commandName(command.text)?.toLowerCase();
  if (program === undefined) return false;
  const list = words(command.text);
  const args = list.slice(list.findIndex((w) => w.replace(/^.*\//, '').toLowerCase() === program) + 1).filter((w) => !w.startsWith('-'));
  const audit = auditCommand(program, program === 'gpg' || program.endsWith('sum') ? list : args);
  return audit !== null && VERIFICATION.test(audit);
}

/** What a job guards or ships, when `continue-on-error` on it hides something: a security gate, or a publish. */
function guarded(job: Job, publishes: string | null): string | null {
  for (const step of job.steps) {
    const tool = securityTool(step);
    if (tool !== null) return `it runs ${tool} (${describeStep(step)}), a security gate whose failure no longer fails the run`;
  }
  if (publishes !== null) return `it publishes (${publishes}), so a failed or partial release leaves the run green`;
  return null;
}

/** `continue-on-error: true`, or `${{ true }}`. Other expressions (`${{ matrix.experimental }}`) are a deliberate choice. */
function alwaysContinues(node: YNode | undefined): boolean {
  if (node?.kind !== 'scalar') return false;
  if (node.value === true) return true;
  if (typeof node.value !== 'string') return false;
  const text = node.value.trim();
  if (text.toLowerCase() === 'true') return true;
  const spans = findExpressions(text);
  const only = spans[0];
  if (spans.length !== 1 || only === undefined || only.start !== 0 || only.end !== text.length) return false;
  const expr = parseExpression(only.source);
  return expr !== null && constantString(expr)?.toLowerCase() === 'true';
}

export default defineWorkflowRule({
  meta: {
    id: 'continue-on-error',
    category: 'CICD-SEC-10',
    title: 'Failures hidden by continue-on-error',
    severity: 'LOW',
    surface: 'workflow',
    description:
      '`continue-on-error: true` on a step that runs a security gate (CodeQL, a vulnerability or secret scanner, a dependency audit, a signature or checksum verification), or on a job that runs one or publishes, so the run stays green when the gate fails or reports a problem, or a release fails. Test, lint and best-effort jobs that may fail are not reported.',
    recommendation:
      'Remove `continue-on-error`, or limit it to the cases that may fail (`continue-on-error: ${{ matrix.experimental }}`); for scanners, fix or explicitly allow-list findings instead of ignoring the exit status.',
  },
  create: (context) => ({
    job(job) {
      const value = get(job.node, 'continue-on-error');
      if (!alwaysContinues(value) || value === undefined) return;
      // A test, lint, benchmark or best-effort job that may fail is a reliability choice: only a security gate
      // or a publishing job (run model: holdings.publishes) hides something when it fails.
      const why = guarded(job, context.runs.job(job).holdings.publishes);
      if (why === null) return;
      context.report({
        node: value,
        message: `Job \`${job.id}\` has \`continue-on-error: true\`: the workflow succeeds even when the job fails, and ${why}.`,
      });
    },
    step(step) {
      const value = get(step.node, 'continue-on-error');
      if (!alwaysContinues(value) || value === undefined) return;
      const tool = securityTool(step);
      if (tool === null) return;
      const gated = verificationGates(step);
      if (gated !== null) {
        // A failed check still stops what it gates; only the failure is hidden. In a job that holds nothing
        // worth taking and publishes nothing (a read-only CI run) that hides no security problem.
        const run = step.job === null ? null : context.runs.job(step.job);
        if (run !== null && holdsNothing(run.holdings, context.runs.defaultToken)) return;
        const holds = run === null ? '' : ` (the job holds ${run.valuables.join(', ')})`;
        context.report({
          node: value,
          message: `Step \`${stepLabel(step)}\` runs ${tool} with \`continue-on-error: true\`: a failed check still stops \`${gated.slice(0, 80)}\`, which it gates with \`&&\`, but the job passes, so a tampered or broken download goes unnoticed${holds}.`,
        });
        return;
      }
      context.report({
        node: value,
        message: `Step \`${stepLabel(step)}\` runs ${tool} with \`continue-on-error: true\`: the job passes even when the tool fails or reports findings.`,
      });
    },
  }),
});
