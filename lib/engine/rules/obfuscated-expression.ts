import { expressionSites, type ExpressionSite } from '../analysis/expression-sites.js';
import { stepWhere } from '../analysis/step-label.js';
import { contextPath, IndexAccess, Literal, walkExpression, type Expr } from '../expressions/parse.js';
import type { Step } from '../model/workflow.js';
import { defineWorkflowRule, type WorkflowRuleContext } from '../rule.js';
import { commandName, scriptPipelines, words, type ScriptSpan } from '../shell.js';
import { valueOffsetToSource } from '../yaml/offsets.js';
import { get, type YScalar } from '../yaml/model.js';

/** `github['event']`: a quoted index that dot notation could name, on an access rooted at a context. */
function indexNotation(expr: Expr): string | null {
  let found: string | null = null;
  walkExpression(expr, (node) => {
    if (found !== null || !(node instanceof IndexAccess) || !(node.index instanceof Literal)) return;
    const token = node.index.token;
    // Names with `-` or other characters are written in brackets for readability or necessity, not to hide them.
    if (!token.lexeme.startsWith("'") || typeof token.value !== 'string' || !/^[A-Za-z_][A-Za-z0-9_]*$/.test(token.value)) return;
    const base = contextPath(node.expr);
    if (base !== null) found = `${base.join('.')}[${token.lexeme}]`;
  });
  return found;
}

/**
 * Why a remote `uses:` path is obfuscated (`.`/`..` or empty components), or null. Local `./` paths are
 * exempt: `./../action/init` is how an action checked out beside the workspace is tested.
 */
function obfuscatedUses(text: string): string | null {
  const value = text.trim();
  const at = value.lastIndexOf('@');
  if (value.startsWith('.') || value.startsWith('docker://') || at <= 0) return null;
  const path = value.slice(0, at);
  // An empty, `.` or `..` component needs `//`, `/.`, or a `/` at either end (a leading `.` returned above).
  if (!path.includes('//') && !path.includes('/.') && !path.startsWith('/') && !path.endsWith('/')) return null;
  for (const component of path.split('/')) {
    if (component === '..') return 'a `..` path component';
    if (component === '.') return 'a `.` path component';
    if (component === '') return 'an empty path component (`//`)';
  }
  return null;
}

const INTERPRETERS = new Set([
  'sh', 'bash', 'zsh', 'dash', 'ksh', 'fish', 'python', 'python2', 'python3', 'perl', 'ruby', 'node', 'php', 'pwsh',
  'powershell', 'iex', 'invoke-expression', 'eval', 'source', '.',
]);

/** A command that decodes base64 or hex: `base64 -d`, `openssl base64 -d`, `xxd -r`, `certutil -decode`. */
function decodes(command: string): boolean {
  const name = commandName(command)?.toLowerCase();
  if (name === undefined) return false;
  const args = words(command).map((w) => w.toLowerCase());
  switch (name) {
    case 'base64':
    case 'base32':
    case 'gbase64':
      return args.some((a) => a === '--decode' || /^-[a-z]*d[a-z]*$/.test(a));
    case 'openssl':
      return args.includes('base64') || args.includes('-base64') || args.includes('-a')
        ? args.includes('-d')
        : false;
    case 'xxd':
      return args.some((a) => /^-[a-z]*r[a-z]*$/.test(a));
    case 'certutil':
    case 'certutil.exe':
      return args.some((a) => a === '-decode' || a === '/decode' || a === '-decodehex' || a === '/decodehex');
    default:
      return false;
  }
}

/** The interpreter a command runs, when it is one (`sudo bash`, `| iex`, `python3 -`). */
function interpreter(command: string): string | null {
  const name = commandName(command)?.toLowerCase().replace(/\.exe$/, '');
  return name !== undefined && INTERPRETERS.has(name) ? name : null;
}

const MAX_SCANS = 20;

