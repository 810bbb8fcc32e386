import { constantString } from '../analysis/constant-expressions.js';
import { describeStep } from '../analysis/describe.js';
import { stepLabel } from '../analysis/step-label.js';
import { failsWhenRun } from '../analysis/trust-guards.js';
import { findExpressions } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import type { Job, Step } from '../model/workflow.js';
import { defineWorkflowRule } from '../rule.js';
import { nestedScript, setOptions, stepShell, type StepShell } from '../analysis/step-shell.js';
import { commandArgs, commandName, logicalLinesWithScripts, pipelines, scriptPipelines, words, type Pipeline, type ScriptSpan } from '../shell.js';
import { get, scalarText, type YNode } from '../yaml/model.js';

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

/** The security tool a command of a script runs (a scanner, an audit, a verification), or null. */
function commandTool(text: string): string | null {
  const program = commandName(text)?.toLowerCase();
  if (program === undefined) return null;
  const list = words(text);
  let args = commandArgs(text, program);
  let name = program;
  // Package runners: `npx audit-ci`, `uvx pip-audit`, `pipx run bandit`.
  if (RUNNERS.has(program)) {
    if (program === 'pipx' && args[0] === 'run') args = args.slice(1);
    name = (args[0] ?? '').replace(/@[^/]*$/, '').toLowerCase();
    args = args.slice(1);
  }
  // `snyk monitor` records a snapshot of the dependencies on Snyk's dashboard: it fails only when it cannot, never on
  // a finding, so going on after it hides no result (`snyk test`, `snyk code test` do fail on findings).
  if (name === 'snyk' && args[0] === 'monitor') return null;
  if (SCANNERS.has(name)) return name;
  return auditCommand(name, name === 'gpg' || name.endsWith('sum') ? list : args);
}

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
  return scriptTool(step.run.value);
}

/** The first security tool a script runs, directly or in a nested shell (`nestedScript`: `docker run IMAGE sh -c '...'`), or null. */
function scriptTool(script: string, depth = 0): string | null {
  for (const pipeline of scriptPipelines(script)) {
    for (const command of pipeline.commands) {
      const tool = commandTool(command.text);
      if (tool !== null) return tool;
      const nested = depth < MAX_NESTING ? nestedScript(command.text) : null;
      const inner = nested === null ? null : scriptTool(nested.script, depth + 1);
      if (inner !== null) return inner;
    }
  }
  return null;
}

/** Verification commands (`auditCommand`'s checksum and signature checks): they gate a download rather than report. */
const VERIFICATION = /^(a checksum verification|a signature verification|cosign verify|gh attestation verify)/;

type Separator = '&&' | '||' | ';' | '&' | 'end';

/** What follows each pipeline of a line (`&&`, `||`, `;`, `&`, or the end of the line); null when it cannot be found. */
function separators(line: ScriptSpan, list: readonly Pipeline[]): (Separator | null)[] {
  let cursor = 0;
  return list.map((pipeline) => {
    const last = pipeline.commands[pipeline.commands.length - 1];
    const at = last === undefined ? -1 : line.text.indexOf(last.text, cursor);
    if (last === undefined || at === -1) return null;
    cursor = at + last.text.length;
    const rest = line.text.slice(cursor).trimStart();
    if (rest.startsWith('&&')) return '&&';
    if (rest.startsWith('||')) return '||';
    if (rest.startsWith(';')) return ';';
    if (rest.startsWith('&')) return '&';
    return 'end';
  });
}

/** `|| exit`, `|| exit 1`, `|| { echo bad; exit 1; }`, `|| (echo bad; exit 1)`: a branch that ends the script. */
const EXIT_BRANCH = /^\|\|\s*(exit(\s+[1-9]\d*)?\s*(;|$)|\{[^{}]*;\s*exit(\s+[1-9]\d*)?\s*;\s*\}|\([^()]*;\s*exit(\s+[1-9]\d*)?\s*\))/;

