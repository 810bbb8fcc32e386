import { earlierForeignDownload, readsFile, type OutputCarries } from './artifacts.js';
import { codeSinkInputs, inJavaScriptCode, type CodeLanguage } from './code-sinks.js';
import { heredocStart } from './log-destination.js';
import { callerCommandInput } from './command-actions.js';
import { describeStep, describeTaint } from './describe.js';
import { scriptFold, scriptLines, singleLineAssignment } from './script-outputs.js';
import { expressionPath, validatedBefore } from './validation.js';
import { describeGate, gateOf, guardCovers, reviewedEnvironmentGate, stepTrust, type TrustGuard, type TrustPaths } from './trust-guards.js';
import { holdingFacts, reachFacts, runFact } from './run-model/facts.js';
import { jobClaim, outsiderStarts, REACH_ORDER, severityOf, whoText, type Claim, type RunModel, type ValueReach } from './run-model/index.js';
import { controllerCeiling, eventsWithField, EXTERNAL_TRIGGERS, outsiderControlled } from '../expressions/controller.js';
import { expressionsOf, type ExpressionOccurrence } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import { firstAtOrAfter, isRefName, stepScope, stronger, type Taint, type TaintAnalyzer, type TaintLevel } from '../expressions/taint.js';
import { isPrivileged, type Job, type Step } from '../model/workflow.js';
import type { ScriptSpan } from '../shell.js';
import { milder, severityRank, type Severity } from '../types.js';
import type { YScalar } from '../yaml/model.js';
import { valueOffsetToSource } from '../yaml/offsets.js';

/**
 * Outsider text that a step runs as code: the analyses behind the `script-injection` and `github-env-injection`
 * rules, shared with the rules that ask whether such a step exists (cache-poisoning's outsider writers), so the
 * answer does not depend on which rules a user enabled, their options or suppressions.
 */
export interface InjectionHit {
  node: YScalar;
  /** Where in `node`'s source the hit is. */
  offset: number;
  /** Undefined: the rule's default severity (HIGH). */
  severity?: Severity;
  message: string;
  /** For `$GITHUB_ENV` writes: what is written is a downloaded artifact's content, not event text. */
  artifact?: boolean;
  /** Facts of the run model for the attack paths (run-model/facts.ts). */
  facts?: readonly string[];
  /** The job the finding binds to (null: a composite action's step); the visited step's job when absent. */
  job?: Job | null;
  /** What to do, with the expression found (script injections); the rule's recommendation otherwise. */
  recommendation?: string;
  /** Where the injected value comes from (script injections). */
  taint?: Taint;
  /** Script injections: the expression as written and the claim's words after "before it runs" (`; the condition ...`). */
  expression?: string;
  claim?: string;
}

/** `github.event.issue.title` -> `ISSUE_TITLE`: the environment variable the fix passes the value in. */
export function envNameFor(source: string): string {
  const words = source.replace(/\[.*?\]/g, '').split('.').filter((w) => /^[A-Za-z_][\w-]*$/.test(w));
  const base = (words.slice(-2).join('_') || 'VALUE').replace(/[^A-Za-z0-9_]/g, '_').toUpperCase();
  return /^[A-Z_]/.test(base) ? base : `V_${base}`;
}

/** The fix of one script injection, quoting the expression found and how the code reads the variable instead. */
function injectionFix(source: string, language: CodeLanguage): string {
  const name = envNameFor(source);
  const read = language === 'JavaScript' ? `process.env.${name}` : language === 'Python' ? `os.environ["${name}"]` : language === 'PowerShell' ? `$env:${name}` : `"$${name}"`;
  return `Pass the value through an environment variable of the step (\`env: ${name}: \${{ ${source} }}\`) and use it as \`${read}\` in the code, never as \`\${{ }}\` inside it.`;
}

