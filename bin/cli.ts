/**
 * The command-line scanner: argument parsing, reading files, exit codes. Everything else (scanning,
 * combinations, formats) lives in lib/. `main` takes its I/O as arguments so tests run it in-process.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { CATALOG, isKnownRule } from '../lib/engine/catalog.js';
import { COMBINATION_KINDS, cannotFire } from '../lib/engine/combinations/index.js';
import { REPORT_FORMATS, formatKindsJson, formatKindsText, formatReport, formatRulesJson, formatRulesText, type ReportFormat } from '../lib/engine/format/index.js';
import { buildReport, enabledRules, failsThreshold, type FailOn, type RepositoryInput } from '../lib/engine/report.js';
import type { SettingsSnapshot } from '../lib/engine/settings/snapshot.js';
import { SEVERITIES, type Ruleset } from '../lib/engine/types.js';
import { collectRepositoryFiles } from '../lib/codehost/checkout.js';

export interface CliIO {
  argv: readonly string[];
  stdout: { write(text: string): unknown; isTTY?: boolean };
  stderr: { write(text: string): unknown };
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
}

export const EXIT = { ok: 0, findings: 1, usage: 2, operational: 3 } as const;

/** A mistake in the command line: exit 2. */
class UsageError extends Error {}
/** The command line is fine but something could not be read or written: exit 3. */
class OperationalError extends Error {}

const EXIT_CODES = `Exit codes:
  0  no finding at or above the --fail-on threshold (attack paths never change the exit code)
  1  a finding at or above the --fail-on threshold
  2  usage error: unknown command or option, invalid value, unknown rule id, --github without GITHUB_TOKEN
  3  operational error: unreadable repository path or settings file, output file not writable, GitHub
     unreachable or refusing (not found, rate limited, timed out)`;

const HELP = `Usage: chainbreaker <command> [options]

Finds weaknesses in GitHub Actions workflows and repository settings, and chains them into attack paths.

Commands:
  scan [repo-path ...]   Scan repository checkouts (default: the current directory), or with
                         --github owner/repo a repository on GitHub
  rules                  List the rule catalog
  combinations           List the kinds of attack paths (toxic combinations)

Options:
  -h, --help             Show help (also after a command: chainbreaker scan --help)
  -v, --version          Show the version

${EXIT_CODES}
`;

const SCAN_HELP = `Usage: chainbreaker scan [repo-path ...] [--github owner/repo ...] [options]

Scans each repository checkout (default: . when no --github is given): .github/workflows/*.yml|yaml, local
composite actions (action.yml|yaml at the root, under .github/actions/ and wherever a workflow uses ./path)
and .github/dependabot.yml|yaml. With several repositories, each file is prefixed with its repository path.

Options:
  -f, --format FORMAT    text (default), json, sarif or github (workflow-command annotations)
      --ruleset NAME     all (default) or owasp (only the CICD-SEC-* rules)
      --disable IDS      turn rules off: comma-separated rule ids, repeatable
      --fail-on LEVEL    exit 1 when a finding is at or above LEVEL: high (default), medium, low, info, none
  -o, --output FILE      write the report to FILE instead of standard output
      --settings FILE    a repository-settings snapshot (JSON) adding settings findings and the attack paths
                         they complete; with several repository paths, give one per path, in the same order
      --fix[=MODE]       fix the findings that have a fix, in place, then report what remains: --fix applies
                         the safe fixes, --fix=unsafe adds those that may change behaviour, --fix=diff prints
                         the safe fixes as a unified diff and changes nothing. Pins come from
                         .chainbreaker/pins.json, then GitHub (GITHUB_TOKEN) and Docker Hub/GHCR; pins that
                         cannot be resolved are listed as skipped. Local checkouts only
      --github REPO      scan owner/repo on GitHub, files and settings, as the Chainbreaker service reads
                         them; repeatable. The token comes from GITHUB_TOKEN (a personal access token,
                         \`gh auth token\`, or a workflow's token); settings it cannot read are reported as
                         unreadable. For GitHub Enterprise Server, set GITHUB_API_URL (https://HOST/api/v3)
  -h, --help             show this help

Suppress a finding with "# chainbreaker: ignore[rule-a,rule-b]" (or a bare "ignore") on its line, or alone
on the line above it.

${EXIT_CODES}
`;