/** The text of `$( … )`, `<( … )` and backtick substitutions inside a command. */
function substitutions(command: string): string[] {
  const result: string[] = [];
  for (const match of command.matchAll(/[$<]\(|`/g)) {
    // Bounded, so that a hostile line of unclosed `$(` cannot make the scan quadratic.
    if (result.length >= MAX_SCANS) break;
    const open = match.index + match[0].length;
    if (match[0] === '`') {
      const close = command.indexOf('`', open);
      if (close === -1) break;
      result.push(command.slice(open, close));
    } else {
      let depth = 1;
      let i = open;
      for (; i < command.length && depth > 0; i++) {
        if (command[i] === '(') depth++;
        else if (command[i] === ')') depth--;
      }
      result.push(command.slice(open, i - 1));
    }
  }
  return result;
}

/** Where a decoding command writes: `> file`, `-o file`, `--output=file`, `-out file`, certutil's second path. */
function decodedFile(command: string): string | null {
  const redirect = />>?\s*("[^"]+"|'[^']+'|[^\s;&|<>]+)/.exec(command);
  if (redirect?.[1] !== undefined) return redirect[1].replace(/^["']|["']$/g, '');
  const list = words(command);
  for (const [i, word] of list.entries()) {
    if (word.startsWith('--output=')) return word.slice('--output='.length);
    if ((word === '-o' || word === '-out') && list[i + 1] !== undefined) return list[i + 1] ?? null;
  }
  if (/^certutil/i.test(commandName(command) ?? '')) {
    const paths = list.slice(1).filter((w) => !/^[-/]/.test(w) || w.includes('.'));
    return paths.length >= 2 ? (paths[paths.length - 1] ?? null) : null;
  }
  return null;
}

/** The last path component, without quotes and shell variables around it. */
function baseName(path: string): string {
  return path.replace(/["']/g, '').replace(/^.*[/\\]/, '');
}

/** Whether a command runs the file: `./payload.sh`, `bash /tmp/x.sh`, `powershell -File x.ps1`. */
function runsFile(command: string, file: string): string | null {
  const name = baseName(file);
  if (name === '' || name.startsWith('$')) return null;
  const list = words(command);
  const program = commandName(command);
  if (program !== null && baseName(program) === name) return name;
  const shell = interpreter(command);
  if (shell !== null && list.some((w) => !w.startsWith('-') && baseName(w) === name)) return shell;
  return null;
}

/** Programs one of which every way `decodeIntoShell` finds something names (or FromBase64String, which holds base64). */
const DECODING_PROGRAMS = ['base64', 'base32', 'openssl', 'xxd', 'certutil', 'pwsh', 'powershell'];

/**
 * One of `DECODING_PROGRAMS` as the shell reads a word: quotes and backslashes anywhere between its letters
 * (`b"ase"64` is `base64`). Matching the script as written, instead of a copy with them taken out, finds
 * the same words without copying every script.
 */
const DECODING_PROGRAM = new RegExp(DECODING_PROGRAMS.map((name) => [...name].join(`["'\\\\]*`)).join('|'), 'i');

/**
 * False when no command of the script can be a decoder or PowerShell: every way `decodeIntoShell` finds
 * something names one of these programs. Most scripts stop here.
 */
function mayDecode(script: string): boolean {
  return DECODING_PROGRAM.test(script);
}

/**
 * A decoded payload run by an interpreter: `… | base64 -d | sh`, `bash -c "$(… | base64 -d)"`,
 * `pwsh -enc …`, PowerShell's FromBase64String into iex, or a decoded file run later in the script.
 */
function decodeIntoShell(script: string): { span: ScriptSpan; how: string } | null {
  if (!mayDecode(script)) return null;
  const all = scriptPipelines(script);
  let decodedFiles = 0;
  for (const [index, pipeline] of all.entries()) {
    const decoder = pipeline.commands.findIndex((c) => decodes(c.text));
    const decodeSpan = pipeline.commands[decoder];
    if (decodeSpan !== undefined) {
      const shell = pipeline.commands.slice(decoder + 1).map((c) => interpreter(c.text)).find((n) => n !== null);
      if (shell !== undefined && shell !== null) return { span: decodeSpan, how: `decoded data is piped into \`${shell}\`` };
      const file = decodedFiles < MAX_SCANS ? decodedFile(decodeSpan.text) : null;
      if (file !== null) {
        decodedFiles++;
        for (const later of all.slice(index + 1).flatMap((p) => p.commands)) {
          const runner = runsFile(later.text, file);
          if (runner !== null) return { span: decodeSpan, how: `decoded data is written to \`${baseName(file)}\` and then run (\`${runner}\`)` };
        }
      }
    }
    for (const command of pipeline.commands) {
      const name = interpreter(command.text);
      if (name === null) continue;
      const list = words(command.text).map((w) => w.toLowerCase());
      if ((name === 'pwsh' || name === 'powershell') && list.some((w) => /^[-/]e(nc(odedcommand)?|c)?$/.test(w))) {
        return { span: command, how: `\`${name}\` runs a base64-encoded command` };
      }
      if (/frombase64string/i.test(command.text) && (name === 'iex' || name === 'invoke-expression')) {
        return { span: command, how: 'a base64-decoded string is passed to `Invoke-Expression`' };
      }
      if (substitutions(command.text).some((inner) => scriptPipelines(inner).some((p) => p.commands.some((c) => decodes(c.text))))) {
        return { span: command, how: `\`${name}\` runs the output of a decoding command substitution` };
      }
    }
  }
  // PowerShell: `[Convert]::FromBase64String($x) ... | iex` within one line.
  const ps = /\b(iex|invoke-expression)\b[^\n]{0,400}frombase64string|frombase64string[^\n]{0,400}\|\s*(iex|invoke-expression)\b/i.exec(script);
  if (ps !== null) return { span: { text: ps[0], offset: ps.index }, how: 'a base64-decoded string is passed to `Invoke-Expression`' };
  return null;
}

function checkSite(context: WorkflowRuleContext, site: ExpressionSite) {
  // A quoted index needs `[` and `'` in the expression's text.
  if (!site.source.includes('[') || !site.source.includes("'")) return;
  const access = indexNotation(site.expr);
  if (access === null) return;
  context.report({
    node: site.scalar,
    offset: site.offset,
    job: site.job,
    message: `\`${access}\` uses index notation where dot notation names the same value; quoted indexes hide which context is read from reviewers and pattern-based checks.`,
  });
}

function checkUses(context: WorkflowRuleContext, uses: YScalar | undefined, where: () => string) {
  if (uses === undefined || typeof uses.value !== 'string') return;
  const reason = obfuscatedUses(uses.value);
  if (reason === null) return;
  context.report({
    node: uses,
    message: `The \`uses:\` of ${where()} (\`${uses.value.trim().slice(0, 100)}\`) has ${reason}; GitHub resolves it, but it hides which action actually runs.`,
  });
}

/**
 * `with: ${{ fromJSON(steps.setup.outputs.options) }}`: the whole input map computed at run time, so nobody
 * reading the workflow (and no scanner) knows which inputs the action gets (a checkout's `ref`, a token).
 */
function checkWith(context: WorkflowRuleContext, node: YScalar | undefined, where: () => string) {
  if (node === undefined || typeof node.value !== 'string' || !node.value.includes('${{')) return;
  context.report({
    node,
    message: `The \`with:\` of ${where()} is one expression (\`${node.value.trim().slice(0, 80)}\`) instead of a map of inputs: which inputs the action gets is decided at run time and cannot be read in the workflow.`,
    recommendation: 'List the inputs under `with:` one by one, each with its own expression if it must be computed.',
  });
}

function checkRun(context: WorkflowRuleContext, step: Step) {
  const run = step.run;
  if (run === undefined || typeof run.value !== 'string') return;
  const hit = decodeIntoShell(run.value);
  if (hit === null) return;
  context.report({
    node: run,
    offset: valueOffsetToSource(step.owner.file, run, hit.span.offset),
    message: `In ${stepWhere(step)}, ${hit.how}: the code that runs cannot be read in the workflow.`,
  });
}

export default defineWorkflowRule({
  meta: {
    id: 'obfuscated-expression',
    category: 'CICD-SEC-4',
    title: 'Obfuscated expression or action reference',
    severity: 'LOW',
    surface: 'workflow',
    description:
      "Constructs that hide what a workflow does from reviewers and scanners: index notation with a quoted name where dot notation works (`github['event']`), `uses:` paths with `.`/`..` or empty (`//`) components, a whole `with:` given as one expression, and base64/hex-decoded data run by a shell or interpreter.",
    recommendation:
      'Write context access with dot notation (`github.event.issue.title`), reference actions by their plain `owner/repo/path@ref`, and commit scripts in readable form instead of decoding them at run time.',
  },
  create: (context) => ({
    workflow(workflow) {
      for (const site of expressionSites(workflow)) checkSite(context, site);
    },
    action(action) {
      for (const site of expressionSites(action)) checkSite(context, site);
    },
    job(job) {
      checkUses(context, job.uses, () => `job \`${job.id}\``);
      const raw = get(job.node, 'with');
      if (raw?.kind === 'scalar') checkWith(context, raw, () => `job \`${job.id}\``);
    },
    step(step) {
      checkUses(context, step.uses, () => stepWhere(step));
      const raw = get(step.node, 'with');
      if (raw?.kind === 'scalar') checkWith(context, raw, () => stepWhere(step));
      checkRun(context, step);
    },
  }),
});