/** The highest severity the kind of text allows: free text HIGH, a URL or e-mail MEDIUM, an input LOW. */
const LEVEL_CEILING: Record<TaintLevel, Severity> = { arbitrary: 'HIGH', structured: 'MEDIUM', input: 'LOW', unknown: 'LOW' };

interface Sink {
  node: YScalar;
  /** `the \`run:\` script`, `the \`script\` input of actions/github-script (JavaScript)` */
  label: string;
  language: CodeLanguage;
}

/** What an injection claims, from the run model: its severity, the words for it and the facts for the attack paths. */
interface Assessment {
  severity: Severity;
  /** `; anyone with a GitHub account can start it through \`issues\`; the job holds ...` */
  text: string;
  facts: string[];
  job: Job | null;
  /** The value the claim is about: for a composite action's step, what the reported caller passes. */
  taint?: Taint;
  /** How open the caller's reach is (`openness`), to pick among callers whose claims have one severity. */
  open?: number;
}

/**
 * How open a reach is, smaller first: anyone's (an outsider starts it, or a fork's `pull_request` run reaches it)
 * before a reach only insiders or approved runs have, then by level, then a fork's run before none.
 */
function openness(reach: ValueReach): number {
  const outsiders = outsiderStarts(reach) || reach.forkPullRequest;
  return (outsiders ? 0 : 100) + REACH_ORDER.indexOf(reach.level) * 2 + (reach.forkPullRequest ? 0 : 1);
}

/**
 * True when `found` is the claim to report over `best`: a higher severity, or the same severity through a more
 * open caller (a step two callers run, one only trusted authors reach and one anyone's fork reaches, is anyone's).
 */
function worse(found: Assessment, best: Assessment | null): boolean {
  if (best === null) return true;
  const a = severityRank(found.severity);
  const b = severityRank(best.severity);
  return a < b || (a === b && (found.open ?? Infinity) < (best.open ?? Infinity));
}

/**
 * The claim of one injected value (docs/severity.md): who can put the value there (the events that bring it in,
 * the guards of the step that vouch for it or stand in the way), that it executes (the injected text runs in
 * the step: always, for a code sink), and what the job holds. For a step of a local composite action, the
 * worst over the job steps that call it, each judged with the value it passes (`taintAt`) when that is known.
 */
function assess(step: Step, taint: Taint, runs: RunModel, issueComment: boolean, taintAt?: (caller: Step) => Taint | null): Assessment | null {
  const own = step.job;
  if (taint.controller === 'maintainer') return { severity: 'LOW', text: '; no trigger of the workflow has that field, so it is empty on every run: hygiene, until a trigger that carries it is added', facts: [], job: own };
  if (!outsiderControlled(taint.controller)) return { severity: 'LOW', text: '', facts: [], job: own };
  const callers = runs.jobSteps(step);
  if (callers.length === 0) return unknownCaller(step, taint);
  // A composite action's step: each caller is judged with what it passes (its value's source, controller and
  // events); callers passing no outsider text drop out. The strongest over all callers when none is left.
  if (taintAt !== undefined && step.job === null) {
    let best: Assessment | null = null;
    for (const caller of callers) {
      const theirs = taintAt(caller);
      if (theirs === null || !outsiderControlled(theirs.controller)) continue;
      const found = assessAt(step, [caller], theirs, runs, callerIssueComment(caller));
      if (found !== null && worse(found, best)) best = found;
    }
    if (best !== null) return best;
  }
  return assessAt(step, callers, taint, runs, issueComment);
}

/** A published action, or a reusable workflow no workflow here calls: who can start it is its users' choice. */
function unknownCaller(step: Step, taint: Taint): Assessment {
  return {
    severity: milder('MEDIUM', milder(LEVEL_CEILING[taint.level], controllerCeiling(taint.controller))),
    text: '; no workflow of this repository runs it on an event that brings the value in, so whether an outsider can start it depends on the workflows that use it',
    facts: ['exec'],
    job: step.job,
    taint,
  };
}