const RULES_HELP = `Usage: chainbreaker rules [--format text|json]

Lists the rule catalog; the JSON is { "rules": [...] } with the fields of GET /api/rules.
`;

const COMBINATIONS_HELP = `Usage: chainbreaker combinations [--format text|json] [--ruleset all|owasp] [--disable IDS]

Lists the kinds of attack paths (toxic combinations): what each requires, what amplifies it, and the rule
whose fix breaks the chain. With --ruleset or --disable, marks the kinds that cannot fire.
The JSON is { "kinds": [...], "cannot_fire": [...] }.
`;

export async function main(io: CliIO): Promise<number> {
  try {
    const [command, ...rest] = io.argv;
    if (command === undefined || command === '-h' || command === '--help' || command === 'help') {
      (command === undefined ? io.stderr : io.stdout).write(HELP);
      return command === undefined ? EXIT.usage : EXIT.ok;
    }
    if (command === '-v' || command === '--version') {
      io.stdout.write(`${await version()}\n`);
      return EXIT.ok;
    }
    switch (command) {
      case 'scan':
        return await scan(rest, io);
      case 'rules':
        return rules(rest, io);
      case 'combinations':
        return combinations(rest, io);
      default:
        throw new UsageError(command.startsWith('-') ? `a command must come first, before ${command}` : `unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.stderr.write(`chainbreaker: ${error.message}\nRun "chainbreaker --help" for usage.\n`);
      return EXIT.usage;
    }
    io.stderr.write(`chainbreaker: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.operational;
  }
}

type Options = NonNullable<Parameters<typeof parseArgs>[0]>['options'];

function parse<O extends Options>(args: readonly string[], options: O, positionals = false) {
  try {
    return parseArgs({ args: [...args], options, allowPositionals: positionals, strict: true });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error));
  }
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  const found = allowed.find((a) => a === value);
  if (found === undefined) throw new UsageError(`--${name} must be one of ${allowed.join(', ')} (got "${value}")`);
  return found;
}

function disabledRules(values: readonly string[] | undefined): Set<string> {
  const ids = (values ?? []).flatMap((v) => v.split(',')).map((id) => id.trim()).filter((id) => id !== '');
  const unknown = ids.filter((id) => !isKnownRule(id));
  if (unknown.length > 0) throw new UsageError(`--disable: unknown rule id${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} (see "chainbreaker rules")`);
  return new Set(ids);
}

const FAIL_ON = [...SEVERITIES.map((s) => s.toLowerCase()), 'none'] as const;