/** True when the text of `line` after pipeline `index` is an `||` branch that exits. */
function exitsOnFailure(line: ScriptSpan, list: readonly Pipeline[], index: number): boolean {
  const next = list[index + 1]?.commands[0];
  if (next === undefined) return false;
  // The branch starts at the `||` before the next pipeline's first command.
  const at = line.text.lastIndexOf('||', line.text.indexOf(next.text));
  return at !== -1 && EXIT_BRANCH.test(line.text.slice(at));
}

/**
 * The file names the commands of `list` name (words with a `.` or `/`, quotes and a leading `./` dropped, as
 * written and by their last segment); with `all`, every word, so that a later `sh installer.sh` or
 * `./installer.sh` is found.
 */
function fileWords(list: readonly Pipeline[], all = false): Set<string> {
  const result = new Set<string>();
  for (const pipeline of list) {
    for (const command of pipeline.commands) {
      for (const raw of words(command.text)) {
        const word = raw.replace(/^["']|["']$/g, '').replace(/^\.\//, '');
        // A file named through a variable (`tar xzf "$FILE"`) counts as written: a later `sh "$FILE"` names it again.
        if (word === '' || word.startsWith('-') || (!all && !/[./]/.test(word) && !/^\$\{?\w+\}?$/.test(word))) continue;
        result.add(word);
        result.add(word.replace(/^.*\//, ''));
      }
    }
  }
  return result;
}

/** The words of `after` that `before` names too, when there are any; else all of `after`. */
function unverifiedWords(after: Set<string>, before: Set<string>): Set<string> {
  const both = new Set([...after].filter((w) => before.has(w)));
  return both.size > 0 ? both : after;
}

/** Programs that only delete the files they name (`rm -f tool.tgz`): naming the unverified file, they do not use it. */
const DELETES = new Set(['rm', 'unlink']);

/** A pipeline of one command that deletes files, with no command substitution in it. */
function onlyDeletes(pipeline: Pipeline): boolean {
  const [only] = pipeline.commands;
  if (pipeline.commands.length !== 1 || only === undefined || /[`$]\(|`/.test(only.text)) return false;
  return DELETES.has(commandName(only.text)?.replace(/^.*\//, '').toLowerCase() ?? '');
}

/**
 * What a failed verification does in the script it runs in:
 * - `contained`: nothing after it in the script runs the unverified file (the script stops, or goes on only
 *   to commands that do not name the file the check's `&&` chain used);
 * - `exits`: the script ends with a failure (so a step's failure skips the job's later steps, and a nested
 *   shell's command fails);
 * - `gates`: something after the check in the script depends on it (a check with nothing after it gates
 *   nothing there).
 */
interface CheckEffect {
  contained: boolean;
  exits: boolean;
  gates: boolean;
  /**
   * For a contained check that does not end its script (an `&&` chain that stops, followed by more): the
   * unverified files the chain uses after the check, which nothing after it in the script names.
   */
  files?: ReadonlySet<string>;
}

/** How deep nested shells are read (`docker run ... bash -c "sh -c '...'"`). */
const MAX_NESTING = 3;

/**
 * The effect of each checksum or signature verification a script runs (`CheckEffect`), directly or in a nested
 * shell (`nestedScript`: the inner script's own `&&`, `set -e` and options decide what its failure stops), with
 * the shell's `-e` and `pipefail` at the start (`state`); null when the script runs another security tool (its
 * failure would be hidden), or a check sits where its failure cannot be read.
 */
function checkEffects(script: string, state: StepShell, depth = 0): CheckEffect[] | null {
  if (script.length > 200_000) return null;
  // A nested shell's quoted script over several lines (`docker run IMAGE bash -c "` to the closing `"`) is one argument.
  const lines = logicalLinesWithScripts(script);
  const effects: CheckEffect[] = [];
  for (const [lineIndex, line] of lines.entries()) {
    const list = pipelines(line);
    const seps = separators(line, list);
    const lastLine = lineIndex === lines.length - 1;
    for (const [index, pipeline] of list.entries()) {
      const first = pipeline.commands[0];
      if (state.posix && pipeline.commands.length === 1 && first !== undefined && commandName(first.text) === 'set') {
        state = setOptions(words(first.text).slice(1), state);
        continue;
      }
      // The commands of the pipeline that check: a verification, or a nested shell whose script runs one.
      const inner: (CheckEffect[] | 'tool' | null)[] = pipeline.commands.map((c) => {
        if (commandTool(c.text) !== null) return 'tool';
        const nested = depth < MAX_NESTING ? nestedScript(c.text) : null;
        if (nested === null) return null;
        const found = checkEffects(nested.script, setOptions(nested.options, { posix: true, errexit: false, pipefail: false }), depth + 1);
        return found === null ? [] : found.length === 0 ? null : found;
      });
      const position = inner.findIndex((e) => e !== null);
      if (position === -1) continue;
      const here = inner[position] as CheckEffect[] | 'tool';
      if (here === 'tool' && !VERIFICATION.test(commandTool(pipeline.commands[position]?.text ?? '') ?? '')) return null;
      // A nested script that runs another tool, or a check where its failure cannot be read.
      if (Array.isArray(here) && here.length === 0) return null;
      if (inner.slice(position + 1).some((e) => e !== null)) return null;
      const before = index > 0 ? seps[index - 1] : 'end';
      const after = seps[index];
      if (before === null || after === null || before === undefined || after === undefined || before === '||' || before === '&' || after === '&') return null;
      const last = index === list.length - 1 && lastLine;
      // `a | sha256sum -c` fails with the check; `sha256sum -c | tee log` only with pipefail.
      const fails = position === pipeline.commands.length - 1 || (state.posix && state.pipefail);
      let effect: CheckEffect;
      if (!fails) effect = { contained: false, exits: false, gates: !last };
      else if (last) effect = { contained: true, exits: true, gates: false };
      else if (after === '&&') {
        let end = index;
        while (seps[end] === '&&' && end < list.length - 1) end++;
        if (seps[end] === '||' && exitsOnFailure(line, list, end)) effect = { contained: true, exits: true, gates: true };
        else if (seps[end] !== '||' && lastLine && end === list.length - 1) effect = { contained: true, exits: true, gates: true };
        else {
          // More follows the chain (an `||` branch that does not exit, `;`, a later line): `-e` does not act on a
          // failure inside it, so later commands run; they run the unverified file only if they name it, other
          // than to delete it (`rm -f tool.tgz`). The chain's own use of it was skipped. Of the files the chain
          // names after the check, those the script named up to the check (the download, the checked file) are
          // the unverified ones: a directory the chain extracts into (`tar xzf f.tgz -C "$HOME/bin"`) holds
          // nothing new when the chain stopped, so a later line adding it to `$GITHUB_PATH` runs nothing unverified.
          const used = unverifiedWords(fileWords(list.slice(index + 1, end + 1)), fileWords([...lines.slice(0, lineIndex).flatMap((l) => pipelines(l)), ...list.slice(0, index + 1)]));
          const later = [...list.slice(end + 1), ...lines.slice(lineIndex + 1).flatMap((l) => pipelines(l))].filter((p) => !onlyDeletes(p));
          const contained = used.size > 0 && ![...fileWords(later, true)].some((w) => used.has(w));
          effect = contained ? { contained, exits: false, gates: true, files: used } : { contained, exits: false, gates: true };
        }
      } else if (after === '||') {
        const stops = exitsOnFailure(line, list, index);
        effect = { contained: stops, exits: stops, gates: !lastLine };
      } else {
        const stops = state.posix && state.errexit;
        effect = { contained: stops, exits: stops, gates: true };
      }
      if (here === 'tool') effects.push(effect);
      else {
        // A nested shell's checks: its own script decides what runs there after a failure; the command fails only
        // when that script exits with the failure, and only then does this script's reading of it count.
        const exits = here.every((e) => e.exits);
        const contained = here.every((e) => e.contained);
        // When the nested command may succeed after a failed check (an inner chain that stopped, then more of the
        // inner script), this script goes on: a check that ended its inner script still fails the command (this
        // position's effect), and a chain that stopped keeps the file out when nothing later here names it (but to
        // delete it), as for a chain of this script.
        const laterNames = last ? new Set<string>() : fileWords([...list.slice(index + 1), ...lines.slice(lineIndex + 1).flatMap((l) => pipelines(l))].filter((p) => !onlyDeletes(p)), true);
        for (const e of here) {
          const kept = contained && (last || (e.exits ? effect.contained : e.files !== undefined && ![...e.files].some((w) => laterNames.has(w))));
          effects.push(
            exits
              ? { contained: contained && effect.contained, exits: effect.exits, gates: e.gates || effect.gates }
              : { contained: kept, exits: false, gates: e.gates, ...(e.files !== undefined && kept ? { files: e.files } : {}) },
          );
        }
      }
    }
  }
  return effects;
}

/**
 * True when the step's script runs a checksum or signature verification, runs something after it, and every
 * verification's failure stops what follows it (step-shell.ts for the shell's `-e` and `pipefail`):
 * - an `&&` chain to the end of the script (`sha256sum -c tool.sha256 && sh install.sh`): the rest of the chain
 *   is skipped; an `&&` chain followed by more (`;`, a later line) stops only the chain, since `-e` does not
 *   act on a failure inside an `&&` list, so it counts when the chain names the file it uses after the check
 *   and nothing after the chain (an `||` branch that does not exit included) names that file, but to delete it;
 * - `|| exit 1` (or a `{ ...; exit 1; }` block) before a later line;
 * - a check on its own, followed by `;` or a later line, when the shell has `-e` (the default `bash -e`, `shell:
 *   bash`, `shell: sh`, or the script's own `set -e`) and nothing masks the failure: not after `||`, not in a
 *   pipeline before its last command unless `pipefail` is on (`shell: bash`, `set -o pipefail`);
 * - the same inside a nested shell the step runs (`docker run ... IMAGE bash -c "curl -o f URL && echo 'SUM  f' |
 *   sha256sum -c && tar xf f"`, `sh -c '...'`), read with that shell's own options (`bash -c` has no `-e`), and,
 *   when its script ends with the failure, the nested command read as a check in the step's script.
 * Then `continue-on-error` hides only the failure: the unverified file is not used in that step. False when any
 * other security tool runs in the script (its failure would be hidden).
 */
export function verificationStops(step: Step): boolean {
  if (step.run === undefined || typeof step.run.value !== 'string') return false;
  const effects = checkEffects(step.run.value, stepShell(step));
  return effects !== null && effects.length > 0 && effects.every((e) => e.contained && e.gates);
}

/** True when a step's script, or a value it passes an action, names one of `files` (as `fileWords` reads them). */
function namesAny(step: Step, files: ReadonlySet<string>): boolean {
  const texts: string[] = [];
  if (step.run !== undefined && typeof step.run.value === 'string') texts.push(step.run.value);
  if (step.with?.kind === 'map') for (const pair of step.with.pairs) if (pair.value.kind === 'scalar') texts.push(String(pair.value.value));
  return texts.some((text) => text.length <= 200_000 && [...fileWords(scriptPipelines(text), true)].some((w) => files.has(w)));
}

/** A step `if:` that runs it after an earlier step failed: a status check function other than `success()`. */
const RUNS_AFTER_FAILURE = /\b(always|failure|cancelled)\s*\(/;

/**
 * Why a job's `continue-on-error: true` lets an unverified file through its verification step (`step`), in words
 * (empty when the step also runs another security tool, reported as a gate), or null when it does not: the step has no
 * `continue-on-error` of its own, its failed check fails it (every `checkEffects` exits: the script ends with the
 * failure, and the job's later steps run only while every step before them succeeded), no later step runs after a
 * failure (an `if:` with `always()`, `failure()` or `cancelled()`), and no earlier step uploads an artifact (a job
 * that needs this one runs as after a success, and would get it). Then the job's later steps, which would use the
 * file, are skipped: job-level `continue-on-error` only lets the run pass and the jobs that need this one run.
 */
function jobLetsThrough(job: Job, step: Step): string | null {
  const own = get(step.node, 'continue-on-error');
  if (own !== undefined && !(own.kind === 'scalar' && (own.value === false || String(own.value).trim().toLowerCase() === 'false'))) {
    return 'the step\'s own `continue-on-error` lets the job\'s later steps run after a failed check';
  }
  const effects = step.run === undefined || typeof step.run.value !== 'string' ? null : checkEffects(step.run.value, stepShell(step));
  // Another security tool in the step, or a check that cannot be read: reported as a gate, with no more said.
  if (effects === null || effects.length === 0) return '';
  const index = job.steps.indexOf(step);
  if (!effects.every((e) => e.exits && e.contained)) {
    // Every check in an `&&` chain that holds every use of the file the step makes: a failed check stops the chain
    // and the step goes on, as it would without `continue-on-error`; the file is let through only if a later step
    // names it.
    const files = new Set(effects.flatMap((e) => (e.contained && e.gates && e.files !== undefined ? [...e.files] : [])));
    const chained = effects.every((e) => e.contained && e.gates && (e.exits || e.files !== undefined));
    if (chained && !job.steps.slice(index + 1).some((s) => namesAny(s, files))) return null;
    return 'a failed check does not fail its step (the failure is masked, or the script goes on and succeeds), so the job\'s later steps run';
  }
  const after = job.steps.slice(index + 1).find((s) => RUNS_AFTER_FAILURE.test(scalarText(s.if) ?? ''));
  if (after !== undefined) return `${describeStep(after)} runs after a failed step (\`if: ${scalarText(after.if) ?? ''}\`)`;
  const upload = job.steps.slice(0, index).find((s) => s.usesRef?.kind === 'repository' && s.usesRef.slug === 'actions/upload-artifact');
  if (upload !== undefined) return `${describeStep(upload)} uploads an artifact before the check, and the jobs that need this one run as after a success`;
  return null;
}

/** What a job guards or ships, when `continue-on-error` on it hides something: a security gate, or a publish. */
function guarded(job: Job, publishes: string | null): string | null {
  for (const step of job.steps) {
    const tool = securityTool(step);
    if (tool === null) continue;
    // A verification whose failure fails its step: the job's later steps, which would use the file, are skipped.
    const through = VERIFICATION.test(tool) ? jobLetsThrough(job, step) : null;
    if (VERIFICATION.test(tool) && through === null) continue;
    return `it runs ${tool} (${describeStep(step)}), a security gate whose failure no longer fails the run${through === null || through === '' ? '' : `; ${through}`}`;
  }
  if (publishes !== null) return `it publishes (${publishes}), so a failed or partial release leaves the run green`;
  return null;
}


/**
 * A later step of the same job that fails it when this one failed: its `if:` asks for this step's failed outcome
 * (`steps.<id>.outcome == 'failure'` or `!= 'success'`; `continue-on-error` leaves `conclusion` a success, `outcome`
 * the real result) and its script ends in a failure (`exit 1`, `false`, a github-script's `core.setFailed`:
 * trust-guards.ts `failsWhenRun`, as for a fork check that fails a job). The step runs the steps between (a SARIF upload) and the job still fails: nothing is hidden.
 */
function failedLater(step: Step): Step | null {
  const job = step.job;
  if (job === null || step.id === null) return null;
  const id = step.id.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const asks = new RegExp(`\\bsteps\\.${id}\\.outcome\\s*(?:==\\s*'failure'|!=\\s*'success')`, 'i');
  // A script that reads the outcome itself (`if [[ "${{ steps.scan.outcome }}" == "failure" ]]; then ... exit 1`),
  // in a step with no `if:` or one that still runs after a failure (`always()`, `failure()`, `!cancelled()`).
  const reads = new RegExp(`\\$\\{\\{\\s*steps\\.${id}\\.outcome\\s*\\}\\}`, 'i');
  for (const later of job.steps.slice(job.steps.indexOf(step) + 1)) {
    const condition = scalarText(later.if) ?? '';
    const script = later.run !== undefined && typeof later.run.value === 'string' ? later.run.value : later.usesRef?.kind === 'repository' && later.usesRef.slug === 'actions/github-script' ? (scalarText(get(later.with, 'script')) ?? '') : '';
    if (condition.length > 2_000 || script.length > 100_000) continue;
    if (asks.test(condition) && failsWhenRun(script)) return later;
    // Its failure path: an `exit` with a non-zero status or `core.setFailed` in the script (directly in the branch, or
    // after a flag the branch sets, as a summary of several scans does).
    if (reads.test(script) && /failure/.test(script) && (condition === '' || /\b(?:always|failure)\s*\(\s*\)|!\s*cancelled\s*\(\s*\)/.test(condition)) && /\bexit\s+[1-9]\d*\b|\bcore\.setFailed\s*\(/.test(script)) return later;
  }
  return null;
}

/**
 * A later step of the same job that uploads a SARIF report to code scanning on every run (`github/codeql-action/upload-sarif`
 * with no `if:`, `always()` or `success()`): the scanner's findings reach the repository's code scanning alerts, where they are
 * reviewed (and can block merges), so going on after the scan hides nothing; a scanner that failed to run leaves no
 * report, and the upload fails instead.
 */
function reportedLater(step: Step): Step | null {
  const job = step.job;
  if (job === null) return null;
  for (const later of job.steps.slice(job.steps.indexOf(step) + 1)) {
    if (later.usesRef?.kind !== 'repository' || later.usesRef.slug !== 'github/codeql-action' || !/^upload-sarif\/?$/.test(later.usesRef.path)) continue;
    const condition = scalarText(later.if) ?? '';
    // `success()` too: a step that continues on error leaves the job a success.
    if (condition === '' || /^\s*(?:\$\{\{\s*)?(?:always|success)\s*\(\s*\)\s*(?:\}\})?\s*$/.test(condition)) return later;
    // Whenever the report exists: a condition on another step's output only (`steps.check_files.outputs.files_exists ==
    // 'true'`, after a file-existence check), never on this step's outcome. The findings still reach code scanning;
    // only a scanner that failed to write its report goes unnoticed.
    if (reportExistsCondition(condition, step)) return later;
  }
  return null;
}

/**
 * An `if:` that reads nothing but outputs of steps other than `step` (`steps.<id>.outputs.<name>` compared with
 * literals, joined with `&&`): no status function, no outcome or conclusion, no event or ref. Read as text.
 */
function reportExistsCondition(condition: string, step: Step): boolean {
  const text = condition.trim().replace(/^\$\{\{([\s\S]*)\}\}$/, '$1').trim();
  if (text === '' || text.length > 300 || /\|\||\b(?:always|failure|cancelled|success)\s*\(/.test(text)) return false;
  const paths = [...text.matchAll(/[A-Za-z_][\w-]*(?:\.[\w-]+)+/g)].map((m) => m[0]);
  if (paths.length === 0) return false;
  const own = step.id?.toLowerCase();
  return paths.every((p) => {
    const [head, id, outputs] = p.toLowerCase().split('.');
    return head === 'steps' && outputs === 'outputs' && id !== own;
  });
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
      '`continue-on-error: true` on a step that runs a security gate (CodeQL, a vulnerability or secret scanner, a dependency audit, a signature or checksum verification), or on a job that runs one or publishes, so the run stays green when the gate fails or reports a problem, or a release fails. Not reported: a verification whose failure stops the use of what it checks in the same script (`sha256sum -c f.sha256 && sh f`, a check on its own line under the shell\'s `-e`, or the same inside a nested `bash -c`/`sh -c`, read with that shell\'s own options), a job whose verification failure fails its step and so skips the steps that would use the file, and test, lint and best-effort jobs that may fail.',
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
      // A verification whose failure stops the use of what it checks, in the same script: the unverified file
      // does not run, and `continue-on-error` only lets the job go on (a step named as a security check may run more).
      if (VERIFICATION.test(tool) && verificationStops(step)) return;
      // A later step fails the job on this step's failed outcome (after the steps between, such as a report upload).
      if (failedLater(step) !== null) return;
      // Its report reaches code scanning on every run: the findings are not hidden by going on.
      if (reportedLater(step) !== null) return;
      context.report({
        node: value,
        message: `Step \`${stepLabel(step)}\` runs ${tool} with \`continue-on-error: true\`: the job passes even when the tool fails or reports findings.`,
      });
    },
  }),
});