/** Whether a job step's workflow runs on `issue_comment` (the guards that read a comment's PR then cover its fields). */
function callerIssueComment(caller: Step): boolean {
  return (caller.job as Job).workflow.triggers.some((t) => t.name === 'issue_comment');
}

/** The worst claim of `taint` over the job steps `callers` that run `step`. */
function assessAt(step: Step, callers: readonly Step[], taint: Taint, runs: RunModel, issueComment: boolean): Assessment | null {
  const ceiling = milder(LEVEL_CEILING[taint.level], controllerCeiling(taint.controller));
  // The events that bring the value in; when the triggers are not all known (a reusable workflow with no caller
  // here), every event whose payload has the field.
  const known = taint.events !== undefined;
  const path = taint.source.split('.');
  const events = new Set(taint.events ?? eventsWithField(path) ?? EXTERNAL_TRIGGERS);
  const covers = (guard: TrustGuard) => guardCovers(guard, taint.source, issueComment);
  let best: Assessment | null = null;
  for (const caller of callers) {
    const job = caller.job as Job;
    const run = runs.job(job);
    const reach: ValueReach =
      taint.controller === 'external-after-merge'
        ? { level: 'approval', event: 'push', gates: ['a maintainer merges the commits first'], forkPullRequest: false, unvouched: true }
        : runs.valueReach(caller, events, covers);
    // On a fork's run, the machine counts only when forks' pull requests do not already run their code there.
    const claim = { ...jobClaim(run, reach, true, reach.unvouched), forkHolds: run.forkAddedValuables };
    const severity = milder(severityOf(claim), ceiling);
    const where = caller === step ? '' : ` (run by ${describeStep(caller)}, line ${caller.owner.file.position(caller.node.start).line})`;
    const text = `${where}; ${valueWho(reach, taint)}; ${holdsText(claim, reach, run.forkMachineOpened)}`;
    const facts = [
      'exec',
      ...reachFacts(reach),
      ...(taint.events ?? []).map((e) => `event:${e}`),
      ...holdingFacts(run),
      ...runFact(runs, caller),
    ];
    // The step never runs on an event that brings the outsider's value in (a condition on the event, a job
    // for other triggers): the value is empty there, and there is no claim to make.
    if (taint.controller === 'external' && reach.level === 'collaborator' && !reach.forkPullRequest) {
      if (!known) {
        const unknown = unknownCaller(step, taint);
        if (best === null || severityRank(unknown.severity) < severityRank(best.severity)) best = unknown;
      } else {
        best ??= { severity: 'LOW', text: `${where}; no run of this step has an event that brings the value in (its conditions rule them out), so it is empty whenever the step runs: hygiene`, facts: [], job: step.job === null ? null : job, taint };
      }
      continue;
    }
    const found: Assessment = { severity, text, facts, job: step.job === null ? null : job, taint, open: openness(reach) };
    if (worse(found, best)) best = found;
  }
  return best;
}

/**
 * The claim of an outsider's value that reaches code a step runs, when the code is not a `${{ }}` of the
 * workflow (an action that expands an event field or an input into its own scripts): severity, words and facts
 * exactly as a script injection of that value in the step would have them. Null when nobody outside sets it.
 */
export function injectionClaim(step: Step, taint: Taint, runs: RunModel): { severity: Severity; text: string; facts: string[] } | null {
  const issueComment = (step.owner.kind === 'workflow' ? [step.owner] : runs.jobSteps(step).map((s) => (s.job as Job).workflow)).some((w) => w.triggers.some((t) => t.name === 'issue_comment'));
  const claim = assess(step, taint, runs, issueComment);
  return claim === null ? null : { severity: claim.severity, text: claim.text, facts: claim.facts };
}

/** An event field no trigger of the workflow has: `\`github.event.issue.title\` (an outsider's text on the events that carry it, via ...)`. */
function describeAbsent(taint: Taint): string {
  const via = taint.via.length > 0 ? `, via ${taint.via.map((v) => (v === '…' ? v : `\`${v}\``)).join(' <- ')}` : '';
  return `\`${taint.source}\` (text an outsider sets on the events that carry it${via})`;
}

