import { hasAny, scriptOf, wordMask, type RunScript } from '../analysis/file-scripts.js';
import { carriedSecrets, isGithubToken, isIdentifierSecret, secretEnv } from '../analysis/secrets.js';
import { inRanges, substitutionRanges, variableUses } from '../analysis/shell-vars.js';
import { findExpressions } from '../expressions/extract.js';
import { parseExpression } from '../expressions/parse.js';
import type { Step } from '../model/workflow.js';
import { isFullSha } from '../model/uses.js';
import type { Severity } from '../types.js';
import { defineWorkflowRule } from '../rule.js';
import { commandName, logicalLines, pipelines, words, type ScriptSpan } from '../shell.js';
import { destinationOf, enclosingAt, enclosingDestinations, heredocDelimiter, heredocEnd, pipelineDestination, PRINTERS, producerName, stripLeadingKeywords, type Destination } from '../analysis/log-destination.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { eventFacts, runFact } from '../analysis/run-model/facts.js';
import { getScalar, keyText, type YMap, type YScalar } from '../yaml/model.js';
import { flatMap } from '../model/arrays.js';

/** PowerShell cmdlets that write their `-Value` to the file they name. */
const FILE_WRITERS = new Set(['add-content', 'set-content', 'out-file']);
/** Commands that print every environment variable. */
/** Commands that pass a dump's lines on as they are (or drop some): what they print stays masked. */
const LINE_FILTERS = new Set(['tee', 'tee-object', 'cat', 'sort', 'grep', 'egrep', 'head', 'tail', 'less', 'more', 'column', 'uniq', 'out-string', 'format-table', 'sort-object', 'where-object']);
const DUMPS = [['env'], ['printenv'], ['set'], ['export', '-p'], ['declare', '-x'], ['get-childitem', 'env:'], ['gci', 'env:'], ['dir', 'env:'], ['ls', 'env:']];

/** A variable of the script that holds a secret: from `env:`, or assigned from one in the script. */
interface SecretVariable {
  name: string;
  secrets: readonly string[];
  /** Assigned in the script from a secret, rather than mapped in `env:`. */
  derived: boolean;
  /** A transformation or piece of the secret, which GitHub's masking does not recognise. */
  partial: boolean;
  /** Registered with `::add-mask::`, so the log hides it whatever its form. */
  masked: boolean;
}

type Variables = Map<string, SecretVariable>;

function stepVariables(step: Step): Variables {
  const variables: Variables = new Map();
  for (const [name, v] of secretEnv(step)) variables.set(name, { name, secrets: v.secrets, derived: false, partial: false, masked: false });
  return variables;
}

/** A secret a command carries, at an offset of the script. */
interface PrintedSecret {
  scriptOffset: number;
  secrets: readonly string[];
  /** How the finding names it: `secrets.NAME`, or `$VAR` and the secret behind it. */
  label: string;
  partial: boolean;
  /** Read from a variable rather than written as `${{ secrets.X }}`. */
  variable: string | null;
  masked: boolean;
}

/** Secrets whose value a command's own text carries: `${{ secrets.X }}`, or a variable holding one. */
function secretsIn(command: ScriptSpan, script: string, variables: Variables, shell = true): PrintedSecret[] {
  const text = command.text;
  // Most printed lines (`echo "Building..."`) carry neither: skip the expression and variable scans for them.
  if (!text.includes('${{') && !namesAnyVariable(text, variables)) return [];
  // In a shell, `$(...)` and backticks run a command whose output is printed, not their text.
  const hidden = shell ? substitutionRanges(text) : [];
  // Continuation lines are joined in `command.text`, so positions are found again in the script.
  const locate = (index: number, snippet: string) => {
    const found = script.indexOf(snippet, command.offset);
    return found === -1 ? command.offset + index : found;
  };
  const result: PrintedSecret[] = [];
  for (const span of findExpressions(text)) {
    if (inRanges(span.start, hidden)) continue;
    for (const name of carriedSecrets(parseExpression(span.source))) {
      const scriptOffset = locate(span.start, text.slice(span.start, span.end));
      result.push({ scriptOffset, secrets: [name], label: `\`secrets.${name}\``, partial: false, variable: null, masked: false });
    }
  }
  for (const use of variableUses(text)) {
    const variable = variables.get(use.name);
    if (variable === undefined || inRanges(use.offset, hidden)) continue;
    const origin = variable.secrets.map((s) => `secrets.${s}`).join(', ');
    result.push({
      scriptOffset: locate(use.offset, text.slice(use.offset, use.offset + use.length)),
      secrets: variable.secrets,
      label: `\`${text.slice(use.offset, use.offset + use.length)}\` (${variable.derived ? 'derived from ' : ''}${origin})`,
      partial: variable.partial || use.kind === 'part',
      variable: use.name,
      masked: variable.masked,
    });
  }
  return result.sort((a, b) => a.scriptOffset - b.scriptOffset);
}