async function scan(args: readonly string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse(
    // A bare `--fix` means the safe fixes (parseArgs has no optional values).
    args.map((a) => (a === '--fix' ? '--fix=safe' : a)),
    {
      fix: { type: 'string' },
      format: { type: 'string', short: 'f', default: 'text' },
      ruleset: { type: 'string', default: 'all' },
      disable: { type: 'string', multiple: true },
      'fail-on': { type: 'string', default: 'high' },
      output: { type: 'string', short: 'o' },
      settings: { type: 'string', multiple: true },
      github: { type: 'string', multiple: true },
      help: { type: 'boolean', short: 'h' },
    },
    true,
  );
  if (values.help === true) {
    io.stdout.write(SCAN_HELP);
    return EXIT.ok;
  }
  const format: ReportFormat = oneOf('format', values.format, REPORT_FORMATS);
  const ruleset: Ruleset = oneOf('ruleset', values.ruleset, ['all', 'owasp'] as const);
  const failOnValue = oneOf('fail-on', values['fail-on'].toLowerCase(), FAIL_ON);
  const failOn: FailOn = failOnValue === 'none' ? 'none' : (failOnValue.toUpperCase() as FailOn);
  const disabled = disabledRules(values.disable);
  const githubRepositories = values.github ?? [];
  const paths = positionals.length > 0 || githubRepositories.length > 0 ? positionals : ['.'];
  const settingsFiles = values.settings ?? [];
  if (settingsFiles.length > 0 && settingsFiles.length !== paths.length) {
    throw new UsageError(`--settings: give one snapshot per repository path, in the same order (${paths.length} paths, ${settingsFiles.length} snapshots)`);
  }
  const githubToken = githubRepositories.length > 0 ? tokenFor(githubRepositories, io) : '';
  if (values.fix !== undefined) {
    const fix = oneOf('fix', values.fix, ['safe', 'unsafe', 'diff'] as const);
    if (githubRepositories.length > 0) throw new UsageError('--fix works on local checkouts, not with --github');
    const { fixCheckout, formatFixSummary } = await import('../lib/fix/run.js');
    for (const path of paths) {
      const dryRun = fix === 'diff';
      let outcome;
      try {
        outcome = await fixCheckout(resolve(io.cwd, path), { mode: fix === 'unsafe' ? 'unsafe' : 'safe', dryRun, ruleset, isEnabled: (id) => !disabled.has(id), env: io.env });
      } catch (error) {
        throw new OperationalError(`cannot fix ${path}: ${reason(error)}`);
      }
      io.stderr.write(formatFixSummary(path, outcome, dryRun));
      if (dryRun) io.stdout.write(paths.length > 1 ? outcome.diff.replace(/^(---|\+\+\+) ([ab])\//gm, `$1 $2/${path.replace(/\/+$/, '')}/`) : outcome.diff);
    }
    if (fix === 'diff') return EXIT.ok;
  }

  const repositories: RepositoryInput[] = [];
  for (const [i, path] of paths.entries()) {
    const settingsFile = settingsFiles[i];
    const repository = await readLocalRepository(resolve(io.cwd, path), path);
    if (settingsFile !== undefined) repository.settings = await readSettings(resolve(io.cwd, settingsFile), settingsFile);
    if (repository.files.length === 0) io.stderr.write(`chainbreaker: no workflow, action or Dependabot file found in ${path}\n`);
    repositories.push(repository);
  }
  for (const fullName of githubRepositories) repositories.push(await readGitHubRepository(fullName, githubToken, io));
  const report = buildReport(repositories, { ruleset, disabled });
  const toStdout = values.output === undefined;
  const color = format === 'text' && toStdout && useColor(io);
  const text = formatReport(format, report, { color, toolVersion: await version() });
  if (values.output === undefined) io.stdout.write(text);
  else await writeOutput(resolve(io.cwd, values.output), values.output, text);
  return failsThreshold(report.counts, failOn) ? EXIT.findings : EXIT.ok;
}

function rules(args: readonly string[], io: CliIO): number {
  const { values } = parse(args, { format: { type: 'string', short: 'f', default: 'text' }, help: { type: 'boolean', short: 'h' } });
  if (values.help === true) {
    io.stdout.write(RULES_HELP);
    return EXIT.ok;
  }
  const format = oneOf('format', values.format, ['text', 'json'] as const);
  io.stdout.write(format === 'json' ? formatRulesJson(CATALOG) : formatRulesText(CATALOG));
  return EXIT.ok;
}

function combinations(args: readonly string[], io: CliIO): number {
  const { values } = parse(args, {
    format: { type: 'string', short: 'f', default: 'text' },
    ruleset: { type: 'string', default: 'all' },
    disable: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
  if (values.help === true) {
    io.stdout.write(COMBINATIONS_HELP);
    return EXIT.ok;
  }
  const format = oneOf('format', values.format, ['text', 'json'] as const);
  const ruleset = oneOf('ruleset', values.ruleset, ['all', 'owasp'] as const);
  const blocked = cannotFire(enabledRules({ ruleset, disabled: disabledRules(values.disable) }));
  io.stdout.write(format === 'json' ? formatKindsJson(COMBINATION_KINDS, blocked) : formatKindsText(COMBINATION_KINDS, blocked));
  return EXIT.ok;
}

/** Colours for people: only on a terminal, never with NO_COLOR set (https://no-color.org); FORCE_COLOR wins. */
function useColor(io: CliIO): boolean {
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0') return true;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  return io.stdout.isTTY === true;
}

/** A local checkout as a scan source (`--github owner/repo` sources: `readGitHubRepository`). */
async function readLocalRepository(root: string, name: string): Promise<RepositoryInput> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(root)).isDirectory();
  } catch (error) {
    throw new OperationalError(`cannot read repository ${name}: ${reason(error)}`);
  }
  if (!isDirectory) throw new OperationalError(`cannot read repository ${name}: not a directory`);
  try {
    return { name, files: await collectRepositoryFiles(root) };
  } catch (error) {
    throw new OperationalError(`cannot read repository ${name}: ${reason(error)}`);
  }
}

/** `--github` needs well-formed names and a token; both are checked before anything is read. */
function tokenFor(fullNames: readonly string[], io: CliIO): string {
  for (const fullName of fullNames) {
    if (!/^[A-Za-z0-9-]+\/[A-Za-z0-9._-]+$/.test(fullName)) throw new UsageError(`--github: "${fullName}" is not a repository name (owner/repo)`);
  }
  const token = io.env.GITHUB_TOKEN?.trim() ?? '';
  if (token === '') throw new UsageError('--github needs a token in GITHUB_TOKEN (for instance GITHUB_TOKEN=$(gh auth token))');
  return token;
}

/**
 * A repository on GitHub as a scan source, read with the service's own snapshot fetch (the GitHub adapter,
 * loaded only here), so the CLI and the API report the same findings for the same repository.
 */
async function readGitHubRepository(fullName: string, token: string, io: CliIO): Promise<RepositoryInput> {
  const [{ fetchSnapshotWithToken }, { CodeHostError }] = await Promise.all([import('../lib/codehost/github/token.js'), import('../lib/codehost/port.js')]);
  const baseUrl = io.env.GITHUB_API_URL?.trim();
  try {
    const snapshot = await fetchSnapshotWithToken({ token, fullName, baseUrl: baseUrl === '' ? undefined : baseUrl });
    return { name: fullName, files: snapshot.files, settings: snapshot.settings };
  } catch (error) {
    if (!(error instanceof CodeHostError)) throw error;
    const reason = error.message.replace(/^repository [^:]+: /, '');
    const hint =
      error.kind === 'not_found'
        ? ' (check the name, and that GITHUB_TOKEN can read the repository)'
        : error.kind === 'rate_limited' && error.retryAfter !== undefined
          ? ` (retry in ${error.retryAfter} s)`
          : error.kind === 'forbidden'
            ? ' (check that GITHUB_TOKEN is valid and can read the repository)'
            : '';
    throw new OperationalError(`cannot read GitHub repository ${fullName}: ${reason}${hint}`);
  }
}

async function readSettings(path: string, name: string): Promise<SettingsSnapshot> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new OperationalError(`cannot read settings snapshot ${name}: ${reason(error)}`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new OperationalError(`settings snapshot ${name} is not valid JSON: ${reason(error)}`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new OperationalError(`settings snapshot ${name} must be a JSON object (see lib/engine/settings/README.md)`);
  }
  // The settings rules read every field defensively: a wrong type reads as absent, never throws.
  return value as SettingsSnapshot;
}

async function writeOutput(path: string, name: string, text: string): Promise<void> {
  try {
    await writeFile(path, text);
  } catch (error) {
    throw new OperationalError(`cannot write ${name}: ${reason(error)}`);
  }
}

function reason(error: unknown): string {
  if (error instanceof Error && 'code' in error) {
    const code = String(error.code);
    if (code === 'ENOENT') return 'no such file or directory';
    if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
    if (code === 'ENOTDIR') return 'not a directory';
    if (code === 'EISDIR') return 'is a directory';
  }
  return error instanceof Error ? error.message : String(error);
}

let cachedVersion: string | undefined;

async function version(): Promise<string> {
  if (cachedVersion === undefined) {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version?: unknown };
    cachedVersion = typeof pkg.version === 'string' ? pkg.version : '0.0.0';
  }
  return cachedVersion;
}