/** Who can put the value there, in words. */
function valueWho(reach: ValueReach, taint: Taint): string {
  const gates = reach.gates.join(' / ');
  if (taint.controller === 'external-after-merge') return 'an outside contributor\'s commit text reaches it once a maintainer merges their commits, and reviews rarely read commit messages as code';
  const trusted = reach.level === 'trusted-author' || reach.level === 'collaborator' || (reach.level === 'approval' && !reach.unvouched);
  if (trusted && reach.forkPullRequest) return 'only `pull_request` brings it in, where a fork\'s run has a read-only token and no secrets';
  switch (reach.level) {
    case 'trusted-author':
    case 'approval':
      if (reach.merged === true) return `a maintainer must merge the pull request first (${gates}), but its author chose this text, and the merge does not vouch for it as code`;
      if (reach.unvouched) return `a maintainer starts the run (${gates}), but that does not vouch for this value, which an outsider wrote and nobody reads as code`;
      if (gates !== '') return `${gates} keeps outsiders' values out, so this is hygiene, not an exploit`;
      break;
    default:
      break;
  }
  return whoText(reach);
}

function holdsText(claim: Claim, reach: ValueReach, opened?: string): string {
  const trusted = reach.level === 'trusted-author' || reach.level === 'collaborator' || (reach.level === 'approval' && !reach.unvouched);
  if (trusted && reach.forkPullRequest) {
    const machine = claim.forkHolds ?? [];
    if (machine.length > 0) return `but the job runs on ${machine.join(', ')}, which a fork's run reaches too`;
    // The self-hosted machine a fork's pull request already runs its own code on: this value adds no way onto it.
    if (opened !== undefined) return `the job runs on a self-hosted runner, but ${opened}, so this value adds no way onto the machine that a fork's pull request lacks: the \`self-hosted-runner\` finding about that job is the one to fix`;
    return 'the fork\'s run holds nothing worth taking';
  }
  return claim.holds.length > 0 ? `the job holds ${claim.holds.join(', ')}` : (claim.nothingHeld ?? 'the job holds no write scope, secret or OIDC token');
}

/** The paths a validation of the expanded value may name: the expression as written, its source and what it came through. */
function checkedPaths(occurrence: ExpressionOccurrence, taint: Taint): string[] {
  return [occurrence.expr === null ? null : expressionPath(occurrence.expr), taint.source, ...taint.via].filter((p): p is string => p !== null && /^[\w-]+(\.[\w-]+)+$/.test(p));
}

/** Whether the expanded value is code in the sink, as script-injection reads it (it reports nothing otherwise). */
function carriesCode(step: Step, sink: Sink, occurrence: ExpressionOccurrence, occurrences: readonly ExpressionOccurrence[], taint: Taint, paths: readonly string[]): boolean {
  // A JSON document pasted where JavaScript expects an expression is a literal, not code.
  if (taint.json === true && sink.language === 'JavaScript' && inJavaScriptCode(String(sink.node.value), occurrence.span.start, occurrences.map((o) => o.span))) return false;
  // A JSON document in the body of a here-document whose delimiter is quoted (`cat <<'EOF'`) is text the shell does
  // not expand, and none of its lines can be the delimiter: toJSON escapes newlines and indents or brackets each line.
  if (taint.json === true && sink.language === 'shell' && inQuotedHeredoc(String(sink.node.value), occurrence.span.start)) return false;
  // A value checked against an anchored pattern or an allow-list before this use, with the step or job
  // failing otherwise (validation.ts), has the checked shape here: it carries no code.
  return validatedBefore(step, paths, sink.node === step.run ? occurrence.span.start : undefined) === null;
}

/**
 * True when `offset` of `script` lies in the body of a here-document with a quoted delimiter that a JSON line can
 * never equal (not `true`, `false`, `null` or a number), read line by line from the script's start.
 */