/** True when `text` contains the name of some variable of `variables` (a necessary condition of reading it). */
function namesAnyVariable(text: string, variables: Variables): boolean {
  for (const name of variables.keys()) if (text.includes(name)) return true;
  return false;
}

/** `printenv NAME` prints the variables it names. */
function printenvSecrets(command: ScriptSpan, script: string, variables: Variables): PrintedSecret[] {
  return words(command.text)
    .slice(1)
    .flatMap((word) => {
      const variable = variables.get(word);
      if (variable === undefined || variable.derived) return [];
      const found = script.indexOf(word, command.offset);
      const origin = variable.secrets.map((s) => `secrets.${s}`).join(', ');
      return [{ scriptOffset: found === -1 ? command.offset : found, secrets: variable.secrets, label: `\`${word}\` (${origin})`, partial: false, variable: word, masked: variable.masked }];
    });
}

/** A line that starts a loop (a mask seen before it belongs to another loop). */
const OPENS_LOOP = /^\s*(?:while|until|for)\b/;
/** `done <<< "$KEY"`: the end of a loop fed the lines of a variable. */
const MASKING_LOOP_END = /^\s*done\s*<<<\s*"?\$\{?([A-Za-z_][A-Za-z0-9_]*)/;

/** A multi-line step output's delimiter line (`echo "private_key<<EOF"`, GitHub's syntax for multi-line values). */
const MULTILINE_OUTPUT = /\b(?:echo|printf)\s+(?:-[a-z]+\s+)*["']?[\w-]+<<([A-Za-z_]\w*)/;

/**
 * Which logical lines of a script write a multi-line output's value: from the line that opens it (`echo
 * "key<<EOF"`, or `printf 'key<<EOF\n%s\nEOF\n' "$KEY"`, which holds it all) to the line that closes it with its
 * delimiter. A single-line output elsewhere in the same script (`echo "token=$TOKEN"`) is not one.
 */
function multilineOutputLines(lines: readonly ScriptSpan[]): ReadonlySet<number> {
  const inside = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    const open = MULTILINE_OUTPUT.exec(lines[i]?.text ?? '');
    if (open === null) continue;
    // The delimiter alone: after a space, a quote or a printf `\n`, not inside a longer word.
    const closes = new RegExp(`(?:^|[^\\w]|\\\\n)${open[1]}(?![\\w])`);
    inside.add(i);
    if (closes.test((lines[i]?.text ?? '').slice((open.index ?? 0) + open[0].length))) continue;
    let j = i + 1;
    for (; j < lines.length; j++) {
      inside.add(j);
      if (closes.test(lines[j]?.text ?? '')) break;
    }
    // Never closed: the rest of the script is inside it (and each line is visited once).
    i = j;
  }
  return inside;
}
const EMPTY_LINES: ReadonlySet<number> = new Set();

const ASSIGNMENT = /^\s*(?:export\s+|local\s+|readonly\s+|declare\s+(?:-[a-zA-Z]+\s+)*)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/;
const SUBSTITUTION = /^"?\$\((.*)\)"?$/;

/**
 * Records `NAME=...` assignments that copy or transform a secret (`K=$(echo "$JSON" | jq -r .key)`), so
 * printing `$K` later is seen too. The output of a command that only *uses* the secret
 * (`R=$(curl -H "Authorization: $TOKEN" ...)`) is not a secret.
 */
function trackDerived(line: ScriptSpan, script: string, env: Variables): void {
  // Most lines assign nothing: no regular expression for them.
  if (!line.text.includes('=')) return;
  const assignment = ASSIGNMENT.exec(line.text);
  const name = assignment?.[1];
  const value = assignment?.[2]?.trim();
  if (name === undefined || value === undefined || value === '') return;
  const inner = SUBSTITUTION.exec(value)?.[1];
  let carried: PrintedSecret[];
  if (inner !== undefined) {
    const first = pipelines({ text: inner, offset: line.offset })[0]?.commands[0];
    const printer = first !== undefined && PRINTERS.has(commandName(first.text)?.toLowerCase() ?? '');
    carried = printer ? secretsIn(first, script, env) : inner.includes('<<<') ? secretsIn({ text: inner, offset: line.offset }, script, env) : [];
  } else if (!value.includes('$(') && !value.includes('`')) {
    carried = secretsIn({ text: value, offset: line.offset }, script, env);
  } else {
    carried = [];
  }
  const existing = env.get(name);
  if (carried.length === 0) {
    // Re-assigned from something else: no longer a secret.
    if (existing?.derived === true) env.delete(name);
    return;
  }
  const secrets = [...new Set(flatMap(carried, (c) => c.secrets))];
  env.set(name, { name, secrets, derived: true, partial: inner !== undefined || carried.some((c) => c.partial), masked: false });
}

/**
 * What a line needs to print a secret: a `$` or `%` reference, an expression, a backtick substitution, or a
 * command that needs none of them (an environment dump, `printenv NAME`, `cat`, PowerShell's `env:` drive),
 * read also with quotes and backslashes taken out (`e"nv"` is `env`). Other lines are not split into commands.
 */
const MAY_PRINT = /[$%`]|env|set|export|declare|cat|dir|ls|gci|get-childitem/i;

function mayPrintOnLine(text: string): boolean {
  if (MAY_PRINT.test(text)) return true;
  return /["'\\]/.test(text) && MAY_PRINT.test(text.replace(/["'\\]/g, ''));
}

/** A script prints a secret only through `secrets.X`, a variable of the environment, or a dump of it. */
const SECRETS_WORD = wordMask('secrets');
const DUMP_WORDS = wordMask('env', 'printenv', 'set', 'export', 'declare');
/** The first words of `DUMPS`. */
const DUMP_FIRST = new Set(DUMPS.map((d) => d[0]));

function namesIn(env: YMap | undefined, text: string): boolean {
  for (const pair of env?.pairs ?? []) if (text.includes(keyText(pair.key))) return true;
  return false;
}

/**
 * False when the script cannot print a secret: it names no `secrets` context, and either the step sees no
 * `env:` at all or the script names none of its variables (every secret variable is one of them, and every
 * derived one comes from one) and dumps no environment. Cheap: most scripts stop here before their lines are read.
 */
function mayPrintSecret(script: RunScript): boolean {
  if (hasAny(script.words, SECRETS_WORD)) return true;
  const step = script.step;
  const levels = [step.env, step.job?.env, step.job?.workflow.env];
  if (levels.every((env) => env === undefined || env.pairs.length === 0)) return false;
  if (hasAny(script.words, DUMP_WORDS)) return true;
  return levels.some((env) => namesIn(env, script.text));
}

/** The sentence for a secret written to `$GITHUB_ENV`: MEDIUM when someone else's action runs after it, LOW otherwise. */
function envMessage(what: string, later: LaterThirdParty): string {
  const thirdParty = later.mutable;
  if (thirdParty.length === 0 && later.pinned.length > 0) {
    return `${what}, so every later step of the job receives it; LOW: the third-party actions after it (${firstThree(later.pinned)}) are pinned to a commit, code nobody can change without a change here, beside the repository's own, its owner's and GitHub's, and it stays masked in the log (pass it to the steps that need it instead).`;
  }
  if (thirdParty.length === 0)
    return `${what}, so every later step of the job receives it; LOW: only the repository's own scripts and actions, its owner's and GitHub's run after it, and it stays masked in the log (pass it to the steps that need it instead).`;
  return `${what}, so every later step of the job receives it, third-party actions on a ref their owner can move included (${firstThree(thirdParty)}). MEDIUM: it stays masked in the log; what widens is which code holds it, and that code can change without a change here.`;
}