function inQuotedHeredoc(script: string, offset: number): boolean {
  let at = 0;
  let open: ReturnType<typeof heredocStart> = null;
  for (const line of script.split('\n')) {
    const end = at + line.length;
    if (open !== null) {
      if ((open.tabs ? line.replace(/^\t+/, '') : line) === open.delimiter) open = null;
      else if (offset >= at && offset <= end) return open.quoted && !/^(?:true|false|null|\d+)$/.test(open.delimiter);
    } else {
      if (offset >= at && offset <= end) return false;
      open = heredocStart(line);
    }
    at = end + 1;
  }
  return false;
}

/**
 * Whether script-injection reads a value (`taint`, of `occurrence`) expanded into a step's `run:` script as code,
 * and so claims something of it (`injectionClaim`): false when the value is checked before this use. For the rules
 * that ask whether outsider text runs in a job (outsider-code.ts `outsiderCode`), so they count what script-injection does.
 */
export function runScriptCarriesCode(step: Step, occurrence: ExpressionOccurrence, taint: Taint): boolean {
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return false;
  const sink: Sink = { node: run, label: 'the `run:` script', language: 'shell' };
  return carriesCode(step, sink, occurrence, expressionsOf(step.owner.file, run), taint, checkedPaths(occurrence, taint));
}

/** `${{ }}` expressions with a value someone can choose, expanded into code a step runs (script-injection). */
export function scriptInjections(step: Step, analyzer: TaintAnalyzer, runs: RunModel): InjectionHit[] {
  const hits: InjectionHit[] = [];
  const sinks: Sink[] = [];
  if (step.run !== undefined && typeof step.run.value === 'string') {
    sinks.push({ node: step.run, label: 'the `run:` script', language: 'shell' });
  }
  for (const input of codeSinkInputs(step)) {
    const slug = step.uses === undefined ? '' : String(step.uses.value).replace(/@.*$/, '');
    sinks.push({ node: input.node, label: `the \`${input.name}\` input of ${slug}`, language: input.language });
  }
  if (sinks.length === 0) return hits;
  const scope = stepScope(step);
  const file = step.owner.file;
  const issueComment = (step.owner.kind === 'workflow' ? [step.owner] : runs.jobSteps(step).map((s) => (s.job as Job).workflow)).some((w) => w.triggers.some((t) => t.name === 'issue_comment'));
  for (const sink of sinks) {
    const occurrences = expressionsOf(file, sink.node);
    for (const occurrence of occurrences) {
      if (occurrence.expr === null) continue;
      const taint = analyzer.ofExpression(occurrence.expr, scope);
      if (taint === null) continue;
      const paths = checkedPaths(occurrence, taint);
      if (!carriesCode(step, sink, occurrence, occurrences, taint, paths)) continue;
      // An action that runs the command its caller gives (command-actions.ts): a caller that sets its inputs
      // already chooses the code it runs. Nothing when the callers here pass no outsider text (one that does is
      // judged at that call, below), and hygiene for a published action.
      const command = step.owner.kind === 'action' && !outsiderControlled(taint.controller) && paths.some((p) => p.startsWith('inputs.')) ? callerCommandInput(step.owner) : null;
      if (command !== null) {
        // The command itself is what the action is for; its other inputs are judged at the callers here.
        if (expressionPath(occurrence.expr) === command || runs.jobSteps(step).length > 0) continue;
        hits.push({
          node: sink.node,
          offset: occurrence.offset,
          severity: 'INFO',
          message: `\`\${{ ${occurrence.span.source} }}\` in ${sink.label} of ${describeStep(step)} expands ${describeTaint(taint)} into ${sink.language} code before it runs; the action exists to run the command its caller gives (\`${command}\`), so whoever sets this input already chooses the code it runs: hygiene, unless a workflow passes it an outsider's text.`,
          job: null,
          recommendation: injectionFix(occurrence.span.source, sink.language),
          taint,
        });
        continue;
      }
      const expr = occurrence.expr;
      const claim = assess(step, taint, runs, issueComment, step.job === null ? (caller) => analyzer.ofExpressionAt(expr, scope, caller) : undefined);
      if (claim === null) continue;
      const value = claim.taint ?? taint;
      hits.push({
        node: sink.node,
        offset: occurrence.offset,
        severity: claim.severity,
        message: `\`\${{ ${occurrence.span.source} }}\` in ${sink.label} of ${describeStep(step)} expands ${value.controller === 'maintainer' ? describeAbsent(value) : describeTaint(value)} into ${sink.language} code before it runs${claim.text}.`,
        ...(claim.facts.length > 0 ? { facts: claim.facts } : {}),
        job: claim.job,
        recommendation: injectionFix(occurrence.span.source, sink.language),
        taint: value,
        expression: occurrence.span.source,
        claim: claim.text,
      });
    }
  }
  return hits;
}