/** Up to three names, then how many more. */
function firstThree(names: readonly string[]): string {
  return names.length <= 3 ? names.join(', ') : `${names.slice(0, 3).join(', ')} and ${names.length - 3} more`;
}

/** The third-party actions that run after a step in its job: on a mutable ref, and pinned to a full commit SHA. */
interface LaterThirdParty {
  readonly mutable: readonly string[];
  readonly pinned: readonly string[];
}

export default defineWorkflowRule({
  meta: {
    id: 'secret-in-log',
    category: 'CICD-SEC-6',
    title: 'Secret printed to logs or written to outputs',
    severity: 'HIGH',
    surface: 'workflow',
    description:
      'A step prints a secret (`echo`, `printf`, `Write-Host`, `console.log` ... of `${{ secrets.X }}` or of a variable holding one), writes it to `$GITHUB_OUTPUT`, `$GITHUB_ENV` or the job summary, or dumps the whole environment (`env`, `printenv`, `set`) while secrets are in it.',
    recommendation:
      'Pass the secret to the command that needs it (an `env:` variable, `--password-stdin`, a file) instead of printing it, and never move secrets through outputs, `$GITHUB_ENV` or environment dumps.',
  },
  create: (context) => {
    // Facts for the attack paths: where the secret goes, and on which events and runs the step does it.
    const report = (step: Step, run: YScalar, scriptOffset: number, message: string, destination: Destination, severity?: Severity) => {
      const facts = [`dest:${destination}`, ...eventFacts(context.runs, step), ...runFact(context.runs, step)];
      context.report({ node: run, offset: valueOffsetToSource(step.owner.file, run, scriptOffset), message, facts, ...(severity === undefined ? {} : { severity }) });
    };

    /**
     * The later steps of the job that run someone else's action (third party by the run model's ownership, also
     * inside the repository's composite actions), in words: those are what a secret in `$GITHUB_ENV` reaches that
     * the workflow did not hand it to. Split by ref: one pinned to a full commit SHA is code nobody can change without
     * a change here, so the secret it receives is no more exposed than to the repository's own steps (LOW, named).
     */
    const laterThirdParty = (step: Step): LaterThirdParty => {
      const job = step.job;
      if (job === null) return { mutable: ['the steps after it'], pinned: [] };
      const after = context.runs.job(job).steps.filter((s) => s.caller.index > step.index);
      const mutable = new Set<string>();
      const pinned = new Set<string>();
      for (const s of after) {
        const ref = s.step.usesRef;
        if (ref === undefined || s.step.uses === undefined || context.runs.ownershipOf(ref) !== 'third-party') continue;
        (ref.kind === 'repository' && isFullSha(ref.ref) ? pinned : mutable).add(`\`${String(s.step.uses.value)}\``);
      }
      return { mutable: [...mutable], pinned: [...pinned] };
    };

    const checkScript = (step: Step, run: YScalar, script: string) => {
      const env = stepVariables(step);
      // Nothing to print: no secret in the environment and none written into the script.
      if (env.size === 0 && !/secrets|token/i.test(script)) return;
      const lines = logicalLines(script);
      // Where the compound commands around each command send its output (`{ ...; } >> "$GITHUB_ENV"`).
      const enclosing = enclosingDestinations(script, lines);
      const multiline = MULTILINE_OUTPUT.test(script) ? multilineOutputLines(lines) : EMPTY_LINES;
      let maskSeen = -1;
      for (let i = 0; i < lines.length; i++) {
        const line = lines[i] as ScriptSpan;
        const index = i;
        trackDerived(line, script, env);
        // A loop that registers every line of a variable with `::add-mask::` (`while read -r l; do echo
        // "::add-mask::$l"; done <<< "$KEY"`, the way to mask a multi-line key) masks that variable.
        if (line.text.includes('::add-mask::')) maskSeen = i;
        else if (OPENS_LOOP.test(line.text)) maskSeen = -1;
        const fed = maskSeen !== -1 && line.text.includes('<<<') ? MASKING_LOOP_END.exec(line.text) : null;
        const masked = fed?.[1] === undefined ? undefined : env.get(fed[1]);
        if (masked !== undefined) masked.masked = true;
        const delimiter = heredocDelimiter(line.text);
        let body: readonly ScriptSpan[] = [];
        if (delimiter !== null) {
          const end = heredocEnd(lines, i, delimiter);
          body = lines.slice(i + 1, lines[end]?.text.trim() === delimiter ? end : end + 1);
          i = end;
        }
        if (body.length === 0 && !mayPrintOnLine(line.text)) continue;
        pipelines(line).forEach((pipeline, p) => checkPipeline(step, run, script, env, pipeline.commands, body, enclosingAt(enclosing, index, p), multiline.has(index)));
      }
    };

    const checkPipeline = (step: Step, run: YScalar, script: string, env: Variables, commands: readonly ScriptSpan[], body: readonly ScriptSpan[], enclosing: Destination | null | undefined, inMultilineOutput: boolean) => {
      const first = commands[0];
      if (first === undefined) return;
      // `{ echo "$KEY"`, `do echo "$KEY"`: the command after the reserved words that open a list.
      const producer = { text: stripLeadingKeywords(first.text), offset: first.offset };
      const name = producerName(first.text);
      // Only a printer, a file writer, `cat` of a here-document or an environment dump can report (below):
      // the rest of the pipeline is read for those alone.
      const dump = DUMP_FIRST.has(words(producer.text)[0]?.toLowerCase() ?? '');
      if (!dump && !(name === 'cat' && body.length > 0) && !PRINTERS.has(name) && !/^["']/.test(producer.text) && !(FILE_WRITERS.has(name) && destinationOf(producer.text) !== null)) return;
      // Piped into a command that consumes it (`| docker login --password-stdin`), into a filter that writes a
      // file (`| base64 -d -o key.p12`), redirected to a file by the command or the group, subshell or loop
      // around it: not printed.
      const through = commands.slice(1).map((c) => commandName(c.text)?.toLowerCase() ?? '');
      let destination = pipelineDestination(commands, enclosing);

      const list = words(producer.text).map((w) => w.toLowerCase());
      if (DUMPS.some((d) => d.length === list.length && d.every((w, k) => w === list[k]))) {
        // Secrets whose names say they only identify (an access key id, a user name) open nothing (as below).
        const variables = [...env.values()].filter((v) => !v.derived && !(v.secrets.length > 0 && v.secrets.every((n) => isIdentifierSecret(step.owner, n))));
        if (variables.length === 0 || destination === null) return;
        // A dump prints each value as it is: GitHub masks a registered secret's exact value in the log.
        // Through `sort`, `grep`, `head` ... each line stays as it was; `base64`, `xxd`, `rev` ... turn it into text GitHub does not mask.
        const reshaped = through.some((c) => !LINE_FILTERS.has(c));
        const exact = destination === 'log' && !reshaped && variables.every((v) => !v.partial);
        const low = exact ? " LOW: a dump prints each value as it is, and GitHub replaces a registered secret's exact value with `***` in the log, so nothing is published; a transformed copy or a field of one would not be masked, and the dump shows every other variable of the step." : '';
        report(step, run, producer.offset, `\`${producer.text}\` prints every environment variable, including ${variables.map((v) => `\`${v.name}\``).join(', ')}, which hold secrets.${low}`, destination, exact ? 'LOW' : undefined);
        return;
      }

      let secrets: PrintedSecret[];
      if (name === 'cat' && body.length > 0) {
        secrets = flatMap(body, (l) => secretsIn(l, script, env));
      } else if (PRINTERS.has(name) || /^["']/.test(producer.text) || (FILE_WRITERS.has(name) && destinationOf(producer.text) !== null)) {
        if (producer.text.includes('::add-mask::')) {
          for (const use of variableUses(producer.text)) {
            const variable = env.get(use.name);
            if (variable !== undefined) variable.masked = true;
          }
          return;
        }
        secrets = secretsIn(producer, script, env);
        if (name === 'printenv') secrets.push(...printenvSecrets(producer, script, env));
        if (FILE_WRITERS.has(name)) destination = destinationOf(producer.text);
        else if (/::(set-output|save-state)\b/.test(producer.text)) destination = 'output';
      } else {
        return;
      }
      if (destination === null) return;
      const transformed = through.some((c) => c !== 'tee' && c !== 'tee-object' && c !== 'cat');
      for (const secret of secrets) {
        // Registered with `::add-mask::`: the runner masks it wherever it is printed later, outputs and summary included.
        if (destination !== 'env' && secret.masked) continue;
        // The job token is minted per run and any step can read `github.token`: passing it on inside
        // the job exposes nothing new. Printing it still leaks it while the job runs.
        if (destination !== 'log' && secret.secrets.every(isGithubToken)) continue;
        // A secret whose name says it only identifies (a user name, an account id, a signing identity's name) opens
        // nothing wherever it is written (secrets.ts `isIdentifierSecret`).
        if (secret.secrets.length > 0 && secret.secrets.every((n) => isIdentifierSecret(step.owner, n))) continue;
        const via = `\`${name}\``;
        // Asked once per secret, and only for `$GITHUB_ENV`, whose severity it decides.
        const later = destination === 'env' ? laterThirdParty(step) : null;
        const unmasked = secret.partial || transformed;
        // Written into a multi-line output (`echo "key<<EOF"` ... `EOF`): a multi-line secret (a private key) is not
        // reliably masked line by line. A single-line output beside one in the script is not.
        const multiline = destination === 'output' && inMultilineOutput;
        const masked = unmasked
          ? ', in a form GitHub does not mask'
          : ". LOW: GitHub replaces a registered secret's exact value with `***` in the log, so nothing is published as long as the value is printed as it is; a transformed copy or a field of it would not be masked";
        const message = {
          log: `${secret.label} is printed to the job log by ${via}${masked}.`,
          output: unmasked || multiline
            ? `${secret.label} is written to a step output by ${via}, in a form GitHub does not mask; outputs are plain values that later steps and expressions pass on unmasked.`
            : `${secret.label} is written to a step output by ${via}. LOW: it is the secret's exact value, which GitHub replaces with \`***\` wherever a later step prints it, and a job output that carries a secret is not passed to other jobs; a transformed copy or a field of it would not be masked.`,
          env: later === null ? '' : envMessage(`${secret.label} is written to \`$GITHUB_ENV\` by ${via}`, later),
          summary: `${secret.label} is written to the job summary by ${via}, where anyone who can read the run sees it.`,
        }[destination];
        report(step, run, secret.scriptOffset, message, destination, later !== null ? (later.mutable.length > 0 ? 'MEDIUM' : 'LOW') : (destination === 'log' || (destination === 'output' && !multiline)) && !unmasked ? 'LOW' : undefined);
      }
    };

    /** `console.log` / `core.info` ... of a secret in an `actions/github-script` script. */
    const checkGithubScript = (step: Step, script: YScalar) => {
      if (typeof script.value !== 'string') return;
      const env = stepVariables(step);
      let offset = 0;
      for (const line of script.value.split('\n')) {
        const lineOffset = offset;
        offset += line.length + 1;
        if (!/\b(?:console\.(?:log|info|warn|error)|core\.(?:info|debug|notice|warning|error|summary\.\w+))\s*\(/.test(line)) continue;
        const secrets = secretsIn({ text: line, offset: lineOffset }, script.value, env, false).filter((s) => s.variable === null);
        const fromEnv = variableUses(line).filter((u) => u.name !== '' && env.has(u.name) && line.startsWith('process.env.', u.offset));
        const first = secrets[0];
        if (first !== undefined) {
          report(step, script, first.scriptOffset, `${first.label} is printed to the job log by the script of \`actions/github-script\`.`, 'log');
        } else if (fromEnv[0] !== undefined) {
          const use = fromEnv[0];
          report(step, script, lineOffset + use.offset, `\`process.env.${use.name}\`, which holds a secret, is printed to the job log by the script of \`actions/github-script\`.`, 'log');
        }
      }
    };

    return {
      step(step) {
        const script = scriptOf(step);
        if (script !== null && mayPrintSecret(script)) checkScript(step, script.run, script.text);
        if (step.usesRef?.kind === 'repository' && step.usesRef.slug === 'actions/github-script') {
          const script = getScalar(step.with, 'script');
          if (script !== undefined) checkGithubScript(step, script);
        }
      },
    };
  },
});