/** A redirect, `tee` or PowerShell cmdlet whose target is `$GITHUB_ENV` / `$GITHUB_PATH` (any spelling). */
const WRITE =
  />>?\s*["']?(?:\$\{?|\$env:|%)(GITHUB_ENV|GITHUB_PATH)\b|\btee\s+(?:-a\s+|--append\s+)?["']?\$\{?(GITHUB_ENV|GITHUB_PATH)\b|\b(?:Out-File|Add-Content|Set-Content)\b[^\n]{0,300}?\$env:(GITHUB_ENV|GITHUB_PATH)\b/i;
/** A line that closes a block: `}`, `)`, `done`, `fi`, `esac` (its redirect then applies to the whole block). */
const BLOCK_END = /^\s*(\}|\)|done\b|fi\b|esac\b)/;
/** A line that opens one: `{`, `(`, a loop, `if`/`case`, or a line ending in `do`/`then`. */
const BLOCK_START = /^\s*(\{|\((?!\()|for\b|while\b|until\b|if\b|case\b)|\b(do|then)\s*$/;
/** Commands that read a file (or standard input fed from one) into the value. */
const HEREDOC = /<<-?\s*['"]?(\w+)/;
/** Untrusted runner variables a script may read directly. */
const RUNNER_VARIABLES: Record<string, Taint> = {
  GITHUB_HEAD_REF: { level: 'arbitrary', controller: 'external', source: 'github.head_ref', via: ['$GITHUB_HEAD_REF'] },
};

/** What the lines feeding a write carry. */
interface Fed {
  taint: Taint | null;
  readsFile: boolean;
  /**
   * The strongest taint that is not a branch name (`isRefName`): a branch name written to an environment file as it
   * is sets one variable, or names one directory, since it cannot hold the newline that would define another.
   */
  multiline: Taint | null;
  /** A line that feeds the write runs a command substitution (`$(...)`, backticks): its output may hold newlines. */
  command: boolean;
}

/** The part of a taint that may hold a newline: not a branch name. */
function multilineOf(taint: Taint | null): Taint | null {
  return taint !== null && isRefName(taint) ? null : taint;
}

interface EnvWrite {
  line: ScriptSpan;
  target: string;
  /** The lines whose output the write captures: the line itself, a `{ ... }` group or loop it closes, a here-document. */
  seeds: ScriptSpan[];
}

function envWrites(lines: readonly ScriptSpan[]): EnvWrite[] {
  const writes: EnvWrite[] = [];
  lines.forEach((line, i) => {
    const match = WRITE.exec(line.text);
    if (match === null) return;
    const target = (match[1] ?? match[2] ?? match[3] ?? 'GITHUB_ENV').toUpperCase();
    const seeds = [line];
    if (BLOCK_END.test(line.text)) {
      // `{ ...; } >> "$GITHUB_ENV"`, `( ... ) >> "$GITHUB_ENV"`, `for ...; do ...; done >> "$GITHUB_ENV"`,
      // `if ...; fi >> ...`: the redirect applies to every command of the block, nested blocks included.
      let depth = 0;
      for (let j = i - 1; j >= 0; j--) {
        const previous = lines[j] as ScriptSpan;
        seeds.push(previous);
        const opens = BLOCK_START.test(previous.text) && !BLOCK_END.test(previous.text);
        if (BLOCK_END.test(previous.text) && !BLOCK_START.test(previous.text)) depth++;
        else if (opens) {
          if (depth === 0) break;
          depth--;
        }
      }
    }
    // A `<<` inside quotes is text (`echo 'NAME<<EOF' >> "$GITHUB_ENV"` writes the delimiter line of a multiline
    // value), not a here-document; a quoted delimiter right after `<<` (`cat <<'EOF'`) stays.
    const heredoc = HEREDOC.exec(line.text.replace(/(?<!<<-?\s*)(?:'[^']*'|"(?:[^"\\]|\\.)*")/g, "''"));
    if (heredoc?.[1] !== undefined) {
      for (let j = i + 1; j < lines.length; j++) {
        const body = lines[j] as ScriptSpan;
        if (body.text.trim() === heredoc[1]) break;
        seeds.push(body);
      }
    }
    writes.push({ line, target, seeds });
  });
  return writes;
}

/**
 * For artifactUses: whether an output a step reads (`steps.read.outputs.sha`) is outsider text there, as the
 * taint analysis follows it (an artifact's content, event data) through the script that writes it and the checks
 * that script makes (`[[ "$SHA" =~ ^[0-9a-f]{40}$ ]] || exit 1`).
 */
export function outputCarriesOutsiderText(analyzer: TaintAnalyzer): OutputCarries {
  return (user, path) => {
    const expr = parseExpression(path);
    if (expr === null) return true;
    const taint = analyzer.ofExpression(expr, stepScope(user));
    return taint !== null && (taint.level === 'arbitrary' || taint.level === 'structured') && outsiderControlled(taint.controller);
  };
}

/**
 * The claim github-env-injection makes of a job step's writes to `$GITHUB_ENV` / `$GITHUB_PATH`: who can start the
 * step, whether a later step (or an earlier action's post step) runs with what it writes, and what the job holds.
 */
export function envInjectionClaim(step: Step, job: Job, runs: RunModel): Claim {
  const { later, posts } = runs.envReaders(step);
  return jobClaim(runs.job(job), runs.stepReach(step), later.length > 0 || posts.length > 0, true);
}

/** The severity of one such write: the milder of the hit's own ceiling (HIGH unless it says) and the policy's for the claim. */
export function envInjectionSeverity(hit: Pick<InjectionHit, 'severity'>, claim: Claim): Severity {
  return milder(hit.severity ?? 'HIGH', severityOf(claim));
}

/** Outsider text or artifact content a step writes to `$GITHUB_ENV` / `$GITHUB_PATH` (github-env-injection). */
export function envInjections(step: Step, analyzer: TaintAnalyzer): InjectionHit[] {
  const hits: InjectionHit[] = [];
  const job = step.job;
  const run = step.run;
  if (job === null || run === undefined || typeof run.value !== 'string' || !/GITHUB_(ENV|PATH)/.test(run.value)) return hits;
  const workflow = job.workflow;
  if (!isPrivileged(workflow)) return hits;
  const script = run.value;
  const lines = scriptLines(script);
  const writes = envWrites(lines);
  if (writes.length === 0) return hits;
  const scope = stepScope(step);
  const occurrences = expressionsOf(workflow.file, run);
  // The step's guards are worked out only for a write an outsider can feed (most writes are not).
  let trust: TrustPaths | undefined;
  const issueComment = workflow.triggers.some((t) => t.name === 'issue_comment');
  const download = earlierForeignDownload(step);
  // What each line feeds into a write: the strongest taint, and whether it reads a file.
  const fold = scriptFold<Fed>(script, {
    own: (line, [from, to]) => {
      let taint: Taint | null = null;
      let multiline: Taint | null = null;
      for (let i = firstAtOrAfter(occurrences, from); i < occurrences.length; i++) {
        const occurrence = occurrences[i] as ExpressionOccurrence;
        if (occurrence.span.start >= to) break;
        if (occurrence.expr === null) continue;
        const found = analyzer.ofExpression(occurrence.expr, scope);
        taint = stronger(taint, found);
        multiline = stronger(multiline, multilineOf(found));
      }
      // A file or the commit text of an outsider's checkout read into the value (`grep '^#' CODEOWNERS`).
      taint = stronger(taint, analyzer.ofCheckoutRead(step, line.text));
      // A field of the event's payload read from its file (`jq -r .issue.title "$GITHUB_EVENT_PATH"`).
      taint = stronger(taint, analyzer.ofEventPathRead(line.text, scope));
      // Text in single quotes is literal (`echo 'NAME<<EOF'` redirects nothing in from a file).
      return { taint, readsFile: readsFile(line.text.includes("'") ? line.text.replace(/'[^']*'/g, "''") : line.text), multiline, command: /\$\(|`/.test(line.text) };
    },
    external: (name) => {
      const runner = RUNNER_VARIABLES[name];
      const expr = parseExpression(`env.${name}`);
      const found = runner ?? (expr === null ? null : analyzer.ofExpression(expr, scope));
      // Read as `$NAME` in the script: name it so (the analyser says `env.name`).
      const taint = found === null || runner !== undefined ? found : { ...found, via: [`$${name}`, ...found.via.slice(1)] };
      return { taint, readsFile: false, multiline: multilineOf(taint), command: false };
    },
    combine: (a, b) => ({ taint: stronger(a.taint, b.taint), readsFile: a.readsFile || b.readsFile, multiline: stronger(a.multiline, b.multiline), command: a.command || b.command }),
    empty: { taint: null, readsFile: false, multiline: null, command: false },
    checked: true,
    // A variable assigned a value with every newline taken out defines no other variable when written.
    assigned: (line, value) => (singleLineAssignment(line.text) ? { ...value, multiline: null, command: false } : value),
  });
  for (const write of writes) {
    const fed = fold.ofLines(write.seeds);
    // A branch name written as it is cannot define another variable; through a command's output it may.
    const taint = fed.command ? fed.taint : fed.multiline;
    const readsFile = fed.readsFile;
    const source = taint?.source ?? '';
    // Only values an outsider sets (at once, or through a merged commit) are an attack; a gate that vouches
    // for the value lowers the finding to hygiene and says why.
    const outsider = taint !== null && (taint.level === 'arbitrary' || taint.level === 'structured') && outsiderControlled(taint.controller);
    const artifact = download !== null && readsFile;
    if (!outsider && !artifact) continue;
    trust ??= stepTrust(step);
    const gate = artifact ? reviewedEnvironmentGate(trust) : gateOf(trust, source, issueComment);
    const severity = gate.holds ? 'LOW' : artifact ? undefined : taint?.controller === 'external-after-merge' ? 'MEDIUM' : undefined;
    const what = outsider && taint !== null ? describeTaint(taint) : `the content of an artifact downloaded by ${describeStep(download as Step)}`;
    const effect =
      write.target === 'GITHUB_PATH'
        ? 'a directory it names is searched first for every command of the later steps'
        : 'a newline in it defines any environment variable (`LD_PRELOAD`, `BASH_ENV`, `GIT_SSH_COMMAND` ...) for the later steps of the job';
    hits.push({
      node: run,
      offset: valueOffsetToSource(workflow.file, run, write.line.offset),
      ...(severity === undefined ? {} : { severity }),
      message: `${describeStep(step)} writes ${what} to \`$${write.target}\`; ${effect}${describeGate(gate)}.`,
      ...(outsider ? {} : { artifact: true }),
    });
  }
  return hits;
}
